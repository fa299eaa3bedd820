//! `tresillo sprt`: is agent A better than agent B? Duplicate deals in batches
//! until a sequential test decides, at stated error rates
//! ([`tresillo_sim::sequential`]).
//!
//! `--test difference` (the default) names the better of the two slots or says
//! neither is better by the margin; `--test better` asks "is B better than A by
//! the margin" (H0: B − A = 0, H1: B − A = margin) and `--test non-regression`
//! "is B not worse than A by more than the margin" (H0: B − A = −margin,
//! H1: B − A = 0), as engine testers run a gainer and a non-regression test;
//! `--bounds H0,H1` gives the two hypotheses of B − A directly. Identical play
//! so far (every deal's difference the same) is not a variance of 0: the test
//! takes the variance those deals cannot rule out ([`tresillo_sim::sequential`]),
//! so an agent against itself is decided within a few looks and agents that
//! differ on few deals only once their differences show.
//!
//! With `--out DIR` every look is a run directory (a shard of the run of
//! `--max-deals` deals) under `DIR/looks/`, and `DIR/sprt.json` holds the test
//! and its path (the log-likelihood ratios at every look), which `tresillo
//! report DIR` draws. One process at a time writes `DIR` (the lock
//! `DIR/run.lock`, as a run directory's): another start, `--force` or `--resume`
//! while a test runs there is refused, naming its pid. A test killed at any moment is finished by `--resume`:
//! the finished looks are kept, the interrupted one continued (or started over
//! when it had no checkpoint yet), and the state is computed again from the
//! looks' deals, so the verdict and the files are those of an uninterrupted test.

use anyhow::{Context, Result, bail, ensure};
use std::io::Write;
use std::path::{Path, PathBuf};
use tresillo_runs::RunOptions;
use tresillo_sim::book::DealBook;
use tresillo_sim::sequential::{Differences, SprtSettings, SprtState, Test, Verdict, run_sprt};
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
    /// `difference` (A better, B better, or neither by the margin), `better` (B
    /// better than A by the margin: H0 B−A = 0, H1 B−A = margin) or
    /// `non-regression` (B not worse than A by more than the margin: H0 B−A =
    /// −margin, H1 B−A = 0).
    #[arg(long, default_value = "difference", conflicts_with = "bounds")]
    test: String,
    /// The two hypotheses of the mean of B minus A, `H0,H1` (H0 below H1), in
    /// tantos per deal: a one-sided test such as `--bounds -0.5,0` (the same as
    /// `--test non-regression --margin 0.5`).
    #[arg(long, value_name = "H0,H1", allow_hyphen_values = true)]
    bounds: Option<String>,
    /// The probability of naming a better agent when neither is (both sides together).
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The probability of missing a difference as large as the margin.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Deals between two looks.
    #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    batch: u64,
    /// The most deals to play before stopping undecided (default 1,000,000, or
    /// the deal book's length with `--deals-from`).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    max_deals: Option<u64>,
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
    /// An agent spec that makes every seat's bidding-phase decisions (as in
    /// `tournament --bidding`), to test card play alone.
    #[arg(long)]
    bidding: Option<String>,
    /// Play the deals of a deal book instead of the seed's (as `tournament
    /// --deals-from`): deal `i` of the test is the book's line `i`, so two tests,
    /// two machines or two tools compare on exactly the same deals.
    /// `--max-deals` is then the book's length unless given (at most that).
    #[arg(long, value_name = "FILE")]
    deals_from: Option<PathBuf>,
    /// With `--bidding`: `all` gives the bidding agent every decision but card
    /// play (as in `tournament --bidding-covers`).
    #[arg(long, value_name = "bidding|all")]
    bidding_covers: Option<tresillo_agents::BiddingCovers>,
}

