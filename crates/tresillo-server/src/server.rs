//! [`Server`]: the games in memory, the store they are logged to, the agent
//! registry the bots are built from, and the bot workers. Every lock here is held
//! for a short, bounded step (never while a bot thinks: the bot is taken out of
//! its game and decides on a blocking thread).
//!
//! Games idle longest are unloaded past `--live-games`; one version clock (`DIR/epoch`)
//! orders every game's changes. A game that cannot be reloaded or written is reported
//! on stderr (ARCHITECTURE.md, "Library code that prints").

use crate::game::{Game, GameError};
use crate::limits::Limits;
use crate::spec::GameSpec;
use crate::store::Store;
use crate::token::Token;
use std::collections::HashMap;
use std::net::IpAddr;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tresillo_agents::{Registry, TablePlayer};
use tresillo_core::{Decision, Seat};

/// A game with the channel long polls wait on (its version: a new value at
/// every change).
pub struct Slot {
    /// The game.
    pub game: Mutex<Game>,
    /// Sends a new version whenever the game changes. Versions come from one
    /// clock for the whole server ([`next_version`]), which starts every run
    /// above the last run's: a page never sees a version go back, across a
    /// restart or a game unloaded and read again.
    pub changed: watch::Sender<u64>,
    /// When a request last asked for the game (milliseconds of the server's
    /// clock): the games idle longest are unloaded first.
    used: AtomicU64,
}

/// The server-wide version clock (see [`Slot::changed`]).
static VERSION: AtomicU64 = AtomicU64::new(0);

/// The next version of the server-wide clock.
pub fn next_version() -> u64 {
    VERSION.fetch_add(1, Ordering::SeqCst) + 1
}

/// Moves the version clock to at least `floor` (a run's start).
fn raise_versions(floor: u64) {
    VERSION.fetch_max(floor, Ordering::SeqCst);
}

/// Milliseconds since the process started using this clock.
fn now_ms() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_millis() as u64
}

impl Slot {
    fn new(g: Game) -> Slot {
        Slot {
            changed: watch::channel(next_version()).0,
            game: Mutex::new(g),
            used: AtomicU64::new(now_ms()),
        }
    }

    /// Locks the game (a poisoned lock is taken over: every step leaves the game
    /// consistent before anything can panic).
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Game> {
        let t = crate::stats::start();
        let g = self.game.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        crate::stats::since(&crate::stats::STATS.lock_wait, t);
        g
    }

    fn bump(&self) {
        self.changed.send_modify(|v| *v = next_version().max(*v + 1));
    }

    fn touch(&self) {
        self.used.store(now_ms(), Ordering::Relaxed);
    }
}

/// The server's state, shared by every request.
pub struct Server {
    games: RwLock<HashMap<Token, Arc<Slot>>>,
    /// A friend's seat token -> its game and seat (tables with friends): kept
    /// for every game, loaded or not (a few dozen bytes each).
    seats: RwLock<HashMap<Token, (Token, Seat)>>,
    registry: Registry,
    limits: Limits,
    store: Option<Store>,
    runtime: Option<tokio::runtime::Handle>,
    /// Games created per client address in the current minute.
    created: Mutex<HashMap<IpAddr, (u64, u32)>>,
    /// The records directory's size when last measured, and when (ms).
    disk: Mutex<(u64, Option<u64>)>,
}

/// Why a game cannot be created now (beyond a bad request).
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// The client created its share of games this minute.
    #[error("{0}")]
    TooMany(String),
    /// The records directory is at its budget, or memory at its games' cap.
    #[error("{0}")]
    Full(String),
    /// A bad request, or storage failed.
    #[error(transparent)]
    Game(#[from] GameError),
}

impl Server {
    /// A server keeping its games in `dir` (None: in memory only, for tests), with
    /// the bots built from `registry`. Every game in `dir` is loaded and resumed;
    /// the second value lists the logs that could not be read (each
    /// `file:line: reason`; those games are left out, their files untouched).
    ///
    /// # Errors
    /// When `dir` cannot be created.
    pub fn open(dir: Option<&Path>, registry: Registry) -> std::io::Result<(Arc<Server>, Vec<String>)> {
        Server::open_with(dir, registry, Limits::default())
    }

