//! `tresillo replay`: print recorded hands trick by trick, or play again the hand of
//! a `deals.csv` row from its seeds.
//!
//! Record files are read twice: a first pass parses and checks every line
//! ([`HandRecord::replay`]), and only when all of them are valid does the second
//! pass print, so a bad file prints nothing but its one-line error.

use crate::narrate::{write_hand, write_records};
use anyhow::{Context, Result, bail, ensure};
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use tresillo_agents::{SplitPlayer, build_seated, seat_rngs};
use tresillo_core::{Hand, Rules, Seat};
use tresillo_sim::{
    HandRecord, TournamentOrigin, deal_for_seed, deal_seed, play_recorded, seating_index, seating_rng_seed,
};

/// Arguments of `tresillo replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// A record file (JSON Lines, docs/RECORDS.md) to check and print.
    #[arg(value_name = "FILE", required_unless_present_any = ["deal_seed", "deal"])]
    file: Option<PathBuf>,
    /// Print only hand N of FILE (1-based: the hand on line N).
    #[arg(long, value_name = "N", requires = "file", allow_negative_numbers = true, value_parser = crate::args::non_negative::<usize>)]
    hand: Option<usize>,
    /// Play again a tournament hand from its deal seed (the `deal_seed` column of
    /// deals.csv); needs `--dealer` and `--agents`.
    #[arg(long, value_name = "SEED", conflicts_with_all = ["file", "deal"], requires_all = ["dealer", "agents"], allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    deal_seed: Option<u64>,
    /// The dealer's seat (the `dealer` column).
    #[arg(long, value_name = "SEAT", requires = "deal_seed", allow_negative_numbers = true, value_parser = crate::args::non_negative::<u8>)]
    dealer: Option<u8>,
    /// Play again deal N of the tournament with master seed `--seed` (the `deal`
    /// column); the deal seed and the dealer (N mod 3) follow from them.
    #[arg(long, value_name = "N", conflicts_with = "file", requires_all = ["seed", "agents"], allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    deal: Option<u64>,
    /// The tournament's master seed (with `--deal`).
    #[arg(long, value_name = "MASTER", requires = "deal", allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    seed: Option<u64>,
    /// The agent specs in seat order: the `agent0`, `agent1`, `agent2` columns (and
    /// `agent3` at a table of four: four specs replay a four-player hand).
    #[arg(long, value_name = "A,B,C", conflicts_with = "file")]
    agents: Option<String>,
    /// The `seating` column (`012` without `--duplicate`): it selects the seats'
    /// random streams.
    #[arg(long, default_value = "012", conflicts_with = "file")]
    seating: String,
    /// The tournament's `--bidding` agent, if it had one (in its manifest.json).
    #[arg(long, value_name = "AGENT", conflicts_with = "file")]
    bidding: Option<String>,
    /// The tournament's `--bidding-covers`, if it had one (in its manifest.json).
    #[arg(long, value_name = "bidding|all", requires = "bidding", conflicts_with = "file")]
    bidding_covers: Option<tresillo_agents::BiddingCovers>,
    /// The rule set (the `rules` column).
    #[arg(long, default_value = "tresillo", conflicts_with = "file")]
    rules: String,
    /// A rule option of the tournament as key=value (in its manifest.json), for
    /// example `penetro_all_play=true`.
    #[arg(long = "rule-option", value_name = "KEY=VALUE", conflicts_with = "file")]
    rule_option: Vec<String>,
    /// Also write the replayed hand's record to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "file")]
    record: Option<PathBuf>,
}

/// Runs `tresillo replay`.
pub fn run(a: &ReplayArgs, out: &mut impl Write) -> Result<()> {
    if let Some(path) = &a.file {
        return replay_file(path, a.hand, out);
    }
    let rec = replay_row(a)?;
    if let Some(path) = &a.record {
        write_records(path, std::slice::from_ref(&rec))?;
    }
    write_hand(out, &rec)
}

/// Checks every record of `path`, then prints hand `only` (1-based) or all of them.
fn replay_file(path: &Path, only: Option<usize>, out: &mut impl Write) -> Result<()> {
    let count = for_each_record(path, |_, _| Ok(()))?;
    if let Some(n) = only {
        ensure!(n >= 1 && n <= count, "{}: --hand {n}: the file holds hands 1 to {count}", path.display());
    }
    for_each_record(path, |line, rec| {
        match only {
            Some(n) if n != line => return Ok(()),
            Some(_) => {}
            None if count > 1 => {
                if line > 1 {
                    writeln!(out)?;
                }
                writeln!(out, "== hand {line} ==")?;
            }
            None => {}
        }
        write_hand(out, rec)
    })?;
    Ok(())
}

