//! `tresillo report DIR...`: one self-contained HTML page with SVG charts for
//! tournament directories and tuning runs.
//!
//! Each run gets a section: its manifest first (so the page says what was run),
//! then charts, each with a title, labelled axes, a legend where it draws several
//! series, and the table of the numbers it draws. The tables show `summary.csv`'s
//! and the candidates CSV's fields as written; the charts that need per-deal rows
//! (the declarer's tricks, primeras and bola, surrender and takeover, the kinds of
//! puesta) are drawn only when the directory has `deals.csv`, and the page says so
//! otherwise. The page loads nothing: styles are inline, charts are inline SVG, and
//! it holds no timestamp, so the same inputs give the same bytes.
//!
//! Its modules: `league.rs` reads and draws league directories (ranking chart, matrix);
//! `sprt.rs` an sprt directory (its `sprt.json`: the LLR path against the bounds);
//! `input.rs` reads run directories (manifest, `summary.csv`, `deals.csv`: three or
//! four players, every rule set, the header of older versions) and tuning CSVs with
//! file:line errors; `chart.rs` draws category charts with plotters' SVG backend (no
//! font files: text is SVG text elements; category labels that do not fit or read alike
//! become codes #1, #2 with a key under the plot); `html.rs` escapes and lays out
//! tables; `body.rs` builds the page's body (charts counted); `csv_error.rs` holds the
//! one-line CSV errors `input.rs` and `league.rs` share, and `compute.rs` reads
//! `compute.csv` and draws its chart for runs and leagues (modules of their own, so
//! that report, input and league import downward). The page is XHTML-compatible (tests
//! parse it as XML).

mod body;
mod chart;
mod compute;
mod csv_error;
mod html;
mod input;
mod league;
mod sprt;

use anyhow::{Context, Result};
use body::Body;
use chart::{Chart, Kind, Marker, Series};
use html::{Table, esc, facts, missing};
use input::{CONTRACTS, MIX, Run, TournamentRun, TuneRun};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `tresillo report`.
#[derive(clap::Args, Clone, Debug)]
pub struct ReportArgs {
    /// Tournament directories and tuning runs (a directory holding one
    /// `*.manifest.json`, or the candidates CSV itself).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The HTML file to write (an earlier page there is replaced).
    #[arg(long, default_value = "out/report.html")]
    pub out: PathBuf,
}

/// Runs `tresillo report`; returns the line to print.
pub fn run(a: &ReportArgs) -> Result<String> {
    // The page replaces an earlier page; refusing other names keeps a slip from
    // overwriting a run's CSV or JSON.
    anyhow::ensure!(
        a.out.extension().is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm")),
        "--out {}: the report is HTML; name a file ending in .html",
        a.out.display()
    );
    tresillo_runs::check_output_file(&a.out, "--out")?;
    let mut runs = a.dirs.iter().map(|d| input::load(d)).collect::<Result<Vec<_>>>()?;
    Run::disambiguate(&mut runs);
    let page = render(&runs)?;
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(&a.out, &page.html).with_context(|| format!("writing {}", a.out.display()))?;
    Ok(format!(
        "{} from {} in {}\n",
        crate::count(page.charts, "chart"),
        crate::count(runs.len(), "run"),
        a.out.display()
    ))
}

/// A rendered page.
struct Page {
    html: String,
    charts: usize,
}

fn render(runs: &[Run]) -> Result<Page> {
    let mut body = Body::default();
    let labels: Vec<String> = runs
        .iter()
        .map(|r| match r {
            Run::Tournament(t) => format!("tournament {}", t.label),
            Run::Tune(t) => format!("tuning run {}", t.label),
            Run::League(l) => format!("league {}", l.label),
            Run::Sprt(s) => format!("sequential test {}", s.label),
        })
        .collect();
    let title = format!("tresillo report: {}", labels.join(", "));
    let _ = writeln!(body.html, "<h1>{}</h1>", esc(&title));
    let _ = writeln!(
        body.html,
        "<p>Made by <code>tresillo report</code> (version {}). Tantos are per deal from the agent's \
         point of view; intervals are 95% confidence intervals by Student's t (mean ± t(0.975, n − 1) · s / √n over n \
         independent units: deals, sessions, or a league's deals).</p>",
        esc(env!("CARGO_PKG_VERSION"))
    );
    body.html.push_str("<nav><ul>\n");
    let tournaments: Vec<&TournamentRun> = runs
        .iter()
        .filter_map(|r| match r {
            Run::Tournament(t) => Some(t),
            Run::Tune(_) | Run::League(_) | Run::Sprt(_) => None,
        })
        .collect();
    if tournaments.len() > 1 {
        body.html.push_str("<li><a href=\"#across\">mean tantos across the runs</a></li>\n");
    }
    for (i, l) in labels.iter().enumerate() {
        let _ = writeln!(body.html, "<li><a href=\"#run{}\">{}</a></li>", i + 1, esc(l));
    }
    body.html.push_str("</ul></nav>\n");
    if tournaments.len() > 1 {
        across(&mut body, &tournaments)?;
    }
    for (i, r) in runs.iter().enumerate() {
        let _ = writeln!(body.html, "<section id=\"run{}\">\n<h2>{}</h2>", i + 1, esc(&labels[i]));
        let prefix = format!("run{}", i + 1);
        match r {
            Run::Tournament(t) => tournament(&mut body, t, &prefix)?,
            Run::Tune(t) => tune(&mut body, t, &prefix)?,
            Run::League(l) => league::league(&mut body, l, &prefix)?,
            Run::Sprt(s) => sprt::sprt(&mut body, s, &prefix)?,
        }
        body.html.push_str("</section>\n");
    }
    Ok(Page { html: html::page(&title, &body.html), charts: body.charts })
}

