//! `tresillo tune`: search an agent's numeric parameters for the best mean tantos
//! against fixed opponents (the search itself is `tresillo_sim::Space::search`).
//!
//! Writes every evaluated candidate, as soon as it is scored, to `<out>.partial`,
//! renamed to the `--out` CSV when the search ends, and then a manifest
//! (`<stem>.manifest.json` beside it) with the configuration and the best spec; an
//! interrupted search leaves the candidates scored so far in `<out>.partial` and
//! any earlier output as it was. Progress lines go to stderr; stdout gets the summary, its
//! last line the best spec alone. Nothing is written before every argument has been
//! checked, and existing files are kept unless `--force`.
//!
//! The CSV columns: `spec`; one column per tuned parameter (its value);
//! `mean_tantos`, `ci95_low`, `ci95_high` (mean tantos per deal and its 95%
//! confidence interval); `deals` (each played under all six seatings); `vs_start`,
//! `vs_start_ci95_low`, `vs_start_ci95_high` (the difference from the start's mean,
//! paired by deal, with its interval); `declare_rate` (declared hands per seat-deal);
//! `round` (0 for the start, then the coordinate round; 1 for grid points).

use anyhow::{Context, Result, bail, ensure};
use serde::Serialize;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tresillo_sim::{Method, ParamRange, Record, Scoring, SearchPlan, Space, TuneResult, TuneSetup};

/// Arguments of `tresillo tune`.
#[derive(clap::Args, Clone, Debug)]
pub struct TuneArgs {
    /// The agent to tune, with any parameters it keeps fixed (`rule`,
    /// `rule:surrender=30`).
    #[arg(long, default_value = "rule")]
    pub agent: String,
    /// A tuned parameter and its values: `NAME=START..END:STEP` (inclusive) or
    /// `NAME=V1,V2,...`. Repeat for each parameter; coordinate search takes them in
    /// this order.
    #[arg(long = "param", value_name = "NAME=RANGE", required = true)]
    pub params: Vec<String>,
    /// The fixed opponents, comma-separated (two; three with `--players 4`).
    #[arg(long, default_value = "rule,rule")]
    pub opponents: String,
    /// Deals per candidate (each played under all six seatings).
    #[arg(long, default_value_t = 20_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub deals: u64,
    /// The master seed, the same for every candidate (common random numbers).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub seed: u64,
    /// `coordinate` (one parameter at a time, in rounds) or `grid` (every combination).
    #[arg(long, default_value = "coordinate")]
    pub method: String,
    /// Coordinate search: the most rounds.
    #[arg(long, default_value_t = 4, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u32>)]
    pub rounds: u32,
    /// Start here instead of the agent's defaults (a spec of the same agent setting
    /// tuned parameters, e.g. `rule:entrada=40`): coordinate search climbs from it,
    /// and every candidate is compared with it.
    #[arg(long)]
    pub start: Option<String>,
    /// Refuse a search that may need more candidate evaluations than this.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<usize>)]
    pub max_evaluations: usize,
    /// The rule set and its options.
    #[command(flatten)]
    pub rules: crate::rules::RulesArgs,
    /// `deal` or `session:K`.
    #[arg(long, default_value = "deal")]
    pub scoring: String,
    /// The CSV of every candidate (the manifest goes beside it).
    #[arg(long, default_value = "out/tune/candidates.csv")]
    pub out: PathBuf,
    /// Worker threads (default: all cores). The results do not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::threads)]
    pub threads: Option<usize>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
    /// An agent spec that makes every seat's bidding-phase decisions (see
    /// `tournament --bidding`), to tune card-play parameters alone.
    #[arg(long)]
    pub bidding: Option<String>,
}

/// A checked tuning run.
struct Plan {
    space: Space,
    setup: TuneSetup,
    plan: SearchPlan,
}

