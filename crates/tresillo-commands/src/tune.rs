//! `tresillo tune`: search an agent's numeric parameters for the best mean tantos
//! against fixed opponents (the search itself is `tresillo_sim::Space::search`).
//!
//! **The verdict.** The search's best is the maximum of many noisy estimates, so
//! its gain over the start is optimistic (selection bias, the winner's curse).
//! The recommendation is therefore the start unless the best's gain is confirmed
//! on fresh deals: after the search, the best and the start play `--confirm`
//! deals of the next seed (`--seed` + 1; by default twice the search's deals per
//! candidate), paired by deal, and the best is adopted only when the 95%
//! interval of its gain lies above 0 (a one-sided test at the 2.5% level).
//! `--confirm 0` skips the confirmation, and then the start is kept. The verdict
//! ("keep the start" or "adopt X: +g [lo, hi] on N fresh deals") is printed on
//! the line before the last, recorded in the manifest's `recommendation` and in
//! `<stem>.confirm.csv`'s `recommended` column; the last line is the recommended
//! spec alone (the start when it is kept), and the exit status is 0 either way,
//! so that `SPEC=$(tresillo tune ... | tail -n 1)` is always the spec to use.
//!
//! Writes every evaluated candidate, as soon as it is scored, to `<out>.partial`,
//! renamed to the `--out` CSV when the search ends, and then a manifest
//! (`<stem>.manifest.json` beside it) with the configuration and the best spec; an
//! interrupted search leaves the candidates scored so far in `<out>.partial` and
//! any earlier output as it was. Progress lines go to stderr; stdout gets the summary, its
//! last line the best spec alone. Nothing is written before every argument has been
//! checked, and existing files are kept unless `--force`.
//!
//! One process at a time writes an `<out>`: it holds an exclusive lock on
//! `<out>.lock` (with its pid; [`crate::tournament::lock_file`]). After every
//! candidate, `<out>.checkpoint.json` is replaced (the settings, the command line
//! that started the search, the start's evaluation and every record, exactly)
//! before the row is appended to `<out>.partial`. `--resume` checks the settings,
//! writes `<out>.partial` again from the checkpoint and continues the search with
//! [`Space::resume`], so that the CSV and the manifest are byte-identical to an
//! uninterrupted search's; the checkpoint is removed once the manifest is written.
//! Without `--resume`, an interrupted search is refused unless `--force`.
//!
//! The CSV columns: `spec`; one column per tuned parameter (its value);
//! `mean_tantos`, `ci95_low`, `ci95_high` (mean tantos per deal and its 95%
//! confidence interval); `deals` (each played under all six seatings); `vs_start`,
//! `vs_start_ci95_low`, `vs_start_ci95_high` (the difference from the start's mean,
//! paired by deal, with its interval); `declare_rate` (declared hands per seat-deal);
//! `round` (0 for the start, then the coordinate round; 1 for grid points).
//!
//! `TRESILLO_TUNE_STOP_AFTER=N` stops a tune after N candidates, for the tests. After
//! every candidate `tune` replaces `OUT.checkpoint.json` (the settings, the start's
//! evaluation, every record with its floats as exact text), then appends the row to
//! `OUT.partial`; `--resume` refuses other settings, rewrites `OUT.partial` from the
//! checkpoint and calls `Space::resume`, which replays the (deterministic) search
//! taking scored candidates from the checkpoint, so the CSV and manifest are
//! byte-identical to an uninterrupted run's.

use crate::provenance::Build;
use anyhow::{Context, Result, bail, ensure};
use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tresillo_sim::{
    Evaluation, Method, ParamRange, Progress, Record, Scoring, SearchPlan, Space, Stats, TuneResult,
    TuneSetup,
};

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
    /// `coordinate` (one parameter at a time, in rounds), `grid` (every
    /// combination) or `spsa` (every parameter at once, `--rounds` iterations of
    /// two candidates; docs/CLI.md).
    #[arg(long, default_value = "coordinate")]
    pub method: String,
    /// Coordinate search: the most rounds; SPSA: its iterations.
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
    /// Overwrite existing output files, and start over an interrupted search.
    #[arg(long)]
    pub force: bool,
    /// After the search, play the best candidate and the start again on DEALS
    /// fresh deals (the seed after `--seed`), paired, and write the result to
    /// `<stem>.confirm.csv` beside the candidates: the best of many noisy
    /// candidates is biased upwards, this is the unbiased check, and the best is
    /// recommended only when it passes (its gain's 95% interval above 0).
    /// Default: twice `--deals`; 0 skips it (the start is then kept).
    #[arg(long, value_name = "DEALS", allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    pub confirm: Option<u64>,
    /// Continue the interrupted search of `--out` from its checkpoint; a finished
    /// one is left as it is.
    #[arg(long)]
    pub resume: bool,
    /// Replace finished output files without `--force` (an experiment owns its
    /// results), but never discard an interrupted search.
    #[arg(skip)]
    pub replace: bool,
    /// An agent spec that makes every seat's bidding-phase decisions (see
    /// `tournament --bidding`), to tune card-play parameters alone.
    #[arg(long)]
    pub bidding: Option<String>,
    /// With `--bidding`: `all` gives the bidding agent every decision but card
    /// play (as in `tournament --bidding-covers`).
    #[arg(long, value_name = "bidding|all")]
    pub bidding_covers: Option<tresillo_agents::BiddingCovers>,
}