/// The manifest's `time_budget` in words: whether the same command plays the
/// same cards again.
fn reproducible(time_budget: &[String]) -> String {
    if time_budget.is_empty() {
        "yes: the same command (any thread count, shard split or interruption) writes the same deals.csv, \
         summary.csv and pairs.csv; only the compute times are measurements"
            .into()
    } else {
        format!(
            "no (time_budget): {} decided under a time budget or a clock, so the cards played, and every number below, \
             depend on the machine's speed and load; calibrate a fixed amount of work (tresillo calibrate) for a \
             reproducible run",
            time_budget.join(", ")
        )
    }
}

fn pct(a: f64, b: f64) -> Option<f64> {
    (b > 0.0).then(|| 100.0 * a / b)
}

fn slot_label(agent: &str) -> String {
    agent.to_string()
}

/// Mean tantos of every agent slot, run by run.
fn across(body: &mut Body, runs: &[&TournamentRun]) -> Result<()> {
    body.html.push_str("<section id=\"across\">\n<h2>Mean tantos across the runs</h2>\n");
    let slots = runs.iter().map(|r| r.agent_rows().count()).max().unwrap_or(0);
    let mut table =
        Table::new("across-table", &["run", "agent", "deals", "mean_tantos", "ci95_low", "ci95_high"]);
    let mut series = Vec::new();
    for s in 0..slots {
        let mut ser = Series::new(&format!("agent slot {s}"), s, Vec::new());
        for r in runs {
            let row = r.agent_rows().nth(s);
            ser.values.push(row.and_then(|x| x.num("mean_tantos")));
            ser.ci.push(row.and_then(|x| Some((x.num("ci95_low")?, x.num("ci95_high")?))));
        }
        series.push(ser);
    }
    for r in runs {
        for row in r.agent_rows() {
            table.row(
                [
                    r.label.as_str(),
                    row.get("agent"),
                    row.get("deals"),
                    row.get("mean_tantos"),
                    row.get("ci95_low"),
                    row.get("ci95_high"),
                ]
                .map(String::from)
                .to_vec(),
            );
        }
    }
    let c = Chart {
        title: "Mean tantos per deal by agent slot, run by run".into(),
        x_desc: "run (directory)".into(),
        y_desc: "mean tantos per deal (95% CI)".into(),
        categories: runs.iter().map(|r| r.label.clone()).collect(),
        series,
        kind: Kind::Points,
    };
    body.chart(
        "across-chart",
        &c,
        "Each point is one agent slot of one run (role all: the interval is computed on paired scoring \
         units); the table names the agent in each slot. An interval narrower than its marker is hidden \
         behind it: the table gives its ends.",
        &table,
    )?;
    body.html.push_str("</section>\n");
    Ok(())
}

/// The run's facts from its manifest and summary.
fn manifest_facts(body: &mut Body, t: &TournamentRun, id: &str) -> Result<()> {
    let m = &t.manifest;
    let c = &m.config;
    let total = t.summary.last().expect("checked on load");
    let agents: Vec<String> = c.agents.iter().enumerate().map(|(i, a)| format!("{i}: {a}")).collect();
    body.html.push_str(&facts(
        &format!("{id}-manifest"),
        &[
            ("directory", t.path.display().to_string()),
            ("command", m.command_line.join(" ")),
            ("tool version", format!("{} {}", m.tool, m.version)),
            ("agents (slot: spec)", agents.join("; ")),
            (
                "bidding",
                match &c.bidding {
                    Some(b) => format!("every seat's auction, contract, exchange and conversation by {b}"),
                    None => "each agent bids for itself".into(),
                },
            ),
            (
                "deals",
                format!(
                    "{} (deal indices {} to {}{}); {} seat-deals per agent slot",
                    m.deals_completed,
                    m.deal_range[0],
                    m.deal_range[1].saturating_sub(1),
                    if c.shard.count > 1 { format!(", shard {} of the run", c.shard) } else { String::new() },
                    total.get("deals")
                ),
            ),
            ("seed", c.seed.to_string()),
            ("rule set", c.rules.to_string()),
            ("players", c.rules.table(c.players).describe()),
            ("results in", format!("{} (the summary's mean_tantos column)", unit(&c.rules))),
            ("scoring", c.scoring.to_string()),
            (
                "seating",
                match (c.duplicate, c.players) {
                    (true, 4) => "duplicate (every deal under all 24 seatings of the four slots)",
                    (true, _) => "duplicate (every deal under all six seatings)",
                    (false, _) => "one seating",
                }
                .into(),
            ),
            ("cancelled hands", format!("{} of {} rows", total.get("cancelled"), total.get("deals"))),
            ("complete", m.complete.to_string()),
            ("reproducible", reproducible(&m.time_budget)),
        ],
    ));
    Ok(())
}