impl TuneArgs {
    fn plan(&self) -> Result<Plan> {
        let params = self.params.iter().map(|p| p.parse::<ParamRange>()).collect::<Result<Vec<_>, _>>()?;
        let method: Method = self.method.parse()?;
        let space = Space::new(&self.agent, params, self.start.as_deref())?;
        let opponents: Vec<&str> = self.opponents.split(',').map(str::trim).collect();
        let players = self.rules.players()?;
        if opponents.len() + 1 != usize::from(players) {
            bail!(
                "{} opponents are needed at a table of {players}, as agent specs (got {})",
                players - 1,
                opponents.len()
            );
        }
        let [a, b, ..] = opponents[..] else { unreachable!("two or three opponents") };
        let mut setup = TuneSetup {
            rules: self.rules.parse()?,
            scoring: self.scoring.parse::<Scoring>()?,
            bidding: self.bidding.as_deref().map(|b| b.trim().to_string()),
            ..TuneSetup::new([a, b], self.deals, self.seed)
        };
        setup.opponents = opponents.iter().map(|s| s.to_string()).collect();
        setup.validate(&space.spec(space.start()))?;
        ensure!(self.rounds >= 1, "rounds must be at least 1");
        let plan = SearchPlan { method, max_rounds: self.rounds, max_evaluations: self.max_evaluations };
        space.check(&plan)?;
        if let Some(t) = self.threads {
            crate::args::check_threads(t, "threads").map_err(anyhow::Error::msg)?;
        }
        Ok(Plan { space, setup, plan })
    }

    /// Checks the arguments (agent, parameters, ranges, opponents, limits) without
    /// running anything.
    pub fn check(&self) -> Result<()> {
        self.plan().map(|_| ())
    }

    /// The manifest written beside the CSV: `candidates.csv` -> `candidates.manifest.json`.
    #[must_use]
    pub fn manifest_path(&self) -> PathBuf {
        let stem = self.out.file_stem().map_or_else(|| "tune".into(), |s| s.to_string_lossy().into_owned());
        self.out.with_file_name(format!("{stem}.manifest.json"))
    }
}

/// The record of a finished tuning run.
#[derive(Serialize)]
struct Manifest<'a> {
    tool: &'static str,
    version: &'static str,
    command_line: Vec<String>,
    agent: &'a str,
    params: Vec<ManifestParam<'a>>,
    start: String,
    method: String,
    max_rounds: u32,
    opponents: &'a [String],
    deals: u64,
    seed: u64,
    rules: tresillo_core::Rules,
    scoring: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    bidding: Option<&'a str>,
    duplicate: bool,
    evaluations: usize,
    rounds: u32,
    converged: bool,
    best: ManifestCandidate<'a>,
    start_result: ManifestCandidate<'a>,
}

#[derive(Serialize)]
struct ManifestParam<'a> {
    name: &'a str,
    values: &'a [String],
}

#[derive(Serialize)]
struct ManifestCandidate<'a> {
    spec: &'a str,
    mean_tantos: f64,
    ci95_low: f64,
    ci95_high: f64,
    vs_start: Option<f64>,
    vs_start_ci95_low: Option<f64>,
    vs_start_ci95_high: Option<f64>,
}

impl<'a> ManifestCandidate<'a> {
    fn new(r: &'a Record) -> Self {
        ManifestCandidate {
            spec: &r.spec,
            mean_tantos: round4(r.mean),
            ci95_low: round4(r.mean - r.ci95),
            ci95_high: round4(r.mean + r.ci95),
            vs_start: r.vs_start.map(|(d, _)| round4(d)),
            vs_start_ci95_low: r.vs_start.map(|(d, h)| round4(d - h)),
            vs_start_ci95_high: r.vs_start.map(|(d, h)| round4(d + h)),
        }
    }
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn f4(x: f64) -> String {
    if x.is_finite() { format!("{x:.4}") } else { String::new() }
}

fn header(space: &Space) -> Vec<String> {
    let mut h = vec!["spec".to_string()];
    h.extend(space.params().iter().map(|p| p.name.clone()));
    h.extend(
        [
            "mean_tantos",
            "ci95_low",
            "ci95_high",
            "deals",
            "vs_start",
            "vs_start_ci95_low",
            "vs_start_ci95_high",
            "declare_rate",
            "round",
        ]
        .map(String::from),
    );
    h
}

fn fields(r: &Record) -> Vec<String> {
    let mut v = vec![r.spec.clone()];
    v.extend(r.values.iter().cloned());
    let (d, h) = r.vs_start.unwrap_or((f64::NAN, f64::NAN));
    v.extend([
        f4(r.mean),
        f4(r.mean - r.ci95),
        f4(r.mean + r.ci95),
        r.deals.to_string(),
        f4(d),
        f4(d - h),
        f4(d + h),
        f4(r.declare_rate),
        r.round.to_string(),
    ]);
    v
}

fn describe(r: &Record) -> String {
    let vs = match r.vs_start {
        Some((d, h)) if r.index > 0 => format!("  vs start {d:+.4} [{:+.4}, {:+.4}]", d - h, d + h),
        _ => String::new(),
    };
    format!("{:.4} [{:.4}, {:.4}]{vs}", r.mean, r.mean - r.ci95, r.mean + r.ci95)
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t);
    }
    Ok(b.build()?)
}

