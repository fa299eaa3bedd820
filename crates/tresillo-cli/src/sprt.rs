//! `tresillo sprt`: is agent A better than agent B? Duplicate deals in batches
//! until a sequential test decides, at stated error rates
//! ([`tresillo_sim::sequential`]).

use anyhow::{Context, Result, bail, ensure};
use std::io::Write;
use std::path::{Path, PathBuf};
use tresillo_runs::RunOptions;
use tresillo_sim::sequential::{Differences, SprtSettings, SprtState, Verdict, run_sprt};
use tresillo_sim::{Scoring, Shard, Tournament, TournamentConfig};

/// Arguments of `tresillo sprt`.
#[derive(clap::Args)]
pub struct SprtArgs {
    /// Agent specs, comma-separated, one per slot (three; four with `--players 4`).
    #[arg(long)]
    agents: String,
    /// The two slots compared, `A,B`.
    #[arg(long, default_value = "0,1")]
    slots: String,
    /// The smallest difference worth finding, in tantos per deal.
    #[arg(long, default_value_t = 0.5)]
    margin: f64,
    /// The probability of naming a better agent when neither is (both sides together).
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The probability of missing a difference as large as the margin.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Deals between two looks.
    #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    batch: u64,
    /// The most deals to play before stopping undecided.
    #[arg(long, default_value_t = 1_000_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    max_deals: u64,
    /// The master seed.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    seed: u64,
    /// The rule set and its options.
    #[command(flatten)]
    rules: crate::rules::RulesArgs,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::threads)]
    threads: Option<usize>,
    /// Keep the deals: each batch is played as a shard of the run of
    /// `--max-deals` deals, a run directory under DIR/looks/, and the test's state
    /// is written to DIR/sprt.json after every look.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Continue the interrupted test in `--out`.
    #[arg(long)]
    resume: bool,
    /// Replace a test already in `--out`.
    #[arg(long)]
    force: bool,
}

