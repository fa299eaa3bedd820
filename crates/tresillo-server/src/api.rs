//! The HTTP API (docs/SERVE.md) and the embedded page, as an axum [`Router`].
//! Bodies are parsed here, so that every refusal is a JSON `{"error": ...}` with
//! a 4xx status; a refused request changes nothing.

use crate::game::GameError;
use crate::guard::{Access, guard, object};
use crate::server::{Refused, Server, Slot};
use crate::spec::NewGame;
use crate::token::Token;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tresillo_core::{Decision, RuleSet, Seat};

/// How long a decision's response waits at most for the bots' run it started
/// to end (on a blocking thread): fast bots' answers and the person's next turn
/// come in the same response, a slower bot shows as thinking and the page long
/// polls.
pub const BOT_GRACE: Duration = Duration::from_millis(100);

/// How long a long poll (`?wait=VERSION`) waits for a change at most.
pub const LONG_POLL: Duration = Duration::from_secs(20);

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");
const GLOSSARY_JS: &str = include_str!("assets/glossary.js");
const FAVICON: &str = include_str!("assets/favicon.svg");

/// The server's routes (with a replay board of the server's own games only),
/// behind the [`guard`](crate::guard) of a loopback server on any port.
pub fn router(server: Arc<Server>) -> Router {
    router_with(server, Arc::new(crate::replay::Library::new(Vec::new())), Access::loopback())
}

/// The server's routes, with the replay board opening `library`'s files too,
/// behind the [`guard`](crate::guard) of `access`.
pub fn router_with(server: Arc<Server>, library: Arc<crate::replay::Library>, access: Access) -> Router {
    guard(routes(server, library), Arc::new(access))
}

/// The routes without their guard (merged with the study's before it).
pub(crate) fn routes(server: Arc<Server>, library: Arc<crate::replay::Library>) -> Router {
    let board = crate::replay::routes(server.clone(), library);
    Router::new()
        .route("/", get(page))
        .route("/g/{token}", get(page))
        .route("/assets/app.js", get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }))
        .route("/assets/style.css", get(|| async { asset(STYLE, "text/css; charset=utf-8") }))
        .route("/assets/glossary.js", get(|| async { asset(GLOSSARY_JS, "text/javascript; charset=utf-8") }))
        .route("/assets/favicon.svg", get(|| async { asset(FAVICON, "image/svg+xml") }))
        .route("/favicon.ico", get(|| async { asset(FAVICON, "image/svg+xml") }))
        .route("/api/meta", get(meta))
        .route("/api/games", post(create))
        .route("/api/games/{token}", get(view))
        .route("/api/games/{token}/decisions", post(decide))
        .route("/api/games/{token}/records", get(records))
        .route("/api/games/{token}/undo", post(undo))
        .route("/api/games/{token}/events", post(event))
        .route("/api/games/{token}/reclaim", post(reclaim))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page") })
        .with_state(server)
        .merge(board)
}

fn asset(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

async fn page() -> Response {
    asset(INDEX, "text/html; charset=utf-8")
}

/// A JSON error response.
fn error(status: StatusCode, msg: impl std::fmt::Display) -> Response {
    json_response(status, &json!({"error": msg.to_string()}))
}

fn json_response(status: StatusCode, v: &Value) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], v.to_string())
        .into_response()
}

fn game_error(e: &GameError) -> Response {
    let status = match e {
        GameError::Spec(_) | GameError::Rules(_) => StatusCode::BAD_REQUEST,
        GameError::Conflict(_) => StatusCode::CONFLICT,
        GameError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
        GameError::Storage(_) => StatusCode::INTERNAL_SERVER_ERROR,
    };
    error(status, e)
}

fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "no such game")
}

