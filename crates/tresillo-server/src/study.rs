//! Study mode (`tresillo serve --study DIR`, docs/SERVE.md "Study mode"): the
//! participants' pages and the researcher's, driven through the
//! [`tresillo_study::Study`] library (no second engine, no second store: the
//! study's own journals are the record).
//!
//! A participant opens `/study/TOKEN`: the consent text first (accepted once,
//! journaled), then their games one after another on the play page's table
//! (`app.js`), then an end page. Every response is built from their seat's
//! [`PlayerView`](tresillo_core::PlayerView) and the public history; another
//! participant's token or a made-up one gets a 404. The researcher opens
//! `/research/TOKEN` (the study file's `researcher_token`): progress per
//! participant, and an export (`tresillo_study::export`) into
//! `DIR/exports/NNN`, a directory the server names.
//!
//! A [`Study`] sits behind a `Mutex`, held only for quick steps: a
//! participant's game is lent out of the study ([`Study::lend`],
//! [`Study::lend_decision`]), its opponents think and its journal is flushed
//! with the lock released ([`Lent::think`], on a blocking thread, never on the
//! async runtime), and it is given back ([`Study::give_back`]). One
//! participant's requests are answered one at a time (a lock per participant);
//! a slow opponent of one participant delays no other.
//!
//! Participants added while the server runs (`tresillo study add-participant`)
//! are served at once: a token no open study knows makes the server look at the
//! study files' size and modification time (the study's own file: nothing in a
//! request names a path), and read a changed file again
//! ([`Study::reload_participants`]) once per change.

use crate::view::{history_of, last_trick, outcome_text, request_json, table};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::SystemTime;
use tresillo_agents::Registry;
use tresillo_core::{CardSet, Decision, Hand, LedgerConfig, Scorer, ScoringMode, Seat};
use tresillo_env::SeatView;
use tresillo_sim::HandRecord;
use tresillo_study::{Pending, Study, StudyError, Turn, When, Who, find_token, study_file};

const PAGE: &str = include_str!("assets/study.html");
const STUDY_JS: &str = include_str!("assets/study.js");

/// The directory (inside the study's) exports are written to.
pub const EXPORTS_DIR: &str = "exports";

/// One open study.
struct Open {
    dir: PathBuf,
    title: String,
    /// The participants' tokens (for finding the study of a token without its
    /// lock; the library compares them again), each with its participant's
    /// lock: one request of a participant at a time.
    people: RwLock<Vec<(String, Arc<Desk>)>>,
    researcher: Option<String>,
    /// The study file's size and modification time when last read (or tried).
    stamp: Mutex<Option<Stamp>>,
    study: Mutex<Study>,
}

/// A participant's desk: their lock (one request at a time) and the channel
/// their pages' long polls wait on (a new version at every change: consent,
/// a decision, from any tab).
struct Desk {
    one: Mutex<()>,
    changed: tokio::sync::watch::Sender<u64>,
}

impl Desk {
    fn new() -> Desk {
        Desk { one: Mutex::new(()), changed: tokio::sync::watch::channel(crate::server::next_version()).0 }
    }

    fn bump(&self) {
        self.changed.send_modify(|v| *v = crate::server::next_version().max(*v + 1));
    }
}

/// A file's size and modification time.
type Stamp = (u64, Option<SystemTime>);

fn stamp_of(path: &std::path::Path) -> Option<Stamp> {
    std::fs::metadata(path).ok().map(|m| (m.len(), m.modified().ok()))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Open {
    fn lock(&self) -> MutexGuard<'_, Study> {
        lock(&self.study)
    }

    /// The participant's index and lock, if `token` is a known participant's
    /// (constant time over every token).
    fn find(&self, token: &str) -> Option<Arc<Desk>> {
        let people = self.people.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        find_token(people.iter().map(|(t, _)| t.as_str()), token).map(|i| people[i].1.clone())
    }

    /// Reads the study file again if it changed since it was last read: the
    /// participants added since are served from now on. A file changed otherwise
    /// is said once on stderr and changes nothing.
    fn refresh(&self) {
        let now = stamp_of(&study_file(&self.dir));
        {
            let mut seen = lock(&self.stamp);
            if now.is_none() || *seen == now {
                return;
            }
            *seen = now;
        }
        let mut study = self.lock();
        match study.reload_participants() {
            Ok(0) => {}
            Ok(_) => {
                let mut people = self.people.write().unwrap_or_else(std::sync::PoisonError::into_inner);
                for p in &study.file().participants[people.len()..] {
                    people.push((p.token.clone(), Arc::new(Desk::new())));
                }
            }
            Err(e) => eprintln!("tresillo serve: study {}: not reloaded: {e}", self.dir.display()),
        }
    }
}

