//! The report of an `sprt --out` directory: what was tested, the verdict, and the
//! path of the log-likelihood ratio(s) look by look against the test's bounds.

use super::body::Body;
use super::chart::{self, Chart, Kind, Series};
use super::html::{Table, facts, missing};
use crate::sprt::Kept;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// An sprt directory as the report reads it.
pub struct SprtRun {
    /// Its directory.
    pub path: PathBuf,
    /// Its short name.
    pub label: String,
    /// `sprt.json`.
    pub kept: Kept,
}

impl SprtRun {
    /// Reads `DIR/sprt.json` (it exists), checked against its looks
    /// ([`tresillo_runs::sprt::check`]): a look missing or a state that its
    /// looks' deals do not give is refused, not drawn.
    pub fn load(dir: &Path, label: String) -> Result<SprtRun> {
        let kept = tresillo_runs::sprt::check(dir)?.file;
        Ok(SprtRun { path: dir.to_path_buf(), label, kept })
    }
}

fn f4(x: f64) -> String {
    format!("{x:.4}")
}

/// The verdict in words, of A (`na`) and B (`nb`).
fn verdict_text(k: &Kept, na: &str, nb: &str) -> String {
    match k.verdict.as_str() {
        "A better" => format!("{na} is better than {nb}"),
        "B better" => format!("{nb} is better than {na}"),
        "no difference" => format!("neither is better by {} or more", k.margin),
        "H1" => match k.test.as_str() {
            "better" => format!("H1 accepted: {nb} is better than {na} by {}", k.margin),
            "non-regression" => format!("H1 accepted: {nb} is not worse than {na} by more than {}", k.margin),
            _ => "H1 accepted".to_string(),
        },
        "H0" => match k.test.as_str() {
            "better" => format!("H0 accepted: {nb} is not better than {na} by {}", k.margin),
            "non-regression" => format!("H0 accepted: {nb} may be worse than {na} by {}", k.margin),
            _ => "H0 accepted".to_string(),
        },
        _ => format!("undecided after {} deals", k.deals),
    }
}

/// The hypotheses the test weighs, in words.
fn hypotheses_text(k: &Kept, na: &str, nb: &str, one_sided: bool) -> String {
    match (k.h0, k.h1) {
        (Some(h0), Some(h1)) if one_sided => {
            format!("{} test: H0 {nb} minus {na} = {h0}, H1 = {h1} tantos per deal", k.test)
        }
        _ => format!(
            "{na} better, {nb} better, or neither, by a margin of {} tantos per deal (two one-sided tests at \
             alpha/2 each)",
            k.margin
        ),
    }
}

/// The evidence of the last look (W/D/L, LOS, Elo), in words.
fn evidence_text(k: &Kept, na: &str, nb: &str) -> String {
    k.evidence.as_ref().map_or("not recorded (a test of a version before issue 55)".into(), |e| {
        let elo = match (e.elo, e.elo_low, e.elo_high) {
            (Some(x), lo, hi) => format!(
                "; Elo of {na} over {nb} {x:+.1} [{}, {}]",
                lo.map_or("-inf".into(), |v| format!("{v:+.1}")),
                hi.map_or("+inf".into(), |v| format!("{v:+.1}"))
            ),
            _ => String::new(),
        };
        format!(
            "{na} won {}, drew {}, lost {} deals; likelihood of superiority {:.4}{elo}",
            e.wdl.0, e.wdl.1, e.wdl.2, e.los
        )
    })
}

/// The table of the looks: the ratios, the bounds and the evidence of each.
fn looks_table(k: &Kept, id: &str, one_sided: bool) -> Table {
    let mut head = vec!["deals", "mean A minus B"];
    head.extend(if one_sided { vec!["llr"] } else { vec!["llr A better", "llr B better"] });
    head.extend([
        "lower bound",
        "upper bound",
        "A won/drew/lost",
        "LOS",
        "Elo A over B (95% CI)",
        "CPU s A / B",
    ]);
    let mut table = Table::new(&format!("{id}-llr-table"), &head);
    for l in &k.looks {
        let mut row = vec![l.deals.to_string(), f4(l.mean), f4(l.llr.0)];
        if !one_sided {
            row.push(f4(l.llr.1));
        }
        row.extend([f4(k.bounds.0), f4(k.bounds.1)]);
        let e = l.evidence.as_ref();
        let end = |x: Option<f64>, inf: &str| x.map_or(inf.to_string(), |v| format!("{v:+.1}"));
        row.extend([
            e.map_or(String::new(), |e| format!("{}/{}/{}", e.wdl.0, e.wdl.1, e.wdl.2)),
            e.map_or(String::new(), |e| f4(e.los)),
            e.map_or(String::new(), |e| {
                if e.wdl.0 + e.wdl.1 + e.wdl.2 < 2 {
                    return String::new();
                }
                format!("{} [{}, {}]", end(e.elo, "±inf"), end(e.elo_low, "-inf"), end(e.elo_high, "+inf"))
            }),
            e.and_then(|e| e.compute.as_ref())
                .map_or(String::new(), |c| format!("{:.2} / {:.2}", c.cpu_s.0, c.cpu_s.1)),
        ]);
        table.row(row);
    }
    table
}