/// The rule sets (names, table sizes, options) and agents the page offers.
async fn meta(State(s): State<Arc<Server>>) -> Response {
    let rules: Vec<Value> = RuleSet::all()
        .map(|r| {
            let spec = r.spec();
            json!({
                "name": r.name(),
                "summary": spec.summary,
                "section": spec.section,
                "players": spec.tables.iter().map(|t| t.players).collect::<Vec<_>>(),
                "options": spec.options.iter().map(|o| json!({
                    "name": o.name, "default": o.default, "values": o.values, "help": o.help
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    // The opponents the operator offers, each with its agent's description.
    let agents: Vec<Value> = s
        .limits()
        .opponents
        .iter()
        .map(|spec| {
            let name = spec.split(':').next().unwrap_or("").trim();
            let help = s.registry().info(name).map_or("", |a| a.help);
            json!({"name": spec, "help": help})
        })
        .collect();
    json_response(StatusCode::OK, &json!({"rules": rules, "agents": agents}))
}

/// The game of `token` (in memory, or read again from its log on a blocking
/// thread: an unloaded game).
async fn find(s: &Arc<Server>, token: &str) -> Option<(Arc<Slot>, Seat)> {
    let t = Token::parse(token)?;
    if let Some(found) = s.get_seat(t) {
        return Some(found);
    }
    let s = s.clone();
    tokio::task::spawn_blocking(move || s.find_seat(t)).await.ok().flatten()
}

async fn create(
    State(s): State<Arc<Server>>,
    peer: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    body: Bytes,
) -> Response {
    let req: NewGame = match object(&body) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad game request: {e}")),
    };
    let mut seed = [0u8; 8];
    if let Err(e) = getrandom::fill(&mut seed) {
        return error(StatusCode::INTERNAL_SERVER_ERROR, e);
    }
    let spec = match req.to_spec(u64::from_le_bytes(seed)) {
        Ok(spec) => spec,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    if spec.takeover_ms > 0
        && let Err(e) = s.limits().check_opponent(spec.takeover.as_deref().unwrap_or("rule"))
    {
        return error(StatusCode::FORBIDDEN, format!("takeover: {e}"));
    }
    // Only what the operator offers is seated: nothing else is even built.
    for (i, seat) in spec.seats.iter().enumerate() {
        if seat != crate::spec::HUMAN
            && let Err(e) = s.limits().check_opponent(seat)
        {
            return error(StatusCode::FORBIDDEN, format!("seat {i}: {e}"));
        }
    }
    // Building the bots and fsyncing the new log block: off the async threads.
    let queued = crate::stats::start();
    let r = tokio::task::spawn_blocking(move || {
        crate::stats::since(&crate::stats::STATS.blocking_wait, queued);
        s.create_for(peer.map(|p| p.0.0.ip()), spec)
    })
    .await;
    match r {
        Ok(Ok(t)) => {
            json_response(StatusCode::CREATED, &json!({"token": t.to_string(), "url": format!("/g/{t}")}))
        }
        Ok(Err(Refused::Game(e))) => game_error(&e),
        Ok(Err(e @ Refused::TooMany(_))) => error(StatusCode::TOO_MANY_REQUESTS, e),
        Ok(Err(e @ Refused::Full(_))) => error(StatusCode::INSUFFICIENT_STORAGE, e),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// A `?wait=` that is not a version number.
#[derive(Debug, thiserror::Error)]
#[error("bad wait `{0}`: a version number")]
struct BadWait(String);

/// `?wait=VERSION`: the version the client has seen.
fn wait_param(q: Option<&str>) -> Result<Option<u64>, BadWait> {
    let Some(q) = q else { return Ok(None) };
    for pair in q.split('&') {
        if let Some(v) = pair.strip_prefix("wait=") {
            return v.parse().map(Some).map_err(|_| BadWait(v.to_string()));
        }
    }
    Ok(None)
}

async fn view(State(s): State<Arc<Server>>, Path(token): Path<String>, RawQuery(q): RawQuery) -> Response {
    let Some((slot, seat)) = find(&s, &token).await else { return not_found() };
    let wait = match wait_param(q.as_deref()) {
        Ok(w) => w,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    let mut rx = slot.changed.subscribe();
    if let Some(w) = wait
        && *rx.borrow_and_update() == w
    {
        let _ = tokio::time::timeout(LONG_POLL, rx.changed()).await;
    }
    match view_json(slot, seat).await {
        Ok(v) => json_response(StatusCode::OK, &v),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// The person's view with its `version`. Built at once when the game's lock is
/// free; when another thread holds it (a bot run's fsync at its end, which keeps
/// the lock so that the person never sees a turn that is not on disk), built on
/// a blocking thread: an async thread never waits for a game's lock, which would
/// stall every connection it serves behind one disk's fsync.
async fn view_json(slot: Arc<Slot>, seat: Seat) -> Result<Value, tokio::task::JoinError> {
    let version = *slot.changed.borrow();
    let now = match slot.game.try_lock() {
        Ok(g) => Some(crate::view::game_view_for(&g, seat)),
        Err(std::sync::TryLockError::Poisoned(p)) => Some(crate::view::game_view_for(&p.into_inner(), seat)),
        Err(std::sync::TryLockError::WouldBlock) => None,
    };
    let mut v = match now {
        Some(v) => v,
        None => {
            if let Some(t) = crate::stats::start() {
                crate::stats::STATS.view_deferred.record(t.elapsed());
            }
            tokio::task::spawn_blocking(move || crate::view::game_view_for(&slot.lock(), seat)).await?
        }
    };
    v["version"] = version.into();
    Ok(v)
}

/// `POST /api/games/TOKEN/decisions`: `{"seq": N, "decision": {"play": "7C"}}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Posted {
    seq: u64,
    decision: Decision,
    /// Milliseconds from the question shown to the click, by the page's clock.
    #[serde(default)]
    page_ms: Option<u64>,
}

async fn decide(State(s): State<Arc<Server>>, Path(token): Path<String>, body: Bytes) -> Response {
    let Some((slot, seat)) = find(&s, &token).await else { return not_found() };
    let posted: Posted = match object(&body) {
        Ok(p) => p,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("bad decision: {e} (expected {{\"seq\": N, \"decision\": {{\"play\": \"7C\"}}}})"),
            );
        }
    };
    let d = posted.decision;
    let (s2, slot2) = (s.clone(), slot.clone());
    // The fsync blocks: off the async threads.
    let queued = crate::stats::start();
    let rt = tokio::runtime::Handle::current();
    // The new view is built on the same blocking thread (the game's lock may be
    // held by its bots' fsync: never waited for on an async thread).
    let decided = tokio::task::spawn_blocking(move || {
        crate::stats::since(&crate::stats::STATS.blocking_wait, queued);
        let mut rx = slot2.changed.subscribe();
        s2.decide_as(&slot2, seat, d, posted.seq, posted.page_ms)?;
        // The end of the bots' run this decision started is waited for here (a
        // blocking thread), BOT_GRACE at most.
        let deadline = tokio::time::Instant::now() + BOT_GRACE;
        loop {
            let version = *rx.borrow_and_update();
            let g = slot2.lock();
            if !g.worker || g.pausing || tokio::time::Instant::now() >= deadline {
                let mut v = crate::view::game_view_for(&g, seat);
                v["version"] = version.into();
                return Ok::<_, GameError>(v);
            }
            drop(g);
            let _ = rt.block_on(tokio::time::timeout_at(deadline, rx.changed()));
        }
    });
    match decided.await {
        Ok(Ok(v)) => json_response(StatusCode::OK, &v),
        Ok(Err(e)) => game_error(&e),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// `POST /api/games/TOKEN/undo`: `{"seq": N}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Undo {
    seq: u64,
}

/// The person takes back their last decision of the hand (a game created with
/// `"undo": true`); answers with the new view.
async fn undo(State(s): State<Arc<Server>>, Path(token): Path<String>, body: Bytes) -> Response {
    let Some((slot, seat)) = find(&s, &token).await else { return not_found() };
    let posted: Undo = match object(&body) {
        Ok(p) => p,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad undo: {e} (expected {{\"seq\": N}})")),
    };
    let done = tokio::task::spawn_blocking(move || {
        let version = *slot.changed.borrow();
        if seat != slot.lock().human {
            return Err(GameError::Conflict("undo is for a game against bots only".into()));
        }
        s.undo(&slot, posted.seq)?;
        let g = slot.lock();
        let mut v = crate::view::game_view_for(&g, seat);
        v["version"] = (*slot.changed.borrow()).max(version).into();
        Ok::<_, GameError>(v)
    })
    .await;
    match done {
        Ok(Ok(v)) => json_response(StatusCode::OK, &v),
        Ok(Err(e)) => game_error(&e),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// `POST /api/games/TOKEN/events`: `{"event": "misclick", "card": "7C"}`,
/// `{"event": "hidden"}`, `{"event": "visible"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Event {
    event: String,
    #[serde(default)]
    card: Option<String>,
}

/// Journals what the page saw the person do beyond decisions (docs/SERVE.md,
/// "Timing and behaviour"): `204`.
async fn event(State(s): State<Arc<Server>>, Path(token): Path<String>, body: Bytes) -> Response {
    let Some((slot, seat)) = find(&s, &token).await else { return not_found() };
    let posted: Event = match object(&body) {
        Ok(p) => p,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad event: {e}")),
    };
    let card = match posted.card.as_deref().map(tresillo_core::parse_card).transpose() {
        Ok(c) => c,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad card: {e}")),
    };
    let done = tokio::task::spawn_blocking(move || slot.lock().event_of(seat, &posted.event, card)).await;
    match done {
        Ok(Ok(())) => StatusCode::NO_CONTENT.into_response(),
        Ok(Err(e)) => game_error(&e),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// The person takes back the seat a bot took over when their turn waited too
/// long (a table with friends and a takeover); answers with their view.
async fn reclaim(State(s): State<Arc<Server>>, Path(token): Path<String>) -> Response {
    let Some((slot, seat)) = find(&s, &token).await else { return not_found() };
    let done = tokio::task::spawn_blocking(move || {
        s.reclaim(&slot, seat)?;
        let g = slot.lock();
        let mut v = crate::view::game_view_for(&g, seat);
        v["version"] = (*slot.changed.borrow()).into();
        Ok::<_, GameError>(v)
    })
    .await;
    match done {
        Ok(Ok(v)) => json_response(StatusCode::OK, &v),
        Ok(Err(e)) => game_error(&e),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// The game's finished hands as records (JSON Lines, docs/RECORDS.md).
async fn records(State(s): State<Arc<Server>>, Path(token): Path<String>) -> Response {
    let Some((slot, _)) = find(&s, &token).await else { return not_found() };
    // The game's lock is taken on a blocking thread (see `view_json`).
    let text =
        match tokio::task::spawn_blocking(move || crate::store::records_text(&slot.lock().records)).await {
            Ok(t) => t,
            Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, e),
        };
    let disposition = format!("attachment; filename=\"{token}.jsonl\"");
    Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CONTENT_DISPOSITION, disposition)
        .body(Body::from(text))
        .expect("a valid response")
}