/// `candidates.csv` -> `candidates.csv.partial`.
fn partial_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    out.with_file_name(name)
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

/// Runs `tresillo tune`; returns the printed summary (its last line the best spec).
pub fn run(a: &TuneArgs, command_line: Vec<String>) -> Result<String> {
    let Plan { space, setup, plan } = a.plan()?;
    let manifest_path = a.manifest_path();
    for p in [&a.out, &manifest_path] {
        if p.exists() && !a.force {
            bail!("{} already exists; use --force to overwrite it", p.display());
        }
    }
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    // The candidates go to a temporary name, renamed over the output only when the
    // search is complete: until then any earlier output stays as it was.
    let partial = partial_path(&a.out);
    let file = File::create(&partial).with_context(|| format!("creating {}", partial.display()))?;
    let mut csv = csv::Writer::from_writer(BufWriter::new(file));
    csv.write_record(header(&space))?;
    csv.flush()?;
    let workers = pool(a.threads)?;
    let started = Instant::now();
    note!(
        "tune {}: {} search over {}; {} deals per candidate, seed {}, duplicate, against {}",
        space.base(),
        plan.method,
        space
            .params()
            .iter()
            .map(|p| format!("{} ({} values)", p.name, p.values.len()))
            .collect::<Vec<_>>()
            .join(", "),
        setup.deals,
        setup.seed,
        setup.opponents.join(",")
    );
    let result: TuneResult = space.search(
        &plan,
        |spec| workers.install(|| setup.evaluate(spec)).with_context(|| format!("evaluating {spec}")),
        |r| {
            csv.write_record(fields(r))?;
            csv.flush()?;
            note!(
                "[{:>3}] round {} {:<40} {}  ({:.0} s)",
                r.index + 1,
                r.round,
                r.spec,
                describe(r),
                started.elapsed().as_secs_f64()
            );
            Ok(())
        },
    )?;
    let mut file = csv.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    file.flush()?;
    drop(file);
    let best = result.best();
    let start = result.start();
    let manifest = Manifest {
        tool: "tresillo",
        version: env!("CARGO_PKG_VERSION"),
        command_line,
        agent: space.base(),
        params: space.params().iter().map(|p| ManifestParam { name: &p.name, values: &p.values }).collect(),
        start: start.spec.clone(),
        method: plan.method.to_string(),
        max_rounds: plan.max_rounds,
        opponents: &setup.opponents,
        deals: setup.deals,
        seed: setup.seed,
        rules: setup.rules,
        scoring: setup.scoring.to_string(),
        bidding: setup.bidding.as_deref(),
        duplicate: true,
        evaluations: result.records.len(),
        rounds: result.rounds,
        converged: result.converged,
        best: ManifestCandidate::new(best),
        start_result: ManifestCandidate::new(start),
    };
    // The old manifest goes first: it must never describe the new CSV.
    if manifest_path.exists() {
        fs::remove_file(&manifest_path).with_context(|| format!("removing {}", manifest_path.display()))?;
    }
    fs::rename(&partial, &a.out).with_context(|| format!("writing {}", a.out.display()))?;
    write_atomic(&manifest_path, serde_json::to_string_pretty(&manifest)?.as_bytes())?;
    let mut out = String::new();
    let stop = match (plan.method, result.converged) {
        (Method::Grid, _) => "every grid point".to_string(),
        (Method::Coordinate, true) => format!("{} rounds, converged", result.rounds),
        (Method::Coordinate, false) => format!("{} rounds, stopped at the round limit", result.rounds),
    };
    out.push_str(&format!(
        "{} candidates evaluated ({stop}); {} deals each against {}; all in {}\n",
        result.records.len(),
        setup.deals,
        setup.opponents.join(","),
        a.out.display()
    ));
    out.push_str(&format!("start  {:<44} {}\n", start.spec, describe(start)));
    out.push_str(&format!("best   {:<44} {}\n", best.spec, describe(best)));
    out.push_str("mean tantos per deal [95% CI]; vs start: paired difference on the same deals [95% CI]\n");
    out.push_str(&format!("{}\n", best.spec));
    Ok(out)
}
