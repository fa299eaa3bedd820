//! `tresillo play`: one hand, narrated.

use anyhow::{Context, Result};
use std::io::Write;
use tresillo_agents::cheat::Seated;
use tresillo_agents::{build_seated, play_hand_with, seat_rngs};
use tresillo_core::{AllPass, Deal, Decision, Hand, Outcome, Request, Seat};

/// Arguments of `tresillo play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The deal seed (also seeds the agents' choices).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    seed: u64,
    /// Play this deal (`h0 / h1 / h2 / heap`) instead of the seed's.
    #[arg(long)]
    deal: Option<String>,
    /// The dealer's seat.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u8>)]
    dealer: u8,
    /// One agent spec per seat, comma-separated (see `tresillo agents`).
    #[arg(long, default_value = "random,random,random")]
    agents: String,
    /// The rule set and its options.
    #[command(flatten)]
    rules: crate::rules::RulesArgs,
}

/// Splits and builds `a,b,c` into three agents (the `cheat` agent included).
pub fn parse_agents(spec: &str) -> Result<Vec<Seated>> {
    let specs: Vec<&str> = spec.split(',').collect();
    if specs.len() != 3 {
        anyhow::bail!("--agents needs three agent specs separated by commas, got {}", specs.len());
    }
    specs.iter().map(|s| build_seated(s).map_err(anyhow::Error::from)).collect()
}

/// Runs `tresillo play`.
pub fn run(a: &PlayArgs, out: &mut impl Write) -> Result<()> {
    let deal = match &a.deal {
        Some(d) => Deal::parse(d).context("bad --deal")?,
        None => tresillo_sim::deal_for_seed(a.seed),
    };
    anyhow::ensure!(a.dealer < 3, "bad --dealer {}: seats are 0, 1 and 2", a.dealer);
    let mut agents = parse_agents(&a.agents)?;
    let rules = a.rules.parse()?;
    for spec in a.agents.split(',') {
        tresillo_agents::check_rules(spec, &rules).map_err(anyhow::Error::msg)?;
    }
    let mut hand = Hand::with_rules(rules, 3, deal, Seat(a.dealer))?;
    writeln!(out, "deal: {deal}")?;
    let p = *hand.public();
    writeln!(out, "dealer: seat {}; mano: seat {}", p.dealer, p.mano())?;
    for s in 0..3u8 {
        writeln!(out, "seat {s} ({}): {}", agents[s as usize].name(), deal.hands.0[s as usize])?;
    }
    let mut lines = Vec::new();
    let mut rngs = seat_rngs(a.seed);
    let result = play_hand_with(&mut hand, &mut agents, &mut rngs, |h, d| lines.push(narrate(h, d)))?;
    for l in lines.into_iter().flatten() {
        writeln!(out, "{l}")?;
    }
    let t = result.tricks.0;
    match result.outcome {
        Outcome::Cancelled => writeln!(out, "outcome: cancelled (all passed, the espada is in the heap)")?,
        o => writeln!(
            out,
            "outcome: {o} for declarer seat {}; tricks {}-{}-{}{}{}",
            result.final_declarer().expect("declarer"),
            t[0],
            t[1],
            t[2],
            if result.primeras { "; primeras" } else { "" },
            match (result.bola_attempted, result.bola_made) {
                (true, true) => "; bola made",
                (true, false) => "; bola failed",
                _ => "",
            }
        )?,
    }
    Ok(())
}

/// One line (or none) describing decision `d` taken in `h`.
fn narrate(h: &Hand, d: &Decision) -> Option<String> {
    let req = h.request();
    let seat = req.seat()?;
    let p = h.public();
    Some(match (*d, req) {
        (Decision::Bid(b), _) => format!("auction: seat {seat} says {b}"),
        (Decision::Declare(c, t), Request::Declare { forced, .. }) => {
            let trump = match (t, h.deal().heap.cards().first()) {
                (Some(s), _) => format!("trumps {s}"),
                (None, Some(top)) => format!("turns up {top}: trumps {}", top.suit()),
                (None, None) => String::new(),
            };
            let label = match (forced, p.game_rules().spec().all_pass) {
                (false, _) => "",
                (true, AllPass::EspadaForzada) => "(espada forzada) ",
                (true, AllPass::ForcedEntrada) => "(forced entrada) ",
            };
            format!("seat {seat} {label}plays {c}, {trump}")
        }
        (Decision::Discard(set), _) => {
            let k = set.len() as usize;
            let start = 13 - p.heap_left as usize;
            let drawn: Vec<String> =
                h.deal().heap.cards()[start..start + k].iter().map(ToString::to_string).collect();
            format!("exchange: seat {seat} discards {k} [{set}] and draws [{}]", drawn.join(" "))
        }
        (Decision::Word(w), _) => format!("conversation: seat {seat} says {w}"),
        (Decision::Play(c), _) => {
            let n = p.current_trick().len();
            let mut s = format!("trick {}: seat {seat} plays {c}", p.tricks_done + 1);
            if n == 2 {
                let mut after = *h;
                after.apply_unchecked(*d);
                let w = after.public().trick_winners()[p.tricks_done as usize];
                s.push_str(&format!("  -> seat {w} wins"));
            }
            s
        }
        (Decision::Surrender(g), _) => format!("seat {seat} {}", if g { "gives up" } else { "plays on" }),
        (Decision::TakeOver(t), _) => {
            format!("seat {seat} {}", if t { "says yo sigo and takes over" } else { "does not take over" })
        }
        (Decision::Bola(b), _) => {
            format!("seat {seat} {}", if b { "plays on for bola" } else { "stops with primeras" })
        }
        _ => return None,
    })
}
