//! The replay and analysis board (docs/SERVE.md): any record stepped through
//! decision by decision with every hand shown, and each card decision judged as
//! `tresillo analyze --pimc` judges it (one computation, [`tresillo_sim::analyze`],
//! with the command's defaults [`WORLDS`] and [`SEED`]).
//!
//! Records come from two places only, never from a path in a request: the files
//! the operator opened at start (`tresillo serve --open FILE`, read by the
//! command line and handed over as [`Opened`]), listed under ids the server
//! assigns (`f1`, `f2`, ...), and the server's own games, whose finished hands
//! are opened by the game's secret token (whoever may see the game may replay
//! it; nobody can list the others' games). Analysis is CPU work: it runs on a
//! blocking thread, one at a time, and is cached per hand; until it is done the
//! board answers `202 {"status": "analysing"}` and the page keeps stepping.

use crate::server::Server;
use crate::token::Token;
use crate::view::{label, outcome_text};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;
use tresillo_core::{Card, CardSet, Decision, Hand, Seat};
use tresillo_sim::{CardAnalysis, HandRecord, PimcConfig, analyze, class_name};

/// Worlds per decision of the board's PIMC estimates (`tresillo analyze`'s
/// default `--worlds`).
pub const WORLDS: u32 = 32;
/// Seed of the board's PIMC sampling (`tresillo analyze`'s default `--seed`).
pub const SEED: u64 = 1;
/// A card the exact solver keeps but that PIMC, from the player's view, rates
/// this much (in classes, for the player's side) below the best card is marked
/// an inaccuracy.
pub const INACCURACY: f64 = 0.25;

const PAGE: &str = include_str!("assets/replay.html");
const CARDS_JS: &str = include_str!("assets/cards.js");
const REPLAY_JS: &str = include_str!("assets/replay.js");

/// A record file opened at start: its name as shown (the operator's argument)
/// and its hands, already checked to replay.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The name the board shows.
    pub name: String,
    /// Its hands in file order.
    pub records: Vec<HandRecord>,
}

enum Job {
    Running,
    Done(Arc<Value>),
}

/// The records the board can open and the analyses made so far.
pub struct Library {
    files: Vec<Opened>,
    cache: Mutex<HashMap<(String, usize), Job>>,
    cpu: Semaphore,
}

impl Library {
    /// A library of the files opened at start.
    #[must_use]
    pub fn new(files: Vec<Opened>) -> Library {
        Library { files, cache: Mutex::new(HashMap::new()), cpu: Semaphore::new(1) }
    }
}

#[derive(Clone)]
struct Board {
    server: Arc<Server>,
    library: Arc<Library>,
}

/// The board's routes (pages, assets and `/api/replay`), to merge into the
/// server's router.
pub fn routes(server: Arc<Server>, library: Arc<Library>) -> Router {
    Router::new()
        .route("/replay", get(page))
        .route("/replay/{id}", get(page))
        .route("/assets/cards.js", get(|| async { js(CARDS_JS) }))
        .route("/assets/replay.js", get(|| async { js(REPLAY_JS) }))
        .route("/api/replay", get(list))
        .route("/api/replay/{id}", get(source))
        .route("/api/replay/{id}/{hand}", get(positions))
        .route("/api/replay/{id}/{hand}/analysis", get(analysis))
        .with_state(Board { server, library })
}

fn js(body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], body)
        .into_response()
}

async fn page() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], PAGE)
        .into_response()
}

fn reply(status: StatusCode, v: &Value) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], v.to_string())
        .into_response()
}

fn not_found(what: &str) -> Response {
    reply(StatusCode::NOT_FOUND, &json!({ "error": what }))
}

impl Board {
    /// The hands of source `id` (`fN`: an opened file; a token: a server game's
    /// finished hands), with its name.
    fn hands(&self, id: &str) -> Option<(String, Vec<HandRecord>)> {
        if let Some(n) = id.strip_prefix('f').and_then(|n| n.parse::<usize>().ok()) {
            let f = self.library.files.get(n.checked_sub(1)?)?;
            return Some((f.name.clone(), f.records.clone()));
        }
        // An unloaded game is read again from its log. Its token is a secret:
        // never in the page's text (a screenshot or a shared screen shows it).
        let slot = self.server.find(Token::parse(id)?)?;
        let g = slot.lock();
        Some((format!("your {} game", g.rules.set.name()), g.records.clone()))
    }