/// The start spec of a tune: `start`, completed for an external bot's tuned
/// options (`opt.NAME`, whose defaults only the bot knows) with the defaults its
/// greeting declares; `start` itself when nothing is missing.
fn bot_start(
    agent: &str,
    params: &[ParamRange],
    start: Option<&str>,
    rules: tresillo_core::Rules,
    players: u8,
) -> Result<Option<String>> {
    let given =
        |name: &str| start.is_some_and(|s| s.split(':').skip(1).any(|kv| kv.split('=').next() == Some(name)));
    let missing: Vec<&ParamRange> =
        params.iter().filter(|p| p.name.starts_with("opt.") && !given(&p.name)).collect();
    if missing.is_empty() {
        return Ok(start.map(str::to_string));
    }
    let Some(config) = tresillo_bots::bot_config(agent, crate::named_bots()) else {
        return Ok(start.map(str::to_string));
    };
    let declared = tresillo_bots::declared_options(&config, rules, players).map_err(anyhow::Error::msg)?;
    let mut spec =
        start.map_or_else(|| agent.split(':').next().unwrap_or(agent).trim().to_string(), str::to_string);
    for p in missing {
        let name = &p.name["opt.".len()..];
        let Some(o) = declared.iter().find(|o| o.name == name) else {
            bail!(
                "`{}`: the bot declares no option `{name}` (it declares: {})",
                p.name,
                declared.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(", ")
            );
        };
        spec.push_str(&format!(":{}={}", p.name, o.default));
    }
    Ok(Some(spec))
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
        let registry = crate::registry();
        let start = bot_start(
            &self.agent,
            &params,
            self.start.as_deref(),
            self.rules.parse()?,
            self.rules.players()?,
        )?;
        let space = Space::with_registry(&registry, &self.agent, params, start.as_deref())?;
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
            bidding_covers: self.bidding_covers.unwrap_or_default(),
            ..TuneSetup::new([a, b], self.deals, self.seed)
        };
        setup.opponents = opponents.iter().map(|s| s.to_string()).collect();
        ensure!(setup.deals <= TuneSetup::MAX_DEALS, "at most {} deals", TuneSetup::MAX_DEALS);
        setup.config(&space.spec(space.start())).validate_with(&registry)?;
        ensure!(self.rounds >= 1, "rounds must be at least 1");
        let plan = SearchPlan { method, max_rounds: self.rounds, max_evaluations: self.max_evaluations };
        space.check(&plan)?;
        if let Some(t) = self.threads {
            crate::args::check_threads(t, "threads")?;
        }
        let n = self.confirm_deals();
        ensure!(
            n == 0 || (2..=TuneSetup::MAX_DEALS).contains(&n),
            "--confirm {n}: between 2 (a confidence interval needs two) and {} deals, or 0 for none",
            TuneSetup::MAX_DEALS
        );
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

    /// The deals of the confirmation: `--confirm`, or twice `--deals` (at most
    /// the limit of a candidate's deals); 0 for none.
    #[must_use]
    pub fn confirm_deals(&self) -> u64 {
        self.confirm.unwrap_or_else(|| self.deals.saturating_mul(2).clamp(2, TuneSetup::MAX_DEALS))
    }

    /// `<stem>.confirm.csv` beside the candidates (`--confirm`).
    pub fn confirm_path(&self) -> PathBuf {
        let stem = self.out.file_stem().map_or_else(|| "tune".into(), |s| s.to_string_lossy().into_owned());
        self.out.with_file_name(format!("{stem}.confirm.csv"))
    }
}

/// What determines a search's candidates and their scores: the configuration part
/// of the manifest, and what `--resume` compares with the checkpoint.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Settings {
    agent: String,
    params: Vec<ManifestParam>,
    start: String,
    method: String,
    max_rounds: u32,
    opponents: Vec<String>,
    deals: u64,
    seed: u64,
    rules: tresillo_core::Rules,
    scoring: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bidding: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bidding_covers: Option<String>,
}

impl Settings {
    fn new(space: &Space, plan: &SearchPlan, setup: &TuneSetup) -> Settings {
        Settings {
            agent: space.base().to_string(),
            params: space
                .params()
                .iter()
                .map(|p| ManifestParam { name: p.name.clone(), values: p.values.clone() })
                .collect(),
            start: space.spec(space.start()),
            method: plan.method.to_string(),
            max_rounds: plan.max_rounds,
            opponents: setup.opponents.clone(),
            deals: setup.deals,
            seed: setup.seed,
            rules: setup.rules,
            scoring: setup.scoring.to_string(),
            bidding: setup.bidding.clone(),
            bidding_covers: (!setup.bidding_covers.is_default()).then(|| setup.bidding_covers.to_string()),
        }
    }

