//! The messages the toolkit writes (docs/PROTOCOL.md; `docs/protocol.schema.json`
//! describes them). Cards are in RULES.md section 13 notation; seats are absolute
//! (0 to players - 1); everything in a request comes from the seat's
//! [`PlayerView`].

use serde_json::{Value, json};
use std::time::Duration;
use tresillo_core::action::DiscardBuilder;
use tresillo_core::{CardSet, Names, PlayerView, PublicState};

fn cards(s: CardSet) -> Vec<String> {
    s.iter().map(|c| c.to_string()).collect()
}

/// The greeting: the protocol, the rule set and its options, the table, the time
/// for each answer.
pub fn hello(p: &PublicState, limit: Duration) -> Value {
    let rules = p.game_rules();
    let options: serde_json::Map<String, Value> =
        rules.options.set_options().into_iter().map(|(k, v)| (k.to_string(), Value::String(v))).collect();
    json!({
        "type": "hello",
        "protocol": crate::PROTOCOL,
        "rules": rules.set.name(),
        "options": options,
        "players": p.players,
        "time": {"decision_ms": u64::try_from(limit.as_millis()).unwrap_or(u64::MAX)},
    })
}

/// The start of a hand for the bot: its number, the seat, the dealer, the hand.
pub fn hand(n: u64, view: &PlayerView) -> Value {
    json!({
        "type": "hand",
        "hand": n,
        "seat": view.seat().0,
        "dealer": view.public().dealer.0,
        "cards": cards(view.hand()),
    })
}

/// The end of a hand, as every seat sees it: the declarer, the contract and
/// trumps, the tricks each seat took, the outcome.
pub fn result(n: u64, r: &tresillo_core::HandResult) -> Value {
    let players = usize::from(r.players);
    json!({
        "type": "result",
        "hand": n,
        "declarer": r.declarer.map(|s| s.0),
        "contract": r.contract.map(|c| c.name()),
        "trump": r.trump.map(|t| t.name()),
        "tricks": r.tricks.0[..players].to_vec(),
        "outcome": r.outcome.name(),
    })
}

/// A request: the seat's view and the legal actions (ids of the action space of
/// docs/PYTHON.md, each with its words), and a seed for the bot's randomness.
pub fn request(id: u64, view: &PlayerView, discard: DiscardBuilder, legal: &[usize], seed: u64) -> Value {
    let p = view.public();
    let names = Names::of(p.rules);
    let n = usize::from(p.players);
    let legal: Vec<Value> =
        legal.iter().map(|&a| json!({"action": a, "text": tresillo_core::action::words(names, a)})).collect();
    let bids: Vec<Value> = p.bids().iter().map(|b| json!([b.seat.0, names.bid(b.bid, false)])).collect();
    let plays: Vec<Value> =
        p.plays().iter().enumerate().map(|(i, c)| json!([p.play_seat(i).0, c.to_string()])).collect();
    json!({
        "type": "request",
        "id": id,
        "seat": view.seat().0,
        "kind": format!("{:?}", view.request().kind()).to_lowercase(),
        "seed": seed,
        "view": {
            "hand": cards(view.hand()),
            "discards": cards(view.discards()),
            "discarding": cards(discard.chosen),
            "dealer": p.dealer.0,
            "bids": bids,
            "declarer": p.declarer.map(|s| s.0),
            "contract": p.contract.map(|c| c.name()),
            "trump": p.trump.map(|t| t.name()),
            "exchanged": p.exchanged.0[..n].to_vec(),
            "plays": plays,
            "current_trick": p.current_trick().iter().map(ToString::to_string).collect::<Vec<_>>(),
            "tricks": p.tricks.0[..n].to_vec(),
            "known": cards(view.known_cards()),
        },
        "legal": legal,
    })
}
