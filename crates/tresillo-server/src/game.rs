//! One game at the server: a session of hands between one person and bots, each
//! hand the table's game loop ([`Table`], shared with the studies: a decision is
//! checked on a copy of the hand, written to the log (fsynced), and only then
//! applied, so a refused or unlogged decision changes nothing). A [`Game`]
//! dereferences to its [`Table`] (`game.hand`, `game.steps`).
//!
//! The session's extras are here: its hands and their ledger, a table with
//! friends (one seat token each), undo, takeover, pacing; undo, takeover,
//! events and the person's timing are log lines too.

use crate::spec::{GameSpec, HUMAN};
use crate::store::Log;
use crate::token::Token;
use tresillo_agents::cheat::Seated;
use tresillo_agents::{AgentRng, Registry, TablePlayer};
use tresillo_core::{Decision, Hand, HandResult, LedgerConfig, Request, Rules, Scorer, ScoringMode, Seat};
use tresillo_sim::{HandRecord, deal_for_seed, deal_seed, seating_rng_seed};
use tresillo_table::journal::{Entry, Place, Timing};
use tresillo_table::table::{HandSetup, Table, TableError};

/// Why a game cannot be made or a decision taken.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// A bad spec (rules, seats, agents, deals).
    #[error("{0}")]
    Spec(String),
    /// The spec's rule set, options or table size.
    #[error(transparent)]
    Rules(#[from] tresillo_core::RulesError),
    /// Not this seat's turn, or not the current state.
    #[error("{0}")]
    Conflict(String),
    /// The engine refused the decision (illegal).
    #[error("illegal decision: {0}")]
    Illegal(String),
    /// The log could not be written: nothing was applied.
    #[error("the decision could not be stored: {0}")]
    Storage(#[from] std::io::Error),
}

impl From<TableError> for GameError {
    fn from(e: TableError) -> GameError {
        match e {
            TableError::Over => GameError::Conflict("the game is over".into()),
            e @ TableError::NotYourTurn { .. } => GameError::Conflict(e.to_string()),
            e @ TableError::Cut { .. } => GameError::Conflict(e.to_string()),
            TableError::Illegal(e) => GameError::Illegal(e.to_string()),
            TableError::Deal(e) => GameError::Spec(e.to_string()),
        }
    }
}

/// A finished hand, as the score table shows it.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The hand's result.
    pub result: HandResult,
    /// Each seat's change this hand (the ledger's totals).
    pub change: Vec<i64>,
}

/// A game in memory.
pub struct Game {
    /// The game's token.
    pub token: Token,
    /// What it is.
    pub spec: GameSpec,
    /// Its rule set and options.
    pub rules: Rules,
    /// The person's seat (the host's, at a table with friends: the game's
    /// token is theirs).
    pub human: Seat,
    /// Every seat a person plays (the host's first).
    pub humans: Vec<Seat>,
    /// Seats a bot has taken over (a person left their turn waiting past
    /// [`GameSpec::takeover_ms`]), until they take it back.
    pub taken: Vec<bool>,
    /// The hand at the table: the hand, its decisions so far, the bots.
    table: Table,
    /// The agents that take over waiting human seats (built when needed).
    standins: Vec<Option<Seated>>,
    /// The hand being played (0-based).
    pub k: u32,
    /// The finished hands' records.
    pub records: Vec<HandRecord>,
    /// The finished hands' results and score changes.
    pub finished: Vec<Finished>,
    scorer: Scorer,
    /// Decisions taken in the whole game: the state's version, which a decision
    /// must name (`seq`) and a long poll waits past.
    pub seq: u64,
    /// The seat whose bot is deciding now.
    pub thinking: Option<Seat>,
    /// Why the game stopped (a bot failed).
    pub failure: Option<String>,
    /// A bot worker is running for this game.
    pub worker: bool,
    /// The worker waits for the game's pace before its next bot decision (a
    /// decision's response need not wait for it).
    pub pausing: bool,
    log: Option<Log>,
    /// Lines written to the log and not yet fsynced (a run of bot decisions).
    unsynced: bool,
    /// Since when it has been a person's turn, and whose (the server's clock),
    /// for the decision's [`Timing`] and the takeover.
    turn_since: Option<(Seat, std::time::Instant)>,
    /// Events journaled in this hand ([`Game::event`]: at most [`MAX_EVENTS`]).
    events: u32,
    /// When the game last changed (a decision, an undo): a paced bot decides
    /// no sooner than [`GameSpec::pace_ms`] after it.
    pub last_change: std::time::Instant,
}