/// Runs `tresillo sprt`.
pub fn run(a: &SprtArgs, out: &mut impl Write) -> Result<()> {
    let slots: Vec<usize> = a
        .slots
        .split(',')
        .map(|s| s.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow::anyhow!("--slots {}: two slot numbers, `A,B`", a.slots))?;
    let [sa, sb] = slots[..] else { bail!("--slots {}: two slot numbers, `A,B`", a.slots) };
    let players = a.rules.players()?;
    let settings =
        SprtSettings { slots: (sa, sb), alpha: a.alpha, beta: a.beta, margin: a.margin, batch: a.batch };
    settings.check(players).map_err(anyhow::Error::msg)?;
    if a.max_deals < 2 {
        bail!("--max-deals {}: at least 2", a.max_deals);
    }
    let config = TournamentConfig {
        agents: a.agents.split(',').map(|s| s.trim().to_string()).collect(),
        players,
        deals: a.max_deals,
        seed: a.seed,
        rules: a.rules.parse()?,
        scoring: Scoring::Deal,
        duplicate: true,
        shard: Shard::WHOLE,
        bidding: None,
    };
    let registry = crate::registry();
    config.validate_with(&registry)?;
    let (name_a, name_b) = (format!("{sa}:{}", config.agents[sa]), format!("{sb}:{}", config.agents[sb]));
    let look = |s: &SprtState| {
        note!(
            "{:>8} deals: {name_a} minus {name_b} {:+.4} [{:+.4}, {:+.4}]; llr {:+.2} / {:+.2} (bounds {:.2}, {:.2})",
            s.units,
            s.mean,
            s.mean - s.ci95,
            s.mean + s.ci95,
            s.llr.0,
            s.llr.1,
            s.bounds.0,
            s.bounds.1
        );
    };
    let state = match &a.out {
        Some(dir) => kept(a, &config, &settings, dir, look)?,
        None => {
            if a.resume || a.force {
                bail!("--resume and --force need --out (the directory that keeps the test)");
            }
            let t = Tournament::with_registry(config.clone(), registry)?;
            let mut b = rayon::ThreadPoolBuilder::new();
            if let Some(n) = a.threads {
                b = b.num_threads(n);
            }
            b.build()?.install(|| run_sprt(&t, &settings, a.max_deals, look))?
        }
    };
    let why = match state.verdict {
        Verdict::ABetter => format!("{name_a} is better than {name_b}"),
        Verdict::BBetter => format!("{name_b} is better than {name_a}"),
        Verdict::NoDifference => format!("neither {name_a} nor {name_b} is better by {} or more", a.margin),
        Verdict::Undecided => format!("undecided after {} deals (--max-deals)", a.max_deals),
    };
    writeln!(out, "{why}")?;
    writeln!(
        out,
        "stopped after {} duplicate deals ({} seatings each): {name_a} minus {name_b} {:+.4} tantos per deal \
         [{:+.4}, {:+.4}] (fixed-sample 95% CI, for information)",
        state.units,
        config.seatings().len(),
        state.mean,
        state.mean - state.ci95,
        state.mean + state.ci95
    )?;
    writeln!(
        out,
        "sequential test: alpha {}, beta {}, margin {} tantos per deal; log-likelihood ratios {:+.3} \
         (A better) and {:+.3} (B better) against the bounds {:.3} (no difference) and {:.3} (better)",
        a.alpha, a.beta, a.margin, state.llr.0, state.llr.1, state.bounds.0, state.bounds.1
    )?;
    let mut keep = vec![
        "tresillo".to_string(),
        "tournament".into(),
        "--agents".into(),
        config.agents.join(","),
        "--deals".into(),
        state.units.to_string(),
        "--duplicate".into(),
        "--seed".into(),
        a.seed.to_string(),
    ];
    keep.extend(a.rules.words());
    keep.extend(["--out".into(), "DIR".into()]);
    let keep: Vec<String> = keep.iter().map(|w| crate::experiment::quote(w)).collect();
    writeln!(out, "the same deals, kept in a run directory (deals.csv, pairs.csv): {}", keep.join(" "))?;
    if let Some(dir) = &a.out {
        let looks = state.units / a.batch;
        writeln!(
            out,
            "kept in {}: sprt.json (the test's state), looks/look-00000 to look-{:05} (a run directory of {} deals \
             each: shards of the run of {} deals)",
            dir.display(),
            looks.saturating_sub(1),
            a.batch,
            a.max_deals
        )?;
    }
    Ok(())
}

/// What `sprt.json` holds: the test as it stands after the last look.
#[derive(serde::Serialize, serde::Deserialize, PartialEq)]
struct Kept {
    tool: String,
    version: String,
    /// The run the looks are shards of (`max_deals` deals).
    config: TournamentConfig,
    slots: (usize, usize),
    alpha: f64,
    beta: f64,
    margin: f64,
    batch: u64,
    /// Deals played so far (whole looks).
    deals: u64,
    mean: f64,
    llr: (f64, f64),
    bounds: (f64, f64),
    /// `A better`, `B better`, `no difference`, or `undecided` (still running, or
    /// at the deal limit).
    verdict: String,
}

/// The directory of look `k`.
fn look_dir(dir: &Path, k: u64) -> PathBuf {
    dir.join("looks").join(format!("look-{k:05}"))
}