impl SprtArgs {
    /// The hypotheses of `--test` or `--bounds`, and the name of the test.
    fn test(&self) -> Result<(Test, &'static str)> {
        if let Some(b) = &self.bounds {
            let v: Vec<f64> =
                b.split(',').map(|x| x.trim().parse::<f64>()).collect::<Result<_, _>>().map_err(|_| {
                    anyhow::anyhow!("--bounds {b}: two numbers, `H0,H1` (for example -0.5,0)")
                })?;
            let [h0, h1] = v[..] else { bail!("--bounds {b}: two numbers, `H0,H1` (for example -0.5,0)") };
            return Ok((Test::Bounds { h0, h1 }, "bounds"));
        }
        let m = self.margin;
        Ok(match self.test.trim() {
            "difference" => (Test::Difference, "difference"),
            "better" => (Test::Bounds { h0: 0.0, h1: m }, "better"),
            "non-regression" => (Test::Bounds { h0: -m, h1: 0.0 }, "non-regression"),
            other => bail!("--test {other}: one of difference, better, non-regression"),
        })
    }
}

/// The verdict in words, A and B named.
fn verdict_line(
    state: &SprtState,
    test: Test,
    kind: &str,
    margin: f64,
    (a, b): (&str, &str),
    max_deals: u64,
) -> String {
    match (state.verdict, test) {
        (Verdict::ABetter, _) => format!("{a} is better than {b}"),
        (Verdict::BBetter, _) => format!("{b} is better than {a}"),
        (Verdict::NoDifference, _) => format!("neither {a} nor {b} is better by {margin} or more"),
        (Verdict::Undecided, _) => format!("undecided after {} deals (--max-deals {max_deals})", state.units),
        (Verdict::AcceptH1, Test::Bounds { h0, h1 }) => match kind {
            "better" => {
                format!("{b} is better than {a} by {margin} (H1 accepted: {b} minus {a} is {h1}, not {h0})")
            }
            "non-regression" => format!(
                "{b} is not worse than {a} by more than {margin} (non-regression passed: H1 {b} minus {a} = {h1} \
                 accepted against H0 = {h0})"
            ),
            _ => format!("H1 accepted: {b} minus {a} is {h1} rather than {h0} tantos per deal"),
        },
        (Verdict::AcceptH0, Test::Bounds { h0, h1 }) => match kind {
            "better" => format!(
                "{b} is not better than {a} by {margin} (H0 accepted: {b} minus {a} is {h0}, not {h1})"
            ),
            "non-regression" => format!(
                "{b} may be worse than {a} by {margin} (non-regression failed: H0 {b} minus {a} = {h0} accepted \
                 against H1 = {h1})"
            ),
            _ => format!("H0 accepted: {b} minus {a} is {h0} rather than {h1} tantos per deal"),
        },
        (Verdict::AcceptH1 | Verdict::AcceptH0, Test::Difference) => {
            unreachable!("one-sided verdicts come from one-sided tests")
        }
    }
}

/// The test's settings from the arguments (for a table of `players`): the two
/// slots compared, the error rates, the margin or bounds; and the test's kind.
fn settings_of(a: &SprtArgs, players: u8) -> Result<(SprtSettings, &'static str)> {
    let slots: Vec<usize> = a
        .slots
        .split(',')
        .map(|s| s.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow::anyhow!("--slots {}: two slot numbers, `A,B`", a.slots))?;
    let [sa, sb] = slots[..] else { bail!("--slots {}: two slot numbers, `A,B`", a.slots) };
    let (test, kind) = a.test()?;
    let settings = SprtSettings {
        slots: (sa, sb),
        alpha: a.alpha,
        beta: a.beta,
        margin: a.margin,
        batch: a.batch,
        test,
    };
    settings.check(players).map_err(anyhow::Error::msg)?;
    Ok((settings, kind))
}