/// Most events ([`Game::event`]: misclicks, the tab hidden or shown) a hand
/// keeps in the log; past it they are counted out, not written.
pub const MAX_EVENTS: u32 = 200;

impl std::ops::Deref for Game {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.table
    }
}

/// Milliseconds since 1970 (UTC).
fn unix_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

impl Game {
    /// A new game at its first decision, with no log (see [`Game::set_log`]).
    ///
    /// # Errors
    /// A bad spec: rule set, table size, seats, agents, hands, deals.
    pub fn new(token: Token, spec: GameSpec, registry: &Registry) -> Result<Game, GameError> {
        let rules = spec.parse_rules()?;
        let n = spec.players;
        if spec.seats.len() != usize::from(n) {
            return Err(GameError::Spec(format!("a table of {n} needs {n} seats, got {}", spec.seats.len())));
        }
        let humans: Vec<usize> = (0..spec.seats.len()).filter(|&i| spec.seats[i] == HUMAN).collect();
        let human = match (&humans[..], spec.host) {
            ([one], None) => *one,
            (_, Some(h)) if humans.len() > 1 && humans.contains(&usize::from(h)) => usize::from(h),
            _ => {
                return Err(GameError::Spec(format!(
                    "exactly one seat is `{HUMAN}`, or several with a host among them, not {} (host {:?})",
                    humans.len(),
                    spec.host
                )));
            }
        };
        for &h in &humans {
            let token = spec.seat_tokens.get(&(h as u8));
            if h != human && token.and_then(|t| Token::parse(t)).is_none() {
                return Err(GameError::Spec(format!("human seat {h} has no token of its own")));
            }
        }
        if spec.hands == 0 || spec.hands > crate::spec::MAX_HANDS {
            return Err(GameError::Spec(format!(
                "hands must be 1 to {}, not {}",
                crate::spec::MAX_HANDS,
                spec.hands
            )));
        }
        if spec.dealer >= n {
            return Err(GameError::Spec(format!("bad dealer {}: seats are 0 to {}", spec.dealer, n - 1)));
        }
        if let Some(d) = &spec.deals
            && d.len() < spec.hands as usize
        {
            return Err(GameError::Spec(format!(
                "{} hands need {} deals, got {}",
                spec.hands,
                spec.hands,
                d.len()
            )));
        }
        let mut bots = Vec::new();
        for (i, s) in spec.seats.iter().enumerate() {
            bots.push(if humans.contains(&i) {
                None
            } else {
                Some(registry.build_seated(s).map_err(|e| GameError::Spec(format!("seat {i}: {e}")))?)
            });
        }
        let mut config = LedgerConfig::with_rules(rules, n);
        config.deals = spec.hands;
        let scorer = Scorer::new(ScoringMode::Session, config).map_err(|e| GameError::Spec(e.to_string()))?;
        // The agents that take over waiting seats, one for each human seat.
        let mut standins: Vec<Option<Seated>> = (0..n).map(|_| None).collect();
        if spec.takeover_ms > 0 {
            let who = spec.takeover.clone().unwrap_or_else(|| "rule".into());
            for &h in &humans {
                standins[h] =
                    Some(registry.build_seated(&who).map_err(|e| GameError::Spec(format!("takeover: {e}")))?);
            }
        }
        let mut order: Vec<Seat> = vec![Seat(human as u8)];
        order.extend(humans.iter().filter(|&&h| h != human).map(|&h| Seat(h as u8)));
        let table = Table::new(hand_setup(&spec, rules, 0), bots)
            .map_err(|e| GameError::Spec(format!("hand 1: {e}")))?;
        for b in standins.iter_mut().flatten() {
            b.begin_hand();
        }
        let mut g = Game {
            token,
            rules,
            human: Seat(human as u8),
            humans: order,
            taken: vec![false; usize::from(n)],
            standins,
            table,
            k: 0,
            records: Vec::new(),
            finished: Vec::new(),
            scorer,
            seq: 0,
            thinking: None,
            failure: None,
            worker: false,
            pausing: false,
            log: None,
            unsynced: false,
            turn_since: None,
            events: 0,
            last_change: std::time::Instant::now(),
            spec,
        };
        g.mark_turn();
        Ok(g)
    }