/// The studies a server runs.
pub struct Studies {
    open: Vec<Open>,
}

impl std::fmt::Debug for Studies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.open.iter().map(|o| &o.dir)).finish()
    }
}

/// What [`Studies::open`] says of each study (for the command's first lines).
#[derive(Clone, Debug)]
pub struct Opened {
    /// The study directory.
    pub dir: PathBuf,
    /// Its title.
    pub title: String,
    /// The researcher page's path (`/research/TOKEN`: a secret), if the study
    /// file has a `researcher_token`.
    pub researcher_path: Option<String>,
    /// Participants.
    pub participants: usize,
}

/// Why the studies of `tresillo serve --study` cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// A study cannot be opened (one line naming the file).
    #[error(transparent)]
    Study(#[from] StudyError),
    /// Two studies share a token.
    #[error("{} and {}: a token is in both studies (tokens must be unique)", .0.display(), .1.display())]
    SharedToken(PathBuf, PathBuf),
}

impl Studies {
    /// Opens every study directory (each with its journals: games in progress
    /// continue where they were), opponents built from `registry`.
    ///
    /// # Errors
    /// A study that cannot be opened (one line naming the file), or a token used
    /// by two studies.
    pub fn open(dirs: &[PathBuf], registry: &Registry) -> Result<(Arc<Studies>, Vec<Opened>), OpenError> {
        let mut open: Vec<Open> = Vec::new();
        let mut said = Vec::new();
        for dir in dirs {
            let stamp = stamp_of(&study_file(dir));
            let study = Study::open(dir, registry.clone())?;
            let f = study.file();
            let tokens: Vec<String> = f.participants.iter().map(|p| p.token.clone()).collect();
            let researcher = f.researcher_token.clone();
            for o in &open {
                let mine = tokens.iter().chain(&researcher);
                let theirs = o.people.read().unwrap_or_else(std::sync::PoisonError::into_inner);
                if mine
                    .into_iter()
                    .any(|t| theirs.iter().any(|(u, _)| u == t) || o.researcher.as_ref() == Some(t))
                {
                    return Err(OpenError::SharedToken(o.dir.clone(), dir.clone()));
                }
            }
            said.push(Opened {
                dir: dir.clone(),
                title: f.title.clone(),
                researcher_path: researcher.as_ref().map(|t| format!("/research/{t}")),
                participants: tokens.len(),
            });
            open.push(Open {
                dir: dir.clone(),
                title: f.title.clone(),
                people: RwLock::new(tokens.into_iter().map(|t| (t, Arc::new(Desk::new()))).collect()),
                researcher,
                stamp: Mutex::new(stamp),
                study: Mutex::new(study),
            });
        }
        Ok((Arc::new(Studies { open }), said))
    }

    /// Locks study `i` (in the order opened; for tests and tools). A poisoned
    /// lock is taken over: the library leaves a study consistent at every step.
    pub fn lock(&self, i: usize) -> MutexGuard<'_, Study> {
        self.open[i].lock()
    }

    /// The study of participant token `token` and the participant's lock
    /// (constant time over every token).
    fn find(&self, token: &str) -> Option<(usize, Arc<Desk>)> {
        let mut found = None;
        for (i, o) in self.open.iter().enumerate() {
            if let Some(desk) = o.find(token)
                && found.is_none()
            {
                found = Some((i, desk));
            }
        }
        found
    }

    /// As `find`, but a token no study knows makes each study whose file
    /// changed read it again first (participants added while the server runs).
    /// Blocking: call it on a blocking thread.
    fn participant(&self, token: &str) -> Option<(usize, Arc<Desk>)> {
        self.find(token).or_else(|| {
            for o in &self.open {
                o.refresh();
            }
            self.find(token)
        })
    }

    /// [`Studies::participant`] from the async runtime.
    async fn participant_async(self: &Arc<Self>, token: &str) -> Option<(usize, Arc<Desk>)> {
        if let Some(found) = self.find(token) {
            return Some(found);
        }
        let (s, t) = (self.clone(), token.to_string());
        tokio::task::spawn_blocking(move || s.participant(&t)).await.ok().flatten()
    }

    /// The study whose researcher token is `token`.
    fn researcher(&self, token: &str) -> Option<usize> {
        let mut found = None;
        for (i, o) in self.open.iter().enumerate() {
            if o.researcher.as_deref().is_some_and(|r| find_token([r], token).is_some()) && found.is_none() {
                found = Some(i);
            }
        }
        found
    }
}