    /// The settings in which `self` (the checkpoint's) and `given` differ, each with
    /// both values, on one line.
    fn diff(&self, given: &Settings) -> String {
        let as_map = |s: &Settings| match serde_json::to_value(s) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        let (a, b) = (as_map(self), as_map(given));
        let show = |s: &Settings, k: &str, v: Option<&serde_json::Value>| match (k, v) {
            ("rules", _) => s.rules.to_string(),
            ("params", _) => s
                .params
                .iter()
                .map(|p| format!("{}={}", p.name, p.values.join(",")))
                .collect::<Vec<_>>()
                .join(" "),
            (_, None | Some(serde_json::Value::Null)) => "none".into(),
            (_, Some(serde_json::Value::String(t))) => t.clone(),
            (_, Some(serde_json::Value::Array(xs))) => xs
                .iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), String::from))
                .collect::<Vec<_>>()
                .join(","),
            (_, Some(other)) => other.to_string(),
        };
        let mut keys: Vec<&String> = a.keys().collect();
        keys.extend(b.keys().filter(|k| !a.contains_key(*k)));
        keys.into_iter()
            .filter(|k| a.get(*k) != b.get(*k))
            .map(|k| {
                format!(
                    "{k}: {} in the checkpoint, {} given",
                    show(self, k, a.get(k)),
                    show(given, k, b.get(k))
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The record of a finished tuning run.
#[derive(Serialize)]
struct Manifest<'a> {
    tool: &'static str,
    version: &'static str,
    build: Build,
    command_line: &'a [String],
    #[serde(flatten)]
    settings: &'a Settings,
    duplicate: bool,
    evaluations: usize,
    rounds: u32,
    converged: bool,
    /// The candidate to use: the recommendation's (the search's best when the
    /// confirmation adopts it, else the start), as the last printed line.
    best: ManifestCandidate<'a>,
    /// The search's best, adopted or not (its estimate is optimistic).
    search_best_result: ManifestCandidate<'a>,
    start_result: ManifestCandidate<'a>,
    recommendation: &'a Recommendation,
    /// SPSA: every iteration's gains, signs, positions, candidates, means, slopes
    /// and move (`scripts/check-spsa.py` redoes them); absent for the other methods.
    #[serde(skip_serializing_if = "Option::is_none")]
    spsa: Option<SpsaLog<'a>>,
}

/// What the manifest records of an SPSA search.
#[derive(Serialize)]
struct SpsaLog<'a> {
    /// The gains' constants.
    a: f64,
    c: f64,
    big_a: f64,
    alpha: f64,
    gamma: f64,
    /// The most list steps one iteration moves a parameter.
    max_step: f64,
    steps: &'a [tresillo_sim::tune_spsa::Step],
}

/// The verdict of a tune: the spec to use and why (the manifest's
/// `recommendation`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Recommendation {
    /// `adopt` or `keep the start`.
    decision: String,
    /// The spec recommended: the search's best when adopted, else the start.
    spec: String,
    /// The verdict in one line, as printed.
    verdict: String,
    /// The rule that decides.
    test: String,
    /// The search's best (its estimate is optimistic: selection bias).
    search_best: String,
    /// Fresh deals of the confirmation (0: none was played).
    confirm_deals: u64,
    /// Their seed.
    confirm_seed: Option<u64>,
    /// The best minus the start on the fresh deals, paired, and its 95% interval.
    gain: Option<f64>,
    gain_ci95_low: Option<f64>,
    gain_ci95_high: Option<f64>,
}

/// The rule `tune` decides by, as the manifest states it.
const TEST: &str = "adopt the search's best only when its paired gain over the start on fresh deals has a 95% \
                    interval above 0 (a one-sided test at the 2.5% level); otherwise keep the start";