/// Reads `path` line by line; parses and checks each record ([`HandRecord::replay`])
/// and hands it to `f` with its line number. Any bad line is an error naming the
/// file and line. Returns the number of records (at least one).
pub fn for_each_record(path: &Path, mut f: impl FnMut(usize, &HandRecord) -> Result<()>) -> Result<usize> {
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut lines = tresillo_runs::lines::Lines::new(BufReader::new(file), path.display().to_string());
    let mut n = 0;
    while let Some((at, line)) = lines.next_line()? {
        n = at;
        let text = line.as_str();
        if text.trim().is_empty() {
            bail!("{}:{n}: empty line (a record file holds one hand per line)", path.display());
        }
        let rec: HandRecord = tresillo_sim::json::from_str(text)
            .map_err(|e| anyhow::anyhow!("{}:{n}: malformed record: {e}", path.display()))?;
        rec.replay().map_err(|e| anyhow::anyhow!("{}:{n}: invalid record: {e}", path.display()))?;
        f(n, &rec)?;
    }
    ensure!(n > 0, "{}: no records (the file is empty)", path.display());
    Ok(n)
}

/// Plays again the hand a `deals.csv` row describes and returns its record.
fn replay_row(a: &ReplayArgs) -> Result<HandRecord> {
    let pairs = a.rule_option.iter().map(|o| Rules::split_option(o)).collect::<Result<Vec<_>, _>>()?;
    let game = Rules::parse(a.rules.trim(), &pairs)?;
    let rules = game.set;
    let specs: Vec<String> = a
        .agents
        .as_deref()
        .context("--agents is required")?
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    // The seat counts the rule set is played at, in words.
    let tables = game.set.spec().tables;
    let counts: Vec<&str> = tables.iter().map(|t| t.players_word()).collect();
    ensure!(
        tables.iter().any(|t| usize::from(t.players) == specs.len()),
        "--agents needs {} agent specs in seat order, got {}",
        counts.join(" or "),
        specs.len()
    );
    let n = specs.len() as u8;
    game.check_players(n)?;
    let si = seating_index(&a.seating).filter(|_| a.seating.len() == specs.len()).with_context(|| {
        let seats: String = (0..n).map(|s| s.to_string()).collect();
        format!(
            "bad --seating `{}`: expected {} digits, a permutation of {seats}",
            a.seating,
            game.table(n).players_word()
        )
    })?;
    let (seed, dealer, origin) = match (a.deal_seed, a.deal, a.seed) {
        (Some(s), _, _) => {
            let d = a.dealer.context("--deal-seed needs --dealer")?;
            ensure!(d < n, "bad --dealer {d}: seats are 0 to {}", n - 1);
            (s, d, None)
        }
        (None, Some(i), Some(m)) => (
            deal_seed(m, i),
            (i % u64::from(n)) as u8,
            Some(TournamentOrigin { master_seed: m, deal: i, seating: a.seating.clone() }),
        ),
        _ => bail!("give a record FILE, or --deal-seed SEED --dealer D, or --deal N --seed MASTER"),
    };
    let mut agents = Vec::new();
    for s in &specs {
        let bidding = match &a.bidding {
            Some(b) => Some(build_seated(b)?),
            None => None,
        };
        agents.push(SplitPlayer {
            play: build_seated(s)?,
            bidding,
            covers: a.bidding_covers.unwrap_or_default(),
        });
    }
    let deal = deal_for_seed(seed).seated(game.table(n), Seat(dealer));
    let mut hand = Hand::with_rules(game, n, deal, Seat(dealer))?;
    let rng_seed = seating_rng_seed(seed, si);
    let (result, steps) = play_recorded(&mut hand, &mut agents, &mut seat_rngs(rng_seed))?;
    let mut rec = HandRecord::new(rules, deal, Seat(dealer), specs, steps, result);
    rec.set_rules(&game);
    rec.seed = Some(seed);
    rec.rng_seed = Some(rng_seed);
    rec.tournament = origin;
    rec.bidding.clone_from(&a.bidding);
    rec.bidding_covers = a.bidding_covers.unwrap_or_default();
    Ok(rec)
}