/// The routes of study mode (merged with [`crate::router`]'s by `serve`; the
/// page's `app.js` and `style.css` are that router's), behind the
/// [`guard`](crate::guard) of a loopback server on any port.
pub fn study_router(studies: Arc<Studies>) -> Router {
    crate::guard::guard(study_routes(studies), Arc::new(crate::guard::Access::loopback()))
}

/// The routes without their guard (`serve` merges them before its guard).
pub(crate) fn study_routes(studies: Arc<Studies>) -> Router {
    Router::new()
        .route("/study/{token}", get(participant_page))
        .route("/research/{token}", get(researcher_page))
        .route("/assets/study.js", get(|| async { asset(STUDY_JS, "text/javascript; charset=utf-8") }))
        .route("/api/study/{token}", get(participant_state))
        .route("/api/study/{token}/consent", post(consent))
        .route("/api/study/{token}/decisions", post(decide))
        .route("/api/study/{token}/events", post(event))
        .route("/api/study/{token}/answers", post(answer_question))
        .route("/api/study/{token}/withdraw", post(withdraw))
        .route("/api/research/{token}", get(research_state))
        .route("/api/research/{token}/export", post(export))
        .route("/api/research/{token}/exports/{n}/deals.csv", get(exported_csv))
        .with_state(studies)
}

fn asset(body: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        body,
    )
        .into_response()
}

fn json_response(status: StatusCode, v: &Value) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], v.to_string())
        .into_response()
}

fn error(status: StatusCode, msg: impl std::fmt::Display) -> Response {
    json_response(status, &json!({"error": msg.to_string()}))
}

fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "no such study page")
}

