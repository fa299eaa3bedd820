//! The paired difference of every pair of agent slots: for each scoring unit
//! (a deal, or a session with `--scoring session:K`), slot A's tantos over the
//! unit's rows minus slot B's, divided by the number of seatings, with the mean
//! over units and its 95% confidence interval (Student's t with `units - 1`
//! degrees of freedom, units independent), then the likelihood of superiority
//! (the t distribution function at mean / standard error: the probability
//! that A's true mean is above B's) and the units A won, drew and lost (its
//! tantos above, equal to, below B's on the same deal). Deals played under every seating make the difference far
//! tighter than the two slots' own intervals. Then the Elo difference of those
//! wins, draws and losses with its 95% interval ([`tresillo_sim::Elo`]): how
//! often A beats B on the same cards, on the scale game-AI readers know, beside
//! the tantos (which say by how much). Read from `deals.csv` when a run
//! or a merge completes, so it holds for resumed and merged runs alike; for deal
//! scoring it is exactly what `scripts/paired.py RUN A B` computes (tested).

use crate::error::{Context, Result, bail, invalid};
use std::collections::BTreeMap;
use std::path::Path;
use tresillo_sim::TournamentConfig;

/// The header of `pairs.csv`.
pub const HEADER: &str =
    "slot_a,agent_a,slot_b,agent_b,units,mean,ci95_low,ci95_high,los,wins,draws,losses,elo,elo_low,elo_high";

/// The header of `pairs.csv` before the Elo columns were added (issue 55).
pub const HEADER_V2: &str =
    "slot_a,agent_a,slot_b,agent_b,units,mean,ci95_low,ci95_high,los,wins,draws,losses";

/// The header of `pairs.csv` before the likelihood of superiority and the
/// win/draw/loss counts were added (issue 33): the first eight columns.
pub const HEADER_V1: &str = "slot_a,agent_a,slot_b,agent_b,units,mean,ci95_low,ci95_high";

/// One pair's difference.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The first slot and its agent.
    pub a: (usize, String),
    /// The second slot and its agent.
    pub b: (usize, String),
    /// Scoring units counted.
    pub units: u64,
    /// The mean difference per unit (A minus B), tantos.
    pub mean: f64,
    /// The 95% confidence interval (Student's t; `None` with fewer than two units).
    pub ci95: Option<(f64, f64)>,
    /// The likelihood of superiority of A over B (`None` with fewer than two units).
    pub los: Option<f64>,
    /// Units on which A scored more than B, the same, less.
    pub wdl: (u64, u64, u64),
    /// The Elo difference of A over B from `wdl` (`None` with fewer than two units).
    pub elo: Option<tresillo_sim::Elo>,
}

/// Every pair of slots `a < b` of the run whose rows are the `deals.csv` at `path`.
pub fn pairs(path: &Path, config: &TournamentConfig) -> Result<Vec<Pair>> {
    let slots = usize::from(config.players);
    let seatings = config.seatings().len() as f64;
    let units = unit_totals(path, config)?;
    let name = |s: usize| {
        config.agents.get(s).map(|a| tresillo_agents::spec_label(a).to_string()).unwrap_or_default()
    };
    let mut out = Vec::new();
    for a in 0..slots {
        for b in a + 1..slots {
            let diffs: Vec<f64> = units.values().map(|t| (t[a] - t[b]) as f64 / seatings).collect();
            let p = tresillo_sim::Paired::of(&diffs);
            out.push(Pair {
                a: (a, name(a)),
                b: (b, name(b)),
                units: p.n,
                mean: p.mean,
                ci95: p.ci95,
                los: p.los,
                wdl: (p.wins, p.draws, p.losses),
                elo: tresillo_sim::Elo::of(p.wins, p.draws, p.losses),
            });
        }
    }
    Ok(out)
}

