//! `tresillo perft`.

use anyhow::{Context, Result, bail};
use std::io::Write;
use tresillo_core::{Deal, PlayState, Seat, parse_suit};

/// Arguments of `tresillo perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// The deal: `h0 / h1 / h2 [/ heap]`; hands may hold fewer than nine cards (all
    /// equal). With `--players 4`, `h0 / h1 / h2 / h3 [/ heap]`: the seat whose hand
    /// is `-` sits out (three-card tricks), or all four play (`penetro_all_play`).
    #[arg(long)]
    deal: String,
    /// Trumps: espadas, bastos, copas or oros; `none` (no trump, the order of the
    /// L'Hombre nolo contracts) with `--rules lhombre`.
    #[arg(long)]
    trump: String,
    /// The seat that leads the first trick.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u8>)]
    leader: u8,
    /// Plies (cards) to count.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u32>)]
    depth: u32,
    /// Print each first card with its count.
    #[arg(long)]
    divide: bool,
    /// The rule set and its options (every rule set plays its trump contracts by
    /// section 5, so those counts do not depend on it; `lhombre` adds `--trump
    /// none`; bad names are refused).
    #[command(flatten)]
    rules: crate::rules::RulesArgs,
}

/// Runs `tresillo perft`.
pub fn run(a: &PerftArgs, out: &mut impl Write) -> Result<()> {
    let rules = a.rules.parse()?;
    let players = a.rules.players()?;
    let table = rules.table(players);
    let deal = Deal::parse_partial_at(&a.deal, table).with_context(|| {
        // One hand more than the players, and the heap: a deal of a table of four.
        if table.every_seat_plays() && a.deal.split('/').count() == usize::from(players) + 2 {
            "bad --deal (a table of four takes --players 4)".to_string()
        } else {
            format!("bad --deal for --players {players}")
        }
    })?;
    // Any table but three seats that all play: the active seats from the hands.
    let four = table != tresillo_core::Table::THREE;
    let cards: u32 = deal.hands.0.iter().map(|h| h.len()).sum();
    if cards == 0 {
        bail!("bad --deal: the hands are empty (give each hand at least one card)");
    }
    if a.depth > cards {
        bail!("--depth {} is more than the {cards} plies the hands hold", a.depth);
    }
    let trump = if a.trump == "none" {
        if !rules.spec().contracts.iter().any(|c| c.is_nolo()) {
            bail!("bad --trump none: rule set {} has no contract without trumps (lhombre has)", rules.set);
        }
        None
    } else {
        Some(parse_suit(&a.trump).context("bad --trump")?)
    };
    let mut pos = if four {
        let active = (0..4).filter(|&s| !deal.hands.0[s].is_empty()).fold(0u8, |m, s| m | 1 << s);
        if active & (1 << a.leader.min(7)) == 0 {
            bail!("bad --leader {}: seat {} holds no cards", a.leader, a.leader);
        }
        PlayState::with_seats(deal.hands.0, trump, Seat(a.leader), active)
    } else {
        if a.leader > 2 {
            bail!("bad --leader {}: seats are 0, 1 and 2", a.leader);
        }
        PlayState::new([deal.hands.0[0], deal.hands.0[1], deal.hands.0[2]], trump, Seat(a.leader))
    };
    if a.divide {
        let mut total = 0;
        for (c, n) in pos.perft_divide(a.depth) {
            writeln!(out, "{c}: {n}")?;
            total += n;
        }
        writeln!(out, "{}", if a.depth == 0 { 1 } else { total })?;
    } else {
        writeln!(out, "{}", pos.perft(a.depth))?;
    }
    Ok(())
}