fn study_error(e: &StudyError) -> Response {
    let status = match e {
        StudyError::Stale { .. } | StudyError::Finished | StudyError::Busy => StatusCode::CONFLICT,
        StudyError::Withdrawn => StatusCode::GONE,
        StudyError::Illegal(_) | StudyError::Record(_) => StatusCode::UNPROCESSABLE_ENTITY,
        _ if e.is_client_error() => StatusCode::BAD_REQUEST,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    error(status, e)
}

async fn participant_page(State(s): State<Arc<Studies>>, Path(token): Path<String>) -> Response {
    if s.participant_async(&token).await.is_none() {
        return not_found();
    }
    asset(PAGE, "text/html; charset=utf-8")
}

async fn researcher_page(State(s): State<Arc<Studies>>, Path(token): Path<String>) -> Response {
    if s.researcher(&token).is_none() {
        return not_found();
    }
    asset(PAGE, "text/html; charset=utf-8")
}

/// Runs `f` with the participant's lock held, on a blocking thread (the library
/// fsyncs and runs the opponents); `f` locks the study when it needs it, and is
/// given the participant's version (a new one first when the request
/// `changes` their state: their other tabs' polls wake).
async fn with_participant(
    s: Arc<Studies>,
    token: String,
    changes: bool,
    f: impl FnOnce(&Open, Who, u64) -> Response + Send + 'static,
) -> Response {
    let r = tokio::task::spawn_blocking(move || {
        let Some((i, desk)) = s.participant(&token) else { return not_found() };
        let _one_at_a_time = lock(&desk.one);
        let o = &s.open[i];
        let who = o.lock().who(&token);
        let Some(who) = who else { return not_found() };
        if changes {
            desk.bump();
        }
        let version = *desk.changed.borrow();
        f(o, who, version)
    })
    .await;
    r.unwrap_or_else(|e| error(StatusCode::INTERNAL_SERVER_ERROR, e))
}

/// The opponents of the participant's game move until the participant's turn
/// (games started as needed), thinking with the study's lock released.
fn opponents_move(o: &Open, who: Who) -> Result<(), StudyError> {
    {
        let study = o.lock();
        // Not before the consent and the questions due, nor after a withdrawal.
        if !study.consented(who) || study.withdrawn(who) || study.question_due(who).is_some() {
            return Ok(());
        }
    }
    loop {
        let lent = o.lock().lend(who)?;
        let Some(mut lent) = lent else { return Ok(()) };
        lent.think();
        o.lock().give_back(lent)?;
    }
}

/// The participant's state after their opponents moved, at `version`.
fn answer(o: &Open, who: Who, version: u64) -> Response {
    match opponents_move(o, who).and_then(|()| state(&mut o.lock(), who)) {
        Ok(mut v) => {
            v["version"] = version.into();
            json_response(StatusCode::OK, &v)
        }
        Err(e) => study_error(&e),
    }
}

/// `GET /api/study/TOKEN[?wait=VERSION]`: the participant's state; with
/// `wait`, answered when their version is no longer VERSION (a change made in
/// another tab), or after [`crate::LONG_POLL`].
async fn participant_state(
    State(s): State<Arc<Studies>>,
    Path(token): Path<String>,
    RawQuery(q): RawQuery,
) -> Response {
    let wait = q.as_deref().and_then(|q| q.split('&').find_map(|p| p.strip_prefix("wait=")));
    if let Some(w) = wait {
        let Ok(w) = w.parse::<u64>() else {
            return error(StatusCode::BAD_REQUEST, format!("bad wait `{w}`: a version number"));
        };
        let Some((_, desk)) = s.participant_async(&token).await else { return not_found() };
        let mut rx = desk.changed.subscribe();
        if *rx.borrow_and_update() == w {
            let _ = tokio::time::timeout(crate::LONG_POLL, rx.changed()).await;
        }
    }
    with_participant(s, token, false, answer).await
}

async fn consent(State(s): State<Arc<Studies>>, Path(token): Path<String>, body: Bytes) -> Response {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Accept {
        accept: bool,
    }
    match crate::guard::object::<Accept>(&body) {
        Ok(Accept { accept: true }) => {}
        Ok(_) => return error(StatusCode::BAD_REQUEST, "consent: only {\"accept\": true} is an answer"),
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("bad consent: {e} (expected {{\"accept\": true}})"),
            );
        }
    }
    with_participant(s, token, true, |o, who, version| {
        let accepted = o.lock().accept_consent(who);
        match accepted {
            Ok(()) => answer(o, who, version),
            Err(e) => study_error(&e),
        }
    })
    .await
}

/// `POST /api/study/TOKEN/decisions`: `{"seq": AT, "decision": {"play": "7C"}}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Posted {
    seq: usize,
    decision: Decision,
    /// Milliseconds from the question shown to the click, by the page's clock.
    #[serde(default)]
    page_ms: Option<u64>,
}

/// `POST /api/study/TOKEN/events`: `{"event": "misclick", "card": "7C"}`,
/// `{"event": "hidden"}`, `{"event": "visible"}`: journaled (`204`).
async fn event(State(s): State<Arc<Studies>>, Path(token): Path<String>, body: Bytes) -> Response {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Event {
        event: String,
        #[serde(default)]
        card: Option<String>,
    }
    let posted: Event = match crate::guard::object(&body) {
        Ok(p) => p,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad event: {e}")),
    };
    if let Some(c) = &posted.card
        && let Err(e) = tresillo_core::parse_card(c)
    {
        return error(StatusCode::BAD_REQUEST, format!("bad card: {e}"));
    }
    with_participant(s, token, false, move |o, who, _| {
        match o.lock().event(who, &posted.event, posted.card.as_deref()) {
            Ok(()) => StatusCode::NO_CONTENT.into_response(),
            Err(tresillo_study::StudyError::Record(e)) => error(StatusCode::BAD_REQUEST, e),
            Err(e) => study_error(&e),
        }
    })
    .await
}

