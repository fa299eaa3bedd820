//! The report of a league directory (`tresillo league`): the ranking with its
//! intervals as a chart, and the pairwise matrix.

use super::body::Body;
use super::chart::{Chart, Kind, Series};
use super::compute::{ComputeRow, read_compute};
use super::csv_error::csv_error;
use super::html::{Table, esc};
use anyhow::{Context, Result, ensure};
use std::path::{Path, PathBuf};
use tresillo_runs::league::{
    LeagueManifest, MATRIX_HEADER, MATRIX_HEADER_V1, MATRIX_HEADER_V2, RATINGS_HEADER,
};

/// A league directory as the report reads it.
pub struct LeagueRun {
    /// Its directory.
    pub path: PathBuf,
    /// Its short name.
    pub label: String,
    /// `league.json`.
    pub manifest: LeagueManifest,
    /// `ratings.csv`, best first: agent, rating, low, high, tables, deals.
    pub ratings: Vec<Vec<String>>,
    /// `matrix.csv`: agent A, agent B, tables, deals, mean, low, high, then
    /// (leagues since issue 33) the rating difference, its low and high, the
    /// likelihood of superiority, wins, draws, losses, and (since issue 55) the
    /// Elo difference and its interval's ends.
    pub matrix: Vec<Vec<String>>,
    /// `compute.csv` (each agent over its tables), when the league has it.
    pub compute: Vec<ComputeRow>,
}

/// The rows of a league CSV after its header, which must be one of `headers`
/// (the current one first).
fn rows(path: &Path, headers: &[&str]) -> Result<Vec<Vec<String>>> {
    let mut r = csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let head: Vec<&str> = r.headers().map_err(|e| csv_error(path, &e))?.iter().collect();
    let head = head.join(",");
    ensure!(headers.contains(&head.as_str()), "{} line 1: not the header {}", path.display(), headers[0]);
    let header = head.as_str();
    let width = header.split(',').count();
    let mut out = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| csv_error(path, &e))?;
        let row: Vec<String> = rec.iter().map(str::to_string).collect();
        ensure!(
            row.len() == width,
            "{} line {}: {} fields, expected {width}",
            path.display(),
            i + 2,
            row.len()
        );
        for (k, cell) in row.iter().enumerate().skip(1) {
            ensure!(
                cell.is_empty()
                    || cell.parse::<f64>().is_ok()
                    || (k == 1 && header.starts_with(MATRIX_HEADER_V1)),
                "{} line {}: `{cell}` is not a number",
                path.display(),
                i + 2
            );
        }
        out.push(row);
    }
    Ok(out)
}

impl LeagueRun {
    /// Reads the league in `dir` (its `league.json` exists); it must be complete.
    pub fn load(dir: &Path, label: String) -> Result<LeagueRun> {
        let p = dir.join("league.json");
        let text = std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
        let manifest: LeagueManifest = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a tresillo league manifest", p.display()))?;
        ensure!(
            manifest.complete,
            "{}: the league is not complete (its ratings are written when every table is); finish it with \
             `tresillo league ... --resume`",
            dir.display()
        );
        tresillo_runs::league::verify_files(dir, &manifest)?;
        // The tables the ratings come from: what is kept must be what their
        // manifests vouch for (as `league --resume` and `verify` check them).
        for t in &manifest.tables {
            let td = dir.join(&t.dir);
            if td.join("manifest.json").is_file() {
                let m = tresillo_runs::read_manifest(&td)?;
                tresillo_runs::verify::verify_run(&td, &m, tresillo_runs::verify::Missing::Allowed)?;
            }
        }
        let ratings = rows(&dir.join("ratings.csv"), &[RATINGS_HEADER])?;
        let matrix = rows(&dir.join("matrix.csv"), &[MATRIX_HEADER, MATRIX_HEADER_V2, MATRIX_HEADER_V1])?;
        let cp = dir.join("compute.csv");
        let compute = if cp.is_file() { read_compute(&cp)? } else { Vec::new() };
        Ok(LeagueRun { path: dir.to_path_buf(), label, manifest, ratings, matrix, compute })
    }
}

fn num(s: &str) -> Option<f64> {
    s.parse().ok()
}