impl Recommendation {
    /// The verdict of a search whose best is `best` (`None`: the start itself),
    /// from its confirmation: (deals, seed, paired gain and half-width).
    fn new(start: &str, best: &str, confirmation: Option<(u64, u64, Gain)>, why_none: &str) -> Self {
        let keep = |verdict: String| Recommendation {
            decision: "keep the start".into(),
            spec: start.to_string(),
            verdict,
            test: TEST.into(),
            search_best: best.to_string(),
            confirm_deals: 0,
            confirm_seed: None,
            gain: None,
            gain_ci95_low: None,
            gain_ci95_high: None,
        };
        let Some((n, seed, gain)) = confirmation else {
            return keep(format!("keep the start {start}: {why_none}"));
        };
        let with = |mut r: Recommendation| {
            r.confirm_deals = n;
            r.confirm_seed = Some(seed);
            if let Some((d, h)) = gain {
                (r.gain, r.gain_ci95_low, r.gain_ci95_high) =
                    (Some(round4(d)), Some(round4(d - h)), Some(round4(d + h)));
            }
            r
        };
        match gain {
            Some((d, h)) if d - h > 0.0 => with(Recommendation {
                decision: "adopt".into(),
                spec: best.to_string(),
                verdict: format!("adopt {best}: {d:+.4} [{:+.4}, {:+.4}] on {n} fresh deals", d - h, d + h),
                ..keep(String::new())
            }),
            Some((d, h)) => with(keep(format!(
                "keep the start {start}: {best} is not confirmed on {n} fresh deals, {d:+.4} [{:+.4}, {:+.4}] \
                 (its interval {})",
                d - h,
                d + h,
                if d + h < 0.0 { "lies below 0: it is worse" } else { "includes 0" }
            ))),
            None => with(keep(format!("keep the start {start}: no paired comparison on the fresh deals"))),
        }
    }
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct ManifestParam {
    name: String,
    values: Vec<String>,
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

/// The progress of a search, `<out>.checkpoint.json`, replaced after every
/// candidate: the settings (a resumed search must have the same), the command line
/// that started it (kept in the manifest, which is then the same whether or not
/// the search was interrupted), the start's evaluation (the reference of the paired
/// comparisons) and every candidate scored, its numbers exact.
#[derive(Serialize, Deserialize)]
struct Checkpoint {
    tool: String,
    version: String,
    command_line: Vec<String>,
    settings: Settings,
    start: Option<SavedEvaluation>,
    records: Vec<SavedRecord>,
}

#[derive(Serialize, Deserialize)]
struct SavedEvaluation {
    stats: Stats,
    units: Vec<i64>,
    rows_per_unit: u64,
}

/// A [`Record`] with its numbers as the shortest text that reads back to the same
/// `f64` (`NaN` included), so that a resumed search compares exactly the numbers an
/// uninterrupted one would.
#[derive(Serialize, Deserialize)]
struct SavedRecord {
    spec: String,
    values: Vec<String>,
    round: u32,
    deals: u64,
    mean: String,
    ci95: String,
    vs_start: Option<[String; 2]>,
    declare_rate: String,
}

impl SavedRecord {
    fn new(r: &Record) -> SavedRecord {
        SavedRecord {
            spec: r.spec.clone(),
            values: r.values.clone(),
            round: r.round,
            deals: r.deals,
            mean: r.mean.to_string(),
            ci95: r.ci95.to_string(),
            vs_start: r.vs_start.map(|(d, h)| [d.to_string(), h.to_string()]),
            declare_rate: r.declare_rate.to_string(),
        }
    }

    fn record(&self, index: usize) -> Result<Record> {
        let num = |t: &str| t.parse::<f64>().map_err(|_| anyhow::anyhow!("`{t}` is not a number"));
        Ok(Record {
            index,
            spec: self.spec.clone(),
            values: self.values.clone(),
            round: self.round,
            mean: num(&self.mean)?,
            ci95: num(&self.ci95)?,
            deals: self.deals,
            vs_start: match &self.vs_start {
                Some([d, h]) => Some((num(d)?, num(h)?)),
                None => None,
            },
            declare_rate: num(&self.declare_rate)?,
        })
    }
}

impl Checkpoint {
    /// The search's progress, as [`Space::resume`] takes it.
    fn progress(&self, path: &Path) -> Result<Progress> {
        let records = self
            .records
            .iter()
            .enumerate()
            .map(|(i, r)| r.record(i))
            .collect::<Result<Vec<_>>>()
            .with_context(|| format!("{}: a malformed candidate", path.display()))?;
        let start = self.start.as_ref().map(|e| Evaluation {
            stats: e.stats.clone(),
            units: e.units.clone(),
            rows_per_unit: e.rows_per_unit,
        });
        Ok(Progress { start, records })
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

/// `candidates.csv` -> `candidates.csv<suffix>`.
fn beside(out: &Path, suffix: &str) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    out.with_file_name(name)
}

/// The candidates scored so far: `candidates.csv.partial`.
fn partial_path(out: &Path) -> PathBuf {
    beside(out, ".partial")
}

/// The search's progress: `candidates.csv.checkpoint.json`.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    beside(out, ".checkpoint.json")
}

/// The writer's lock: `candidates.csv.lock`.
fn lock_path(out: &Path) -> PathBuf {
    beside(out, ".lock")
}

/// A test hook: with `TRESILLO_TUNE_STOP_AFTER=N` in the environment, the search
/// stops with an error once this process has scored N candidates, as a killed one
/// would (its checkpoint written), so that tests can interrupt it at a known point.
const STOP_AFTER: &str = "TRESILLO_TUNE_STOP_AFTER";

fn read_checkpoint(path: &Path) -> Result<Checkpoint> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    tresillo_sim::json::from_str(&text).with_context(|| {
        format!("{}: not a tune checkpoint; remove it, or start over with --force", path.display())
    })
}

/// For `--resume` without a checkpoint: `None` when neither `out` nor its
/// manifest exists (the search is started); when they hold a finished search
/// with these settings, the first line of the message (no newline), the start's
/// spec and the recommendation; otherwise a one-line error saying what is
/// wrong (a damaged or missing manifest, another search, a missing output).
fn finished(
    out: &Path,
    manifest: &Path,
    settings: &Settings,
) -> Result<Option<(String, String, Option<Recommendation>)>> {
    if !out.exists() && !manifest.exists() {
        return Ok(None);
    }
    let over = "start the search over with --force";
    if !manifest.exists() {
        bail!("{}: its manifest {} is missing; {over}", out.display(), manifest.display());
    }
    let text = fs::read_to_string(manifest).with_context(|| format!("reading {}", manifest.display()))?;
    let damaged =
        |why: String| anyhow::anyhow!("{}: not a tune manifest ({why}): damaged? {over}", manifest.display());
    let m: serde_json::Value = tresillo_sim::json::from_str(&text).map_err(|e| damaged(e.to_string()))?;
    let done: Settings = serde_json::from_value(m.clone()).map_err(|e| damaged(e.to_string()))?;
    let start = m["start_result"]["spec"].as_str().ok_or_else(|| damaged("no `start_result.spec`".into()))?;
    let rec: Option<Recommendation> = match m.get("recommendation") {
        None => None,
        Some(r) => {
            Some(serde_json::from_value(r.clone()).map_err(|e| damaged(format!("recommendation: {e}")))?)
        }
    };
    if done != *settings {
        bail!("{} holds a search with other settings; use --force to replace it", manifest.display());
    }
    if !out.exists() {
        bail!(
            "{}: missing, while its manifest {} says the search finished; {over}",
            out.display(),
            manifest.display()
        );
    }
    let message =
        format!("{}: the search is already complete ({} candidates)", out.display(), m["evaluations"]);
    Ok(Some((message, start.to_string(), rec)))
}

/// The directory that holds `--out`, created (refused when a file is in the way).
fn out_dir(a: &TuneArgs) -> Result<&Path> {
    if a.out.is_dir() {
        bail!("{} is a directory, not a file: --out names the candidates CSV", a.out.display());
    }
    let dir = a.out.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if let Some(f) = crate::tournament::file_in_the_way(dir) {
        bail!("{} is a file, not a directory: it cannot hold {}", f.display(), a.out.display());
    }
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}

/// The checkpoint of an interrupted search at `checkpoint`, checked against the
/// settings it is resumed with.
fn resumed_checkpoint(a: &TuneArgs, checkpoint: &Path, settings: &Settings) -> Result<Checkpoint> {
    let ck = read_checkpoint(checkpoint)?;
    ensure!(
        a.resume,
        "{} holds an interrupted search ({} candidates scored); use --resume to continue it or --force \
         to start over",
        checkpoint.display(),
        ck.records.len()
    );
    if ck.settings != *settings {
        bail!(
            "{} holds a search with other settings ({}); use --force to start over",
            checkpoint.display(),
            ck.settings.diff(settings)
        );
    }
    ensure!(
        ck.version == env!("CARGO_PKG_VERSION"),
        "{} was written by tresillo {}, this is {}: start over with --force",
        checkpoint.display(),
        ck.version,
        env!("CARGO_PKG_VERSION")
    );
    Ok(ck)
}

/// `--resume` of a search whose manifest is written: its confirmation played
/// again when its file alone is missing; the lines to print.
fn resume_finished(
    a: &TuneArgs,
    setup: &TuneSetup,
    manifest_path: &Path,
    (mut done, start, rec): (String, String, Option<Recommendation>),
) -> Result<String> {
    let Some(rec) = rec else {
        bail!(
            "{}: written by an older tresillo, without a recommendation; start the search over with \
             --force",
            manifest_path.display()
        );
    };
    let wanted = if rec.search_best == start { 0 } else { a.confirm_deals() };
    ensure!(
        rec.confirm_deals == wanted,
        "{}: the search was confirmed on {} fresh deals, not {wanted}; resume it with --confirm {} or \
         start over with --force",
        manifest_path.display(),
        rec.confirm_deals,
        rec.confirm_deals
    );
    if rec.confirm_deals > 0 && !a.confirm_path().exists() {
        // The confirmation's file alone is missing: played again, the same.
        done.push('\n');
        let c = confirm(a, setup, &start, &rec.search_best, rec.confirm_deals, &pool(a.threads)?)?;
        write_confirm(a, &c, &rec)?;
        done.push_str(&c.text);
    } else {
        done.push_str("; nothing to do\n");
    }
    done.push_str(&format!("verdict: {}\n{}\n", rec.verdict, rec.spec));
    Ok(done)
}

/// A search to run: its checkpoint (resumed, or new), or the lines of a search
/// already finished.
enum Search {
    Run(Box<Checkpoint>),
    Finished(String),
}

/// The search `a` asks for: resumed from its checkpoint, finished already, or
/// new (refusing to overwrite files without `--force`).
fn open_search(
    a: &TuneArgs,
    setup: &TuneSetup,
    settings: &Settings,
    checkpoint: &Path,
    command_line: Vec<String>,
) -> Result<Search> {
    let manifest_path = a.manifest_path();
    if checkpoint.exists() && !a.force {
        return Ok(Search::Run(Box::new(resumed_checkpoint(a, checkpoint, settings)?)));
    }
    if a.resume {
        if let Some(f) = finished(&a.out, &manifest_path, settings)? {
            return Ok(Search::Finished(resume_finished(a, setup, &manifest_path, f)?));
        }
        note!("{}: no search to resume; starting it", a.out.display());
    }
    let confirm_path = a.confirm_path();
    let confirm_file = (a.confirm_deals() > 0).then_some(&confirm_path);
    for p in [Some(&a.out), Some(&manifest_path), confirm_file].into_iter().flatten() {
        if p.exists() && !(a.force || a.replace) {
            bail!("{} already exists; use --force to overwrite it", p.display());
        }
    }
    Ok(Search::Run(Box::new(Checkpoint {
        tool: "tresillo".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        command_line,
        settings: settings.clone(),
        start: None,
        records: Vec::new(),
    })))
}

/// The line that starts a search (`resumed`: the candidates scored before).
fn start_note(space: &Space, plan: &SearchPlan, setup: &TuneSetup, resumed: usize) {
    note!(
        "tune {}: {} search over {}; {} deals per candidate, seed {}, duplicate, against {}{}",
        space.base(),
        plan.method,
        space
            .params()
            .iter()
            .map(|p| format!("{} ({})", p.name, crate::count(p.values.len(), "value")))
            .collect::<Vec<_>>()
            .join(", "),
        setup.deals,
        setup.seed,
        setup.opponents.join(","),
        match resumed {
            0 => String::new(),
            n => format!("; resuming after {}", crate::count(n, "candidate")),
        }
    );
}

/// The manifest of a finished search.
fn manifest_of<'a>(
    ck: &'a Checkpoint,
    settings: &'a Settings,
    plan: &SearchPlan,
    result: &'a TuneResult,
    rec: &'a Recommendation,
) -> Manifest<'a> {
    let (best, start) = (result.best(), result.start());
    Manifest {
        tool: "tresillo",
        version: env!("CARGO_PKG_VERSION"),
        build: crate::provenance::current(),
        command_line: &ck.command_line,
        settings,
        duplicate: true,
        evaluations: result.records.len(),
        rounds: result.rounds,
        converged: result.converged,
        best: ManifestCandidate::new(if rec.spec == best.spec { best } else { start }),
        search_best_result: ManifestCandidate::new(best),
        start_result: ManifestCandidate::new(start),
        recommendation: rec,
        spsa: (plan.method == Method::Spsa).then(|| {
            let g = tresillo_sim::tune_spsa::Gains::for_iterations(plan.max_rounds);
            SpsaLog {
                a: g.a,
                c: g.c,
                big_a: g.big_a,
                alpha: g.alpha,
                gamma: g.gamma,
                max_step: tresillo_sim::tune_spsa::MAX_STEP,
                steps: &result.steps,
            }
        }),
    }
}

