//! A run directory's compute files: `compute.json` (the checkpoint: counts and
//! times of the deals the manifest counts, written with `stats.json`),
//! `compute.csv` (one row per agent slot) and `forfeits.csv` (the hands in which
//! an agent forfeited decisions). They are apart from `summary.csv` and
//! `stats.json` because those are the reproducible statistics every committed
//! experiment is checked against byte for byte, and times differ on every run.
//! The counts in them (decisions by kind, worlds, nodes, iterations, forfeits,
//! and all of `forfeits.csv`) are the same for any thread count, shard split or
//! interruption; the timing columns are measurements.

use crate::error::{Context, OnFile, Result, RunError};
use std::fs;
use std::path::Path;
use tresillo_sim::compute::KINDS;
use tresillo_sim::{Compute, TournamentConfig};

/// The compute checkpoint of a run directory.
pub const COMPUTE_JSON: &str = "compute.json";
/// The compute checkpoint written before the manifest that counts it.
pub const COMPUTE_NEXT: &str = "compute.next.json";
/// One row per agent slot.
pub const COMPUTE_CSV: &str = "compute.csv";
/// One row per hand with forfeited decisions.
pub const FORFEITS_CSV: &str = "forfeits.csv";

fn read_file(p: &Path) -> Result<Compute> {
    let text = fs::read_to_string(p).on("reading", p)?;
    serde_json::from_str(&text).with_context(|| format!("{}: malformed compute checkpoint", p.display()))
}

/// The compute of the deals `deals_completed` counts in the run directory `dir`:
/// `compute.json`, or `compute.next.json` when the run was killed between the
/// manifest and its renaming; `None` when the directory has neither (a run of a
/// version before compute accounting) or only ones of other deal counts.
pub fn read_compute(dir: &Path, deals_completed: u64) -> Result<Option<Compute>> {
    for name in [COMPUTE_JSON, COMPUTE_NEXT] {
        let p = dir.join(name);
        if p.exists() {
            let c = read_file(&p)?;
            if c.deals == deals_completed {
                return Ok(Some(c));
            }
        }
    }
    Ok(None)
}

/// Seconds with six decimals; milliseconds with four; empty for `None`.
fn fixed(x: Option<f64>, decimals: usize) -> String {
    x.map_or(String::new(), |v| format!("{v:.decimals$}"))
}

/// The header of `compute.csv`.
#[must_use]
pub fn compute_header() -> Vec<String> {
    let mut h: Vec<String> = ["slot", "agent", "decisions"].map(String::from).to_vec();
    h.extend(KINDS.iter().map(|k| k.to_string()));
    h.extend(
        [
            "worlds",
            "nodes",
            "iters",
            "forfeits",
            "timed",
            "decision_s",
            "cpu_s",
            "card_ms_mean",
            "card_ms_p99",
            "weighted",
            "ess_mean",
            "fallbacks",
            "startup_s",
        ]
        .map(String::from),
    );
    h
}

/// The bytes of `compute.csv`: per agent slot, the counts (decisions in all and
/// by kind, worlds, nodes, iterations, forfeits), then the measurements
/// (decisions timed, estimated wall and CPU seconds deciding, mean and 99th
/// percentile milliseconds per timed card decision), then the inference
/// counts (decisions with likelihood-weighted worlds, their mean effective
/// sample size in worlds, and those that fell back on uniform worlds), then
/// the seconds spent starting up apart from deciding (an external bot's
/// process). A run with a bidding agent (`--bidding`) has one more row, slot
/// `bidding`: that agent's decisions, work and times in every seat, which the
/// slots' rows do not count.
pub fn compute_csv(config: &TournamentConfig, c: &Compute) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(compute_header())?;
    let bidding =
        c.bidding.as_ref().map(|b| ("bidding".to_string(), config.bidding.clone().unwrap_or_default(), b));
    let rows = c
        .slots
        .iter()
        .enumerate()
        .map(|(k, s)| (k.to_string(), config.agents.get(k).cloned().unwrap_or_default(), s))
        .chain(bidding);
    for (slot, agent, s) in rows {
        let mut r = vec![slot, agent];
        r.push(s.total_decisions().to_string());
        r.extend(s.decisions.iter().map(u64::to_string));
        r.extend([s.worlds, s.nodes, s.iters, s.forfeits].map(|x| x.to_string()));
        r.push(s.timed.to_string());
        r.push(fixed(Some(s.decision_seconds()), 6));
        r.push(fixed(Some(s.cpu_seconds()), 6));
        r.push(fixed(s.card_ms_mean(), 4));
        r.push(fixed(s.card_ms_p99(), 4));
        r.push(s.weighted.to_string());
        r.push(fixed((s.weighted > 0).then(|| s.ess as f64 / s.weighted as f64), 1));
        r.push(s.fallbacks.to_string());
        r.push(fixed(Some(s.startup_ns as f64 / 1e9), 6));
        w.write_record(&r)?;
    }
    w.into_inner().map_err(|e| RunError::Invalid(e.to_string()))
}

/// The bytes of `forfeits.csv` (deal, seating, slot, seat, count; the header
/// alone when no decision was forfeited), in deal order.
pub fn forfeits_csv(c: &Compute) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["deal", "seating", "slot", "seat", "count"])?;
    for f in &c.forfeits {
        w.write_record([
            f.deal.to_string(),
            f.seating.clone(),
            f.slot.to_string(),
            f.seat.to_string(),
            f.count.to_string(),
        ])?;
    }
    w.into_inner().map_err(|e| RunError::Invalid(e.to_string()))
}

/// The printed lines of the compute: per agent slot, its decisions, mean and 99th
/// percentile milliseconds per card decision, CPU seconds deciding, and the
/// search work.
#[must_use]
pub fn compute_table(config: &TournamentConfig, c: &Compute) -> String {
    let mut s = format!(
        "{:<28} {:>11} {:>10} {:>10} {:>9} {:>11} {:>13} {:>11}\n",
        "compute (times measured)", "decisions", "card ms", "card p99", "CPU s", "worlds", "nodes", "iters"
    );
    let bidding =
        c.bidding.as_ref().map(|b| (format!("bidding: {}", config.bidding.as_deref().unwrap_or("")), b));
    let rows = c
        .slots
        .iter()
        .enumerate()
        .map(|(k, x)| (config.agents.get(k).cloned().unwrap_or_default(), x))
        .chain(bidding);
    for (agent, x) in rows {
        let agent = agent.as_str();
        let name = if agent.chars().count() <= 28 {
            agent.to_string()
        } else {
            agent.chars().take(27).collect::<String>() + "~"
        };
        let ms = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.4}"));
        s.push_str(&format!(
            "{:<28} {:>11} {:>10} {:>10} {:>9.2} {:>11} {:>13} {:>11}\n",
            name,
            x.total_decisions(),
            ms(x.card_ms_mean()),
            ms(x.card_ms_p99()),
            x.cpu_seconds(),
            x.worlds,
            x.nodes,
            x.iters
        ));
    }
    let forfeits: u64 = c.slots.iter().map(|x| x.forfeits).sum();
    if forfeits > 0 {
        s.push_str(&format!(
            "{forfeits} decisions forfeited (replaced by a fallback agent's) in {} hands: see forfeits.csv\n",
            c.forfeits.len()
        ));
    }
    s
}
