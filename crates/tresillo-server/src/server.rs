//! [`Server`]: the games in memory, the store they are logged to, the agent
//! registry the bots are built from, and the bot workers. Every lock here is held
//! for a short, bounded step (never while a bot thinks: the bot is taken out of
//! its game and decides on a blocking thread).

use crate::game::{Game, GameError};
use crate::limits::Limits;
use crate::spec::GameSpec;
use crate::store::Store;
use crate::token::Token;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::watch;
use tresillo_agents::{Registry, TablePlayer};
use tresillo_core::Decision;

/// A game with the channel long polls wait on (its `seq`, and a thinking flag).
pub struct Slot {
    /// The game.
    pub game: Mutex<Game>,
    /// Sends a new value whenever the game changes.
    pub changed: watch::Sender<u64>,
}

impl Slot {
    /// Locks the game (a poisoned lock is taken over: every step leaves the game
    /// consistent before anything can panic).
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Game> {
        let t = crate::stats::start();
        let g = self.game.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        crate::stats::since(&crate::stats::STATS.lock_wait, t);
        g
    }

    fn bump(&self) {
        self.changed.send_modify(|v| *v += 1);
    }
}

/// The server's state, shared by every request.
pub struct Server {
    games: RwLock<HashMap<Token, Arc<Slot>>>,
    registry: Registry,
    limits: Limits,
    store: Option<Store>,
    runtime: Option<tokio::runtime::Handle>,
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
        let mut games = HashMap::new();
        let mut errors = Vec::new();
        if let Some(store) = &store {
            let (loaded, errs) = store.load_all();
            errors.extend(errs);
            for l in loaded {
                let path = format!("games/{}.jsonl", l.token);
                let mut g = match Game::new(l.token, l.game, &registry) {
                    Ok(g) => g,
                    Err(e) => {
                        errors.push(format!("{path}:1: {e}"));
                        continue;
                    }
                };
                let mut bad = None;
                for (n, line) in &l.lines {
                    if let Err(e) = g.replay_line(line) {
                        bad = Some(format!("{path}:{n}: {e}"));
                        break;
                    }
                }
                if let Some(e) = bad {
                    errors.push(e);
                    continue;
                }
                g.set_log(l.log);
                if l.records_on_disk.as_deref() != Some(crate::store::records_text(&g.records).as_str())
                    && (!g.records.is_empty() || l.records_on_disk.is_some())
                    && let Err(e) = g.rewrite_records()
                {
                    errors.push(format!("records/{}.jsonl: {e}", l.token));
                }
                games.insert(
                    l.token,
                    Arc::new(Slot { changed: watch::channel(g.seq).0, game: Mutex::new(g) }),
                );
            }
        }
        let server = Arc::new(Server {
            games: RwLock::new(games),
            registry,
            limits,
            store,
            runtime: tokio::runtime::Handle::try_current().ok(),
        });
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
        let slot = Arc::new(Slot { changed: watch::channel(0).0, game: Mutex::new(g) });
        self.games.write().unwrap_or_else(std::sync::PoisonError::into_inner).insert(token, slot.clone());
        self.kick(&slot);
        Ok(token)
    }

    /// The game of `token`.
    #[must_use]
    pub fn get(&self, token: Token) -> Option<Arc<Slot>> {
        self.games.read().unwrap_or_else(std::sync::PoisonError::into_inner).get(&token).cloned()
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
        {
            let mut g = slot.lock();
            let me = g.human;
            g.decide(me, d, seq)?;
        }
        slot.bump();
        self.kick(slot);
        Ok(())
    }

    /// Starts a bot worker for the game if a bot must decide and none is running.
    fn kick(self: &Arc<Server>, slot: &Arc<Slot>) {
        {
            let mut g = slot.lock();
            if g.worker || g.bot_turn().is_none() {
                return;
            }
            g.worker = true;
        }
        let slot = slot.clone();
        let work = move || run_bots(&slot);
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
fn run_bots(slot: &Arc<Slot>) {
    loop {
        let taken = {
            let mut g = slot.lock();
            match g.bot_turn().and_then(|seat| g.take_bot(seat).map(|t| (seat, t))) {
                Some(t) => t,
                None => {
                    // Under the same lock as the check: a decision that comes
                    // after this sees no worker and starts one.
                    g.worker = false;
                    drop(g);
                    slot.bump();
                    return;
                }
            }
        };
        let (seat, (mut bot, mut rng, hand)) = taken;
        slot.bump();
        // An agent that panics stops its game (with the reason), not the server.
        let d = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            bot.decide_at(&hand, seat, &mut rng).map_err(|f| f.to_string())
        }))
        .unwrap_or_else(|_| Err("the agent panicked".into()));
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
            return;
        }
    }
}