/// The files of a finished search put in place: the old manifest and
/// confirmation removed, the new confirmation, the candidates (from `partial`),
/// the manifest, and the checkpoint removed last.
fn publish(
    a: &TuneArgs,
    manifest: &Manifest<'_>,
    confirmation: Option<&Confirmation>,
    rec: &Recommendation,
    partial: &Path,
    checkpoint: &Path,
) -> Result<()> {
    let manifest_path = a.manifest_path();
    // The old manifest goes first: it must never describe the new CSV.
    if manifest_path.exists() {
        fs::remove_file(&manifest_path).with_context(|| format!("removing {}", manifest_path.display()))?;
        tresillo_runs::write_point();
    }
    // A confirmation of an earlier search's best no longer describes this one.
    let stale = a.confirm_path();
    if stale.exists() {
        fs::remove_file(&stale).with_context(|| format!("removing {}", stale.display()))?;
        tresillo_runs::write_point();
    }
    if let Some(c) = confirmation {
        write_confirm(a, c, rec)?;
    }
    fs::rename(partial, &a.out).with_context(|| format!("writing {}", a.out.display()))?;
    tresillo_runs::write_point();
    tresillo_runs::durable::write_atomic(&manifest_path, serde_json::to_string_pretty(manifest)?.as_bytes())?;
    // Last: until the manifest is written, --resume finishes the search from here.
    fs::remove_file(checkpoint).with_context(|| format!("removing {}", checkpoint.display()))?;
    tresillo_runs::write_point();
    Ok(())
}