/// The most deals the test plays: `--max-deals`, at most the deal book's.
fn max_deals_of(a: &SprtArgs, book: Option<&DealBook>) -> Result<u64> {
    let max_deals = match (book, a.max_deals) {
        (None, m) => m.unwrap_or(1_000_000),
        (Some(b), Some(m)) => {
            ensure!(
                m <= b.len(),
                "--max-deals {m}: the deal book {} holds only {} deals",
                a.deals_from.as_deref().unwrap_or(Path::new("")).display(),
                b.len()
            );
            m
        }
        (Some(b), None) => b.len(),
    };
    if max_deals < 2 {
        bail!("--max-deals {max_deals}: at least 2");
    }
    Ok(max_deals)
}

/// The lines after the verdict: the difference, the test's ratios, the evidence.
fn write_evidence(
    out: &mut impl Write,
    a: &SprtArgs,
    state: &SprtState,
    (test, kind): (Test, &str),
    (name_a, name_b): (&str, &str),
    seatings: usize,
) -> Result<()> {
    writeln!(
        out,
        "stopped after {} duplicate deals ({} seatings each): {name_a} minus {name_b} {:+.4} tantos per deal \
         [{:+.4}, {:+.4}] (fixed-sample 95% CI, for information)",
        state.units,
        seatings,
        state.mean,
        state.mean - state.ci95,
        state.mean + state.ci95
    )?;
    match test {
        Test::Difference => writeln!(
            out,
            "sequential test: alpha {}, beta {}, margin {} tantos per deal; log-likelihood ratios {:+.3} \
             (A better) and {:+.3} (B better) against the bounds {:.3} (no difference) and {:.3} (better)",
            a.alpha, a.beta, a.margin, state.llr.0, state.llr.1, state.bounds.0, state.bounds.1
        )?,
        Test::Bounds { h0, h1 } => writeln!(
            out,
            "sequential test ({kind}): alpha {}, beta {}, H0 {name_b} minus {name_a} = {h0}, H1 = {h1} tantos per \
             deal; log-likelihood ratio {:+.3} against the bounds {:.3} (H0) and {:.3} (H1)",
            a.alpha, a.beta, state.llr.0, state.bounds.0, state.bounds.1
        )?,
    }
    writeln!(
        out,
        "evidence: {name_a} won {}, drew {} and lost {} of the {} deals against {name_b} (its tantos above, equal to, \
         below on the same cards); likelihood of superiority {:.4};{} (of A over B, from those counts: how often, \
         not by how much)",
        state.wdl.0,
        state.wdl.1,
        state.wdl.2,
        state.units,
        state.los,
        tresillo_runs::pairs::elo_text(state.elo)
    )?;
    if state.zero_variance {
        writeln!(
            out,
            "identical play so far: every one of the {} deals gave the same difference ({:+.4}); the ratios use \
             the variance those deals cannot rule out (deals that differ unseen), not a variance of 0",
            state.units, state.mean
        )?;
    }
    Ok(())
}

/// The `tournament` command that keeps the test's deals in a run directory, and
/// where `--out` kept the test.
fn write_keep(
    out: &mut impl Write,
    a: &SprtArgs,
    state: &SprtState,
    config: &TournamentConfig,
    book: Option<&DealBook>,
    max_deals: u64,
) -> Result<()> {
    let mut keep =
        vec!["tresillo".to_string(), "tournament".into(), "--agents".into(), config.agents.join(",")];
    match &a.deals_from {
        Some(f) => keep.extend(["--deals-from".into(), f.display().to_string()]),
        None => keep.extend(["--deals".into(), state.units.to_string()]),
    }
    keep.extend(["--duplicate".into(), "--seed".into(), a.seed.to_string()]);
    keep.extend(a.rules.words());
    if let Some(b) = &config.bidding {
        keep.extend(["--bidding".into(), b.clone()]);
    }
    if !config.bidding_covers.is_default() {
        keep.extend(["--bidding-covers".into(), config.bidding_covers.to_string()]);
    }
    keep.extend(["--out".into(), "DIR".into()]);
    let keep: Vec<String> = keep.iter().map(|w| crate::experiment::quote(w)).collect();
    let cut = match book {
        Some(b) if state.units < b.len() => {
            format!(" (with the book cut to its first {} deals)", state.units)
        }
        _ => String::new(),
    };
    writeln!(out, "the same deals, kept in a run directory (deals.csv, pairs.csv): {}{cut}", keep.join(" "))?;
    if let Some(dir) = &a.out {
        let looks = state.units / a.batch;
        writeln!(
            out,
            "kept in {}: sprt.json (the test's state), looks/look-00000 to look-{:05} (a run directory of {} deals \
             each: shards of the run of {} deals)",
            dir.display(),
            looks.saturating_sub(1),
            a.batch,
            max_deals
        )?;
    }
    Ok(())
}