/// Each slot's tantos summed over each scoring unit's rows (a deal, or a
/// session), by unit index, from the `deals.csv` at `path` of a run of `config`;
/// integers, so exact whatever the order. One-line errors name the file and line.
pub fn unit_totals(path: &Path, config: &TournamentConfig) -> Result<BTreeMap<u64, [i64; 4]>> {
    let slots = usize::from(config.players);
    let unit_len = config.scoring.unit_len();
    // deals.parquet (or its temporary name in a merge) is read as its CSV records.
    let parquet = path.file_name().is_some_and(|n| n.to_string_lossy().contains(".parquet"));
    let mut r = if parquet {
        None
    } else {
        Some(csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?)
    };
    let headers = match r.as_mut() {
        Some(r) => r.headers().with_context(|| format!("reading {}", path.display()))?.clone(),
        None => crate::parquet::header(),
    };
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{}: no column {name}", path.display()))
    };
    let deal = col("deal")?;
    let seating = col("seating")?;
    let money: Vec<(usize, usize)> = (0..slots)
        .map(|s| Ok((col(&format!("pool{s}"))?, col(&format!("cond{s}"))?)))
        .collect::<Result<_>>()?;
    // Per unit, each slot's total (integers: exact whatever the order).
    let mut units: BTreeMap<u64, [i64; 4]> = BTreeMap::new();
    let mut add = |row: &csv::StringRecord, line: String| -> Result<()> {
        let field = |c: usize| row.get(c).unwrap_or("");
        let int = |c: usize| -> Result<i64> {
            let v = field(c);
            v.parse().map_err(|_| invalid!("{} {line}: `{v}` is not an integer", path.display()))
        };
        let d: u64 = int(deal)? as u64;
        let order = field(seating).as_bytes();
        if order.len() != slots {
            bail!("{} {line}: seating `{}` is not one of {slots} slots", path.display(), field(seating));
        }
        let t = units.entry(d / unit_len).or_insert([0; 4]);
        for (seat, &(pool, cond)) in money.iter().enumerate() {
            let slot = usize::from(order[seat].wrapping_sub(b'0'));
            if slot >= slots {
                bail!("{} {line}: seating `{}` names slot {slot}", path.display(), field(seating));
            }
            t[slot] += int(pool)? + int(cond)?;
        }
        Ok(())
    };
    match r.as_mut() {
        Some(r) => {
            for (i, row) in r.records().enumerate() {
                let line = format!("line {}", i + 2);
                let row = row.with_context(|| format!("{} {line}", path.display()))?;
                add(&row, line)?;
            }
        }
        None => {
            // Typed, and only the columns needed (each seat's pool + cond).
            let mut row = 0u64;
            crate::parquet::for_each_result(path, slots, |d, seating, money| {
                row += 1;
                let order = seating.as_bytes();
                if order.len() != slots {
                    bail!("{} row {row}: seating `{seating}` is not one of {slots} slots", path.display());
                }
                let t = units.entry(d / unit_len).or_insert([0; 4]);
                for (seat, m) in money.iter().enumerate().take(slots) {
                    let slot = usize::from(order[seat].wrapping_sub(b'0'));
                    if slot >= slots {
                        bail!("{} row {row}: seating `{seating}` names slot {slot}", path.display());
                    }
                    t[slot] += m;
                }
                Ok(())
            })?;
        }
    }
    Ok(units)
}

/// The bytes of `pairs.csv`.
#[must_use]
pub fn csv(pairs: &[Pair]) -> Vec<u8> {
    let mut s = format!("{HEADER}\n");
    for p in pairs {
        let (lo, hi) = ci_fields(p.ci95);
        let los = p.los.map_or(String::new(), |x| format!("{x:.4}"));
        let (elo, elo_lo, elo_hi) = elo_fields(p.elo);
        s.push_str(&format!(
            "{},{},{},{},{},{:.4},{lo},{hi},{los},{},{},{},{elo},{elo_lo},{elo_hi}\n",
            p.a.0,
            quote(&p.a.1),
            p.b.0,
            quote(&p.b.1),
            p.units,
            p.mean,
            p.wdl.0,
            p.wdl.1,
            p.wdl.2
        ));
    }
    s.into_bytes()
}

/// An Elo difference and its interval's ends as CSV fields (one decimal; `inf`
/// and `-inf` at a score of 1 or 0), empty without one.
pub(crate) fn elo_fields(e: Option<tresillo_sim::Elo>) -> (String, String, String) {
    e.map_or((String::new(), String::new(), String::new()), |e| {
        (format!("{:.1}", e.elo), format!("{:.1}", e.ci95.0), format!("{:.1}", e.ci95.1))
    })
}

/// An Elo difference as printed: `Elo +12.3 [+1.0, +23.5]`, empty without one.
#[must_use]
pub fn elo_text(e: Option<tresillo_sim::Elo>) -> String {
    e.map_or(String::new(), |e| format!(" Elo {:+.1} [{:+.1}, {:+.1}]", e.elo, e.ci95.0, e.ci95.1))
}

/// An interval's ends as CSV fields (four decimals), empty without one.
pub(crate) fn ci_fields(ci: Option<(f64, f64)>) -> (String, String) {
    ci.map_or((String::new(), String::new()), |(l, h)| (format!("{l:.4}"), format!("{h:.4}")))
}

pub(crate) fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// The lines printed under the summary table.
#[must_use]
pub fn table(pairs: &[Pair], unit: &str) -> String {
    let mut s = format!(
        "paired differences, tantos per {unit} (A minus B, 95% CI by Student's t; likelihood of superiority; \
         {unit}s A won/drew/lost; Elo of A over B from them, 95% CI):\n"
    );
    for p in pairs {
        let ci = p.ci95.map_or(String::new(), |(l, h)| format!("[{l:+.4}, {h:+.4}]"));
        let los = p.los.map_or(String::new(), |x| format!(" LOS {x:.4}"));
        s.push_str(&format!(
            "  {:<28} - {:<28} {:>+10.4} {ci}{los} W/D/L {}/{}/{}{}\n",
            format!("{}:{}", p.a.0, p.a.1),
            format!("{}:{}", p.b.0, p.b.1),
            p.mean,
            p.wdl.0,
            p.wdl.1,
            p.wdl.2,
            elo_text(p.elo)
        ));
    }
    s
}
