//! The messages the toolkit writes (docs/PROTOCOL.md; `docs/protocol.schema.json`
//! describes them). Cards are in RULES.md section 13 notation; seats are absolute
//! (0 to players - 1); everything in a request comes from the seat's
//! [`PlayerView`].
//!
//! The toolkit's messages are `hello`, `hand`, `request` and `result` (with the deal
//! scores); a request is written straight into a reused buffer, its view
//! `tresillo_env::SeatView` serialized there.

use crate::BotConfig;
use serde_json::{Value, json};
use std::fmt::Write;
use std::time::Duration;
use tresillo_core::action::DiscardBuilder;
use tresillo_core::{CardSet, Names, PlayerView, Rules};
use tresillo_env::SeatView;

fn cards(s: CardSet) -> Vec<String> {
    s.iter().map(|c| c.to_string()).collect()
}

/// The greeting: the protocol, the rule set and its options, the table, the time
/// for each answer (and for each hand, when limited), and the values of the bot's
/// own options that the spec sets.
pub fn hello(rules: Rules, players: u8, config: &BotConfig) -> Value {
    let options: serde_json::Map<String, Value> =
        rules.set_options().into_iter().map(|(k, v)| (k.to_string(), Value::String(v))).collect();
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let mut time = serde_json::Map::new();
    time.insert("decision_ms".into(), ms(config.limit).into());
    if let Some(h) = config.hand_budget {
        time.insert("hand_ms".into(), ms(h).into());
    }
    let bot_options: serde_json::Map<String, Value> =
        config.options.iter().map(|(k, v)| (k.clone(), number(*v))).collect();
    json!({
        "type": "hello",
        "protocol": crate::PROTOCOL,
        "rules": rules.set.name(),
        "options": options,
        "players": players,
        "time": time,
        "bot_options": bot_options,
    })
}