/// Mean tantos by agent and role.
fn tantos_chart(
    body: &mut Body,
    t: &TournamentRun,
    id: &str,
    rows: &[&input::Summary],
    names: &[String],
) -> Result<()> {
    let c = &t.manifest.config;
    let roles = [
        ("all", "all (per deal, paired CI)"),
        ("declarer", "as declarer (per hand)"),
        ("opponent", "as opponent (per hand)"),
    ];
    let mut table = Table::new(
        &format!("{id}-tantos-table"),
        &["agent", "role", "deals", "mean_tantos", "ci95_low", "ci95_high"],
    );
    let mut series = Vec::new();
    for (j, (role, name)) in roles.iter().enumerate() {
        let mut s = Series::new(name, j, Vec::new());
        for r in rows {
            let x = t.row(r.get("agent"), role);
            s.values.push(x.and_then(|x| x.num("mean_tantos")));
            s.ci.push(x.and_then(|x| Some((x.num("ci95_low")?, x.num("ci95_high")?))));
        }
        series.push(s);
    }
    for r in rows {
        for (role, _) in roles {
            if let Some(x) = t.row(r.get("agent"), role) {
                table.row(
                    ["agent", "role", "deals", "mean_tantos", "ci95_low", "ci95_high"]
                        .map(|k| x.get(k).to_string())
                        .to_vec(),
                );
            }
        }
    }
    body.chart(
        &format!("{id}-tantos"),
        &Chart {
            title: "Mean tantos by agent".into(),
            x_desc: "agent (slot:spec)".into(),
            y_desc: format!("mean {} (95% CI)", unit(&c.rules)),
            categories: names.to_vec(),
            series,
            kind: Kind::Points,
        },
        "Role all: tantos per seat-deal, the interval computed on paired scoring units (each deal's sum over \
         the seatings). Declarer and opponent: per hand played in that role, each hand one observation. An interval narrower than its marker is \
         hidden behind it: the table gives its ends.",
        &table,
    )?;
    Ok(())
}

/// Who is better, and by how much: pairs.csv's paired differences (none without it).
fn pairs_chart(body: &mut Body, t: &TournamentRun, id: &str) -> Result<()> {
    let c = &t.manifest.config;
    if t.pairs.is_empty() {
        return Ok(());
    }
    let mut table = Table::new(
        &format!("{id}-pairs-table"),
        &["slot A", "slot B", "units", "mean (A minus B)", "ci95_low", "ci95_high", "Elo A over B (95% CI)"],
    );
    let mut s = Series::new("A minus B (95% CI)", 0, Vec::new());
    let fmt = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:+.4}"));
    for (a, b, n, mean, lo, hi, elo) in &t.pairs {
        s.values.push(*mean);
        s.ci.push(lo.zip(*hi));
        table.row(vec![a.clone(), b.clone(), n.clone(), fmt(*mean), fmt(*lo), fmt(*hi), elo.clone()]);
    }
    body.chart(
        &format!("{id}-pairs"),
        &Chart {
            title: "Who is better, and by how much: paired differences".into(),
            x_desc: "pair of slots".into(),
            y_desc: format!("{} per scoring unit, A minus B (95% CI)", unit(&c.rules)),
            categories: t.pairs.iter().map(|(a, b, ..)| format!("{} - {}", slot_label(a), slot_label(b))).collect(),
            series: vec![s],
            kind: Kind::Points,
        },
        "From pairs.csv: for every scoring unit (a deal, or a session), slot A's tantos over the unit's \
         seatings minus slot B's, divided by the seatings; the mean over units and its 95% confidence interval. \
         Pairing removes the luck of the cards that both slots shared, so two agents whose own intervals \
         overlap can still be told apart here (scripts/paired.py computes the same from deals.csv). The Elo \
         column reads the units A won, drew and lost on the Elo scale: how often A beats B, not by how much.",
        &table,
    )?;
    Ok(())
}

/// How often each agent declares, by contract (the last table row: the whole run).
fn declare_chart(
    body: &mut Body,
    t: &TournamentRun,
    id: &str,
    rows: &[&input::Summary],
    names: &[String],
) -> Result<()> {
    let c = &t.manifest.config;
    let total = t.summary.last().expect("checked on load");
    let mut table = Table::new(
        &format!("{id}-declare-table"),
        &["agent", "deals", "declared", "declare_rate", "forced", "entrada", "vuelta", "solo"],
    );
    let mut series: Vec<Series> = CONTRACTS
        .iter()
        .enumerate()
        .map(|(j, col)| Series::new(&family(&c.rules, col), j, Vec::new()))
        .collect();
    for r in rows.iter().copied().chain(std::iter::once(total)) {
        table.row(
            ["agent", "deals", "declared", "declare_rate", "forced", "entrada", "vuelta", "solo"]
                .map(|k| r.get(k).to_string())
                .to_vec(),
        );
    }
    for r in rows {
        let deals = r.num("deals").unwrap_or(0.0);
        for (j, c) in CONTRACTS.iter().enumerate() {
            series[j].values.push(pct(r.num(c).unwrap_or(0.0), deals));
        }
    }
    body.chart(
        &format!("{id}-declare"),
        &Chart {
            title: "How often each agent declares, by contract".into(),
            x_desc: "agent (slot:spec)".into(),
            y_desc: "hands declared (% of its seat-deals)".into(),
            categories: names.to_vec(),
            series,
            kind: Kind::Bars,
        },
        "Hands the agent declared (won the auction or was forced: espada forzada), as a share of the seat-deals \
         it played; the last table row is the whole run.",
        &table,
    )?;

    Ok(())
}

/// How often the declarer wins, by contract.
fn success_chart(
    body: &mut Body,
    t: &TournamentRun,
    id: &str,
    rows: &[&input::Summary],
    names: &[String],
) -> Result<()> {
    let c = &t.manifest.config;
    let total = t.summary.last().expect("checked on load");
    let cols = ["agent", "entrada", "entrada_success", "vuelta", "vuelta_success", "solo", "solo_success"];
    let mut table = Table::new(&format!("{id}-success-table"), &cols);
    let mut series: Vec<Series> = CONTRACTS
        .iter()
        .enumerate()
        .map(|(j, col)| Series::new(&family(&c.rules, col), j, Vec::new()))
        .collect();
    for r in rows.iter().copied().chain(std::iter::once(total)) {
        table.row(cols.map(|k| r.get(k).to_string()).to_vec());
    }
    for r in rows {
        for (j, c) in CONTRACTS.iter().enumerate() {
            series[j].values.push(r.num(&format!("{c}_success")).map(|x| 100.0 * x));
        }
    }
    body.chart(
        &format!("{id}-success"),
        &Chart {
            title: "How often the declarer wins, by contract".into(),
            x_desc: "agent (slot:spec)".into(),
            y_desc: "hands won (% of hands declared)".into(),
            categories: names.to_vec(),
            series,
            kind: Kind::Bars,
        },
        "Success: the hand won (sacado) by the agent that declared it, without a takeover. A missing bar: the \
         agent never declared that contract.",
        &table,
    )?;

    Ok(())
}