/// The league's section: facts, the ranking chart and the matrix.
pub fn league(body: &mut Body, l: &LeagueRun, id: &str) -> Result<()> {
    let c = &l.manifest.config;
    body.html.push_str(&format!(
        "<p>{} agents, {} tables of {} (every set of {}), {} deals per table under every seating, seed {}, \
         rules {}.</p>\n",
        c.agents.len(),
        l.manifest.tables.len(),
        c.players,
        c.players,
        c.deals,
        c.seed,
        esc(&c.rules.to_string())
    ));
    let mut table = Table::new(
        &format!("{id}-ratings-table"),
        &["rank", "agent", "rating", "ci95_low", "ci95_high", "tables", "deals"],
    );
    let mut s = Series::new("rating (95% CI)", 0, Vec::new());
    for (i, r) in l.ratings.iter().enumerate() {
        s.values.push(num(&r[1]));
        s.ci.push(num(&r[2]).zip(num(&r[3])));
        let mut row = vec![(i + 1).to_string()];
        row.extend(r.iter().cloned());
        table.row(row);
    }
    body.chart(
        &format!("{id}-ratings"),
        &Chart {
            title: "The ranking: ratings with 95% confidence intervals".into(),
            x_desc: "agent, best first".into(),
            y_desc: "tantos per deal over an average table".into(),
            categories: l.ratings.iter().map(|r| r[0].clone()).collect(),
            series: vec![s],
            kind: Kind::Points,
        },
        "From ratings.csv: an additive model of tantos per deal fitted to every table's per-deal results \
         (an agent's result minus its table's mean is its rating minus the table's mean rating; ratings sum \
         to 0), intervals from the deals as clusters (every table plays the same deals). Two ratings' \
         difference is the expected paired difference of the two agents at one table.",
        &table,
    )?;
    // The matrix: row agent minus column agent where they met.
    let agents = &c.agents;
    let mut head: Vec<&str> = vec!["A \\ B"];
    head.extend(agents.iter().map(String::as_str));
    let mut square = Table::new(&format!("{id}-matrix-table"), &head);
    for a in agents {
        let mut row = vec![a.clone()];
        for b in agents {
            let cell = l.matrix.iter().find_map(|m| {
                let sign = if (&m[0], &m[1]) == (a, b) {
                    1.0
                } else if (&m[0], &m[1]) == (b, a) {
                    -1.0
                } else {
                    return None;
                };
                let (mean, lo, hi) = (num(&m[4])? * sign, num(&m[5]), num(&m[6]));
                let ci = match (lo, hi) {
                    (Some(lo), Some(hi)) if sign > 0.0 => format!(" [{lo:+.2}, {hi:+.2}]"),
                    (Some(lo), Some(hi)) => format!(" [{:+.2}, {:+.2}]", -hi, -lo),
                    _ => String::new(),
                };
                Some(format!("{mean:+.2}{ci}"))
            });
            row.push(cell.unwrap_or_default());
        }
        square.row(row);
    }
    let mut s = Series::new("A minus B (95% CI)", 0, Vec::new());
    for m in &l.matrix {
        s.values.push(num(&m[4]));
        s.ci.push(num(&m[5]).zip(num(&m[6])));
    }
    body.chart(
        &format!("{id}-matrix"),
        &Chart {
            title: "Head to head: paired differences where they met".into(),
            x_desc: "pair of agents".into(),
            y_desc: "tantos per deal, A minus B (95% CI)".into(),
            categories: l.matrix.iter().map(|m| format!("{} - {}", m[0], m[1])).collect(),
            series: vec![s],
            kind: Kind::Points,
        },
        "From matrix.csv: for every pair of agents, per deal, A's result minus B's averaged over the tables \
         where both sat; the mean over deals and its 95% interval (Student's t). The table reads row minus \
         column. Pairs whose labels do not fit are numbered: the key under the chart names them.",
        &square,
    )?;
    if l.matrix.first().is_some_and(|m| m.len() > 7) {
        let elo = l.matrix.first().is_some_and(|m| m.len() > 14);
        let mut cols = vec![
            "agent A",
            "agent B",
            "rating A minus B",
            "ci95_low",
            "ci95_high",
            "LOS",
            "won",
            "drew",
            "lost",
        ];
        if elo {
            cols.extend(["Elo A over B", "Elo low", "Elo high"]);
        }
        let mut table = Table::new(&format!("{id}-differences-table"), &cols);
        let mut s = Series::new("rating A minus B (95% CI)", 0, Vec::new());
        for m in &l.matrix {
            s.values.push(num(&m[7]));
            s.ci.push(num(&m[8]).zip(num(&m[9])));
            let mut row = [0, 1, 7, 8, 9, 10, 11, 12, 13].map(|k| m[k].clone()).to_vec();
            if elo {
                row.extend([14, 15, 16].map(|k| m[k].clone()));
            }
            table.row(row);
        }
        body.chart(
            &format!("{id}-differences"),
            &Chart {
                title: "Rating differences, with the likelihood of superiority".into(),
                x_desc: "pair of agents".into(),
                y_desc: "tantos per deal, rating A minus rating B (95% CI)".into(),
                categories: l.matrix.iter().map(|m| format!("{} - {}", m[0], m[1])).collect(),
                series: vec![s],
                kind: Kind::Points,
            },
            "From matrix.csv: the difference of the two fitted ratings with its 95% interval (the sandwich \
             covariance of the ratings, Student's t on the deals less one), the likelihood of superiority \
             (the probability that A's true rating is above B's) and the deals on which A's result was above, \
             equal to or below B's (averaged over the tables where both sat), with the Elo difference of those \
             wins, draws and losses (how often A beats B, not by how much: see docs/CLI.md, Elo).",
            &table,
        )?;
    }
    if l.compute.is_empty() {
        body.html.push_str(&super::html::missing(
            "This league has no compute.csv (written by a version before compute accounting), so its compute \
             chart is not drawn.",
        ));
    } else {
        let timed = !c.timed_agents(&crate::registry()).is_empty();
        super::compute::chart(body, &l.compute, id, "each agent summed over the tables it sat at", timed)?;
    }
    Ok(())
}
