//! What the person's page is sent: built from the seat's [`PlayerView`]
//! (RULES.md section 9) and public facts only, never from another seat's cards.
//! The seat's view itself is the protocol's [`SeatView`]; around it come the
//! request with its legal choices labelled in the rule set's words, the hand's
//! public history (another seat's discards as a count), the last trick, and the
//! session's score.

use crate::game::Game;
use serde_json::{Value, json};
use tresillo_core::{CardSet, Decision, HandResult, Outcome, PlayerView, PublicState, Request};
use tresillo_env::SeatView;
use tresillo_sim::Step;

/// The JSON the page renders (`GET /api/games/TOKEN`).
#[must_use]
pub fn game_view(g: &Game) -> Value {
    game_view_for(g, g.human)
}

/// The JSON the page of the person in `me` renders: the host's, or a friend's
/// at a table with friends (each sees only their own seat's view).
#[must_use]
pub fn game_view_for(g: &Game, me: tresillo_core::Seat) -> Value {
    let pv = g.hand.view(me);
    let p = pv.public();
    let names = p.rules.names();
    let status = if g.failure.is_some() {
        "failed"
    } else if g.is_over() {
        "over"
    } else if g.turn() == Some(me) && g.is_person(me) {
        "your_turn"
    } else if g.thinking.is_some() {
        "thinking"
    } else {
        "waiting"
    };
    let seats: Vec<&str> = g.spec.seats.iter().map(String::as_str).collect();
    let over = g.is_over();
    let seat_names = seat_names(g, me);
    // At the session's end the last hand stays on the table (its history from
    // its record: the hand's decisions moved there when it ended).
    let history = match g.records.last() {
        Some(r) if over && g.steps.is_empty() => history_of(r.dealer, g.hand, &r.decisions, me),
        _ => history_of(g.hand.public().dealer, g.hand, &g.steps, me),
    };
    // The host's page lists the friends' links (each seat's own secret); a
    // friend's page has none, and no records or replay links (those are the
    // host's, by the game's token).
    let host = me == g.human;
    let invites: Vec<Value> = if host {
        g.spec.seat_tokens.iter().map(|(s, t)| json!({"seat": s, "url": format!("/g/{t}")})).collect()
    } else {
        Vec::new()
    };
    let token =
        if host { g.token.to_string() } else { g.spec.seat_tokens.get(&me.0).cloned().unwrap_or_default() };
    json!({
        "token": token,
        "seq": g.seq,
        "status": status,
        "failure": g.failure,
        "rules": g.rules.set.name(),
        "options": g.spec.options,
        "players": g.players(),
        "seat": me.0,
        "seats": seats,
        "hands": g.spec.hands,
        "hand": g.k,
        "turn": g.turn().map(|s| s.0),
        "thinking": g.thinking.map(|s| s.0),
        "seat_names": seat_names,
        "pace_ms": g.spec.pace_ms,
        "undo": g.spec.undo,
        "can_undo": host && g.can_undo(),
        "invites": invites,
        "takeover_ms": g.spec.takeover_ms,
        "taken": (0..g.players()).filter(|&s| g.taken[usize::from(s)]).collect::<Vec<_>>(),
        "records_url": if host { Value::from(format!("/api/games/{}/records", g.token)) } else { Value::Null },
        "view": serde_json::to_value(SeatView::new(&pv, CardSet::EMPTY)).expect("a view serializes"),
        "table": table(p, &pv),
        "request": if over { Value::Null } else { request_json(g.request_of(me), &pv) },
        "history": history,
        "last_trick": last_trick(p),
        "score": score(g, &seat_names),
        "names": {
            "suits": tresillo_core::Suit::ALL.iter().map(|s| json!([s.letter().to_string(), names.suit(*s)])).collect::<Vec<_>>(),
        },
    })
}

/// Public facts of the hand beyond the seat view.
pub(crate) fn table(p: &PublicState, pv: &PlayerView) -> Value {
    let names = p.rules.names();
    json!({
        "phase": format!("{:?}", p.phase),
        "level": p.level,
        "heap_left": p.heap_left,
        "turned": p.turned.map(|c| c.to_string()),
        "exposed": pv.exposed_hand().filter(|_| p.declarer != Some(pv.seat())).map(|e| e.iter().map(|c| c.to_string()).collect::<Vec<_>>()),
        "shown_heap": p.shown_heap.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        "contract_name": p.contract.map(|c| names.contract(c, p.trump)),
        "trump_name": p.trump.map(|t| names.suit(t)),
        "leader": p.current_leader().0,
        "playing": (0..p.players).filter(|&s| p.table.sits_out(p.dealer) != Some(tresillo_core::Seat(s))).collect::<Vec<_>>(),
    })
}

