//! The run-directory library with an agent registered outside the built-in ones:
//! it writes the run directory `tresillo tournament` writes, which the CLI's own
//! readers accept, and a run that stopped halfway (here an agent that fails)
//! resumes to byte-identical files.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tresillo_agents::{Agent, AgentInfo, AgentRng, Registry, RuleAgent, RuleParams};
use tresillo_core::{Decision, PlayerView};
use tresillo_runs::{RunOptions, read_manifest, run};
use tresillo_sim::simple_config;

/// Fails (panics) once `ARMED` and after `LIMIT` decisions in all; else the rule agent.
static ARMED: AtomicBool = AtomicBool::new(false);
static DECISIONS: AtomicU64 = AtomicU64::new(0);
const LIMIT: u64 = 3_000;

struct Flaky(RuleAgent);

impl Agent for Flaky {
    fn name(&self) -> &str {
        "flaky"
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision {
        if ARMED.load(Ordering::SeqCst) && DECISIONS.fetch_add(1, Ordering::SeqCst) > LIMIT {
            panic!("flaky agent: gave up");
        }
        self.0.decide(view, rng)
    }
}

fn registry() -> Registry {
    let mut r = Registry::builtin();
    let info = AgentInfo { name: "flaky", help: "the rule agent, failing on demand", params: vec![] };
    r.register(info, |_| Ok(Box::new(Flaky(RuleAgent::new(RuleParams::default()))))).unwrap();
    r
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-runs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn options(out: &Path, threads: usize) -> RunOptions<'static> {
    let mut o = RunOptions::new(out);
    o.registry = registry();
    o.threads = Some(threads);
    o
}

fn files(dir: &Path) -> Vec<Vec<u8>> {
    ["deals.csv", "summary.csv", "stats.json", "manifest.json"]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(f).display())))
        .collect()
}

#[test]
fn an_agent_of_the_callers_registry_writes_a_run_that_resumes_byte_for_byte() {
    let config = simple_config(["flaky", "rule", "random"], 300, 5, true);
    let whole = temp("whole");
    run(&config, &options(&whole, 2), vec!["test".into()]).unwrap();
    let m = read_manifest(&whole).unwrap();
    assert!(m.complete && m.deals_completed == 300);
    tresillo_runs::check_deals_size(&whole, &m).unwrap();

    // The same run, stopped halfway by a failing agent, then resumed.
    let cut = temp("cut");
    ARMED.store(true, Ordering::SeqCst);
    let stopped = std::panic::catch_unwind(|| run(&config, &options(&cut, 1), vec!["test".into()]));
    ARMED.store(false, Ordering::SeqCst);
    assert!(stopped.is_err() || stopped.as_ref().is_ok_and(Result::is_err), "the agent failed");
    let m = read_manifest(&cut).unwrap();
    assert!(!m.complete && m.deals_completed > 0 && m.deals_completed < 300, "{m:?}");
    let mut o = options(&cut, 2);
    o.resume = true;
    run(&config, &o, vec!["test".into()]).unwrap();
    assert_eq!(files(&cut), files(&whole));
    for d in [whole, cut] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