/// `--out`: each look a shard (`k` of `max_deals / batch`) of the run of
/// `max_deals` deals, played (or continued, or skipped when complete) by
/// tresillo-runs; the differences read back from its deals.csv, so the state is
/// that of [`run_sprt`] on the same deals.
fn kept(
    a: &SprtArgs,
    config: &TournamentConfig,
    settings: &SprtSettings,
    dir: &Path,
    look: impl Fn(&SprtState),
) -> Result<SprtState> {
    ensure!(!(a.resume && a.force), "--resume and --force exclude each other");
    ensure!(
        a.max_deals.is_multiple_of(a.batch),
        "--max-deals {} is not a multiple of --batch {}: with --out every look is a shard of {} deals",
        a.max_deals,
        a.batch,
        a.batch
    );
    let state_path = dir.join("sprt.json");
    let (sa, sb) = settings.slots;
    let mut kept = Kept {
        tool: "tresillo".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        config: config.clone(),
        slots: (sa, sb),
        alpha: settings.alpha,
        beta: settings.beta,
        margin: settings.margin,
        batch: settings.batch,
        deals: 0,
        mean: 0.0,
        llr: (0.0, 0.0),
        bounds: (0.0, 0.0),
        verdict: "undecided".into(),
    };
    if state_path.exists() {
        let text = std::fs::read_to_string(&state_path)
            .with_context(|| format!("reading {}", state_path.display()))?;
        let old: Kept = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a tresillo sprt state", state_path.display()))?;
        let same = Kept {
            deals: 0,
            mean: 0.0,
            llr: (0.0, 0.0),
            bounds: (0.0, 0.0),
            verdict: kept.verdict.clone(),
            ..old
        };
        if a.force {
            let looks = dir.join("looks");
            if looks.exists() {
                std::fs::remove_dir_all(&looks).with_context(|| format!("removing {}", looks.display()))?;
            }
        } else {
            ensure!(
                same == kept,
                "{} holds another sequential test; use --force to replace it",
                dir.display()
            );
            ensure!(
                a.resume,
                "{} already holds this sequential test; use --resume to continue it",
                dir.display()
            );
        }
    } else if dir.join("looks").exists() && !a.force {
        bail!("{} holds looks but no sprt.json; use --force to start over", dir.display());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // Written before the first look, so that a test killed then is resumed as one.
    let write = |kept: &Kept| -> Result<()> {
        let tmp = dir.join("sprt.json.tmp");
        std::fs::write(&tmp, serde_json::to_string_pretty(kept)?)
            .with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, &state_path).with_context(|| format!("writing {}", state_path.display()))
    };
    if !state_path.exists() || a.force {
        write(&kept)?;
    }
    let looks = a.max_deals / a.batch;
    let seatings = config.seatings().len() as f64;
    let mut diffs = Differences::default();
    let mut state = diffs.look(settings);
    for k in 0..looks {
        let shard = TournamentConfig { shard: Shard { index: k, count: looks }, ..config.clone() };
        let out = look_dir(dir, k);
        let options = RunOptions {
            out: out.clone(),
            threads: a.threads,
            resume: out.join("manifest.json").exists(),
            force: false,
            record: None,
            progress: true,
            build: Some(crate::provenance::current()),
            registry: crate::registry(),
            note: &|_| {},
            format: tresillo_runs::Format::Csv,
            bots: Vec::new(),
        };
        tresillo_runs::run(&shard, &options, crate::command_line())?;
        for t in tresillo_runs::pairs::unit_totals(&out.join("deals.csv"), &shard)?.values() {
            diffs.push((t[sa] - t[sb]) as f64 / seatings);
        }
        state = diffs.look(settings);
        look(&state);
        kept.deals = diffs.units;
        kept.mean = state.mean;
        kept.llr = state.llr;
        kept.bounds = state.bounds;
        kept.verdict = match state.verdict {
            Verdict::ABetter => "A better",
            Verdict::BBetter => "B better",
            Verdict::NoDifference => "no difference",
            Verdict::Undecided => "undecided",
        }
        .into();
        let tmp = dir.join("sprt.json.tmp");
        std::fs::write(&tmp, serde_json::to_string_pretty(&kept)?)
            .with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, &state_path).with_context(|| format!("writing {}", state_path.display()))?;
        if state.verdict != Verdict::Undecided {
            break;
        }
    }
    Ok(state)
}