/// The request `req` of the seat of `pv` with its legal choices labelled (null
/// when it is `Done`).
pub(crate) fn request_json(req: Request, pv: &PlayerView) -> Value {
    if req == Request::Done {
        return Value::Null;
    }
    let p = pv.public();
    let (kind, extra) = match req {
        Request::Discard { min, max, .. } => ("discard", json!({"min": min, "max": max})),
        Request::Play { legal, .. } => {
            ("play", json!({"legal": legal.iter().map(|c| c.to_string()).collect::<Vec<_>>()}))
        }
        _ => (kind_name(req), Value::Null),
    };
    let choices: Vec<Value> = if kind == "discard" {
        Vec::new()
    } else {
        pv.legal_decisions().into_iter().map(|d| json!({"decision": d, "label": label(&d, p)})).collect()
    };
    json!({"kind": kind, "question": question(pv), "choices": choices, "discard": extra.get("min").map(|_| extra.clone()), "legal": extra.get("legal")})
}

fn kind_name(r: Request) -> &'static str {
    match r {
        Request::Bid { .. } => "bid",
        Request::Declare { .. } => "declare",
        Request::Discard { .. } => "discard",
        Request::Word { .. } => "word",
        Request::Play { .. } => "play",
        Request::Ask { question, .. } => question.name(),
        Request::Penetro { .. } => "penetro",
        Request::DropOut { .. } => "drop_out",
        Request::Done => "done",
    }
}

/// The question a request asks ([`tresillo_core::question`]), as the page shows
/// it: a sentence, capitalised; an exchange's says to confirm the cards chosen.
#[must_use]
pub fn question(view: &PlayerView) -> String {
    let q = tresillo_core::question(view);
    let mut chars = q.chars();
    let Some(first) = chars.next() else { return q };
    let sentence = first.to_uppercase().chain(chars).collect::<String>();
    match view.request() {
        Request::Discard { .. } => sentence + "; choose the cards, then confirm",
        _ => sentence,
    }
}

/// A decision in the words of its rule set ([`tresillo_core::label`]).
#[must_use]
pub fn label(d: &Decision, p: &PublicState) -> String {
    tresillo_core::label(d, p)
}

/// The decisions `steps` of hand `hand` (any state of it: its rules, table and
/// deal are taken) as seat `me` may see them.
pub(crate) fn history_of(
    dealer: tresillo_core::Seat,
    hand: tresillo_core::Hand,
    steps: &[Step],
    me: tresillo_core::Seat,
) -> Vec<Value> {
    let p = hand.public();
    let mut h = tresillo_core::Hand::with_rules(p.game_rules(), p.players, *hand.deal(), dealer)
        .expect("the hand was made from these");
    let mut out = Vec::new();
    for &Step { seat, act } in steps {
        let d = act;
        let p = h.public();
        let text = match d {
            Decision::Discard(s) if seat != me => format!("discards {}", s.len()),
            Decision::Play(c) => format!("plays {}", p.rules.names().card(c)),
            _ => label(&d, p),
        };
        out.push(json!({"seat": seat.0, "text": text}));
        h.apply_unchecked(d);
    }
    out
}

/// The last complete trick (cards with their seats, the winner, and its number
/// `trick`, 1-based), also once the next one has begun: the page shows the
/// trick a card completed until the person has seen it.
pub(crate) fn last_trick(p: &PublicState) -> Value {
    let plays = p.plays();
    if p.tricks_done == 0 {
        return Value::Null;
    }
    let done = usize::from(p.tricks_done);
    let m = (plays.len() - p.current_trick().len()) / done;
    let to = m * done;
    let from = to - m;
    let cards: Vec<Value> = (from..to).map(|i| json!([p.play_seat(i).0, plays[i].to_string()])).collect();
    // The winner leads the next trick: the first card of the current one, or
    // the leader now when it has none.
    let winner = if p.current_trick().is_empty() { p.current_leader() } else { p.play_seat(to) };
    json!({"cards": cards, "winner": winner.0, "trick": done})
}