fn tournament(body: &mut Body, t: &TournamentRun, id: &str) -> Result<()> {
    let m = &t.manifest;
    let c = &m.config;
    manifest_facts(body, t, id)?;
    let rows: Vec<_> = t.agent_rows().collect();
    let names: Vec<String> = rows.iter().map(|r| slot_label(r.get("agent"))).collect();
    tantos_chart(body, t, id, &rows, &names)?;
    pairs_chart(body, t, id)?;
    if !t.compute.is_empty() {
        compute::chart(body, &t.compute, id, "per agent slot", !m.time_budget.is_empty())?;
    }

    declare_chart(body, t, id, &rows, &names)?;
    success_chart(body, t, id, &rows, &names)?;
    outcome_mix(body, t, id, &rows)?;
    match &t.deals {
        Some(d) => {
            named_contracts(body, id, &c.rules, &rows, d)?;
            positions(body, id, &c.rules, &rows, d)?;
            if c.rules.table(d.players).penetro {
                penetro(body, id, &rows, d)?;
            }
            deal_charts(body, id, &names, &rows, &d.slots)?;
        }
        None => body.html.push_str(&missing(
            "This directory has no deals.csv (the directories under results/ keep only summary.csv, \
             manifest.json and stats.json), so the charts that need one row per deal are not drawn: the \
             declarer's tricks, primeras and bola, surrender and takeover, and the kinds of puesta. Run the \
             command above again (it writes deals.csv) and report that directory to see them.",
        )),
    }
    Ok(())
}

/// The legend of a summary contract column in the rule set's words: `lhombre`'s
/// contracts counted in it (`Contract::family`), `hombre`'s simple game.
fn family(rules: &tresillo_core::Rules, column: &str) -> String {
    let columns = rules.spec().words.columns;
    columns.iter().find(|(c, _)| *c == column).map_or_else(|| column.into(), |(_, legend)| (*legend).into())
}

/// What a run's results are counted in: tantos, or `hombre`'s points or chips.
fn unit(rules: &tresillo_core::Rules) -> &'static str {
    rules.scoring().unit()
}

/// The contracts the agents declared, by the names of the rule set (L'Hombre's
/// nine, `hombre`'s obligation, gascarille and contrabola, the penetro), with how
/// often each slot won them.
fn named_contracts(
    body: &mut Body,
    id: &str,
    rules: &tresillo_core::Rules,
    rows: &[&input::Summary],
    d: &input::Deals,
) -> Result<()> {
    let slots = rows.len().min(d.slots.len());
    let mut head = vec!["contract".to_string()];
    for r in &rows[..slots] {
        head.push(format!("{} declared", r.get("agent")));
        head.push(format!("{} won", r.get("agent")));
    }
    let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
    let mut table = Table::new(&format!("{id}-named-table"), &head_refs);
    let mut series: Vec<Series> =
        (0..slots).map(|i| Series::new(rows[i].get("agent"), i, Vec::new())).collect();
    for n in &d.named {
        let mut cells = vec![n.name.clone()];
        for (i, ser) in series.iter_mut().enumerate() {
            cells.push(n.declared[i].to_string());
            cells.push(n.won[i].to_string());
            ser.values.push(pct(n.won[i] as f64, n.declared[i] as f64));
        }
        table.row(cells);
    }
    let nolo = rules.spec().contracts.contains(&tresillo_core::Contract::Nolo);
    body.chart(
        &format!("{id}-named"),
        &Chart {
            title: format!("Contracts as {} names them: how often the declarer wins", rules.set),
            x_desc: "contract".into(),
            y_desc: "hands won (% of hands declared)".into(),
            categories: d.named.iter().map(|n| n.name.clone()).collect(),
            series,
            kind: Kind::Bars,
        },
        &format!(
            "From deals.csv: every hand declared (by the original declarer; a penetro given up at once has its \
             own line), by the name the rule set gives its contract, and how often its \
             declarer won it without a takeover.{}",
            if nolo {
                " In the nolo contracts (nolo, pure nolo, nolo ouvert) the declarer wins by taking no trick; a \
                 won hand is a win, not a draw."
            } else {
                ""
            }
        ),
        &table,
    )
}

