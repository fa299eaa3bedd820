//! `tresillo train`: a network trained on played deals (tresillo-learn), written
//! as a safetensors model file that records its input layout, its training data
//! and this command line.

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use tresillo_learn::{Kind, TrainConfig};

/// Arguments of `tresillo train`.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// What to learn: `locations` (where each unseen card lies), `policy` (the
    /// actions an agent takes) or `value` (what each action is worth: the
    /// seat's score for the hand).
    #[arg(long)]
    kind: String,
    /// The agents that play the training deals, one per seat, comma-separated
    /// (any spec of `tresillo agents`).
    #[arg(long, default_value = "rule,rule,rule")]
    agents: String,
    /// Training deals played.
    #[arg(long, default_value_t = 20_000, value_parser = crate::args::non_negative::<u64>)]
    deals: u64,
    /// The deals' master seed (deal i is the tournament's deal i of this seed).
    #[arg(long, default_value_t = 1, value_parser = crate::args::non_negative::<u64>)]
    seed: u64,
    /// Percentage of auction and contract decisions taken at random while playing
    /// the deals (what a value model needs to see of other bids).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    explore: u32,
    /// Keep only the rows of these kinds of request, comma-separated (bid,
    /// declare, discard, word, play, surrender, takeover, bola, ...): for
    /// example `bid,declare` for a value model of the auction.
    #[arg(long)]
    phases: Option<String>,
    /// Learn only the decisions of the agent in this slot of `--agents` (a
    /// policy of that agent).
    #[arg(long)]
    slot: Option<u8>,
    /// Hidden layers' widths, comma-separated.
    #[arg(long, default_value = "256,256")]
    hidden: String,
    /// Passes over the training rows.
    #[arg(long, default_value_t = 2)]
    epochs: u32,
    /// Rows per step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// AdamW's learning rate.
    #[arg(long, default_value_t = 1e-3)]
    lr: f64,
    /// The seed of the initial weights and of the order of the rows.
    #[arg(long, default_value_t = 1)]
    train_seed: u64,
    /// Percentage of the deals held out to measure the model on.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=90))]
    held_out: u32,
    /// Train on the rows of a dataset directory (`tresillo dataset`, every shard
    /// checked against its manifest) instead of playing deals: the agents, deals,
    /// seed, rules and exploration are the dataset's; `--phases` and `--slot`
    /// still choose among its rows.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["agents", "deals", "seed", "explore"])]
    data: Option<PathBuf>,
    /// The model file to write.
    #[arg(long)]
    out: PathBuf,
    /// Replace `--out` if it exists.
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// The rule set and its options.
    #[command(flatten)]
    rules: crate::rules::RulesArgs,
}

/// Runs `tresillo train`.
pub fn run(a: &TrainArgs, out: &mut impl Write) -> Result<()> {
    let kind = Kind::parse(&a.kind)?;
    let hidden: Vec<usize> = a
        .hidden
        .split(',')
        .map(|h| match h.trim().parse::<usize>() {
            Ok(n) if (1..=4096).contains(&n) => Ok(n),
            _ => bail!("--hidden: {h:?} is not a width from 1 to 4096"),
        })
        .collect::<Result<_>>()?;
    if a.batch == 0 || a.epochs == 0 {
        bail!("--batch and --epochs must be at least 1");
    }
    if a.out.exists() && !a.force {
        bail!("{} exists: use --force to replace it", a.out.display());
    }
    let phases = match &a.phases {
        Some(p) => tresillo_learn::data::phase_mask(p).map_err(|e| anyhow::anyhow!("--phases: {e}"))?,
        None => 0,
    };
    let (rows, data, set, players) = match &a.data {
        Some(dir) => {
            let (m, mut rows) = tresillo_runs::dataset::read_dataset(dir)?;
            if let Some(s) = a.slot
                && usize::from(s) >= m.agents.len()
            {
                bail!("--slot {s}: the dataset's slots are 0 to {}", m.agents.len() - 1);
            }
            if phases != 0 {
                rows.retain(|r| phases & (1 << r.phase) != 0);
            }
            let kept = if m.phases.is_empty() { "all".to_string() } else { m.phases.join(",") };
            let data = format!(
                "dataset {}: {} deals of seed {} played by {} ({} {} players, explore {}%, phases {kept}), \
                 phases {}",
                dir.display(),
                m.deals,
                m.seed,
                m.agents.join(","),
                m.rules,
                m.players,
                m.explore,
                a.phases.as_deref().unwrap_or("all"),
            );
            let set = m.rules.split_whitespace().next().unwrap_or_default().to_string();
            (rows, data, set, m.players)
        }
        None => {
            let rules = a.rules.parse()?;
            let players = a.rules.players()?;
            let specs = tresillo_agents::split_specs(&a.agents)?;
            if specs.len() != usize::from(players) {
                bail!("--agents: {} agents for {players} seats", specs.len());
            }
            if let Some(s) = a.slot
                && usize::from(s) >= specs.len()
            {
                bail!("--slot {s}: the agents' slots are 0 to {}", specs.len() - 1);
            }
            let setup = tresillo_learn::Setup { rules, players, seed: a.seed, explore: a.explore, phases };
            let registry = crate::registry();
            let rows = tresillo_learn::play_deals(&setup, &specs, &registry, 0..a.deals)?;
            let data = format!(
                "{} deals of seed {} played by {} ({} {} players, explore {}%, phases {})",
                a.deals,
                a.seed,
                specs.join(","),
                rules.set.name(),
                players,
                a.explore,
                a.phases.as_deref().unwrap_or("all"),
            );
            (rows, data, rules.set.name().to_string(), players)
        }
    };
    let config = TrainConfig {
        kind,
        hidden,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        weight_decay: 1e-4,
        seed: a.train_seed,
        held_out: a.held_out,
        slot: a.slot,
    };
    let bar = if a.quiet { ProgressBar::hidden() } else { ProgressBar::new(1) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} steps, loss {msg} ({elapsed}, {eta} left)")
            .expect("a valid template"),
    );
    let (mut net, report) = tresillo_learn::train(&rows, &config, |p| {
        if p.step == 1 {
            bar.set_length(p.steps);
        }
        if p.step % 16 == 0 || p.step == p.steps {
            bar.set_position(p.step);
            bar.set_message(format!("{:.4}", p.loss));
        }
    })?;
    bar.finish_and_clear();
    let info = net.info_mut();
    info.data = format!("{data}: {} rows", rows.len());
    info.command = std::env::args().collect::<Vec<_>>().join(" ");
    info.rules = Some(set);
    info.players = Some(players);
    let bytes = net.to_bytes()?;
    tresillo_runs::durable::write_atomic(&a.out, &bytes)
        .with_context(|| format!("writing {}", a.out.display()))?;
    writeln!(
        out,
        "{} model: {} training rows, {} held out; loss {:.4} -> {:.4}",
        kind.name(),
        report.train_rows,
        report.test_rows,
        report.first_loss,
        report.last_loss
    )?;
    for (k, v) in &report.metrics {
        writeln!(out, "  {k} = {v:.4}")?;
    }
    writeln!(out, "wrote {} ({} bytes)", a.out.display(), bytes.len())?;
    Ok(())
}