    /// [`Server::open`] with the operator's `limits` (what the web may ask for).
    ///
    /// # Errors
    /// When `dir` cannot be created.
    pub fn open_with(
        dir: Option<&Path>,
        registry: Registry,
        limits: Limits,
    ) -> std::io::Result<(Arc<Server>, Vec<String>)> {
        let store = dir.map(Store::open).transpose()?;
        let micros = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_micros() as u64);
        match &store {
            Some(store) => raise_versions(store.version_floor(micros)?),
            None => raise_versions(micros),
        }
        let mut games = HashMap::new();
        let mut seats = HashMap::new();
        let mut errors = Vec::new();
        if let Some(store) = &store {
            let (loaded, errs) = store.load_all();
            errors.extend(errs);
            for l in loaded {
                let token = l.token;
                match load_game(l, &registry) {
                    Ok((g, warning)) => {
                        errors.extend(warning);
                        index_seats(&mut seats, &g);
                        games.insert(token, Arc::new(Slot::new(g)));
                    }
                    Err(e) => errors.push(e.to_string()),
                }
            }
        }
        let server = Arc::new(Server {
            games: RwLock::new(games),
            seats: RwLock::new(seats),
            registry,
            limits,
            store,
            runtime: tokio::runtime::Handle::try_current().ok(),
            created: Mutex::new(HashMap::new()),
            disk: Mutex::new((0, None)),
        });
        server.unload_idle();
        Ok((server, errors))
    }

    /// The registry bots are built from.
    #[must_use]
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// What the operator allows the web to ask for.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Starts the bots of every game waiting for one (after a restart). Called
    /// inside the runtime.
    pub fn resume_bots(self: &Arc<Server>) {
        let slots: Vec<Arc<Slot>> =
            self.games.read().unwrap_or_else(std::sync::PoisonError::into_inner).values().cloned().collect();
        for s in slots {
            self.kick(&s);
        }
    }

    /// Creates a game: built, logged (fsynced) and registered under a fresh
    /// token; its bots start if they decide first.
    ///
    /// # Errors
    /// A bad spec, or the log cannot be written.
    pub fn create(self: &Arc<Server>, spec: GameSpec) -> Result<Token, GameError> {
        let token = Token::random().map_err(|e| GameError::Storage(std::io::Error::other(e.to_string())))?;
        let mut g = Game::new(token, spec, &self.registry)?;
        if let Some(store) = &self.store {
            g.set_log(store.create(token, &g.spec)?);
        }
        index_seats(&mut self.seats.write().unwrap_or_else(std::sync::PoisonError::into_inner), &g);
        let slot = Arc::new(Slot::new(g));
        self.games.write().unwrap_or_else(std::sync::PoisonError::into_inner).insert(token, slot.clone());
        self.unload_idle();
        self.kick(&slot);
        Ok(token)
    }

    /// [`Server::create`] for a client of the web at `peer` (None: unknown, not
    /// counted): within its share of games a minute, the records directory's
    /// budget and the cap on games in memory.
    ///
    /// # Errors
    /// [`Refused`].
    pub fn create_for(self: &Arc<Server>, peer: Option<IpAddr>, spec: GameSpec) -> Result<Token, Refused> {
        let l = &self.limits;
        if let Some(store) = &self.store {
            // Measured again at most once a second; a game takes well under
            // [`GAME_BYTES`] on disk.
            let used = {
                let mut disk = self.disk.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if disk.1.is_none_or(|t| now_ms() >= t + 1000) {
                    *disk = (store.disk_usage(), Some(now_ms()));
                }
                disk.0
            };
            if used + GAME_BYTES > l.disk_budget {
                return Err(Refused::Full(format!(
                    "the records directory is full: {} MB of its budget of {} MB (--disk-budget-mb); no new game",
                    used >> 20,
                    l.disk_budget >> 20
                )));
            }
        } else if self.live() >= l.live_games {
            return Err(Refused::Full(format!(
                "{} games are in memory, the most this server keeps (--live-games)",
                l.live_games
            )));
        }
        if let Some(ip) = peer
            && l.games_per_minute > 0
        {
            let minute = now_ms() / 60_000;
            let mut created = self.created.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if created.len() > 10_000 {
                created.retain(|_, (m, _)| *m == minute);
            }
            let e = created.entry(ip).or_insert((minute, 0));
            if e.0 != minute {
                *e = (minute, 0);
            }
            if e.1 >= l.games_per_minute {
                return Err(Refused::TooMany(format!(
                    "{ip} created {} games this minute, the most one address may (--games-per-minute); try again in a minute",
                    e.1
                )));
            }
            e.1 += 1;
        }
        Ok(self.create(spec)?)
    }

    /// Games in memory now.
    #[must_use]
    pub fn live(&self) -> usize {
        self.games.read().unwrap_or_else(std::sync::PoisonError::into_inner).len()
    }

    /// Unloads the games idle longest while more than [`Limits::live_games`]
    /// are in memory: only games kept on disk, with no bot deciding (their logs
    /// are whole and synced); they are read again at their next request.
    fn unload_idle(&self) {
        if self.store.is_none() {
            return;
        }
        let mut games = self.games.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        let over = games.len().saturating_sub(self.limits.live_games);
        if over == 0 {
            return;
        }
        let mut idle: Vec<(u64, Token)> = games
            .iter()
            .filter(|(_, s)| s.game.try_lock().is_ok_and(|g| !g.worker && g.thinking.is_none()))
            .map(|(t, s)| (s.used.load(Ordering::Relaxed), *t))
            .collect();
        idle.sort_unstable();
        for (_, t) in idle.into_iter().take(over) {
            games.remove(&t);
        }
    }

    /// The game of `token` in memory, or read again from its log (blocking:
    /// call it on a blocking thread when [`Server::get`] gave None).
    #[must_use]
    pub fn find(self: &Arc<Server>, token: Token) -> Option<Arc<Slot>> {
        if let Some(s) = self.get(token) {
            return Some(s);
        }
        let store = self.store.as_ref()?;
        let loaded = match store.load_one(token)? {
            Ok(l) => l,
            Err(e) => {
                eprintln!("tresillo serve: {e}");
                return None;
            }
        };
        let (g, warning) = match load_game(loaded, &self.registry) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("tresillo serve: {e}");
                return None;
            }
        };
        if let Some(w) = warning {
            eprintln!("tresillo serve: {w}");
        }
        let slot = {
            let mut games = self.games.write().unwrap_or_else(std::sync::PoisonError::into_inner);
            // Another request may have read it meanwhile: one game, one slot.
            games.entry(token).or_insert_with(|| Arc::new(Slot::new(g))).clone()
        };
        self.unload_idle();
        self.kick(&slot);
        Some(slot)
    }

    /// The game and seat a token opens: a game's own token (its host's seat),
    /// or a friend's seat token (blocking, as [`Server::find`]).
    #[must_use]
    pub fn find_seat(self: &Arc<Server>, token: Token) -> Option<(Arc<Slot>, Seat)> {
        let friend =
            self.seats.read().unwrap_or_else(std::sync::PoisonError::into_inner).get(&token).copied();
        match friend {
            Some((game, seat)) => Some((self.find(game)?, seat)),
            None => {
                let slot = self.find(token)?;
                let seat = slot.lock().human;
                Some((slot, seat))
            }
        }
    }

    /// [`Server::find_seat`] without reading a log: None when the game is not
    /// in memory.
    #[must_use]
    pub fn get_seat(&self, token: Token) -> Option<(Arc<Slot>, Seat)> {
        let friend =
            self.seats.read().unwrap_or_else(std::sync::PoisonError::into_inner).get(&token).copied();
        match friend {
            Some((game, seat)) => Some((self.get(game)?, seat)),
            None => {
                let slot = self.get(token)?;
                let seat = slot.game.try_lock().ok()?.human;
                Some((slot, seat))
            }
        }
    }

    /// The game of `token`, if it is in memory.
    #[must_use]
    pub fn get(&self, token: Token) -> Option<Arc<Slot>> {
        let s = self.games.read().unwrap_or_else(std::sync::PoisonError::into_inner).get(&token).cloned();
        if let Some(s) = &s {
            s.touch();
        }
        s
    }

    /// The tokens of `owner`'s games (a study's participant), oldest file name
    /// order aside: sorted by token.
    #[must_use]
    pub fn games_of(&self, owner: &str) -> Vec<Token> {
        let games = self.games.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut v: Vec<Token> = games
            .iter()
            .filter(|(_, s)| s.lock().spec.owner.as_deref() == Some(owner))
            .map(|(t, _)| *t)
            .collect();
        v.sort();
        v
    }

    /// The person's decision `d` at version `seq` (blocking: it fsyncs).
    ///
    /// # Errors
    /// See [`Game::decide`]; the game is then unchanged.
    pub fn decide(self: &Arc<Server>, slot: &Arc<Slot>, d: Decision, seq: u64) -> Result<(), GameError> {
        self.decide_timed(slot, d, seq, None)
    }

    /// [`Server::decide`] with the page's own measure of the time the person
    /// took (`page_ms`, journaled with the server's).
    ///
    /// # Errors
    /// See [`Game::decide`]; the game is then unchanged.
    pub fn decide_timed(
        self: &Arc<Server>,
        slot: &Arc<Slot>,
        d: Decision,
        seq: u64,
        page_ms: Option<u64>,
    ) -> Result<(), GameError> {
        let me = slot.lock().human;
        self.decide_as(slot, me, d, seq, page_ms)
    }

    /// [`Server::decide_timed`] for the person of `seat` (a table with friends).
    ///
    /// # Errors
    /// See [`Game::decide`]; the game is then unchanged.
    pub fn decide_as(
        self: &Arc<Server>,
        slot: &Arc<Slot>,
        seat: Seat,
        d: Decision,
        seq: u64,
        page_ms: Option<u64>,
    ) -> Result<(), GameError> {
        slot.lock().decide_timed(seat, d, seq, page_ms)?;
        slot.bump();
        self.kick(slot);
        Ok(())
    }

    /// The person of `seat` takes it back from the bot that took it over.
    ///
    /// # Errors
    /// The log not written.
    pub fn reclaim(self: &Arc<Server>, slot: &Arc<Slot>, seat: Seat) -> Result<(), GameError> {
        slot.lock().reclaim(seat)?;
        slot.bump();
        self.kick(slot);
        Ok(())
    }

    /// When a person's turn waits at a game with a takeover: a timer that gives
    /// the seat to its bot once the wait passes [`GameSpec::takeover_ms`] and
    /// the game is still there (a timer whose moment passed does nothing).
    fn watch_takeover(self: &Arc<Server>, slot: &Arc<Slot>) {
        let (wait, seat, seq) = {
            let g = slot.lock();
            let Some((seat, waited)) = g.waiting().filter(|_| g.spec.takeover_ms > 0) else { return };
            (Duration::from_millis(g.spec.takeover_ms).saturating_sub(waited), seat, g.seq)
        };
        let Some(rt) = self.runtime.clone().or_else(|| tokio::runtime::Handle::try_current().ok()) else {
            return;
        };
        let (server, slot) = (self.clone(), slot.clone());
        rt.spawn(async move {
            tokio::time::sleep(wait).await;
            let _ = tokio::task::spawn_blocking(move || {
                // A game unloaded meanwhile is left alone (read again, it
                // starts its wait anew).
                let token = slot.lock().token;
                if !server.get(token).is_some_and(|s| Arc::ptr_eq(&s, &slot)) {
                    return;
                }
                let taken = slot.lock().take_over(seat, seq);
                match taken {
                    Ok(true) => {
                        slot.bump();
                        server.kick(&slot);
                    }
                    Ok(false) => {}
                    Err(e) => eprintln!("tresillo serve: a takeover could not be written: {e}"),
                }
            })
            .await;
        });
    }

    /// The person takes back their last decision of the hand ([`Game::undo`];
    /// blocking: it fsyncs).
    ///
    /// # Errors
    /// See [`Game::undo`]; the game is then unchanged.
    pub fn undo(self: &Arc<Server>, slot: &Arc<Slot>, seq: u64) -> Result<(), GameError> {
        slot.lock().undo(seq)?;
        slot.bump();
        self.kick(slot);
        Ok(())
    }

    /// Starts a bot worker for the game if a bot must decide and none is running.
    fn kick(self: &Arc<Server>, slot: &Arc<Slot>) {
        {
            let mut g = slot.lock();
            if g.worker || g.bot_turn().is_none() {
                drop(g);
                self.watch_takeover(slot);
                return;
            }
            g.worker = true;
        }
        self.spawn_bots(slot.clone());
    }

    /// Runs the game's bots on a blocking thread ([`run_bots`]); a game with a
    /// pace waits between their decisions on a timer of the runtime, holding
    /// no thread (its worker flag stays set meanwhile).
    fn spawn_bots(self: &Arc<Server>, slot: Arc<Slot>) {
        let cap = self.limits.decision_time;
        let server = self.clone();
        let work = move || match run_bots(&slot, cap) {
            None => server.watch_takeover(&slot),
            Some(rest) => match server.runtime.clone().or_else(|| tokio::runtime::Handle::try_current().ok())
            {
                Some(rt) => {
                    rt.spawn(async move {
                        tokio::time::sleep(rest).await;
                        server.spawn_bots(slot);
                    });
                }
                None => {
                    std::thread::sleep(rest);
                    server.spawn_bots(slot);
                }
            },
        };
        match &self.runtime {
            Some(rt) => {
                rt.spawn_blocking(work);
            }
            None => match tokio::runtime::Handle::try_current() {
                Ok(rt) => {
                    rt.spawn_blocking(work);
                }
                Err(_) => {
                    std::thread::spawn(work);
                }
            },
        }
    }
}