/// Mean result per slot by its position relative to the dealer, over the seatings.
fn positions(
    body: &mut Body,
    id: &str,
    rules: &tresillo_core::Rules,
    rows: &[&input::Summary],
    d: &input::Deals,
) -> Result<()> {
    let n = usize::from(d.players);
    let names = ["dealer", "mano", "medio", "postre"];
    let slots = rows.len().min(d.slots.len());
    let u = unit(rules);
    let mut table = Table::new(
        &format!("{id}-positions-table"),
        &["agent", "position", "rows", "mean", "ci95_low", "ci95_high"],
    );
    let mut series = Vec::new();
    for (i, s) in d.slots[..slots].iter().enumerate() {
        let mut ser = Series::new(rows[i].get("agent"), i, Vec::new());
        for (p, name) in names.iter().enumerate().take(n) {
            let m = tresillo_sim::Moments {
                n: s.by_position[p].0,
                sum: s.by_position[p].1,
                sum_sq: s.by_position[p].2,
            };
            let ci = m.mean_ci(1.0);
            ser.values.push(ci.map(|x| x.0));
            ser.ci.push(ci.filter(|x| x.1.is_finite()).map(|(mean, h)| (mean - h, mean + h)));
            let f = |x: Option<f64>| x.filter(|x| x.is_finite()).map_or(String::new(), |x| format!("{x:.4}"));
            table.row(vec![
                rows[i].get("agent").into(),
                (*name).into(),
                m.n.to_string(),
                f(ci.map(|x| x.0)),
                f(ci.map(|x| x.0 - x.1)),
                f(ci.map(|x| x.0 + x.1)),
            ]);
        }
        series.push(ser);
    }
    body.chart(
        &format!("{id}-positions"),
        &Chart {
            title: "Mean result by position at the table".into(),
            x_desc: "position (relative to the dealer)".into(),
            y_desc: format!("mean {u} per hand (95% CI)"),
            categories: names[..n].iter().map(|x| (*x).to_string()).collect(),
            series,
            kind: Kind::Points,
        },
        &format!(
            "From deals.csv: each agent slot's {u} per hand in each position, over every seating it played \
             (each row one observation). {}",
            if d.dealer_sits_out {
                "At four players the dealer sits out unless it penetra, but pays and is paid condiciones."
            } else {
                "Mano speaks and leads first."
            }
        ),
        &table,
    )
}

/// Four players: how often each slot penetró as the dealer, gave it up at once, and
/// dropped out of a penetro it faced.
fn penetro(body: &mut Body, id: &str, rows: &[&input::Summary], d: &input::Deals) -> Result<()> {
    let slots = rows.len().min(d.slots.len());
    let mut table = Table::new(
        &format!("{id}-penetro-table"),
        &["agent", "sat out", "penetro", "given up at once", "penetros faced", "dropped out"],
    );
    let mut series = vec![
        Series::new("penetró (% of hands it sat out)", 0, Vec::new()),
        Series::new("gave up at once (% of its penetros)", 1, Vec::new()),
        Series::new("dropped out (% of penetros faced)", 2, Vec::new()),
    ];
    for (r, s) in rows.iter().zip(&d.slots[..slots]) {
        table.row(vec![
            r.get("agent").into(),
            s.sat_out.to_string(),
            s.penetro.to_string(),
            s.penetro_given_up.to_string(),
            s.penetro_faced.to_string(),
            s.dropped_out.to_string(),
        ]);
        series[0].values.push(pct(s.penetro as f64, s.sat_out as f64));
        series[1].values.push(pct(s.penetro_given_up as f64, s.penetro as f64));
        series[2].values.push(pct(s.dropped_out as f64, s.penetro_faced as f64));
    }
    body.chart(
        &format!("{id}-penetro"),
        &Chart {
            title: "Penetro and dropping out (four players)".into(),
            x_desc: "agent (slot:spec)".into(),
            y_desc: "rate (%)".into(),
            categories: rows[..slots].iter().map(|r| slot_label(r.get("agent"))).collect(),
            series,
            kind: Kind::Bars,
        },
        "From deals.csv (RULES.md section 12.2): when all three active players pass with the espada in the \
         heap the dealer penetra; it may give up at once, otherwise one of the three others drops out (none \
         under penetro_all_play).",
        &table,
    )
}

fn outcome_mix(body: &mut Body, t: &TournamentRun, id: &str, rows: &[&input::Summary]) -> Result<()> {
    let mut head = vec!["agent", "contract", "declared", "sacado", "puesta", "codillo"];
    if t.deals.is_some() {
        head.extend(["puesta plain", "puesta sabia", "puesta real", "given up", "given up, taken over"]);
    }
    let mut table = Table::new(&format!("{id}-outcomes-table"), &head);
    let mut categories = Vec::new();
    let kinds: Vec<&str> = if t.deals.is_some() { MIX.to_vec() } else { vec!["sacado", "puesta", "codillo"] };
    let mut series: Vec<Series> = kinds
        .iter()
        .enumerate()
        .map(|(j, k)| {
            let mut s = Series::new(k, j, Vec::new());
            s.color = outcome_color(k);
            s
        })
        .collect();
    for (slot, r) in rows.iter().enumerate() {
        for c in CONTRACTS {
            let declared = r.num(c).unwrap_or(0.0);
            if declared == 0.0 {
                continue;
            }
            categories.push(format!("{} {c}", r.get("agent")));
            let mut cells: Vec<String> = vec![
                r.get("agent").into(),
                c.into(),
                r.get(c).into(),
                r.get(&format!("{c}_sacado")).into(),
                r.get(&format!("{c}_puesta")).into(),
                r.get(&format!("{c}_codillo")).into(),
            ];
            match &t.deals {
                Some(d) => {
                    let ci = CONTRACTS.iter().position(|x| *x == c).expect("a contract");
                    let mix = &d.slots[slot].mix[ci];
                    let n = d.slots[slot].declared[ci] as f64;
                    for (j, s) in series.iter_mut().enumerate() {
                        s.values.push(pct(mix[j] as f64, n));
                    }
                    cells.extend(mix[1..6].iter().map(u64::to_string));
                }
                None => {
                    for (j, s) in series.iter_mut().enumerate() {
                        let k = ["sacado", "puesta", "codillo"][j];
                        s.values.push(pct(r.num(&format!("{c}_{k}")).unwrap_or(0.0), declared));
                    }
                }
            }
            table.row(cells);
        }
    }
    body.chart(
        &format!("{id}-outcomes"),
        &Chart {
            title: "Outcomes of the hands each agent declared, by contract".into(),
            x_desc: "agent (slot) and contract".into(),
            y_desc: "share of hands declared (%)".into(),
            categories,
            series,
            kind: Kind::Stacked,
        },
        &format!(
            "{}{}",
            if t.deals.is_some() {
                "From the original declarer's side: sacado (won), puesta (drawn or lost on tricks, paid as lost; \
                 split by kind from deals.csv, a hand given up and taken over counts as the declarer's puesta), \
                 codillo (an opponent won more tricks)."
            } else {
                "From the original declarer's side: sacado (won), puesta (paid as lost, including hands given up), \
                 codillo (an opponent won more tricks). The kinds of puesta need deals.csv."
            },
            t.manifest.config.rules.spec().words.outcomes_note.unwrap_or_default()
        ),
        &table,
    )
}