/// A name for each seat that tells them apart, as `me` sees it: `you`, the
/// agent's name for a bot (`rule`, `pimc`), `friend` for another person, with
/// a letter when two seats have the same (`rule A`, `rule B`); a person's seat
/// a bot has taken over says so.
#[must_use]
pub fn seat_names(g: &Game, me: tresillo_core::Seat) -> Vec<String> {
    let short: Vec<String> = g
        .spec
        .seats
        .iter()
        .map(|s| {
            if s == crate::HUMAN {
                "friend".to_string()
            } else {
                s.split(':').next().unwrap_or(s).trim().to_string()
            }
        })
        .collect();
    (0..short.len())
        .map(|i| {
            let name = if i == me.index() {
                "you".to_string()
            } else if short.iter().enumerate().any(|(j, x)| j != i && j != me.index() && *x == short[i]) {
                // The seats with this name before this one, in seat order.
                let k = (0..i).filter(|&j| j != me.index() && short[j] == short[i]).count();
                format!("{} {}", short[i], char::from(b'A' + k as u8))
            } else {
                short[i].clone()
            };
            if g.taken[i] { format!("{name} (a bot plays)") } else { name }
        })
        .collect()
}

/// The outcome of a hand in words, the declarer named `names[seat]`.
#[must_use]
pub fn outcome_named(r: &HandResult, names: &[String]) -> String {
    // Every seat the words name by number (the declarer, a codillo's winner)
    // named as the page names it.
    let mut text = outcome_text(r);
    for (s, name) in names.iter().enumerate() {
        text = text.replace(&format!("seat {s}"), name);
    }
    text
}

/// The outcome of a hand in words.
#[must_use]
pub fn outcome_text(r: &HandResult) -> String {
    let names = r.rules.names();
    let words = r.rules.spec().words;
    let tricks: Vec<String> = r.tricks.0[..usize::from(r.players.min(4))].iter().map(u8::to_string).collect();
    match r.outcome {
        Outcome::Cancelled => words.cancelled_outcome.into(),
        o => format!(
            "{} for declarer seat {}{}; tricks {}{}",
            names.outcome(o),
            r.final_declarer().map_or("?".into(), |s| s.to_string()),
            if r.penetro { " (penetro)" } else { "" },
            tricks.join("-"),
            match (r.bola_attempted, r.bola_made) {
                (true, true) => format!("; {} made", words.bola),
                (true, false) => format!("; {} failed", words.bola),
                _ => String::new(),
            }
        ),
    }
}

/// The score table; each finished hand with its summary, every hand face up
/// (a finished hand's record is the person's to read: `records`).
fn score(g: &Game, names: &[String]) -> Value {
    let last = g.records.len().checked_sub(1);
    let hands: Vec<Value> = g
        .finished
        .iter()
        .zip(&g.records)
        .enumerate()
        .map(|(i, (f, rec))| {
            let contract = rec.result.contract.map(|c| g.rules.set.names().contract(c, rec.result.trump));
            // The hand just finished face up (older ones: the records, the replay).
            let summary = if Some(i) == last { summary(rec) } else { Value::Null };
            json!({"hand": i, "outcome": outcome_named(&f.result, names), "contract": contract, "change": f.change,
                "declarer": rec.result.final_declarer().map(|s| s.0), "dealer": rec.dealer.0,
                "summary": summary})
        })
        .collect();
    json!({"totals": g.totals(), "hands": hands, "settlement": g.settlement()})
}

/// A finished hand face up: each seat's cards as dealt, its discards and the
/// cards it played, and each seat's tricks.
fn summary(rec: &tresillo_sim::HandRecord) -> Value {
    let n = usize::from(rec.players);
    let cards = |set: CardSet| set.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let mut discards = vec![Vec::new(); n];
    let mut played = vec![Vec::new(); n];
    for st in &rec.decisions {
        match st.act {
            Decision::Discard(set) => discards[st.seat.index()].extend(cards(set)),
            Decision::Play(c) => played[st.seat.index()].push(c.to_string()),
            _ => {}
        }
    }
    json!({
        "dealt": (0..n).map(|s| cards(rec.deal.hands.0[s])).collect::<Vec<_>>(),
        "discards": discards,
        "played": played,
        "tricks": rec.result.tricks.0[..n.min(4)].to_vec(),
        "last_trick": rec.replay().map_or(Value::Null, |h| last_trick(h.public())),
    })
}

#[cfg(test)]
mod tests {
    /// Every word the page's glossary explains is a word of docs/RULES.md.
    #[test]
    fn the_glossary_explains_words_of_the_rules() {
        let rules = include_str!("../../../docs/RULES.md").to_lowercase();
        let glossary = include_str!("assets/glossary.js");
        let mut n = 0;
        for line in glossary.lines().filter(|l| l.trim_start().starts_with("[\"")) {
            let term = line.trim_start().trim_start_matches("[\"").split('"').next().unwrap();
            for word in term.split(", ") {
                assert!(rules.contains(&word.to_lowercase()), "`{word}` is not in docs/RULES.md");
                n += 1;
            }
        }
        assert!(n >= 30, "{n} words");
    }
}