/// A number as JSON: an integer when it is one.
fn number(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9e15 { json!(v as i64) } else { json!(v) }
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
/// trumps, the tricks each seat took, the outcome, and what the hand scored for
/// each seat when scored alone (the deal scoring of deals.csv: the change of its
/// bowl, in the rule set's unit).
pub fn result(n: u64, r: &tresillo_core::HandResult) -> Value {
    let players = usize::from(r.players);
    // A hand the table finished always scores; `null` would say otherwise.
    let scores = tresillo_env::deal_scores(r).ok();
    let unit = Rules { set: r.rules, options: r.options }.scoring().unit();
    json!({
        "type": "result",
        "hand": n,
        "declarer": r.declarer.map(|s| s.0),
        "contract": r.contract.map(|c| c.name()),
        "trump": r.trump.map(|t| t.name()),
        "tricks": r.tricks.0[..players].to_vec(),
        "outcome": r.outcome.name(),
        "scores": scores,
        "unit": unit,
    })
}

/// Appends `s` to `out` as a JSON string.
fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends `n` in decimal (without the formatting machinery: a request holds
/// dozens of numbers and cards, and this is the hot path).
fn push_num(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
}

/// An action's words in the protocol: the rule set's words (docs/PROTOCOL.md),
/// with its cards in the standard notation of the view (`play 11C`, not the
/// display name `play Q♥` of `lhombre`).
pub fn action_text(names: Names, a: usize) -> String {
    use tresillo_core::Decision;
    use tresillo_core::action::Action;
    match Action::from_id(a) {
        Some(Action::DiscardCard(c)) => format!("discard {c}"),
        Some(Action::Decision(Decision::Play(c))) => format!("play {c}"),
        _ => tresillo_core::action::words(names, a),
    }
}

/// Writes a request into `out` (cleared first), one line with its newline: the
/// seat's view and the legal actions (ids of the action space of docs/PYTHON.md,
/// each with its words), and a seed for the bot's randomness. Written straight
/// into the reused buffer, without a JSON tree in between (this is the hot path).
pub fn request(
    out: &mut String,
    id: u64,
    view: &PlayerView,
    discard: DiscardBuilder,
    legal: &[usize],
    seed: u64,
) {
    out.clear();
    let p = view.public();
    let names = p.rules.names();
    out.push_str("{\"type\":\"request\",\"id\":");
    push_num(out, id);
    out.push_str(",\"seat\":");
    push_num(out, u64::from(view.seat().0));
    out.push_str(",\"kind\":\"");
    out.push_str(view.request().kind().protocol_name());
    out.push_str("\",\"seed\":");
    push_num(out, seed);
    out.push_str(",\"view\":");
    // The view's one definition (tresillo_env::SeatView), serialized into the
    // reused buffer.
    let mut bytes = std::mem::take(out).into_bytes();
    serde_json::to_writer(&mut bytes, &SeatView::new(view, discard.chosen)).expect("a view serializes");
    *out = String::from_utf8(bytes).expect("JSON is UTF-8");
    out.push_str(",\"legal\":[");
    for (i, &a) in legal.iter().enumerate() {
        out.push_str(if i > 0 { ",{\"action\":" } else { "{\"action\":" });
        push_num(out, a as u64);
        out.push_str(",\"text\":");
        push_str(out, &action_text(names, a));
        out.push('}');
    }
    out.push_str("]}\n");
}

/// Adds a clocked seat's time to the request in `out` (written by [`request`]),
/// as its field `clock`: the time left, the increment added after the answer,
/// and the hands the clock still covers (this one included), in ms.
pub fn append_clock(out: &mut String, c: &tresillo_agents::clock::TimeLeft) {
    debug_assert!(out.ends_with("}\n"));
    out.truncate(out.len() - 2);
    out.push_str(",\"clock\":{\"left_ms\":");
    push_num(out, u64::try_from(c.left.as_millis()).unwrap_or(u64::MAX));
    out.push_str(",\"inc_ms\":");
    push_num(out, u64::try_from(c.inc.as_millis()).unwrap_or(u64::MAX));
    out.push_str(",\"hands_left\":");
    push_num(out, u64::from(c.hands_left));
    out.push_str("}}\n");
}

/// Adds the hand's public state to the request in `out` (written by
/// [`request`]), as its last field `public`: the record of
/// [`tresillo_core::PublicRecord`], for a bot that asked for it in its greeting
/// (`tresillo bot` rebuilds the seat's view from it and the view's own cards).
/// It holds only what every seat may know.
pub fn append_public(out: &mut String, view: &PlayerView) {
    debug_assert!(out.ends_with("}\n"));
    out.truncate(out.len() - 2);
    out.push_str(",\"public\":");
    let mut bytes = std::mem::take(out).into_bytes();
    serde_json::to_writer(&mut bytes, &view.public().record()).expect("a public state serializes");
    *out = String::from_utf8(bytes).expect("JSON is UTF-8");
    out.push_str("}\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use tresillo_agents::{Agent, RuleAgent, RuleParams, deal_for_seed, seat_rngs};
    use tresillo_core::{Hand, RuleSet, Seat, action::legal_ids};

    /// Every built-in rule set at every table size, from the registry.
    fn tables() -> Vec<(Rules, u8)> {
        RuleSet::BUILT_IN
            .into_iter()
            .flat_map(|set| set.spec().tables.iter().map(move |t| (Rules::from(set), t.players)))
            .collect()
    }

    /// Plays `deals` hands of `rules` at `players` seats with rule agents (deal
    /// `i` of seed `i`, the dealer rotating) and hands `f` every request the
    /// protocol would send: the view, the message and the message parsed.
    fn each_request(rules: Rules, players: u8, deals: u64, mut f: impl FnMut(&PlayerView, &str, &Value)) {
        for i in 0..deals {
            let dealer = Seat((i % u64::from(players)) as u8);
            let mut hand = Hand::with_rules(
                rules,
                players,
                deal_for_seed(i).seated(rules.table(players), dealer),
                dealer,
            )
            .unwrap();
            let mut rule = RuleAgent::new(RuleParams::default());
            let mut rngs = seat_rngs(i);
            rule.new_hand();
            while let Some(seat) = hand.request().seat() {
                let view = hand.view(seat);
                let legal = legal_ids(&view, DiscardBuilder::default());
                let mut out = String::new();
                request(&mut out, 1, &view, DiscardBuilder::default(), &legal, 7);
                let v: Value = serde_json::from_str(&out).unwrap();
                f(&view, &out, &v);
                let d = rule.choose(&view, &mut rngs[seat.index()]);
                hand.apply(d).unwrap();
            }
        }
    }

    /// Every request names the seat of each card of the trick in progress
    /// (`current_trick_seats`, the last field of the view), in play order: the
    /// seats of the last `len(current_trick)` plays, the first one the trick's
    /// leader (issue 35: a bot had to derive them from the tail of `plays`).
    #[test]
    fn a_request_gives_the_seats_of_the_cards_on_the_table() {
        let mut seen = [0usize; 4];
        for (rules, players) in tables() {
            each_request(rules, players, 8, |view, out, v| {
                // The last field of the view (added at the end of the object).
                let at = out.find(",\"current_trick_seats\":[").expect("the field");
                let end = out.find("]},\"legal\":").expect("the view's end");
                assert!(out[at + 24..end].chars().all(|c| c.is_ascii_digit() || c == ','), "{out}");
                let seats: Vec<u64> = v["view"]["current_trick_seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_u64().unwrap())
                    .collect();
                let trick = v["view"]["current_trick"].as_array().unwrap();
                let plays = v["view"]["plays"].as_array().unwrap();
                assert_eq!(seats.len(), trick.len(), "{out}");
                let tail: Vec<u64> =
                    plays[plays.len() - trick.len()..].iter().map(|p| p[0].as_u64().unwrap()).collect();
                assert_eq!(seats, tail, "{out}");
                if let Some(&first) = seats.first() {
                    assert_eq!(first, u64::from(view.public().current_leader().0), "{out}");
                }
                seen[seats.len()] += 1;
            });
        }
        assert!(seen[1] > 0 && seen[2] > 0, "{seen:?}");
    }

    /// The view `tresillo bot` rebuilds from a request (its `public` state and
    /// the view's own cards) is the table's view of that seat, field for field,
    /// at every request of every rule set and table: the agent behind it decides
    /// on what an agent in the toolkit's process sees, no more.
    #[test]
    fn the_view_rebuilt_from_a_request_is_the_seats_view() {
        let mut checked = 0;
        for (set, players, options) in [
            ("tresillo", 3u8, &[][..]),
            ("tresillo", 4, &[]),
            ("tresillo-house", 3, &[]),
            ("hombre", 3, &[("contrabola", "true"), ("gascarille", "true"), ("show_heap", "true")][..]),
            ("lhombre", 3, &[]),
        ] {
            let rules = Rules::parse(set, options).unwrap();
            each_request(rules, players, 30, |view, out, v| {
                let mut line = out.to_string();
                append_public(&mut line, view);
                let v2: Value = serde_json::from_str(&line).unwrap();
                assert_eq!(v2["view"], v["view"], "the view is unchanged");
                let record: tresillo_core::PublicRecord =
                    serde_json::from_value(v2["public"].clone()).unwrap();
                let public =
                    tresillo_core::PublicState::from_record(rules, players, view.public().dealer, &record)
                        .unwrap();
                let rebuilt = PlayerView::from_public(view.seat(), view.hand(), view.discards(), public);
                assert_eq!(&rebuilt, view, "{set} {players}: {line}");
                checked += 1;
            });
        }
        assert!(checked > 1000, "{checked}");
    }

    /// The result's `scores` are what the environment returns for the same hand
    /// (one definition of a hand's deal scores: tresillo_env::deal_scores).
    #[test]
    fn a_results_scores_are_the_environments_returns() {
        let mut scored = 0;
        for (rules, players) in tables() {
            let env = tresillo_env::Env::new(rules, players).unwrap();
            for i in 0..12u64 {
                let dealer = Seat((i % u64::from(players)) as u8);
                let mut state = env.state_for_seed(i, dealer).unwrap();
                let mut rule = RuleAgent::new(RuleParams::default());
                let mut rngs = seat_rngs(i);
                rule.new_hand();
                while let tresillo_env::Player::Seat(seat) = state.current_player() {
                    let d = rule.choose(&state.view(seat).unwrap(), &mut rngs[seat.index()]);
                    for a in tresillo_env::decision_actions(d).unwrap() {
                        state.apply_action(a).unwrap();
                    }
                }
                let r = state.hand().unwrap().result().unwrap();
                let m = result(i, &r);
                let scores: Vec<f64> =
                    m["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap() as f64).collect();
                assert_eq!(scores, state.returns().unwrap(), "{} {players} deal {i}", rules.set);
                scored += usize::from(scores.iter().any(|&s| s != 0.0));
            }
        }
        assert!(scored > 20, "{scored}");
    }

    /// The request's own writer of numbers gives the text of the formatting
    /// machinery it replaces (the hot path avoids it).
    #[test]
    fn numbers_are_written_as_display_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 255, 1 << 53, u64::MAX] {
            let mut out = String::new();
            push_num(&mut out, n);
            assert_eq!(out, n.to_string());
        }
    }

    /// In every rule set a card's action text names the card as the view does
    /// (`lhombre` displays cards otherwise: `Q♥` for 11C).
    #[test]
    fn a_cards_action_text_uses_the_notation_of_the_view() {
        for (rules, players) in tables() {
            let set = rules.set;
            let mut checked = 0;
            each_request(rules, players, 6, |_, _, v| {
                let hand_cards: Vec<&str> =
                    v["view"]["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
                for l in v["legal"].as_array().unwrap() {
                    let text = l["text"].as_str().unwrap();
                    let card = text.strip_prefix("play ").or_else(|| text.strip_prefix("discard "));
                    if let Some(card) = card.filter(|_| text != "discard done") {
                        assert!(
                            hand_cards.contains(&card),
                            "{set}: `{text}` names no card of {hand_cards:?}"
                        );
                        checked += 1;
                    }
                }
            });
            assert!(checked > 0, "{set}");
        }
    }
}