/// Sacado blue, the puestas warm, codillo grey.
fn outcome_color(kind: &str) -> plotters::style::RGBColor {
    use plotters::style::RGBColor;
    match kind {
        "sacado" => RGBColor(0, 114, 178),
        "puesta" | "puesta (plain)" => RGBColor(230, 159, 0),
        "puesta sabia (3-3-3)" => RGBColor(240, 228, 66),
        "puesta real (1-4-4)" => RGBColor(204, 121, 167),
        "given up" => RGBColor(213, 94, 0),
        "given up, taken over" => RGBColor(140, 60, 20),
        _ => RGBColor(130, 130, 130),
    }
}

fn deal_charts(
    body: &mut Body,
    id: &str,
    names: &[String],
    rows: &[&input::Summary],
    d: &[input::SlotDeals],
) -> Result<()> {
    let slots = rows.len().min(d.len());
    let hands = |s: &input::SlotDeals| s.declared.iter().sum::<u64>();

    // Tricks of the declarer.
    let mut head = vec!["tricks".to_string()];
    head.extend(rows.iter().map(|r| format!("{} (hands)", r.get("agent"))));
    let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
    let mut table = Table::new(&format!("{id}-tricks-table"), &head_refs);
    for k in 0..10 {
        let mut cells = vec![k.to_string()];
        cells.extend(d[..slots].iter().map(|s| s.tricks[k].to_string()));
        table.row(cells);
    }
    let series = (0..slots)
        .map(|i| {
            let n = hands(&d[i]) as f64;
            Series::new(rows[i].get("agent"), i, d[i].tricks.iter().map(|t| pct(*t as f64, n)).collect())
        })
        .collect();
    body.chart(
        &format!("{id}-tricks"),
        &Chart {
            title: "Tricks won by the declarer".into(),
            x_desc: "tricks won by the declarer (of 9)".into(),
            y_desc: "share of hands declared (%)".into(),
            categories: (0..10).map(|k| k.to_string()).collect(),
            series,
            kind: Kind::Bars,
        },
        "From deals.csv: every hand the agent declared and played (not cancelled), counted by the tricks it won \
         when play stopped; a hand stopped with primeras counts 5, a hand given up counts the tricks taken before.",
        &table,
    )?;

    // Primeras and bola.
    let mut table = Table::new(
        &format!("{id}-primeras-table"),
        &["agent", "hands declared", "primeras", "bola tried", "bola made"],
    );
    let mut series = vec![
        Series::new("stopped with primeras", 0, Vec::new()),
        Series::new("played on for the bola", 1, Vec::new()),
        Series::new("bola made", 2, Vec::new()),
    ];
    for i in 0..slots {
        let s = &d[i];
        let n = hands(s) as f64;
        table.row(vec![
            rows[i].get("agent").into(),
            hands(s).to_string(),
            s.primeras.to_string(),
            s.bola_tried.to_string(),
            s.bola_made.to_string(),
        ]);
        for (j, v) in [s.primeras, s.bola_tried, s.bola_made].iter().enumerate() {
            series[j].values.push(pct(*v as f64, n));
        }
    }
    body.chart(
        &format!("{id}-primeras"),
        &Chart {
            title: "Primeras and bola".into(),
            x_desc: "agent (slot:spec)".into(),
            y_desc: "share of hands declared (%)".into(),
            categories: names.to_vec(),
            series,
            kind: Kind::Bars,
        },
        "From deals.csv: after five straight tricks the declarer either stops (primeras) or plays on for all \
         nine (the bola), made or failed.",
        &table,
    )?;

    // Surrender and takeover.
    let mut table = Table::new(
        &format!("{id}-surrender-table"),
        &["agent", "hands declared", "given up", "opponent gave up while defending", "took over"],
    );
    let mut series = vec![
        Series::new("gives up (% of declared)", 0, Vec::new()),
        Series::new("takes over (% of given up)", 1, Vec::new()),
    ];
    for i in 0..slots {
        let s = &d[i];
        table.row(vec![
            rows[i].get("agent").into(),
            hands(s).to_string(),
            s.surrendered.to_string(),
            s.offered.to_string(),
            s.took_over.to_string(),
        ]);
        series[0].values.push(pct(s.surrendered as f64, hands(s) as f64));
        series[1].values.push(pct(s.took_over as f64, s.offered as f64));
    }
    body.chart(
        &format!("{id}-surrender"),
        &Chart {
            title: "Surrender and takeover".into(),
            x_desc: "agent (slot:spec)".into(),
            y_desc: "rate (%)".into(),
            categories: names.to_vec(),
            series,
            kind: Kind::Bars,
        },
        "From deals.csv: how often the agent gives up a hand it declared (after the third trick), and how often, \
         when the declarer gives up while it defends, it takes the hand over (yo sigo).",
        &table,
    )
}

