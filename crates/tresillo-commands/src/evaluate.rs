//! `tresillo evaluate`: a trained model measured on fresh deals.

use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use tresillo_learn::{Kind, Net};

/// Arguments of `tresillo evaluate`.
#[derive(clap::Args)]
pub struct EvaluateArgs {
    /// The model file.
    #[arg(long)]
    model: PathBuf,
    /// The agents that play the deals, one per seat.
    #[arg(long, default_value = "rule,rule,rule")]
    agents: String,
    /// Deals played.
    #[arg(long, default_value_t = 300, value_parser = crate::args::non_negative::<u64>)]
    deals: u64,
    /// The deals' master seed (use one the model was not trained on).
    #[arg(long, default_value_t = 9001, value_parser = crate::args::non_negative::<u64>)]
    seed: u64,
    /// A locations model: the worlds drawn per card-play decision for the
    /// samplers' marginals.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pool: u32,
    /// A locations model: the power (percent) of its weights in the weighted pool.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u32).range(1..=100))]
    loc_pow: u32,
    /// The rule set and its options.
    #[command(flatten)]
    rules: crate::rules::RulesArgs,
}

/// Runs `tresillo evaluate`.
pub fn run(a: &EvaluateArgs, out: &mut impl Write) -> Result<()> {
    let bytes = std::fs::read(&a.model).with_context(|| format!("reading {}", a.model.display()))?;
    let net = Arc::new(Net::from_bytes(&bytes).with_context(|| format!("{}", a.model.display()))?);
    let rules = a.rules.parse()?;
    let players = a.rules.players()?;
    let specs = tresillo_agents::split_specs(&a.agents)?;
    if specs.len() != usize::from(players) {
        bail!("--agents: {} agents for {players} seats", specs.len());
    }
    let setup = tresillo_learn::Setup { rules, players, seed: a.seed, explore: 0, phases: 0 };
    let registry = crate::registry();
    let kind = net.info().kind;
    writeln!(
        out,
        "{} model {}; {} deals of seed {} played by {}",
        kind.name(),
        a.model.display(),
        a.deals,
        a.seed,
        specs.join(",")
    )?;
    match kind {
        Kind::Locations => {
            let s = tresillo_learn::eval::locations(
                &setup,
                &specs,
                &registry,
                0..a.deals,
                net,
                a.pool,
                f64::from(a.loc_pow) / 100.0,
            )?;
            writeln!(
                out,
                "{} card-play decisions, {} hidden cards; mean log-loss per hidden card (nats):",
                s.decisions, s.cards
            )?;
            for (k, m) in tresillo_learn::eval::METHODS.iter().enumerate() {
                writeln!(out, "  {m:<9} {:.4}", s.mean(k))?;
            }
        }
        Kind::Policy | Kind::Value => {
            let rows = tresillo_learn::play_deals(&setup, &specs, &registry, 0..a.deals)?;
            let chosen: Vec<&tresillo_learn::Row> = rows.iter().filter(|r| r.legal_count() > 1).collect();
            writeln!(out, "{} decisions with a choice", chosen.len())?;
            writeln!(out, "  agreement  {:.4}", tresillo_learn::train::agreement(&net, &chosen)?)?;
            writeln!(out, "  loss       {:.4}", tresillo_learn::train::mean_loss(&net, &chosen)?)?;
        }
    }
    Ok(())
}
