//! `tresillo play`: one hand between agents, narrated, or a session at the table
//! with a human (`--human`, in human.rs).

use crate::narrate::{write_hand, write_records};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;
use tresillo_agents::cheat::Seated;
use tresillo_agents::seat_rngs;
use tresillo_core::{Deal, Hand, Seat};
use tresillo_sim::{HandRecord, play_recorded};

/// Arguments of `tresillo play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The deal seed (also seeds the agents' choices). With `--human`, hand k
    /// (0-based) of the session is deal k of master seed SEED, as in a tournament.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    seed: u64,
    /// Play this deal (`h0 / h1 / h2 / heap`; at four players `h0 / h1 / h2 / h3 /
    /// heap` with the dealer's hand `-`) instead of the seed's.
    #[arg(long)]
    deal: Option<String>,
    /// The dealer's seat (with `--hands`, of the first hand).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u8>)]
    dealer: u8,
    /// One agent spec per seat (three, or four with `--players 4`), comma-separated
    /// (see `tresillo agents`); with `--human`, the bots (two, or three at four
    /// players) in seat order after the human's seat.
    #[arg(long)]
    agents: Option<String>,
    /// Write the hand (every hand of a `--human` session) to FILE as JSON Lines
    /// (docs/RECORDS.md); an existing file is replaced.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Sit at the table yourself in seat SEAT (0 to 2, or 0 to 3 at four players),
    /// against two bots (three at four players).
    #[arg(long, value_name = "SEAT", allow_negative_numbers = true, value_parser = crate::args::non_negative::<u8>)]
    human: Option<u8>,
    /// With `--human`: hands in the session (one ledger; the dealer rotates).
    #[arg(long, default_value_t = 1, requires = "human", allow_negative_numbers = true, value_parser = crate::args::non_negative::<u32>)]
    hands: u32,
    /// With `--human`: the agent `hint` asks by default.
    #[arg(long, default_value = "rule", requires = "human")]
    hint: String,
    /// The rule set, its options and the table size (`--human` plays them all).
    #[command(flatten)]
    rules: crate::rules::RulesArgs,
}

/// Splits and builds `spec` into one agent per seat of `table`.
pub fn parse_agents_for(spec: &str, table: tresillo_core::Table) -> Result<Vec<Seated>> {
    let specs: Vec<&str> = spec.split(',').collect();
    if specs.len() != usize::from(table.players) {
        let n = table.players_word();
        anyhow::bail!("--agents needs {n} agent specs separated by commas, got {}", specs.len());
    }
    specs.iter().map(|s| crate::registry().build_seated(s.trim()).map_err(anyhow::Error::from)).collect()
}

/// Runs `tresillo play`.
pub fn run(a: &PlayArgs, out: &mut impl Write) -> Result<()> {
    let rules = a.rules.parse()?;
    let n = a.rules.players()?;
    anyhow::ensure!(a.dealer < n, "bad --dealer {}: seats are 0 to {}", a.dealer, n - 1);
    if let Some(p) = &a.record {
        tresillo_runs::check_output_file(p, "--record")?;
    }
    if let Some(seat) = a.human {
        let session = crate::human::Session {
            seat,
            agents: a
                .agents
                .clone()
                // A rule agent in every other seat.
                .unwrap_or_else(|| vec!["rule"; usize::from(n).saturating_sub(1)].join(",")),
            players: n,
            seed: a.seed,
            deal: a.deal.clone(),
            dealer: a.dealer,
            hands: a.hands,
            hint: a.hint.clone(),
            record: a.record.clone(),
            rules,
        };
        let stdin = std::io::stdin();
        return crate::human::run(&session, &mut stdin.lock(), out);
    }
    let deal = match &a.deal {
        Some(d) => Deal::parse(d).context("bad --deal")?,
        None => tresillo_sim::deal_for_seed(a.seed).seated(rules.table(n), Seat(a.dealer)),
    };
    // A random agent in every seat of the table.
    let default_agents = vec!["random"; usize::from(rules.table(n).players)].join(",");
    let specs = a.agents.as_deref().unwrap_or(&default_agents);
    let mut agents = parse_agents_for(specs, rules.table(n))?;
    let mut hand = Hand::with_rules(rules, n, deal, Seat(a.dealer))?;
    let (result, steps) = play_recorded(&mut hand, &mut agents, &mut seat_rngs(a.seed))?;
    let names = specs.split(',').map(|x| x.trim().to_string()).collect();
    let mut rec = HandRecord::new(rules.set, deal, Seat(a.dealer), names, steps, result);
    rec.set_rules(&rules);
    rec.seed = if a.deal.is_some() { None } else { Some(a.seed) };
    rec.rng_seed = Some(a.seed);
    if let Some(path) = &a.record {
        write_records(path, std::slice::from_ref(&rec))?;
    }
    write_hand(out, &rec)
}
