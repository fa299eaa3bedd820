//! `tresillo sprt`: is agent A better than agent B? Duplicate deals in batches
//! until a sequential test decides, at stated error rates
//! ([`tresillo_sim::sequential`]).

use anyhow::{Result, bail};
use std::io::Write;
use tresillo_sim::sequential::{SprtSettings, Verdict, run_sprt};
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
    let t = Tournament::with_registry(config.clone(), registry)?;
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(n) = a.threads {
        b = b.num_threads(n);
    }
    let pool = b.build()?;
    let (name_a, name_b) = (format!("{sa}:{}", config.agents[sa]), format!("{sb}:{}", config.agents[sb]));
    let state = pool.install(|| {
        run_sprt(&t, &settings, a.max_deals, |s| {
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
        })
    })?;
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
    Ok(())
}