/// `POST /api/study/TOKEN/answers`: `{"question": ID, "answer": TEXT, "page_ms":
/// N}`, the question due now (a choice of its, or a free text); journaled. The
/// answer's `correct` (false: the question is asked again when it must be
/// answered correctly) and the state.
async fn answer_question(State(s): State<Arc<Studies>>, Path(token): Path<String>, body: Bytes) -> Response {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Answer {
        question: String,
        answer: String,
        #[serde(default)]
        page_ms: Option<u64>,
    }
    let posted: Answer = match crate::guard::object(&body) {
        Ok(p) => p,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("bad answer: {e} (expected {{\"question\": \"ID\", \"answer\": \"TEXT\"}})"),
            );
        }
    };
    with_participant(s, token, true, move |o, who, version| {
        let answered = o.lock().answer(who, &posted.question, &posted.answer, posted.page_ms);
        match answered {
            Ok(correct) => {
                let mut r = answer(o, who, version);
                if correct == Some(false) && r.status() == StatusCode::OK {
                    // Said once, in this answer's state: not right.
                    r = match state_with(o, who, version, |v| v["wrong"] = posted.question.clone().into()) {
                        Ok(r) => r,
                        Err(e) => study_error(&e),
                    };
                }
                r
            }
            Err(StudyError::Record(e)) => error(StatusCode::BAD_REQUEST, e),
            Err(e) => study_error(&e),
        }
    })
    .await
}

/// `POST /api/study/TOKEN/withdraw`: `{"withdraw": true}`. The participant's
/// journal is replaced by the one line of their withdrawal (their games,
/// answers and events deleted, durably); then their state says so.
async fn withdraw(State(s): State<Arc<Studies>>, Path(token): Path<String>, body: Bytes) -> Response {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Withdraw {
        withdraw: bool,
    }
    match crate::guard::object::<Withdraw>(&body) {
        Ok(Withdraw { withdraw: true }) => {}
        Ok(_) => return error(StatusCode::BAD_REQUEST, "withdraw: only {\"withdraw\": true} is an answer"),
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad withdrawal: {e}")),
    }
    with_participant(s, token, true, |o, who, version| {
        let done = {
            let mut study = o.lock();
            study.withdraw(who).map(|()| study.id(who).to_string())
        };
        match done {
            Ok(id) => {
                scrub_exports(o, &id);
                answer(o, who, version)
            }
            Err(e) => study_error(&e),
        }
    })
    .await
}

/// Deletes the exports of `DIR/exports` that hold participant `id`'s data (a
/// row, a record, an event or an answer of theirs), after their withdrawal:
/// exports are made from the journals, so the researcher exports again. The
/// directory is fsynced after. Returns the exports deleted.
fn scrub_exports(o: &Open, id: &str) -> Vec<u32> {
    let mut gone = Vec::new();
    for n in exports(o) {
        let dir = o.dir.join(EXPORTS_DIR).join(format!("{n:03}"));
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
        let row = format!("\n{id},");
        let holds = read("deals.csv").contains(&format!("human:{id},"))
            || read("records.jsonl").contains(&format!("\"human:{id}\""))
            || ["events.csv", "questionnaire.csv"].iter().any(|f| read(f).contains(&row));
        if holds && std::fs::remove_dir_all(&dir).is_ok() {
            gone.push(n);
        }
    }
    if !gone.is_empty() {
        let _ = tresillo_durable::sync_dir(&o.dir.join(EXPORTS_DIR));
    }
    gone
}

/// The participant's state at `version`, changed by `f` (no opponent moves).
fn state_with(o: &Open, who: Who, version: u64, f: impl FnOnce(&mut Value)) -> Result<Response, StudyError> {
    let mut v = state(&mut o.lock(), who)?;
    v["version"] = version.into();
    f(&mut v);
    Ok(json_response(StatusCode::OK, &v))
}

async fn decide(State(s): State<Arc<Studies>>, Path(token): Path<String>, body: Bytes) -> Response {
    let posted: Posted = match crate::guard::object(&body) {
        Ok(p) => p,
        Err(e) => {
            // An unknown token is a 404 whatever the body.
            if s.participant_async(&token).await.is_none() {
                return not_found();
            }
            return error(
                StatusCode::BAD_REQUEST,
                format!("bad decision: {e} (expected {{\"seq\": N, \"decision\": {{\"play\": \"7C\"}}}})"),
            );
        }
    };
    with_participant(s, token, true, move |o, who, version| {
        {
            let study = o.lock();
            if study.withdrawn(who) {
                return study_error(&StudyError::Withdrawn);
            }
            if !study.consented(who) {
                return error(StatusCode::CONFLICT, "accept the consent text first");
            }
            if let Some(q) = study.question_due(who) {
                return error(StatusCode::CONFLICT, format!("answer question `{}` first", q.id));
            }
        }
        let decided = opponents_move(o, who).and_then(|()| {
            let lent = o.lock().lend_decision_timed(who, posted.seq, posted.decision, posted.page_ms);
            let mut lent = lent?;
            lent.think();
            o.lock().give_back(lent).map(|_| ())
        });
        match decided {
            Ok(()) => answer(o, who, version),
            Err(e) => study_error(&e),
        }
    })
    .await
}