/// The progress line of a look: the difference, the ratios against their
/// bounds, then the evidence (W/D/L, LOS, Elo) and the look's wall time
/// (`took`, seconds).
fn look_note(s: &SprtState, (name_a, name_b): (&str, &str), took: f64) {
    note!(
        "{:>8} deals: {name_a} minus {name_b} {:+.4} [{:+.4}, {:+.4}]; llr {:+.2} / {:+.2} (bounds {:.2}, {:.2}); \
         W/D/L {}/{}/{} LOS {:.4}{}; look {took:.1} s",
        s.units,
        s.mean,
        s.mean - s.ci95,
        s.mean + s.ci95,
        s.llr.0,
        s.llr.1,
        s.bounds.0,
        s.bounds.1,
        s.wdl.0,
        s.wdl.1,
        s.wdl.2,
        s.los,
        tresillo_runs::pairs::elo_text(s.elo)
    );
}

/// Runs `tresillo sprt`.
pub fn run(a: &SprtArgs, out: &mut impl Write) -> Result<()> {
    let players = a.rules.players()?;
    let (settings, kind) = settings_of(a, players)?;
    let (sa, sb) = settings.slots;
    let test = settings.test;
    let book = a.deals_from.as_deref().map(tresillo_runs::read_book).transpose()?;
    let max_deals = max_deals_of(a, book.as_ref())?;
    let config = TournamentConfig {
        agents: a.agents.split(',').map(|s| s.trim().to_string()).collect(),
        players,
        deals: max_deals,
        seed: a.seed,
        rules: a.rules.parse()?,
        scoring: Scoring::Deal,
        duplicate: true,
        shard: Shard::WHOLE,
        bidding: a.bidding.as_deref().map(|b| b.trim().to_string()),
        bidding_covers: a.bidding_covers.unwrap_or_default(),
    };
    let registry = crate::registry();
    config.validate_with(&registry)?;
    let (name_a, name_b) = (format!("{sa}:{}", config.agents[sa]), format!("{sb}:{}", config.agents[sb]));
    let last = std::sync::Mutex::new(std::time::Instant::now());
    let look = |s: &SprtState| {
        let took = {
            let mut t = last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let took = t.elapsed().as_secs_f64();
            *t = std::time::Instant::now();
            took
        };
        look_note(s, (&name_a, &name_b), took);
    };
    let state = match &a.out {
        Some(dir) => kept(a, &config, book.as_ref(), &settings, kind, dir, look)?,
        None => {
            if a.resume || a.force {
                bail!("--resume and --force need --out (the directory that keeps the test)");
            }
            let t = Tournament::with_registry(config.clone(), registry)?.with_book(book.clone())?;
            let mut b = rayon::ThreadPoolBuilder::new();
            if let Some(n) = a.threads {
                b = b.num_threads(n);
            }
            b.build()?.install(|| run_sprt(&t, &settings, max_deals, look))?
        }
    };
    let why = verdict_line(&state, test, kind, a.margin, (&name_a, &name_b), max_deals);
    writeln!(out, "{why}")?;
    write_evidence(out, a, &state, (test, kind), (&name_a, &name_b), config.seatings().len())?;
    write_keep(out, a, &state, &config, book.as_ref(), max_deals)
}