/// The lines printed at the end of a search.
fn report(
    a: &TuneArgs,
    plan: &SearchPlan,
    setup: &TuneSetup,
    result: &TuneResult,
    confirmation: Option<&Confirmation>,
    rec: &Recommendation,
) -> String {
    let (best, start) = (result.best(), result.start());
    let mut out = String::new();
    let stop = match (plan.method, result.converged) {
        (Method::Grid, _) => "every grid point".to_string(),
        (Method::Coordinate, true) => format!("{}, converged", crate::count(result.rounds as usize, "round")),
        (Method::Spsa, _) => {
            format!(
                "{} of two candidates, then the point it ended at",
                crate::count(result.rounds as usize, "iteration")
            )
        }
        (Method::Coordinate, false) => {
            format!("{}, stopped at the round limit", crate::count(result.rounds as usize, "round"))
        }
    };
    out.push_str(&format!(
        "{} evaluated ({stop}); {} deals each against {}; all in {}\n",
        crate::count(result.records.len(), "candidate"),
        setup.deals,
        setup.opponents.join(","),
        a.out.display()
    ));
    out.push_str(&format!("start  {:<44} {}\n", start.spec, describe(start)));
    out.push_str(&format!("best   {:<44} {}\n", best.spec, describe(best)));
    out.push_str("mean tantos per deal [95% CI]; vs start: paired difference on the same deals [95% CI]\n");
    out.push_str(&verdict(best.index == start.index, best.vs_start, result.records.len()));
    if let Some(c) = confirmation {
        out.push_str(&c.text);
    }
    out.push_str(&format!("verdict: {}\n{}\n", rec.verdict, rec.spec));
    out
}