/// What the participant's page shows now. Before consent: the consent text and
/// progress only (no game is started).
fn state(study: &mut Study, who: Who) -> Result<Value, StudyError> {
    let games = study.file().deals_per_participant;
    let practice = study.file().practice_count();
    if study.withdrawn(who) {
        // Nothing of theirs is left to show.
        return Ok(json!({
            "study": study.file().title,
            "participant": study.id(who),
            "withdrawn": true,
            "consented": false,
            "games": games,
            "played": 0,
            "done": false,
            "results": [],
            "game": Value::Null,
        }));
    }
    let consented = study.consented(who);
    let question = study.question_due(who).map(|q| {
        json!({"id": q.id, "text": q.text, "choices": q.choices, "required": q.must_be_correct,
               "when": if q.when == When::Before { "before" } else { "after" }})
    });
    let pending = if consented && question.is_none() {
        match study.turn(who)? {
            Turn::Decide(p) => Some(p),
            Turn::Done => None,
        }
    } else {
        None
    };
    // A question after the games may be due only once the last game ends.
    let question = question.or_else(|| {
        study.question_due(who).map(|q| {
            json!({"id": q.id, "text": q.text, "choices": q.choices, "required": q.must_be_correct,
                   "when": if q.when == When::Before { "before" } else { "after" }})
        })
    });
    let finished = study.games(who).len() as u64;
    let results = results(study, who);
    let game = pending.as_deref().map(|p| game_view(p, &results));
    let done = consented && pending.is_none() && question.is_none();
    Ok(json!({
        "study": study.file().title,
        "participant": study.id(who),
        "consent": study.consent(),
        "consented": consented,
        "withdrawn": false,
        "games": games,
        "practice": practice,
        "practice_played": finished.min(practice),
        "played": finished.saturating_sub(practice),
        "question": question,
        "done": done,
        // The study's completion code, once every game is played and every
        // question answered.
        "completion_code": if done { study.file().completion_code.clone() } else { None },
        "results": results,
        "game": game,
    }))
}

/// The participant's finished games: outcome and each seat's score change,
/// scored per deal as the export scores them; columns turned so that the
/// participant's seat of each game is column `you` of the list.
fn results(study: &Study, who: Who) -> Vec<Value> {
    let human_of = |rec: &HandRecord| {
        let me = format!("human:{}", study.id(who));
        rec.agents.iter().position(|a| *a == me).unwrap_or(0)
    };
    study
        .games(who)
        .iter()
        .enumerate()
        .map(|(i, rec)| {
            let n = usize::from(rec.players);
            let mut ledger =
                LedgerConfig::with_rules(rec.game_rules().unwrap_or(study.file().rules), rec.players);
            ledger.deals = 1;
            let change: Vec<i64> = Scorer::new(ScoringMode::Deal, ledger)
                .and_then(|mut s| s.apply(&rec.result))
                .map(|sc| (0..n).map(|k| sc.total(Seat(k as u8))).collect())
                .unwrap_or_else(|_| vec![0; n]);
            let h = human_of(rec);
            let contract = rec.result.contract.map(|c| rec.rules.names().contract(c, rec.result.trump));
            json!({
                "practice": (i as u64) < study.file().practice_count(),
                "hand": i,
                "outcome": outcome_text(&rec.result),
                "contract": contract,
                "you": change[h],
                "seat": h,
                "change": change,
            })
        })
        .collect()
}