/// The bots decide, one decision at a time, until it is the person's turn or
/// the session is over. Each decision is made without the game's lock (the bot
/// is taken out; the page sees the seat thinking), then logged and applied.
/// Returns how long to wait before the next bot decision when the game's pace
/// asks for one (the worker flag stays set), None when the run has ended.
fn run_bots(slot: &Arc<Slot>, cap: Duration) -> Option<Duration> {
    loop {
        let taken = {
            let mut g = slot.lock();
            // The game's pace (a person watches the bots play): the next bot
            // decision no sooner than `pace_ms` after the last change shown.
            let pace = Duration::from_millis(u64::from(g.spec.pace_ms));
            if g.bot_turn().is_some()
                && let Some(rest) = pace.checked_sub(g.last_change.elapsed()).filter(|r| !r.is_zero())
            {
                if g.unsynced_bot_decisions() {
                    // Durable before the pause, as at the end of a run.
                    if let Err(e) = g.sync_log() {
                        g.failure = Some(e.to_string());
                        g.worker = false;
                        drop(g);
                        slot.bump();
                        return None;
                    }
                }
                g.pausing = true;
                return Some(rest);
            }
            g.pausing = false;
            match g.bot_turn().and_then(|seat| g.take_bot(seat).map(|t| (seat, t))) {
                Some(t) => t,
                None => {
                    // Under the same lock as the check: a decision that comes
                    // after this sees no worker and starts one.
                    g.worker = false;
                    drop(g);
                    slot.bump();
                    return None;
                }
            }
        };
        let (seat, (mut bot, mut rng, hand)) = taken;
        slot.bump();
        // Past the cap the watchdog fails the game and cancels the search, which
        // gives up its decision (tresillo_agents::interrupt::Cancel).
        let cancel = tresillo_agents::interrupt::Cancel::new();
        let watchdog = watch_decision(slot, seat, cap, cancel.clone());
        // An agent that panics stops its game (with the reason), not the server.
        let d = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            cancel.run(|| bot.decide_at(&hand, seat, &mut rng).map_err(|f| f.to_string()))
        }))
        .unwrap_or_else(|_| Err("the agent panicked".into()));
        if let Some(w) = watchdog {
            w.abort();
        }
        let mut g = slot.lock();
        let mut r = g.bot_answered(seat, bot, rng, d);
        // The run of bot decisions ends: durable before the person sees their
        // turn (one fsync per run, not one per bot decision).
        if g.bot_turn().is_none() {
            let synced = g.sync_log();
            if r.is_ok()
                && let Err(e) = synced
            {
                g.failure = Some(e.to_string());
                r = Err(e);
            }
        }
        if r.is_err() {
            g.worker = false;
        }
        drop(g);
        slot.bump();
        if r.is_err() {
            return None;
        }
    }
}

