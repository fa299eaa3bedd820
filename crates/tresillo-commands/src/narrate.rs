//! The narrative of a hand (one line per decision), shared by `play`, `replay` and
//! the human table, and the writing of game records.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;
use tresillo_core::Question;
use tresillo_core::{Bid, Contract, Deal, Decision, Hand, HandResult, Outcome, Phase, Request, Seat};
use tresillo_sim::HandRecord;

/// Writes `records` to `path` as JSON Lines, replacing the file.
pub fn write_records(path: &Path, records: &[HandRecord]) -> Result<()> {
    let mut text = String::new();
    for r in records {
        text.push_str(&serde_json::to_string(r)?);
        text.push('\n');
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// Prints a recorded hand: the deal, the seats, every decision, the outcome. The
/// record must be valid ([`HandRecord::replay`]).
pub fn write_hand(out: &mut impl Write, rec: &HandRecord) -> Result<()> {
    write_header_in(out, rec.rules, &rec.deal, rec.dealer, &rec.agents)?;
    let mut lines = Vec::new();
    let hand = rec.replay_with(|h, d| lines.push(narrate(h, d)))?;
    for l in lines.into_iter().flatten() {
        writeln!(out, "{l}")?;
    }
    writeln!(out, "{}", outcome_line(&hand.result().expect("a replayed hand is over")))?;
    Ok(())
}

/// The names cards, suits, bids and contracts are shown with: those of the rule
/// set ([`RuleSpec::names`](tresillo_core::RuleSpec::names)).
pub use tresillo_core::Names;

/// The lines before the first decision: the deal, the dealer and mano, each seat's
/// player and cards.
/// Cards are shown in the names of rule set `set`; the deal line keeps the
/// notation of section 13.
pub fn write_header_in(
    out: &mut impl Write,
    set: tresillo_core::RuleSet,
    deal: &Deal,
    dealer: Seat,
    agents: &[String],
) -> Result<()> {
    let n = agents.len() as u8;
    let names = set.names();
    let table = set.table(n);
    writeln!(out, "deal: {deal}")?;
    writeln!(out, "dealer: seat {dealer}; mano: seat {}", dealer.next(n))?;
    for (s, name) in agents.iter().enumerate() {
        if table.sits_out(dealer) == Some(Seat(s as u8)) {
            writeln!(out, "seat {s} ({name}): deals and sits out")?;
        } else {
            writeln!(out, "seat {s} ({name}): {}", names.cards(deal.hands.0[s]))?;
        }
    }
    Ok(())
}

/// The last line of a hand's narrative.
pub fn outcome_line(result: &HandResult) -> String {
    let t = result.tricks.0;
    let names = result.rules.names();
    let words = result.rules.spec().words;
    let bola = words.bola;
    let tricks: Vec<String> = t[..usize::from(result.players.min(4))].iter().map(u8::to_string).collect();
    match result.outcome {
        Outcome::Cancelled => words.cancelled_outcome.into(),
        o => format!(
            "outcome: {} for declarer seat {}{}; tricks {}{}{}",
            names.outcome(o),
            result.final_declarer().expect("declarer"),
            if result.penetro { " (penetro)" } else { "" },
            tricks.join("-"),
            if result.primeras { format!("; {}", words.primeras) } else { String::new() },
            match (result.bola_attempted, result.bola_made) {
                (true, true) => format!("; {bola} made"),
                (true, false) => format!("; {bola} failed"),
                _ => String::new(),
            }
        ),
    }
}

/// One line (or none) describing decision `d` taken in `h`.
pub fn narrate(h: &Hand, d: &Decision) -> Option<String> {
    let req = h.request();
    let seat = req.seat()?;
    let p = h.public();
    let names = p.rules.names();
    Some(match (*d, req) {
        (Decision::Bid(b), Request::Bid { min_level, .. }) => {
            let equal = matches!((b, p.standing), (Bid::Level(l), Some((s, _))) if l == s && l == min_level);
            format!("auction: seat {seat} says {}", names.bid(b, equal))
        }
        (Decision::Declare(c, t), Request::Declare { forced, .. }) => {
            let trump = match (t, h.deal().heap.cards().first()) {
                (Some(s), _) => format!("trumps {}", names.suit(s)),
                (None, Some(top)) if c.turns_card() => {
                    format!("turns up {}: trumps {}", names.card(*top), names.suit(top.suit()))
                }
                (None, _) => "no trumps".into(),
            };
            let label = match forced {
                false => String::new(),
                true if p.penetro.active => "(penetro) ".into(),
                true if p.gascarille => "(gascarille) ".into(),
                true => format!("({}) ", p.game_rules().spec().words.forced_label),
            };
            format!("seat {seat} {label}plays {}, {trump}", names.contract(c, t))
        }
        (Decision::Discard(set), _)
            if p.penetro.active && seat == p.dealer && p.phase == Phase::DeclarerExchange =>
        {
            format!("exchange: seat {seat} discards 1 [{set}] and draws none (penetro)")
        }
        (Decision::Discard(set), _) => {
            let k = set.len() as usize;
            // In a penetro the three cards left are the bottom (top ten taken) or the
            // top (bottom ten taken) of the heap.
            let end = if p.penetro.heap_end == Some(tresillo_core::HeapEnd::Bottom) { 3 } else { 13 };
            let start = end - p.heap_left as usize;
            let drawn: Vec<String> =
                h.deal().heap.cards()[start..start + k].iter().map(|c| names.card(*c)).collect();
            let mut line = format!(
                "exchange: seat {seat} discards {k} [{}] and draws [{}]",
                names.cards(set),
                drawn.join(" ")
            );
            // `hombre`'s show_heap: after the last exchange the rest of the heap is
            // turned face up.
            let mut after = *h;
            after.apply_unchecked(*d);
            let shown = after.public().shown_heap;
            if p.shown_heap.is_empty() && !shown.is_empty() {
                line.push_str(&format!("\nthe heap is turned face up: {shown}"));
            }
            line
        }
        (Decision::Penetro(e), _) => {
            let mut after = *h;
            after.apply_unchecked(*d);
            format!("seat {seat} penetra: takes the {e} ten [{}]", after.hand_of(seat))
        }
        (Decision::DropOut(w), _) => {
            let mut after = *h;
            after.apply_unchecked(*d);
            let mut s = format!("drop-out: seat {seat} says {w}");
            if let Some(o) = after.public().penetro.dropped {
                s.push_str(&format!("  -> seat {o} drops out"));
            }
            s
        }
        (Decision::Answer(Question::SURRENDER, g), _) if p.phase == Phase::PenetroGiveUp => {
            format!("seat {seat} {}", if g { "gives up at once" } else { "plays the penetro" })
        }
        (Decision::Word(w), _) => format!("conversation: seat {seat} says {w}"),
        (Decision::Play(c), _) => {
            let n = p.current_trick().len();
            let mut s = String::new();
            if p.contract == Some(Contract::NoloOuvert) && p.exposed == Some(h.hand_of(seat)) {
                s.push_str(&format!("seat {seat} lays the hand face up: {}\n", names.cards(h.hand_of(seat))));
            }
            s.push_str(&format!("trick {}: seat {seat} plays {}", p.tricks_done + 1, names.card(c)));
            if n + 1 == usize::from(p.trick_size()) {
                let mut after = *h;
                after.apply_unchecked(*d);
                let w = after.public().trick_winners()[p.tricks_done as usize];
                s.push_str(&format!("  -> seat {w} wins"));
            }
            s
        }
        (Decision::Answer(q, yes), _) => {
            format!("seat {seat} {}", (q.def().narration)(p.game_rules().spec().words)[usize::from(yes)])
        }
        _ => return None,
    })
}