/// The table's JSON for a pending decision, in the play page's shape
/// (`crate::game_view`), from the seat's view and the public history only.
fn game_view(p: &Pending, results: &[Value]) -> Value {
    let s = &p.setup;
    let me = s.human_seat;
    let pv = &p.view;
    let public = pv.public();
    let names = public.rules.names();
    // The hand rebuilt from the secret deal only to label the history (another
    // seat's discard is shown as its count).
    let mut hand = Hand::with_rules(s.rules, s.players, s.deal, s.dealer).ok();
    if let Some(h) = &mut hand {
        for st in &p.steps {
            if h.apply(st.act).is_err() {
                break;
            }
        }
    }
    let history = hand.map_or_else(Vec::new, |h| history_of(s.dealer, h, &p.steps, me));
    let n = usize::from(s.players);
    // Opponents are not named to the participant (blind, as a study wants).
    let mut k = 0;
    let seats: Vec<String> = (0..n)
        .map(|i| {
            if i == me.index() {
                "you".to_string()
            } else {
                k += 1;
                format!("opponent {k}")
            }
        })
        .collect();
    // Each finished game's changes with the participant's column at `me`.
    let hands: Vec<Value> = results
        .iter()
        .map(|r| {
            let change: Vec<i64> = r["change"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default();
            let h = r["seat"].as_u64().unwrap_or(0) as usize;
            let turned: Vec<i64> =
                (0..n).map(|c| change.get((c + n * 2 + h - me.index()) % n).copied().unwrap_or(0)).collect();
            json!({"hand": r["hand"], "outcome": r["outcome"], "contract": r["contract"], "change": turned,
                   "practice": r["practice"]})
        })
        .collect();
    // Practice deals are not scored: not in the totals.
    let mut totals = vec![0i64; n];
    for h in hands.iter().filter(|h| h["practice"] != true) {
        for (t, c) in totals.iter_mut().zip(h["change"].as_array().into_iter().flatten()) {
            *t += c.as_i64().unwrap_or(0);
        }
    }
    json!({
        "seq": p.at,
        "practice": s.practice,
        "status": "your_turn",
        "failure": Value::Null,
        "rules": s.rules.set.name(),
        "players": s.players,
        "seat": me.0,
        "seats": seats,
        "hands": s.games,
        "hand": s.game,
        "turn": me.0,
        "thinking": Value::Null,
        "view": serde_json::to_value(SeatView::new(pv, CardSet::EMPTY)).expect("a view serializes"),
        "table": table(public, pv),
        "request": request_json(p.request, pv),
        "history": history,
        "last_trick": last_trick(public),
        "score": {"totals": totals, "hands": hands, "settlement": Value::Null},
        "records_url": Value::Null,
        "names": {
            "suits": tresillo_core::Suit::ALL.iter().map(|x| json!([x.letter().to_string(), names.suit(*x)])).collect::<Vec<_>>(),
        },
    })
}

async fn with_researcher(
    s: Arc<Studies>,
    token: &str,
    f: impl FnOnce(&Open, &mut Study) -> Response + Send + 'static,
) -> Response {
    let Some(i) = s.researcher(token) else { return not_found() };
    let r = tokio::task::spawn_blocking(move || {
        let o = &s.open[i];
        let mut study = o.lock();
        f(o, &mut study)
    })
    .await;
    r.unwrap_or_else(|e| error(StatusCode::INTERNAL_SERVER_ERROR, e))
}

/// The exports made so far: their numbers, in order.
fn exports(o: &Open) -> Vec<u32> {
    let mut v: Vec<u32> = std::fs::read_dir(o.dir.join(EXPORTS_DIR))
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse().ok()))
                .collect()
        })
        .unwrap_or_default();
    v.sort_unstable();
    v
}

/// A participant who consented and has done nothing for this long (ms) without
/// finishing is shown as dropped out on the researcher's page.
pub const DROPOUT_MS: u64 = 30 * 60 * 1000;