    /// Seats at the table.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.spec.players
    }

    /// The log decisions are written to from now on.
    pub fn set_log(&mut self, log: Log) {
        self.log = Some(log);
    }

    fn start_hand(&mut self, k: u32) -> Result<(), GameError> {
        self.table
            .next_hand(hand_setup(&self.spec, self.rules, k))
            .map_err(|e| GameError::Spec(format!("hand {}: {e}", k + 1)))?;
        self.k = k;
        self.events = 0;
        for b in self.standins.iter_mut().flatten() {
            b.begin_hand();
        }
        Ok(())
    }

    /// Whether a person plays `seat` now (a human seat not taken over).
    #[must_use]
    pub fn is_person(&self, seat: Seat) -> bool {
        self.humans.contains(&seat) && !self.taken[seat.index()]
    }

    /// Starts a person's clock when it has become their turn.
    fn mark_turn(&mut self) {
        match self.turn() {
            Some(t) if self.is_person(t) => {
                if self.turn_since.is_none_or(|(s, _)| s != t) {
                    self.turn_since = Some((t, std::time::Instant::now()));
                }
            }
            _ => self.turn_since = None,
        }
    }

    /// The person whose turn it is and how long it has waited, if any.
    #[must_use]
    pub fn waiting(&self) -> Option<(Seat, std::time::Duration)> {
        self.turn_since.map(|(s, t)| (s, t.elapsed()))
    }

    /// A bot takes over `seat` (a person's, whose turn has waited since `seq`
    /// past [`GameSpec::takeover_ms`]): journaled (fsynced); the bot decides for
    /// the seat until its person takes it back ([`Game::reclaim`]). False when
    /// the game moved on or has no takeover.
    ///
    /// # Errors
    /// The agent cannot be built, or the log not written.
    pub fn take_over(&mut self, seat: Seat, seq: u64) -> Result<bool, GameError> {
        if self.spec.takeover_ms == 0 || seq != self.seq || self.turn() != Some(seat) || !self.is_person(seat)
        {
            return Ok(false);
        }
        self.journal_event(
            serde_json::json!({"kind": "takeover", "seq": self.seq, "seat": seat.0, "at": unix_ms()}),
            true,
        )?;
        self.taken[seat.index()] = true;
        self.turn_since = None;
        Ok(true)
    }

    /// The person of `seat` takes it back from the bot that took it over
    /// (journaled); nothing when it was not taken or its bot is deciding.
    ///
    /// # Errors
    /// The log not written.
    pub fn reclaim(&mut self, seat: Seat) -> Result<(), GameError> {
        if !self.taken[seat.index()] || self.thinking == Some(seat) {
            return Ok(());
        }
        self.journal_event(
            serde_json::json!({"kind": "reclaim", "seq": self.seq, "seat": seat.0, "at": unix_ms()}),
            true,
        )?;
        self.taken[seat.index()] = false;
        self.mark_turn();
        Ok(())
    }

    fn journal_event(&mut self, event: serde_json::Value, durable: bool) -> Result<(), GameError> {
        let line = [Entry::Event { place: Place::hand(self.k), event }];
        if let Some(log) = &mut self.log {
            if durable {
                log.append(&line)?;
                self.unsynced = false;
            } else {
                log.write(&line)?;
                self.unsynced = true;
            }
        }
        Ok(())
    }

    /// The session is over (every hand played) or stopped by a failure.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.records.len() == self.spec.hands as usize || self.failure.is_some()
    }

    /// The seat whose turn it is (`None` when the session is over).
    #[must_use]
    pub fn turn(&self) -> Option<Seat> {
        if self.is_over() { None } else { self.table.turn() }
    }

    /// The seat a bot must decide for now (none while one is already deciding).
    #[must_use]
    pub fn bot_turn(&self) -> Option<Seat> {
        self.turn().filter(|&s| !self.is_person(s) && self.thinking.is_none())
    }

    /// Takes the bot of `seat` and its generator out to decide without the game's
    /// lock, and marks it thinking; [`Game::bot_answered`] puts them back.
    pub fn take_bot(&mut self, seat: Seat) -> Option<(Seated, AgentRng, Hand)> {
        let lent = if self.taken[seat.index()] {
            let bot = self.standins[seat.index()].take()?;
            (bot, self.table.take_rng(seat), self.table.hand)
        } else {
            self.table.lend_bot(seat)?
        };
        self.thinking = Some(seat);
        Some(lent)
    }

    /// The bot of `seat` answered `d` (or failed): it is put back and its decision
    /// applied and logged.
    ///
    /// # Errors
    /// When the decision cannot be stored or the bot failed (the game stops).
    pub fn bot_answered(
        &mut self,
        seat: Seat,
        bot: Seated,
        rng: AgentRng,
        d: Result<Decision, String>,
    ) -> Result<(), GameError> {
        if self.taken[seat.index()] {
            self.standins[seat.index()] = Some(bot);
            self.table.put_rng(seat, rng);
        } else {
            self.table.return_bot(seat, bot, rng);
        }
        self.thinking = None;
        if let Some(f) = &self.failure {
            // Stopped while it thought (past the server's cap): the answer is
            // dropped, the reason kept.
            return Err(GameError::Conflict(f.clone()));
        }
        let r = d.map_err(GameError::Illegal).and_then(|d| self.take(seat, d, self.seq, false, None));
        if let Err(e) = &r {
            self.failure = Some(format!("seat {seat} ({}): {e}", self.spec.seats[seat.index()]));
        }
        r
    }

    /// Takes decision `d` for `seat` at version `seq`: checked (the turn, the
    /// version, the engine's legality), logged with fsync, then applied.
    ///
    /// # Errors
    /// Out of turn or stale ([`GameError::Conflict`]), illegal, or not stored;
    /// the game is unchanged.
    pub fn decide(&mut self, seat: Seat, d: Decision, seq: u64) -> Result<(), GameError> {
        self.decide_timed(seat, d, seq, None)
    }

    /// [`Game::decide`] for the person, with the page's own measure of the time
    /// they took (`page_ms`); the log's line keeps it with the server's.
    ///
    /// # Errors
    /// As [`Game::decide`].
    pub fn decide_timed(
        &mut self,
        seat: Seat,
        d: Decision,
        seq: u64,
        page_ms: Option<u64>,
    ) -> Result<(), GameError> {
        if self.humans.contains(&seat) && self.taken[seat.index()] {
            return Err(GameError::Conflict(format!(
                "a bot plays seat {seat} now (it waited too long): take the seat back first"
            )));
        }
        let timing = self.is_person(seat).then(|| Timing {
            server_ms: self
                .turn_since
                .filter(|(s, _)| *s == seat)
                .map_or(0, |(_, t)| t.elapsed().as_millis() as u64),
            page_ms,
            at: unix_ms(),
        });
        self.take(seat, d, seq, true, timing)
    }

    /// Whether the person may take back a decision now: a game with undo, their
    /// turn, and a decision of theirs earlier in this hand.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        self.spec.undo
            && self.humans.len() == 1
            && self.thinking.is_none()
            && self.turn() == Some(self.human)
            && self.table.steps.iter().any(|s| s.seat == self.human)
    }

    /// Takes back the person's last decision of the hand and every bot decision
    /// after it (logged with fsync, then applied): the hand is dealt again and
    /// its decisions before that one replayed. The bots decide again from
    /// there, not necessarily as before.
    ///
    /// # Errors
    /// A game without undo, not the person's turn, nothing to take back, a
    /// stale `seq` ([`GameError::Conflict`]), or the log not written.
    pub fn undo(&mut self, seq: u64) -> Result<(), GameError> {
        if !self.spec.undo {
            return Err(GameError::Conflict(
                "this game has no undo (a casual game started with undo)".into(),
            ));
        }
        if seq != self.seq {
            return Err(GameError::Conflict(format!(
                "stale undo: the game is at seq {}, the undo was for seq {seq}",
                self.seq
            )));
        }
        if !self.can_undo() {
            return Err(GameError::Conflict(
                "nothing to take back: no decision of yours earlier in this hand, or not your turn".into(),
            ));
        }
        let keep = self.table.steps.iter().rposition(|s| s.seat == self.human).expect("can_undo found one");
        if let Some(log) = &mut self.log {
            log.append(&[Entry::Undo { place: Place::hand(self.k), keep }])?;
            self.unsynced = false;
        }
        self.cut(keep)
    }

    /// Replays the hand's first `keep` decisions on a fresh deal of it.
    fn cut(&mut self, keep: usize) -> Result<(), GameError> {
        self.table.cut(keep)?;
        self.seq += 1;
        self.last_change = std::time::Instant::now();
        for b in self.standins.iter_mut().flatten() {
            b.begin_hand();
        }
        self.turn_since = None;
        self.mark_turn();
        Ok(())
    }

    /// Journals something the page saw the person do that is not a decision
    /// (`misclick` on an illegal `card`, the tab `hidden` or `visible`), with the
    /// hand, the decision number and the time. Written without fsync (the next
    /// decision's covers it); at most [`MAX_EVENTS`] a hand.
    ///
    /// # Errors
    /// An unknown kind ([`GameError::Spec`]), or the log not written.
    pub fn event(&mut self, kind: &str, card: Option<tresillo_core::Card>) -> Result<(), GameError> {
        self.event_of(self.human, kind, card)
    }

    /// [`Game::event`] for the person of `seat` (a table with friends).
    ///
    /// # Errors
    /// As [`Game::event`].
    pub fn event_of(
        &mut self,
        seat: Seat,
        kind: &str,
        card: Option<tresillo_core::Card>,
    ) -> Result<(), GameError> {
        if !matches!(kind, "misclick" | "hidden" | "visible") {
            return Err(GameError::Spec(format!("unknown event `{kind}`: misclick, hidden or visible")));
        }
        if self.events >= MAX_EVENTS {
            return Ok(());
        }
        self.events += 1;
        let mut v = serde_json::json!({"kind": kind, "seq": self.seq, "seat": seat.0, "at": unix_ms()});
        if let Some(c) = card {
            v["card"] = c.to_string().into();
        }
        self.journal_event(v, false)
    }

    /// Whether bot decisions were written to the log and not yet fsynced.
    #[must_use]
    pub fn unsynced_bot_decisions(&self) -> bool {
        self.unsynced
    }

    /// Makes every logged decision durable (the end of a run of bot decisions,
    /// before the person is told it is their turn).
    ///
    /// # Errors
    /// When the sync fails.
    pub fn sync_log(&mut self) -> Result<(), GameError> {
        match &mut self.log {
            Some(log) if self.unsynced => {
                log.sync()?;
                self.unsynced = false;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// [`Game::decide`]; `durable`: fsync the log before applying (a bot's
    /// decision is only written, and synced with the rest of its run by
    /// [`Game::sync_log`] or by the next durable decision).
    fn take(
        &mut self,
        seat: Seat,
        d: Decision,
        seq: u64,
        durable: bool,
        timing: Option<Timing>,
    ) -> Result<(), GameError> {
        if seq != self.seq {
            return Err(GameError::Conflict(format!(
                "stale decision: the game is at seq {}, the decision was for seq {seq}",
                self.seq
            )));
        }
        if self.is_over() {
            return Err(GameError::Conflict("the game is over".into()));
        }
        let (place, log, unsynced) = (Place::hand(self.k), &mut self.log, &mut self.unsynced);
        let finished = self.table.decide(seat, d, |&step| -> Result<(), GameError> {
            if let Some(log) = log {
                let line = [Entry::Step { place, step, timing }];
                if durable {
                    log.append(&line)?;
                    *unsynced = false;
                } else {
                    log.write(&line)?;
                    *unsynced = true;
                }
            }
            Ok(())
        })?;
        self.seq += 1;
        self.last_change = std::time::Instant::now();
        if let Some(rec) = finished {
            self.finish_hand(rec)?;
        }
        self.mark_turn();
        Ok(())
    }

    /// Applies a line read back from the log (a decision checked as when it was
    /// taken, an undo, an event counted).
    ///
    /// # Errors
    /// A line that does not follow: another hand, out of turn, illegal, or not
    /// a line of a game's log.
    pub fn replay_entry(&mut self, entry: &Entry) -> Result<(), GameError> {
        let hand = match entry {
            Entry::Step { place, .. } | Entry::Undo { place, .. } => place.hand,
            Entry::Event { event, .. } => {
                self.events += 1;
                let seat = event["seat"]
                    .as_u64()
                    .and_then(|s| usize::try_from(s).ok())
                    .filter(|&s| s < self.taken.len());
                match (event["kind"].as_str(), seat) {
                    (Some("takeover"), Some(s)) => self.taken[s] = true,
                    (Some("reclaim"), Some(s)) => self.taken[s] = false,
                    _ => {}
                }
                return Ok(());
            }
            _ => return Err(GameError::Conflict("not a line of a game's log (a study's?)".into())),
        };
        if hand != Some(self.k) {
            return Err(GameError::Conflict(match hand {
                Some(h) => format!("a line of hand {h} during hand {}", self.k),
                None => "a line without its `hand`".into(),
            }));
        }
        match entry {
            Entry::Step { step, .. } => {
                let log = self.log.take();
                let r = self.take(step.seat, step.act, self.seq, true, None);
                self.log = log;
                r
            }
            Entry::Undo { keep, .. } => self.cut(*keep),
            _ => Ok(()),
        }
    }

    /// The hand ended with record `rec`: scored, kept (its log lines durable
    /// before its record is), and the next hand dealt.
    fn finish_hand(&mut self, rec: HandRecord) -> Result<(), GameError> {
        let result = rec.result.clone();
        let score = self.scorer.apply(&result).map_err(|e| GameError::Spec(format!("scoring: {e}")))?;
        let n = self.players();
        for b in self.standins.iter_mut().flatten() {
            b.finish_hand(&result);
        }
        self.records.push(rec);
        self.finished.push(Finished { result, change: (0..n).map(|i| score.total(Seat(i))).collect() });
        self.sync_log()?;
        if let Some(log) = &self.log {
            log.write_records(&self.records)?;
        }
        if self.records.len() < self.spec.hands as usize {
            self.start_hand(self.k + 1)?;
        }
        Ok(())
    }

    /// Writes the records file again, fsynced (after a reload, when it is not
    /// the log's hands).
    ///
    /// # Errors
    /// When it cannot be written.
    pub fn rewrite_records(&self) -> std::io::Result<()> {
        match &self.log {
            Some(log) => log.write_records_durably(&self.records),
            None => Ok(()),
        }
    }

    /// The ledger's running state per seat: the sum of the hands' changes.
    #[must_use]
    pub fn totals(&self) -> Vec<i64> {
        let n = usize::from(self.players());
        let mut t = vec![0; n];
        for f in &self.finished {
            for (x, c) in t.iter_mut().zip(&f.change) {
                *x += c;
            }
        }
        t
    }

    /// The settlement of a finished puesta-system session (each seat's result).
    #[must_use]
    pub fn settlement(&self) -> Option<Vec<i64>> {
        if self.records.len() < self.spec.hands as usize {
            return None;
        }
        let s = self.scorer.settle()?;
        Some((0..self.players()).map(|i| s.results[Seat(i)]).collect())
    }

    /// The request the person answers now (Done when it is not their turn).
    #[must_use]
    pub fn human_request(&self) -> Request {
        self.request_of(self.human)
    }

    /// The request the person of `seat` answers now (Done when it is not their
    /// turn, or a bot has taken their seat over).
    #[must_use]
    pub fn request_of(&self, seat: Seat) -> Request {
        if self.turn() == Some(seat) && self.is_person(seat) {
            self.table.hand.request()
        } else {
            Request::Done
        }
    }
}

/// Hand `k` of a session: its deal (the spec's, or deal `k` of its seed) and
/// dealer (rotating), the seats' generators as `play --human` seeds them.
fn hand_setup(spec: &GameSpec, rules: Rules, k: u32) -> HandSetup {
    let n = spec.players;
    let dealer = Seat(((u32::from(spec.dealer) + k) % u32::from(n)) as u8);
    let ds = deal_seed(spec.seed, u64::from(k));
    let (deal, seed) = match &spec.deals {
        Some(d) => (d[k as usize], None),
        None => (deal_for_seed(ds).seated(rules.table(n), dealer), Some(ds)),
    };
    HandSetup {
        rules,
        players: n,
        deal,
        dealer,
        agents: spec.seats.clone(),
        seed,
        rng_seed: seating_rng_seed(ds, 0),
        tournament: None,
    }
}