/// The sprt section: its facts, then the ratio path with the bounds.
pub fn sprt(body: &mut Body, s: &SprtRun, id: &str) -> Result<()> {
    let k = &s.kept;
    let c = &k.config;
    let (a, b) = k.slots;
    let name = |i: usize| format!("{i}:{}", c.agents.get(i).map_or("?", String::as_str));
    let (na, nb) = (name(a), name(b));
    let one_sided = k.test != "difference";
    let verdict = verdict_text(k, &na, &nb);
    let hypotheses = hypotheses_text(k, &na, &nb, one_sided);
    body.html.push_str(&facts(
        &format!("{id}-manifest"),
        &[
            ("directory", s.path.display().to_string()),
            ("tool version", format!("tresillo {}", k.version)),
            ("agents", c.agents.join(", ")),
            ("compared", format!("{na} (A) and {nb} (B)")),
            ("hypotheses", hypotheses),
            ("error rates", format!("alpha {}, beta {}", k.alpha, k.beta)),
            ("bidding", c.bidding.clone().unwrap_or_else(|| "each agent its own".into())),
            ("rule set", c.rules.to_string()),
            ("seed", c.seed.to_string()),
            ("looks", format!("every {} duplicate deals, at most {}", k.batch, c.deals)),
            ("verdict", verdict.clone()),
            ("evidence", evidence_text(k, &na, &nb)),
            (
                "stopped after",
                format!(
                    "{} deals; {na} minus {nb} {:+.4} tantos per deal{}",
                    k.deals,
                    k.mean,
                    if k.zero_variance { " (identical play: every deal the same difference)" } else { "" }
                ),
            ),
        ],
    ));
    if k.looks.is_empty() {
        body.html.push_str(&missing("No look is finished yet: nothing to draw."));
        return Ok(());
    }
    let cats: Vec<String> = k.looks.iter().map(|l| l.deals.to_string()).collect();
    let n = k.looks.len();
    let mut series = Vec::new();
    if one_sided {
        series.push(Series::new(
            "log-likelihood ratio (H1 against H0)",
            0,
            k.looks.iter().map(|l| Some(l.llr.0)).collect(),
        ));
    } else {
        series.push(Series::new(
            &format!("ratio: {na} better"),
            0,
            k.looks.iter().map(|l| Some(l.llr.0)).collect(),
        ));
        series.push(Series::new(
            &format!("ratio: {nb} better"),
            1,
            k.looks.iter().map(|l| Some(l.llr.1)).collect(),
        ));
    }
    let (lo_name, hi_name) = if one_sided {
        ("lower bound (accept H0)", "upper bound (accept H1)")
    } else {
        ("lower bound (no difference)", "upper bound (better)")
    };
    // The bounds are lines across the chart: a ratio that reaches one decides.
    let mut lo = Series::new(lo_name, 6, vec![Some(k.bounds.0); n]);
    lo.color = chart::color(6);
    lo.marker = chart::Marker::Line;
    let mut hi = Series::new(hi_name, 5, vec![Some(k.bounds.1); n]);
    hi.color = chart::HIGHLIGHT;
    hi.marker = chart::Marker::Line;
    series.extend([lo, hi]);
    let table = looks_table(k, id, one_sided);
    body.chart(
        &format!("{id}-llr"),
        &Chart {
            title: format!("Sequential test: {na} against {nb}"),
            x_desc: "deals played at the look (duplicate, every seating)".into(),
            y_desc: "log-likelihood ratio".into(),
            categories: cats,
            series,
            kind: Kind::Points,
        },
        &format!(
            "The log-likelihood ratio after each look against the bounds: the test stops when a ratio reaches the \
             upper bound, or (no difference; a one-sided test's H0) the lower one. Verdict: {verdict}."
        ),
        &table,
    )
}
