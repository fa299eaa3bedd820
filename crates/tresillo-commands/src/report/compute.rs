//! `compute.csv` in a report: read (a run's or a league's) and drawn as the
//! chart of time per card decision. Its own module so that the run and the
//! league sections (input.rs, league.rs) both use it without importing each other.

use super::body::Body;
use super::chart::{Chart, Kind, Series};
use super::html::Table;
use anyhow::{Context, Result, ensure};
use std::path::Path;

/// A row of `compute.csv`: `slot:agent`, decisions, then the measured CPU
/// seconds and the mean and 99th percentile milliseconds per card decision.
pub type ComputeRow = (String, String, Option<f64>, Option<f64>, Option<f64>);

/// The rows of a `compute.csv`; a file that is not one is refused naming its line.
pub fn read_compute(path: &Path) -> Result<Vec<ComputeRow>> {
    let mut r = csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let header: Vec<String> = r.headers()?.iter().map(str::to_string).collect();
    let mut expected = tresillo_runs::compute::compute_header();
    // Runs before the inference columns (weighted, ess_mean, fallbacks) end
    // at card_ms_p99; runs before issue 33, at fallbacks (no startup_s).
    let old = expected.iter().position(|c| c == "card_ms_p99").expect("a compute.csv column") + 1;
    let fallbacks = expected.iter().position(|c| c == "fallbacks").expect("a compute.csv column") + 1;
    if [old, fallbacks].contains(&header.len()) && header[..] == expected[..header.len()] {
        expected.truncate(header.len());
    }
    ensure!(
        header == expected,
        "{} line 1: not the header of a compute.csv (expected {})",
        path.display(),
        expected.join(",")
    );
    let col = |name: &str| expected.iter().position(|c| c == name).expect("a compute.csv column");
    let mut out = Vec::new();
    for (i, row) in r.records().enumerate() {
        let row = row.with_context(|| format!("{} line {}", path.display(), i + 2))?;
        ensure!(
            row.len() == expected.len(),
            "{} line {}: {} fields, expected {}",
            path.display(),
            i + 2,
            row.len(),
            expected.len()
        );
        let num = |name: &str| -> Result<Option<f64>> {
            let x = &row[col(name)];
            if x.is_empty() {
                return Ok(None);
            }
            x.parse::<f64>().map(Some).map_err(|_| {
                anyhow::anyhow!("{} line {}: `{x}` in column {name} is not a number", path.display(), i + 2)
            })
        };
        out.push((
            format!("{}:{}", &row[0], &row[1]),
            with_forfeits(&row[2], &row[col("forfeits")]),
            num("cpu_s")?,
            num("card_ms_mean")?,
            num("card_ms_p99")?,
        ));
    }
    Ok(out)
}

/// A row's decisions, and its forfeits when it has any: `40 (15 forfeited)`.
fn with_forfeits(decisions: &str, forfeits: &str) -> String {
    match forfeits.parse::<u64>() {
        Ok(f) if f > 0 => format!("{decisions} ({f} forfeited)"),
        _ => decisions.to_string(),
    }
}

/// The chart of time per card decision (mean and 99th percentile) with its
/// table; `what` names the rows (agent slots, or a league's agents over their tables).
/// `timed`: the run decided under a time budget, so no number of it reproduces.
pub fn chart(body: &mut Body, rows: &[ComputeRow], id: &str, what: &str, timed: bool) -> Result<()> {
    let mut table = Table::new(
        &format!("{id}-compute-table"),
        &["agent", "decisions", "CPU s", "ms per card decision (mean)", "p99"],
    );
    let fmt = |x: Option<f64>, d: usize| x.map_or(String::new(), |v| format!("{v:.d$}"));
    let mut mean = Series::new("mean", 0, Vec::new());
    let mut p99 = Series::new("99th percentile", 1, Vec::new());
    for (agent, decisions, cpu, m, p) in rows {
        mean.values.push(*m);
        p99.values.push(*p);
        table.row(vec![agent.clone(), decisions.clone(), fmt(*cpu, 2), fmt(*m, 4), fmt(*p, 4)]);
    }
    body.chart(
        &format!("{id}-compute"),
        &Chart {
            title: "Time per card decision".into(),
            x_desc: "agent (slot:spec)".into(),
            y_desc: "milliseconds per card decision".into(),
            categories: rows.iter().map(|(a, ..)| a.clone()).collect(),
            series: vec![mean, p99],
            kind: Kind::Bars,
        },
        &format!(
            "From compute.csv: the wall time of each agent's card decisions, mean and 99th percentile, and \
             its thread CPU seconds deciding in all ({what}). A row `bidding` is the bidding agent of \
             --bidding, charged apart from the card players. Decisions forfeited (a clock run out, tc=, or a \
             bot's fault under fault=rule) are the rule agent's, counted beside the decisions; forfeits.csv \
             lists their hands. Measured on the machine that played the run ({}); cheap decisions are timed \
             one in 1,024.",
            if timed {
                "not reproducible, and in this run neither is any other number: its agents decided under a time \
                 budget or a clock"
            } else {
                "not reproducible, unlike every other number here"
            }
        ),
        &table,
    )
}