async fn research_state(State(s): State<Arc<Studies>>, Path(token): Path<String>) -> Response {
    let t = token.clone();
    with_researcher(s, &token, move |o, study| {
        let f = study.file();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let participants: Vec<Value> = study
            .progress()
            .into_iter()
            .zip(&f.participants)
            .map(|(p, part)| {
                let who = study.who(&part.token);
                let consented = who.is_some_and(|w| study.consented(w));
                let asked = who.and_then(|w| study.question_due(w)).map(|q| q.id.clone());
                // Dropout tracking: how long since the participant last did
                // anything, and where they stand.
                let idle_ms = p.last_at.map(|t| now.saturating_sub(t));
                let status = if p.withdrawn {
                    "withdrawn"
                } else if p.played == p.games && asked.is_none() {
                    "finished"
                } else if !consented {
                    "not started"
                } else if idle_ms.is_none_or(|i| i > DROPOUT_MS) {
                    "dropped out"
                } else {
                    "playing"
                };
                json!({
                    "id": p.id,
                    "condition": p.condition,
                    "practice_played": p.practice_played,
                    "practice": p.practice,
                    "question": asked,
                    "played": p.played,
                    "games": p.games,
                    "decisions": p.decisions,
                    "consented": consented,
                    "link": format!("/study/{}", part.token),
                    "last_at": p.last_at,
                    "idle_ms": idle_ms,
                    "status": status,
                })
            })
            .collect();
        // Progress per condition: participants, finished, playing, dropped
        // out, withdrawn.
        let conditions: Vec<Value> = f
            .conditions
            .iter()
            .map(|c| {
                let mine: Vec<&Value> = participants.iter().filter(|p| p["condition"] == c.name.as_str()).collect();
                let count = |st: &str| mine.iter().filter(|p| p["status"] == st).count();
                json!({
                    "name": c.name,
                    "rules": c.rules.set.name(),
                    "opponents": c.opponents,
                    "participants": mine.len(),
                    "finished": count("finished"),
                    "playing": count("playing"),
                    "not_started": count("not started"),
                    "dropped_out": count("dropped out"),
                    "withdrawn": count("withdrawn"),
                    "games_played": mine.iter().filter_map(|p| p["played"].as_u64()).sum::<u64>(),
                })
            })
            .collect();
        let ex: Vec<Value> = exports(o)
            .into_iter()
            .map(|n| json!({"name": format!("{EXPORTS_DIR}/{n:03}"), "csv": format!("/api/research/{t}/exports/{n}/deals.csv")}))
            .collect();
        json_response(
            StatusCode::OK,
            &json!({
                "study": o.title,
                "dir": o.dir.display().to_string(),
                "rules": f.rules.set.name(),
                "players": f.players,
                "opponents": f.conditions[0].opponents,
                "conditions": conditions,
                "assignment": f.assignment.map(|a| a.describe()),
                "practice_deals": f.practice_count(),
                "games_per_participant": f.deals_per_participant,
                "participants": participants,
                "exports": ex,
            }),
        )
    })
    .await
}

/// `POST /api/research/TOKEN/export`: the finished games exported (CSV and
/// Parquet) into `DIR/exports/NNN`, the next free number; nothing in the request
/// names a path.
async fn export(State(s): State<Arc<Studies>>, Path(token): Path<String>) -> Response {
    let t = token.clone();
    with_researcher(s, &token, move |o, study| {
        let n = exports(o).last().map_or(1, |n| n + 1);
        let name = format!("{n:03}");
        let out = o.dir.join(EXPORTS_DIR).join(&name);
        if let Err(e) = std::fs::create_dir_all(o.dir.join(EXPORTS_DIR)) {
            return error(StatusCode::INTERNAL_SERVER_ERROR, format!("{}: {e}", o.dir.display()));
        }
        match tresillo_study::export(study, &out, tresillo_study::Format::Both) {
            Ok(e) => json_response(
                StatusCode::CREATED,
                &json!({
                    "name": format!("{EXPORTS_DIR}/{name}"),
                    "dir": out.display().to_string(),
                    "rows": e.rows,
                    "deals": e.deals,
                    "csv": format!("/api/research/{t}/exports/{n}/deals.csv"),
                }),
            ),
            Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e),
        }
    })
    .await
}

/// `GET /api/research/TOKEN/exports/N/deals.csv`: N a number (the export's),
/// checked before it names a file.
async fn exported_csv(State(s): State<Arc<Studies>>, Path((token, n)): Path<(String, String)>) -> Response {
    let Ok(n) = n.parse::<u32>() else {
        return error(StatusCode::BAD_REQUEST, format!("bad export `{n}`: a number"));
    };
    with_researcher(s, &token, move |o, _| {
        let path = o.dir.join(EXPORTS_DIR).join(format!("{n:03}")).join("deals.csv");
        match std::fs::read(&path) {
            Ok(bytes) => Response::builder()
                .header(header::CONTENT_TYPE, "text/csv; charset=utf-8")
                .header(header::CONTENT_DISPOSITION, format!("attachment; filename=\"deals-{n:03}.csv\""))
                .header(header::CACHE_CONTROL, "no-store")
                .body(Body::from(bytes))
                .expect("a valid response"),
            Err(_) => error(StatusCode::NOT_FOUND, format!("no export {n}")),
        }
    })
    .await
}
