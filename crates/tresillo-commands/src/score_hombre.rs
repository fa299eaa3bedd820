//! `tresillo score` for a `hombre` session (RULES.md section 12.3): points (the
//! default, with the pot column, over `deals` deals) or chips (`hombre-chips`, with
//! the pool). The log has the form of docs/SCORING.md; the header names
//! `"rules": "hombre"` (or a table with its options) and, for points, may give
//! `deals`. Every hand is scored by the core's `PointsLedger` or `ChipsLedger`.
//!
//! `score.rs` keeps the puesta system and hands `hombre` logs here; `score_log.rs`
//! parses the log for both (and describes a hand).

use crate::score_log::{Format, Header, describe, parse_hand, parse_header, signed};
use anyhow::{Context, Result, anyhow};
use serde_json::json;
use std::fmt::Write as _;
use tresillo_core::{HandResult, HandScore, LedgerConfig, Rules, Scorer, ScoringMode, ScoringSystem, Seat};

/// One scored hand: the result, its score, and the scores (points) or chips after
/// it with the pot or pool.
struct Scored {
    line: usize,
    note: Option<String>,
    result: HandResult,
    score: HandScore,
    after: Vec<i64>,
    pot: i64,
}

/// Scores `text` when its header names a rule set scored by points or chips;
/// `None` for the puesta system (the caller's scorekeeper).
pub fn score(text: &str, format: Format) -> Result<Option<String>> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((hline, htext)) = lines.next() else { return Ok(None) };
    let Ok(header) = parse_header(htext) else { return Ok(None) };
    if header.config.rules.spec().scoring != ScoringSystem::Points {
        return Ok(None);
    }
    let mut scorer =
        Scorer::new(ScoringMode::Session, header.config).with_context(|| format!("line {hline}"))?;
    let mut hands = Vec::new();
    let mut last_dealer: Option<Seat> = None;
    for (line, t) in lines {
        let dealer = last_dealer.map_or(header.first_dealer, |d| d.next(3));
        let (result, note) = parse_hand(t, &header, dealer).with_context(|| format!("line {line}"))?;
        let score = scorer.apply(&result).with_context(|| format!("line {line}"))?;
        last_dealer = Some(result.dealer);
        let (after, pot) = state(&scorer)?;
        hands.push(Scored { line, note, result, score, after, pot });
    }
    Ok(Some(match format {
        Format::Table => table(&header, &hands),
        Format::Json => jsonl(&header, &hands),
    }))
}

/// Each player's points or chips, and the pot or pool.
fn state(s: &Scorer) -> Result<(Vec<i64>, i64)> {
    if let Some(p) = s.points() {
        return Ok((p.scores().to_vec(), p.pot()));
    }
    let c = s.chips().ok_or_else(|| anyhow!("a hombre session is kept in points or chips"))?;
    Ok((c.bowls().to_vec(), c.pool()))
}

/// Whether the session is kept in chips (`hombre-chips`) rather than points.
fn chips(cfg: &LedgerConfig) -> bool {
    (Rules { set: cfg.rules, options: cfg.options }).scoring() == ScoringSystem::Chips
}

fn unit(h: &Header) -> (&'static str, &'static str) {
    if chips(&h.config) { ("chips", "pool") } else { ("points", "pot") }
}

fn table(h: &Header, hands: &[Scored]) -> String {
    let names = &h.names;
    let cfg = &h.config;
    let (unit_name, pot_name) = unit(h);
    let w = names.iter().map(|x| x.chars().count()).max().unwrap_or(0).max(6);
    let mut o = String::new();
    let rules = Rules { set: cfg.rules, options: cfg.options };
    let _ = write!(o, "Session: rule set {rules}, 3 players, {unit_name}");
    if chips(cfg) {
        let _ = writeln!(o, ", {} each at the start, ante {}", cfg.start_bowl, rules.ante());
    } else if cfg.deals > 0 {
        let _ = writeln!(o, " over {} deals", cfg.deals);
    } else {
        let _ = writeln!(o);
    }
    let seats: Vec<String> = names.iter().enumerate().map(|(i, x)| format!("{i} {x}")).collect();
    let _ = writeln!(o, "Seats: {}", seats.join(", "));
    let (game, pool) = if chips(cfg) { ("paid", "pool") } else { ("game", "pot") };
    for s in hands {
        let _ = writeln!(o);
        let _ = writeln!(o, "Hand {} (line {}): {}", s.score.hand, s.line, describe(&s.result, names));
        if let Some(note) = &s.note {
            let _ = writeln!(o, "  note: {note}");
        }
        let _ = writeln!(
            o,
            "  {:>4}  {:<w$}  {:>6}  {:>6}  {:>6}  {:>6}",
            "seat", "player", game, pool, "total", unit_name
        );
        for (i, name) in names.iter().enumerate() {
            let x = Seat(i as u8);
            let _ = writeln!(
                o,
                "  {:>4}  {:<w$}  {:>6}  {:>6}  {:>6}  {:>6}",
                i,
                name,
                signed(s.score.condiciones[x]),
                signed(s.score.pool[x]),
                signed(s.score.total(x)),
                s.after[i]
            );
        }
        let _ = writeln!(o, "  {pot_name}: {}", s.pot);
    }
    let _ = writeln!(o);
    let final_: Vec<String> = match hands.last() {
        Some(s) => names.iter().zip(&s.after).map(|(n, v)| format!("{n} {v}")).collect(),
        None => Vec::new(),
    };
    let _ = writeln!(
        o,
        "After {} hand{}: {}; {pot_name} {}",
        hands.len(),
        if hands.len() == 1 { "" } else { "s" },
        if final_.is_empty() { "nothing scored".to_string() } else { final_.join(", ") },
        hands.last().map_or(0, |s| s.pot)
    );
    o
}

fn jsonl(h: &Header, hands: &[Scored]) -> String {
    let cfg = &h.config;
    let (unit_name, pot_name) = unit(h);
    let mut o = String::new();
    let session = json!({ "session": {
        "players": h.names,
        "rules": Rules { set: cfg.rules, options: cfg.options },
        "scoring": unit_name,
        "deals": cfg.deals,
        "start": if chips(cfg) { cfg.start_bowl } else { 0 },
    }});
    let _ = writeln!(o, "{session}");
    for s in hands {
        let r = &s.result;
        let sc = &s.score;
        let v = json!({
            "hand": sc.hand,
            "line": s.line,
            "note": s.note,
            "dealer": r.dealer,
            "declarer": r.declarer,
            "final_declarer": r.final_declarer(),
            "contract": r.contract,
            "surrender": r.surrender,
            "outcome": r.outcome,
            "tricks": &r.tricks.0[..3],
            "value": sc.aip,
            "game": &sc.condiciones.0[..3],
            pot_name: &sc.pool.0[..3],
            "total": &sc.totals().0[..3],
            unit_name: s.after,
            format!("{pot_name}_after"): s.pot,
        });
        let _ = writeln!(o, "{v}");
    }
    o
}
