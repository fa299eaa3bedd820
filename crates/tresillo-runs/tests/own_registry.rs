//! The run-directory library with an agent registered outside the built-in ones:
//! it writes the run directory `tresillo tournament` writes, which the CLI's own
//! readers accept, and a run that stopped halfway (here an agent that fails)
//! resumes to byte-identical files.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tresillo_agents::{Agent, AgentInfo, AgentRng, Failure, Registry, RuleAgent, RuleParams};
use tresillo_core::{Decision, PlayerView};
use tresillo_runs::{RunOptions, read_manifest, run};
use tresillo_sim::simple_config;

/// Fails (returns a [`Failure`]) once `ARMED` and after `LIMIT` decisions in all;
/// else the rule agent.
static ARMED: AtomicBool = AtomicBool::new(false);
static DECISIONS: AtomicU64 = AtomicU64::new(0);
const LIMIT: u64 = 3_000;

struct Flaky(RuleAgent);

impl Agent for Flaky {
    fn name(&self) -> &str {
        "flaky"
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        if ARMED.load(Ordering::SeqCst) && DECISIONS.fetch_add(1, Ordering::SeqCst) > LIMIT {
            return Err(Failure::new("flaky agent: gave up"));
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
    let stopped = run(&config, &options(&cut, 1), vec!["test".into()]);
    ARMED.store(false, Ordering::SeqCst);
    // The failure is the run's error, with the agent's reason and place.
    let err = format!("{:#}", stopped.expect_err("the agent failed"));
    assert!(err.contains("agent `flaky` at seat") && err.contains("flaky agent: gave up"), "{err}");
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

/// The rule agent that reports, as forfeits, the card decisions in which it
/// led the espada (a fact of the hand: the same whatever the thread).
struct Forfeiting(RuleAgent, u64);

impl Agent for Forfeiting {
    fn name(&self) -> &str {
        "forfeiting"
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        let d = self.0.choose(view, rng);
        if d == Decision::Play(tresillo_core::Card::ESPADA) {
            self.1 += 1;
        }
        Ok(d)
    }
    fn take_work(&mut self) -> tresillo_agents::Work {
        tresillo_agents::Work { forfeits: std::mem::take(&mut self.1), ..Default::default() }
    }
}

#[test]
fn forfeits_are_listed_per_hand_in_deal_order_and_counted_per_slot() {
    let mut r = Registry::builtin();
    let info = AgentInfo { name: "forfeiting", help: "rule, forfeiting its espadas", params: vec![] };
    r.register(info, |_| Ok(Box::new(Forfeiting(RuleAgent::new(RuleParams::default()), 0)))).unwrap();
    let config = simple_config(["forfeiting", "rule", "forfeiting"], 200, 3, true);
    let out = |threads: usize| {
        let d = temp(&format!("forfeits{threads}"));
        let mut o = options(&d, threads);
        o.registry = r.clone();
        run(&config, &o, vec!["test".into()]).unwrap();
        let csv = std::fs::read_to_string(d.join("forfeits.csv")).unwrap();
        let compute = std::fs::read_to_string(d.join("compute.csv")).unwrap();
        (csv, compute)
    };
    let (one, compute) = out(1);
    let (two, _) = out(2);
    assert_eq!(one, two, "forfeits.csv is the same on any thread count");
    let mut lines = one.lines();
    assert_eq!(lines.next(), Some("deal,seating,slot,seat,count"));
    let rows: Vec<Vec<u64>> = lines.map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect();
    assert!(rows.len() > 10, "{} hands with an espada led", rows.len());
    // In deal order; never slot 1 (the plain rule agent); per slot, the sum is
    // compute.csv's forfeits column.
    assert!(rows.windows(2).all(|w| w[0][0] <= w[1][0]));
    assert!(rows.iter().all(|r| r[2] != 1 && r[4] >= 1));
    let per_slot: Vec<u64> =
        compute.lines().skip(1).map(|l| l.split(',').nth(12).unwrap().parse().unwrap()).collect();
    for slot in 0..3u64 {
        let sum: u64 = rows.iter().filter(|r| r[2] == slot).map(|r| r[4]).sum();
        assert_eq!(per_slot[slot as usize], sum, "slot {slot}");
    }
}