    /// Hand `hand` (1-based) of source `id`; `Err` is the 404's message.
    fn hand(&self, id: &str, hand: &str) -> Result<HandRecord, NoSuch> {
        let (_, recs) = self.hands(id).ok_or(NoSuch::Record)?;
        let k: usize = hand.parse().map_err(|_| NoSuch::Hand)?;
        recs.get(k.wrapping_sub(1)).cloned().ok_or(NoSuch::Hand)
    }
}

/// A record or hand the library does not hold (a 404's message).
#[derive(Debug, thiserror::Error)]
enum NoSuch {
    /// No record of that id.
    #[error("no such record")]
    Record,
    /// No hand of that number in the record.
    #[error("no such hand")]
    Hand,
}

/// Why a record does not replay ([`replay_json`]).
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The record itself (its format, or a decision the engine refuses).
    #[error(transparent)]
    Record(#[from] tresillo_sim::RecordError),
    /// A decision of the record the hand refuses.
    #[error(transparent)]
    Hand(#[from] tresillo_core::HandError),
}

fn summary(k: usize, r: &HandRecord) -> Value {
    let names = r.rules.names();
    json!({
        "hand": k + 1,
        "rules": r.rules.name(),
        "players": r.players,
        "agents": r.agents,
        "contract": r.result.contract.map(|c| names.contract(c, r.result.trump)),
        "outcome": outcome_text(&r.result),
    })
}

/// `GET /api/replay`: the opened files (the server's games are not listed).
async fn list(State(b): State<Board>) -> Response {
    let files: Vec<Value> = b
        .library
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| json!({"id": format!("f{}", i + 1), "name": f.name, "hands": f.records.len()}))
        .collect();
    reply(StatusCode::OK, &json!({ "files": files }))
}

/// `GET /api/replay/ID`: the source's hands.
async fn source(State(b): State<Board>, Path(id): Path<String>) -> Response {
    let Some((name, recs)) = b.hands(&id) else { return not_found("no such record") };
    let hands: Vec<Value> = recs.iter().enumerate().map(|(k, r)| summary(k, r)).collect();
    reply(StatusCode::OK, &json!({"id": id, "name": name, "hands": hands}))
}

/// `GET /api/replay/ID/HAND`: every position of the hand.
async fn positions(State(b): State<Board>, Path((id, hand)): Path<(String, String)>) -> Response {
    match b.hand(&id, &hand) {
        Ok(rec) => match replay_json(&rec) {
            Ok(v) => reply(StatusCode::OK, &v),
            Err(e) => reply(StatusCode::UNPROCESSABLE_ENTITY, &json!({ "error": e.to_string() })),
        },
        Err(e) => not_found(&e.to_string()),
    }
}

/// `GET /api/replay/ID/HAND/analysis`: the analysis (200), or 202 while it runs.
async fn analysis(State(b): State<Board>, Path((id, hand)): Path<(String, String)>) -> Response {
    let rec = match b.hand(&id, &hand) {
        Ok(r) => r,
        Err(e) => return not_found(&e.to_string()),
    };
    let key = (id, rec_index(&hand));
    {
        let mut cache = b.library.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match cache.get(&key) {
            Some(Job::Done(v)) => return reply(StatusCode::OK, v),
            Some(Job::Running) => return reply(StatusCode::ACCEPTED, &json!({"status": "analysing"})),
            None => {
                cache.insert(key.clone(), Job::Running);
            }
        }
    }
    let lib = b.library.clone();
    tokio::spawn(async move {
        let permit = lib.cpu.acquire().await;
        let v = tokio::task::spawn_blocking(move || analysis_json(&rec))
            .await
            .unwrap_or_else(|e| json!({"status": "failed", "error": e.to_string()}));
        drop(permit);
        lib.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(key, Job::Done(Arc::new(v)));
    });
    reply(StatusCode::ACCEPTED, &json!({"status": "analysing"}))
}

fn rec_index(hand: &str) -> usize {
    hand.parse().unwrap_or(0)
}

fn cards(s: CardSet) -> Vec<String> {
    s.iter().map(|c| c.to_string()).collect()
}

/// The board's positions of a record: position `i` is the hand before decision
/// `i + 1` (the last, after every decision), with every seat's cards, the
/// public state, and the decision taken there.
///
/// # Errors
/// A record that does not replay (one line naming the decision).
pub fn replay_json(rec: &HandRecord) -> Result<Value, ReplayError> {
    rec.replay()?;
    let mut h = rec.start()?;
    let mut out = Vec::new();
    for step in &rec.decisions {
        let d = step.act;
        out.push(position(&h, Some((step.seat, d))));
        h.apply(d)?;
    }
    out.push(position(&h, None));
    let names = rec.rules.names();
    Ok(json!({
        "rules": rec.rules.name(),
        "options": rec.options,
        "players": rec.players,
        "agents": rec.agents,
        "dealer": rec.dealer.0,
        "decisions": rec.decisions,
        "positions": out,
        "outcome": outcome_text(&rec.result),
        "contract": rec.result.contract.map(|c| names.contract(c, rec.result.trump)),
        "suits": tresillo_core::Suit::ALL.iter().map(|s| json!([s.letter().to_string(), names.suit(*s)])).collect::<Vec<_>>(),
    }))
}