/// The search's facts from its manifest.
fn tune_facts(body: &mut Body, t: &TuneRun, id: &str) {
    let m = &t.manifest;
    let params: Vec<String> =
        m.params.iter().map(|p| format!("{} in {}", p.name, p.values.join(", "))).collect();
    let best = t.best();
    body.html.push_str(&facts(
        &format!("{id}-manifest"),
        &[
            ("candidates file", t.path.display().to_string()),
            ("command", m.command_line.join(" ")),
            ("tool version", format!("tresillo {}", m.version)),
            ("tuned agent", m.agent.clone()),
            ("parameters", params.join("; ")),
            ("start", m.start.clone()),
            ("opponents", m.opponents.join(", ")),
            (
                "deals per candidate",
                match m.opponents.len() + 1 {
                    4 => format!("{} (each under all 24 seatings of the four players)", m.deals),
                    _ => format!("{} (each under all six seatings)", m.deals),
                },
            ),
            ("seed", m.seed.to_string()),
            ("rule set", m.rules.to_string()),
            ("players", m.rules.table(m.opponents.len() as u8 + 1).describe()),
            ("results in", format!("{} (the mean_tantos column)", unit(&m.rules))),
            ("scoring", m.scoring.clone()),
            (
                "search",
                format!(
                    "{}; {}, {}, {}",
                    m.method,
                    crate::count(m.evaluations, "candidate"),
                    crate::count(m.rounds as usize, "round"),
                    if m.converged { "converged" } else { "not converged" }
                ),
            ),
            (
                "best",
                format!(
                    "{} with {:.4} {} per deal [{:.4}, {:.4}] (the search's estimate: optimistic, the largest of \
                     {} noisy ones)",
                    m.best.spec,
                    best.mean,
                    unit(&m.rules),
                    best.low,
                    best.high,
                    m.evaluations
                ),
            ),
            (
                "verdict",
                match &m.recommendation {
                    Some(r) => r.verdict.clone(),
                    None => "none recorded (a tune of an older version: its best was not confirmed)".into(),
                },
            ),
            (
                "confirmation",
                match &m.recommendation {
                    Some(r) if r.confirm_deals > 0 => format!(
                        "the best minus the start on {} fresh deals (seed {}), paired: {} [{}, {}]; rule: {}",
                        r.confirm_deals,
                        r.confirm_seed.map_or_else(String::new, |s| s.to_string()),
                        r.gain.map_or_else(|| "-".into(), |g| format!("{g:+.4}")),
                        r.gain_ci95_low.map_or_else(|| "-".into(), |g| format!("{g:+.4}")),
                        r.gain_ci95_high.map_or_else(|| "-".into(), |g| format!("{g:+.4}")),
                        r.test
                    ),
                    Some(r) => format!("none played; rule: {}", r.test),
                    None => "none recorded".into(),
                },
            ),
        ],
    ));
}

fn tune(body: &mut Body, t: &TuneRun, id: &str) -> Result<()> {
    let m = &t.manifest;
    let best = t.best();
    tune_facts(body, t, id);
    if let Some(r) = &m.recommendation {
        let _ = writeln!(
            body.html,
            "<p class=\"verdict\"><strong>Verdict: {}</strong>. The recommended spec is <code>{}</code>.</p>",
            esc(&r.verdict),
            esc(&r.spec)
        );
    }
    let k = m.params.len();
    let extra: Vec<usize> =
        ["deals", "round"].iter().filter_map(|c| t.header.iter().position(|h| h == c)).collect();
    let mut drawn = 0;
    for (p, param) in m.params.iter().enumerate() {
        // The candidates that differ from the best in this parameter alone.
        let slice: Vec<&input::Candidate> =
            t.candidates.iter().filter(|c| (0..k).all(|q| q == p || c.values[q] == best.values[q])).collect();
        if slice.len() < 2 {
            continue; // one point says nothing about this parameter
        }
        drawn += 1;
        let mut values = param.values.clone();
        for c in &slice {
            if !values.contains(&c.values[p]) {
                values.push(c.values[p].clone());
            }
        }
        let mut head = vec!["value", "spec", "mean_tantos", "ci95_low", "ci95_high"];
        head.extend(extra.iter().map(|i| t.header[*i].as_str()));
        let mut table = Table::new(&format!("{id}-param{p}-table"), &head);
        let mut others = Series::new("others at the best's values", 0, Vec::new());
        let mut top = Series::new("best", 0, Vec::new());
        top.color = chart::HIGHLIGHT;
        top.marker = Marker::Triangle;
        for v in &values {
            let c = slice.iter().find(|c| &c.values[p] == v);
            let is_best = c.is_some_and(|c| c.fields[0] == best.fields[0]);
            let point = c.map(|c| (c.mean, (c.low, c.high)));
            let (mine, theirs) = if is_best { (&mut top, &mut others) } else { (&mut others, &mut top) };
            mine.values.push(point.map(|x| x.0));
            mine.ci.push(point.map(|x| x.1));
            theirs.values.push(None);
            theirs.ci.push(None);
            if let Some(c) = c {
                let mut cells = vec![
                    v.clone(),
                    c.fields[0].clone(),
                    c.fields[k + 1].clone(),
                    c.fields[k + 2].clone(),
                    c.fields[k + 3].clone(),
                ];
                cells.extend(extra.iter().map(|i| c.fields.get(*i).cloned().unwrap_or_default()));
                table.row(cells);
            }
        }
        body.chart(
            &format!("{id}-param{p}"),
            &Chart {
                title: format!("{}: mean tantos against {}", param.name, m.opponents.join(", ")),
                x_desc: format!("{} (parameter value; the others at the best's values)", param.name),
                y_desc: format!("mean {} per deal (95% CI)", unit(&m.rules)),
                categories: values.clone(),
                series: vec![others, top],
                kind: Kind::Points,
            },
            &format!(
                "Each point is a candidate that differs from the best ({}) in {} alone; a gap is a value the \
                 search did not evaluate there. Every candidate plays the same deals, so differences between \
                 candidates are measured far more precisely than these intervals of the means suggest: the \
                 next chart (and the vs_start columns) give the paired difference.",
                best.fields[0], param.name
            ),
            &table,
        )?;
        if let Some(vs) = t.header.iter().position(|h| h == "vs_start") {
            paired(body, t, id, p, &values, &slice, vs)?;
        }
    }
    if drawn == 0 {
        candidates_chart(body, t, id)?;
    }
    let head: Vec<&str> = t.header.iter().map(String::as_str).collect();
    let mut all = Table::new(&format!("{id}-candidates"), &head);
    for c in &t.candidates {
        let mut cells = c.fields.clone();
        cells.resize(head.len(), String::new());
        all.row(cells);
    }
    let _ = writeln!(
        body.html,
        "<details>\n<summary>All {} candidates, in the order evaluated</summary>\n{}</details>",
        t.candidates.len(),
        all.html()
    );
    Ok(())
}