/// The candidates CSV written again at `partial` from the records `progress`
/// holds (a temporary name, renamed over the output only when the search is
/// complete: until then any earlier output stays as it was; a kill may have left
/// it a row ahead of the checkpoint).
fn candidates_file(
    partial: &Path,
    space: &Space,
    progress: &Progress,
) -> Result<csv::Writer<BufWriter<File>>> {
    let file = File::create(partial).with_context(|| format!("creating {}", partial.display()))?;
    let mut csv = csv::Writer::from_writer(BufWriter::new(file));
    let writing = || format!("writing {}", partial.display());
    csv.write_record(header(space)).with_context(writing)?;
    for r in &progress.records {
        csv.write_record(fields(r)).with_context(writing)?;
    }
    csv.flush().with_context(writing)?;
    tresillo_runs::write_point();
    Ok(csv)
}

/// Runs `tresillo tune`; returns the printed summary (its last line the best spec).
pub fn run(a: &TuneArgs, command_line: Vec<String>) -> Result<String> {
    if a.resume && a.force {
        bail!(
            "--resume and --force exclude each other: --resume continues the search, --force starts it over"
        );
    }
    let Plan { space, setup, plan } = a.plan()?;
    let settings = Settings::new(&space, &plan, &setup);
    out_dir(a)?;
    // One process at a time writes these files (a second tune on the same --out is
    // refused with the holder's pid).
    let _lock = crate::tournament::lock_file(&lock_path(&a.out), &a.out)?;
    let checkpoint = checkpoint_path(&a.out);
    let ck = match open_search(a, &setup, &settings, &checkpoint, command_line)? {
        Search::Run(ck) => *ck,
        Search::Finished(lines) => return Ok(lines),
    };
    let progress = ck.progress(&checkpoint)?;
    let partial = partial_path(&a.out);
    let mut csv = candidates_file(&partial, &space, &progress)?;
    let writing = || format!("writing {}", partial.display());
    tresillo_runs::durable::write_atomic(&checkpoint, &serde_json::to_vec(&ck)?)?;
    let workers = pool(a.threads)?;
    let started = Instant::now();
    start_note(&space, &plan, &setup, progress.records.len());
    let registry = crate::registry();
    let stop_after: Option<usize> = std::env::var(STOP_AFTER).ok().and_then(|v| v.parse().ok());
    let mut scored = 0;
    let ck = std::cell::RefCell::new(ck);
    let result: TuneResult = space.resume(
        &plan,
        progress,
        |spec| {
            let e = workers
                .install(|| setup.evaluate_with(&registry, spec))
                .with_context(|| format!("evaluating {spec}"))?;
            // The search evaluates the start first.
            ck.borrow_mut().start.get_or_insert_with(|| SavedEvaluation {
                stats: e.stats.clone(),
                units: e.units.clone(),
                rows_per_unit: e.rows_per_unit,
            });
            Ok(e)
        },
        |r| {
            // The checkpoint first: the CSV is written again from it on --resume.
            {
                let mut c = ck.borrow_mut();
                c.records.push(SavedRecord::new(r));
                tresillo_runs::durable::write_atomic(&checkpoint, &serde_json::to_vec(&*c)?)?;
            }
            csv.write_record(fields(r)).with_context(writing)?;
            csv.flush().with_context(writing)?;
            tresillo_runs::write_point();
            note!(
                "[{:>3}] round {} {:<40} {}  ({:.0} s)",
                r.index + 1,
                r.round,
                r.spec,
                describe(r),
                started.elapsed().as_secs_f64()
            );
            scored += 1;
            if stop_after == Some(scored) {
                bail!("stopped after {scored} candidates ({STOP_AFTER}); continue with --resume");
            }
            Ok(())
        },
    )?;
    let ck = ck.into_inner();
    let mut file = csv.into_inner().map_err(|e| anyhow::anyhow!("{}: {e}", writing()))?;
    file.flush().with_context(writing)?;
    drop(file);
    let best = result.best();
    let start = result.start();
    // The confirmation comes before the manifest, which records its verdict: a
    // search killed during it is finished by --resume from the checkpoint.
    let n_confirm = a.confirm_deals();
    let confirmation = if best.index == start.index || n_confirm == 0 {
        None
    } else {
        Some(confirm(a, &setup, &start.spec, &best.spec, n_confirm, &workers)?)
    };
    let why_none = if best.index == start.index {
        "no candidate beat it in the search"
    } else {
        "the search's best is not confirmed (--confirm 0 played no fresh deals)"
    };
    let rec = Recommendation::new(
        &start.spec,
        &best.spec,
        confirmation.as_ref().map(|c| (c.deals, c.seed, c.gain)),
        why_none,
    );
    let manifest = manifest_of(&ck, &settings, &plan, &result, &rec);
    publish(a, &manifest, confirmation.as_ref(), &rec, &partial, &checkpoint)?;
    Ok(report(a, &plan, &setup, &result, confirmation.as_ref(), &rec))
}