/// Adds game `g`'s friends' seat tokens to `index`.
fn index_seats(index: &mut HashMap<Token, (Token, Seat)>, g: &Game) {
    for (seat, t) in &g.spec.seat_tokens {
        if let Some(t) = Token::parse(t) {
            index.insert(t, (g.token, Seat(*seat)));
        }
    }
}

/// Roughly the most a game's log and records take on disk: its decisions
/// (about 40 bytes each, some 60 a hand) and a record a hand (a few
/// kilobytes), [`crate::MAX_HANDS`] hands at most.
pub const GAME_BYTES: u64 = 2 << 20;

/// A game's log that does not replay: `games/TOKEN.jsonl:LINE: why`.
#[derive(Debug, thiserror::Error)]
#[error("{path}:{line}: {why}")]
struct LoadError {
    /// The log, as its message names it.
    path: String,
    /// The line of the log, from 1.
    line: usize,
    /// What the game said.
    why: String,
}

/// A game read back from its log (its records file written again when it is
/// not the log's hands: the second value says when that failed).
fn load_game(l: crate::store::Loaded, registry: &Registry) -> Result<(Game, Option<String>), LoadError> {
    let path = format!("games/{}.jsonl", l.token);
    let mut g = Game::new(l.token, l.game, registry).map_err(|e| LoadError {
        path: path.clone(),
        line: 1,
        why: e.to_string(),
    })?;
    for (n, line) in &l.lines {
        g.replay_entry(line).map_err(|e| LoadError { path: path.clone(), line: *n, why: e.to_string() })?;
    }
    g.set_log(l.log);
    let mut warning = None;
    if l.records_on_disk.as_deref() != Some(crate::store::records_text(&g.records).as_str())
        && (!g.records.is_empty() || l.records_on_disk.is_some())
        && let Err(e) = g.rewrite_records()
    {
        warning = Some(format!("records/{}.jsonl: {e}", l.token));
    }
    Ok((g, warning))
}

/// Stops the game with the reason when the decision of `seat` (started now)
/// is not made within `cap`: the game is failed and its page says so; the
/// bot's answer, when it comes, is dropped, and `cancel` stops its search. None
/// without a runtime (tests).
fn watch_decision(
    slot: &Arc<Slot>,
    seat: Seat,
    cap: Duration,
    cancel: tresillo_agents::interrupt::Cancel,
) -> Option<tokio::task::JoinHandle<()>> {
    let rt = tokio::runtime::Handle::try_current().ok()?;
    let (slot, at) = (slot.clone(), slot.lock().seq);
    Some(rt.spawn(async move {
        tokio::time::sleep(cap).await;
        cancel.cancel();
        let failed = {
            let mut g = slot.lock();
            if g.thinking == Some(seat) && g.seq == at && g.failure.is_none() {
                g.failure = Some(format!(
                    "seat {seat} ({}): no decision within {} ms, this server's cap (--decision-ms); the game is stopped",
                    g.spec.seats[seat.index()],
                    cap.as_millis()
                ));
                true
            } else {
                false
            }
        };
        if failed {
            slot.bump();
        }
    }))
}