fn position(h: &Hand, d: Option<(Seat, Decision)>) -> Value {
    let p = h.public();
    let names = p.rules.names();
    let n = p.players;
    let trick: Vec<Value> = {
        let plays = p.plays();
        let cur = p.current_trick().len();
        (plays.len() - cur..plays.len()).map(|i| json!([p.play_seat(i).0, plays[i].to_string()])).collect()
    };
    let last_trick = (p.tricks_done > 0).then(|| {
        let t = p.trick(usize::from(p.tricks_done) - 1);
        json!({
            "cards": t.iter().map(|(s, c)| json!([s.0, c.to_string()])).collect::<Vec<_>>(),
            "winner": p.trick_winners().last().map(|s| s.0),
        })
    });
    json!({
        "hands": (0..n).map(|s| cards(h.hand_of(Seat(s)))).collect::<Vec<_>>(),
        "discards": (0..n).map(|s| cards(h.discards_of(Seat(s)))).collect::<Vec<_>>(),
        "heap": cards(h.heap_remaining()),
        "phase": format!("{:?}", p.phase),
        "declarer": p.declarer.map(|s| s.0),
        "contract": p.contract.map(|c| names.contract(c, p.trump)),
        "trump": p.trump.map(|t| t.letter().to_string()),
        "tricks": (0..n).map(|s| p.tricks[Seat(s)]).collect::<Vec<_>>(),
        "tricks_done": p.tricks_done,
        "trick": trick,
        "last_trick": last_trick,
        "to_move": h.request().seat().map(|s| s.0),
        "decision": d.map(|(seat, d)| json!({"seat": seat.0, "act": d, "text": label(&d, p)})),
    })
}

/// The board's analysis of a record: every card decision `tresillo analyze
/// --pimc` judges, with each legal card's exact class and PIMC estimate
/// ([`WORLDS`] worlds, seed [`SEED`]) and the decision's mark: `blunder` (the
/// exact class fell two or more), `mistake` (it fell one), `inaccuracy` (kept,
/// but PIMC from the player's view rated the card [`INACCURACY`] or more below
/// the best), or none.
#[must_use]
pub fn analysis_json(rec: &HandRecord) -> Value {
    match analyze(rec, Some(PimcConfig { worlds: WORLDS, seed: SEED })) {
        Ok(an) => json!({
            "status": "done",
            "worlds": WORLDS,
            "seed": SEED,
            "cards": an.cards.iter().map(card_json).collect::<Vec<_>>(),
        }),
        Err(e) => json!({"status": "failed", "error": e.to_string()}),
    }
}

fn card_json(c: &CardAnalysis) -> Value {
    let side = |v: f64| if c.declarer_side { v } else { -v };
    let est = |k: Card| {
        c.pimc.as_ref().and_then(|p| p.iter().find(|x| x.card == k)).map(tresillo_sim::PimcCard::mean)
    };
    let lost =
        if c.declarer_side { c.before.saturating_sub(c.after) } else { c.after.saturating_sub(c.before) };
    let best_est = c.classes.iter().filter_map(|&(k, _)| est(k)).map(side).fold(f64::NEG_INFINITY, f64::max);
    let mark = match (lost, est(c.played)) {
        (2.., _) => Some("blunder"),
        (1, _) => Some("mistake"),
        (0, Some(e)) if best_est - side(e) >= INACCURACY => Some("inaccuracy"),
        _ => None,
    };
    json!({
        "index": c.index,
        "trick": c.trick,
        "seat": c.seat.0,
        "declarer_side": c.declarer_side,
        "played": c.played.to_string(),
        "before": class_name(c.goal, c.before),
        "after": class_name(c.goal, c.after),
        "changed": c.changed_outcome(),
        "mark": mark,
        "cards": c.classes.iter().map(|&(k, v)| json!({
            "card": k.to_string(),
            "class": v,
            "name": class_name(c.goal, v),
            "best": v == c.before,
            "pimc": est(k),
            "counts": c.pimc.as_ref().and_then(|p| p.iter().find(|x| x.card == k)).map(|x| x.counts.clone()),
        })).collect::<Vec<_>>(),
    })
}