/// What the search alone says of its best: its gain over the start on the
/// search's own deals, called optimistic (it is the largest of many noisy
/// estimates).
fn verdict(is_start: bool, vs_start: Option<(f64, f64)>, candidates: usize) -> String {
    match vs_start {
        _ if is_start => "the search's best is the start itself: no candidate beat it\n".to_string(),
        Some((d, h)) => format!(
            "the search's best gains {d:+.4} [{:+.4}, {:+.4}] on the search's deals: an optimistic estimate (the \
             largest of {candidates} noisy ones: selection bias); the confirmation on fresh deals decides\n",
            d - h,
            d + h
        ),
        None => "the search's best: no paired comparison with the start\n".to_string(),
    }
}

/// A paired difference and the half-width of its 95% interval, when there is one.
type Gain = Option<(f64, f64)>;

/// A row of the confirmation: role, spec, mean tantos and half-width, gain over
/// the start.
type ConfirmRow = (String, String, (f64, f64), Gain);

/// A confirmation played: the start and the best on fresh deals.
struct Confirmation {
    deals: u64,
    seed: u64,
    gain: Option<(f64, f64)>,
    rows: [ConfirmRow; 2],
    /// The printed lines.
    text: String,
}

/// The start and the best on `deals` fresh deals (seed + 1), paired.
fn confirm(
    a: &TuneArgs,
    setup: &TuneSetup,
    start: &str,
    best: &str,
    deals: u64,
    workers: &rayon::ThreadPool,
) -> Result<Confirmation> {
    ensure!(
        (2..=TuneSetup::MAX_DEALS).contains(&deals),
        "--confirm {deals}: between 2 (a confidence interval needs two) and {} deals, or 0 for none",
        TuneSetup::MAX_DEALS
    );
    let fresh = TuneSetup { deals, seed: setup.seed.wrapping_add(1), ..setup.clone() };
    let registry = crate::registry();
    note!("confirming: {best} against the start {start} on {deals} fresh deals (seed {})", fresh.seed);
    let e_start = workers
        .install(|| fresh.evaluate_with(&registry, start))
        .with_context(|| format!("evaluating {start}"))?;
    let e_best = workers
        .install(|| fresh.evaluate_with(&registry, best))
        .with_context(|| format!("evaluating {best}"))?;
    let gain = e_best.paired_diff(&e_start);
    let shown = match gain {
        Some((d, h)) => format!("{d:+.4} [{:+.4}, {:+.4}]", d - h, d + h),
        None => "no paired comparison".into(),
    };
    let text = format!(
        "confirmation on {deals} fresh deals (seed {}), in {}:\n  {best} minus the start: {shown}\n",
        fresh.seed,
        a.confirm_path().display()
    );
    Ok(Confirmation {
        deals,
        seed: fresh.seed,
        gain,
        rows: [
            ("start".into(), start.into(), e_start.mean_ci(), Some((0.0, 0.0))),
            ("best".into(), best.into(), e_best.mean_ci(), gain),
        ],
        text,
    })
}

/// Writes `<stem>.confirm.csv`: the start's and the best's rows, the last column
/// (`recommended`) saying which one the verdict recommends.
fn write_confirm(a: &TuneArgs, c: &Confirmation, rec: &Recommendation) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "role",
        "spec",
        "deals",
        "seed",
        "mean_tantos",
        "ci95_low",
        "ci95_high",
        "vs_start",
        "vs_start_ci95_low",
        "vs_start_ci95_high",
        "recommended",
    ])?;
    for (role, spec, (m, h), vs) in &c.rows {
        let (d, dh) = vs.unwrap_or((f64::NAN, f64::NAN));
        let recommended = (role == "best") == (rec.decision == "adopt");
        w.write_record([
            role.clone(),
            spec.clone(),
            c.deals.to_string(),
            c.seed.to_string(),
            f4(*m),
            f4(m - h),
            f4(m + h),
            f4(d),
            f4(d - dh),
            f4(d + dh),
            recommended.to_string(),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(tresillo_runs::durable::write_atomic(&a.confirm_path(), &bytes)?)
}