/// What `sprt.json` holds (its reader and checks are tresillo-runs').
pub(crate) use tresillo_runs::sprt::SprtFile as Kept;
use tresillo_runs::sprt::{look_dir, push_look};

/// `--out`: each look a shard (`k` of `max_deals / batch`) of the run of
/// `max_deals` deals, played (or continued, or skipped when complete) by
/// tresillo-runs; the differences read back from its deals.csv, so the state is
/// that of [`run_sprt`] on the same deals.
fn kept(
    a: &SprtArgs,
    config: &TournamentConfig,
    book: Option<&DealBook>,
    settings: &SprtSettings,
    kind: &str,
    dir: &Path,
    look: impl Fn(&SprtState),
) -> Result<SprtState> {
    ensure!(!(a.resume && a.force), "--resume and --force exclude each other");
    ensure!(
        config.deals.is_multiple_of(a.batch),
        "--max-deals {} is not a multiple of --batch {}: with --out every look is a shard of {} deals",
        config.deals,
        a.batch,
        a.batch
    );
    // One process at a time writes the test (as a run directory's writer): a second
    // start, `--force` or `--resume` on a test in progress is refused with its pid.
    let _lock = tresillo_runs::lock_dir(dir)?;
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
        bounds: Differences::default().look(settings).bounds,
        verdict: "undecided".into(),
        test: kind.into(),
        h0: match settings.test {
            Test::Bounds { h0, .. } => Some(h0),
            Test::Difference => None,
        },
        h1: match settings.test {
            Test::Bounds { h1, .. } => Some(h1),
            Test::Difference => None,
        },
        zero_variance: false,
        looks: Vec::new(),
        deal_book: book.cloned(),
        evidence: None,
    };
    if state_path.exists() {
        let old = Kept::read(dir)?;
        let same = Kept {
            deals: 0,
            mean: 0.0,
            llr: (0.0, 0.0),
            bounds: kept.bounds,
            verdict: kept.verdict.clone(),
            zero_variance: false,
            looks: Vec::new(),
            evidence: None,
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
        Ok(tresillo_runs::durable::write_atomic(&state_path, serde_json::to_string_pretty(kept)?.as_bytes())?)
    };
    if !state_path.exists() || a.force {
        write(&kept)?;
    }
    let looks = config.deals / a.batch;
    let mut diffs = Differences::default();
    let mut state = diffs.look(settings);
    for k in 0..looks {
        let shard = kept.look_config(k);
        let out = look_dir(dir, k);
        let options = RunOptions {
            out: out.clone(),
            threads: a.threads,
            // Always: a look killed before its first checkpoint (no manifest yet)
            // is started over, one with a checkpoint continued, a finished one kept.
            resume: true,
            force: false,
            record: None,
            progress: true,
            build: Some(crate::provenance::current()),
            registry: crate::registry(),
            note: &|_| {},
            format: tresillo_runs::Format::Csv,
            bots: Vec::new(),
        };
        tresillo_runs::run_book(&shard, &options, book, crate::command_line())?;
        push_look(&mut diffs, &out, &shard, (sa, sb))?;
        state = diffs.look(settings);
        look(&state);
        let compute =
            tresillo_runs::sprt::look_compute(&out, shard.deal_range().1 - shard.deal_range().0, (sa, sb))?;
        if let Some(c) = &compute {
            note!(
                "  look {k}: {sa}:{} {} decisions in {:.2} CPU s, {sb}:{} {} in {:.2} CPU s",
                config.agents[sa],
                c.decisions.0,
                c.cpu_s.0,
                config.agents[sb],
                c.decisions.1,
                c.cpu_s.1
            );
        }
        kept.record(&state, compute);
        write(&kept)?;
        if state.verdict != Verdict::Undecided {
            break;
        }
    }
    Ok(state)
}