/// The slice through the best as paired differences from the start, with their
/// intervals (columns `vs_start`, `vs_start_ci95_low`, `vs_start_ci95_high`).
fn paired(
    body: &mut Body,
    t: &TuneRun,
    id: &str,
    p: usize,
    values: &[String],
    slice: &[&input::Candidate],
    vs: usize,
) -> Result<()> {
    let m = &t.manifest;
    let param = &m.params[p];
    let best = t.best();
    let num = |c: &input::Candidate, i: usize| c.fields.get(i).and_then(|x| x.parse::<f64>().ok());
    let mut table = Table::new(
        &format!("{id}-param{p}-paired-table"),
        &["value", "spec", "vs_start", "vs_start_ci95_low", "vs_start_ci95_high"],
    );
    let mut others = Series::new("others at the best's values", 0, Vec::new());
    let mut top = Series::new("best", 0, Vec::new());
    top.color = chart::HIGHLIGHT;
    top.marker = Marker::Triangle;
    for v in values {
        let c = slice.iter().find(|c| &c.values[p] == v);
        let point = c.and_then(|c| Some((num(c, vs)?, (num(c, vs + 1)?, num(c, vs + 2)?))));
        let is_best = c.is_some_and(|c| c.fields[0] == best.fields[0]);
        let (mine, theirs) = if is_best { (&mut top, &mut others) } else { (&mut others, &mut top) };
        mine.values.push(point.map(|x| x.0));
        mine.ci.push(point.map(|x| x.1));
        theirs.values.push(None);
        theirs.ci.push(None);
        if let Some(c) = c {
            let mut cells = vec![v.clone(), c.fields[0].clone()];
            cells.extend((vs..vs + 3).map(|i| c.fields.get(i).cloned().unwrap_or_default()));
            table.row(cells);
        }
    }
    body.chart(
        &format!("{id}-param{p}-paired"),
        &Chart {
            title: format!("{}: difference from the start, paired by deal", param.name),
            x_desc: format!("{} (parameter value; the others at the best's values)", param.name),
            y_desc: "tantos per deal vs the start (95% CI)".into(),
            categories: values.to_vec(),
            series: vec![others, top],
            kind: Kind::Points,
        },
        &format!(
            "The same candidates as above, each minus the start ({}) on the same deals: above zero is better \
             than the start.",
            m.start
        ),
        &table,
    )
}

/// Every candidate side by side, for a run whose parameters were not varied around
/// the best (a confirmation run: the start against one spec).
fn candidates_chart(body: &mut Body, t: &TuneRun, id: &str) -> Result<()> {
    let best = t.best();
    let vs = t.header.iter().position(|h| h == "vs_start");
    let num = |c: &input::Candidate, i: usize| c.fields.get(i).and_then(|x| x.parse::<f64>().ok());
    let mut head = vec!["candidate", "spec", "mean_tantos", "ci95_low", "ci95_high"];
    if vs.is_some() {
        head.extend(["vs_start", "vs_start_ci95_low", "vs_start_ci95_high"]);
    }
    let mut table = Table::new(&format!("{id}-candidates-chart-table"), &head);
    let mut means = Series::new("mean tantos per deal", 0, Vec::new());
    let mut diffs = Series::new("vs the start (paired)", 2, Vec::new());
    let k = t.manifest.params.len();
    for (i, c) in t.candidates.iter().enumerate() {
        means.values.push(Some(c.mean));
        means.ci.push(Some((c.low, c.high)));
        let d = vs.and_then(|v| Some((num(c, v)?, (num(c, v + 1)?, num(c, v + 2)?))));
        diffs.values.push(d.map(|x| x.0));
        diffs.ci.push(d.map(|x| x.1));
        let mut cells = vec![format!("#{}", i + 1), c.fields[0].clone()];
        cells.extend(c.fields[k + 1..k + 4].iter().cloned());
        if let Some(v) = vs {
            cells.extend((v..v + 3).map(|j| c.fields.get(j).cloned().unwrap_or_default()));
        }
        table.row(cells);
    }
    body.chart(
        &format!("{id}-candidates-chart"),
        &Chart {
            title: format!("Every candidate against {}", t.manifest.opponents.join(", ")),
            x_desc: "candidate, in the order evaluated (specs in the table)".into(),
            y_desc: "tantos per deal (95% CI)".into(),
            categories: (1..=t.candidates.len()).map(|i| format!("#{i}")).collect(),
            series: vec![means, diffs],
            kind: Kind::Points,
        },
        &format!(
            "Each candidate's mean, and its difference from the start ({}) on the same deals; the best is {}.",
            t.manifest.start, best.fields[0]
        ),
        &table,
    )
}
