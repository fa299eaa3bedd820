//! The one game loop of a hand between people and bots, on the engine's
//! [`Hand`] (no second engine): whose turn it is; a bot's turn decided here
//! ([`Table::play_bot`]) or its bot lent out to decide without the caller's lock
//! ([`Table::lend_bot`], [`Table::return_bot`]); a decision (a person's, or a
//! lent bot's answer) checked on a copy of the hand, journaled by the caller,
//! then applied ([`Table::decide`]); the finished hand made into its
//! [`HandRecord`]. A journal read back is played again with [`Table::replay`].
//!
//! `tresillo serve`'s `Game` (a session of hands, undo, takeover, pacing) and a
//! study's participant game (conditions, practice, questions) are this loop with
//! their extras around it.

use tresillo_agents::cheat::Seated;
use tresillo_agents::{AgentRng, TablePlayer, rng_from_seed, seat_rngs};
use tresillo_core::{Deal, Decision, Hand, HandError, Rules, Seat};
use tresillo_sim::{HandRecord, Step, TournamentOrigin};

/// Why a decision was refused (the table unchanged) or a hand not dealt.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The hand is over.
    #[error("the hand is over")]
    Over,
    /// Another seat decides now.
    #[error("not seat {seat}'s turn: seat {turn} decides now")]
    NotYourTurn {
        /// The seat that tried.
        seat: Seat,
        /// The seat whose turn it is.
        turn: Seat,
    },
    /// The engine refused the decision.
    #[error("illegal decision: {0}")]
    Illegal(HandError),
    /// The deal cannot be dealt under the rules.
    #[error("{0}")]
    Deal(HandError),
    /// An undo to more decisions than the hand has.
    #[error("an undo to {keep} decisions of a hand at {at}")]
    Cut {
        /// Decisions to keep.
        keep: usize,
        /// Decisions taken.
        at: usize,
    },
}

/// Why a bot's turn taken at the table ([`Table::play_bot`]) decided nothing:
/// the table is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The seat has no bot here (a person's seat, or its bot lent out).
    #[error("no bot in seat {}", .0.0)]
    NoBot(Seat),
    /// The bot failed.
    #[error("{name} in seat {} failed: {why}", seat.0)]
    Failed {
        /// The bot's name.
        name: String,
        /// Its seat.
        seat: Seat,
        /// Its failure.
        why: tresillo_agents::Failure,
    },
    /// The bot decided something illegal.
    #[error("{name} in seat {}: illegal {decision:?}: {why}", seat.0)]
    Illegal {
        /// The bot's name.
        name: String,
        /// Its seat.
        seat: Seat,
        /// What it decided.
        decision: Decision,
        /// Why it was refused (the engine's reason, or the turn's).
        why: String,
    },
}

/// A hand to deal: what its record says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct HandSetup {
    /// The rule set and options.
    pub rules: Rules,
    /// Seats at the table.
    pub players: u8,
    /// The cards, seated.
    pub deal: Deal,
    /// The dealer.
    pub dealer: Seat,
    /// Who sits in each seat (the record's `agents`).
    pub agents: Vec<String>,
    /// The record's `seed` (the deal's, when it came from one).
    pub seed: Option<u64>,
    /// The seed of the seats' generators.
    pub rng_seed: u64,
    /// The record's `tournament` coordinates, if any.
    pub tournament: Option<TournamentOrigin>,
}

/// One hand at a table: the hand, its decisions so far, and the bots by seat
/// (none in a person's seat) with their generators.
pub struct Table {
    /// The hand being dealt and played.
    pub setup: HandSetup,
    /// The hand.
    pub hand: Hand,
    /// The hand's decisions so far (moved into the record when it ends).
    pub steps: Vec<Step>,
    bots: Vec<Option<Seated>>,
    rngs: [AgentRng; 4],
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("setup", &self.setup).field("steps", &self.steps.len()).finish()
    }
}

impl Table {
    /// The table at the start of `setup`'s hand, with `bots` by seat (`None`: a
    /// person's seat); each bot begins the hand.
    ///
    /// # Errors
    /// A deal the rules cannot deal.
    pub fn new(setup: HandSetup, bots: Vec<Option<Seated>>) -> Result<Table, TableError> {
        let hand = Hand::with_rules(setup.rules, setup.players, setup.deal, setup.dealer)
            .map_err(TableError::Deal)?;
        let mut t = Table { hand, steps: Vec::new(), bots, rngs: seat_rngs(setup.rng_seed), setup };
        t.begin();
        Ok(t)
    }

    /// The next hand at the same table (the same bots, which begin it).
    ///
    /// # Errors
    /// A deal the rules cannot deal (the table is then unchanged).
    pub fn next_hand(&mut self, setup: HandSetup) -> Result<(), TableError> {
        self.hand = Hand::with_rules(setup.rules, setup.players, setup.deal, setup.dealer)
            .map_err(TableError::Deal)?;
        self.rngs = seat_rngs(setup.rng_seed);
        self.setup = setup;
        self.steps.clear();
        self.begin();
        Ok(())
    }

    fn begin(&mut self) {
        for b in self.bots.iter_mut().flatten() {
            b.begin_hand();
        }
    }

    /// The seat whose turn it is (`None` when the hand is over).
    #[must_use]
    pub fn turn(&self) -> Option<Seat> {
        self.hand.request().seat()
    }

    /// Whether `seat`'s bot is at the table (not a person's seat, not lent out).
    #[must_use]
    pub fn has_bot(&self, seat: Seat) -> bool {
        self.bots.get(seat.index()).is_some_and(Option::is_some)
    }

    /// The hand after `seat` decides `d`, on a copy: the table is unchanged.
    ///
    /// # Errors
    /// The hand is over, another seat's turn, or the decision illegal.
    pub fn check(&self, seat: Seat, d: Decision) -> Result<Hand, TableError> {
        match self.turn() {
            None => return Err(TableError::Over),
            Some(turn) if turn != seat => return Err(TableError::NotYourTurn { seat, turn }),
            Some(_) => {}
        }
        let mut after = self.hand;
        after.apply(d).map_err(TableError::Illegal)?;
        Ok(after)
    }

    /// Makes `after` (from [`Table::check`] of `step`) the hand; when it ends,
    /// the bots finish it and its record is returned (the hand's steps moved
    /// into it).
    pub fn apply(&mut self, after: Hand, step: Step) -> Option<HandRecord> {
        self.hand = after;
        self.steps.push(step);
        let result = self.hand.result()?;
        for b in self.bots.iter_mut().flatten() {
            b.finish_hand(&result);
        }
        let s = &self.setup;
        let mut rec = HandRecord::new(
            s.rules.set,
            s.deal,
            s.dealer,
            s.agents.clone(),
            std::mem::take(&mut self.steps),
            result,
        );
        rec.set_rules(&s.rules);
        rec.seed = s.seed;
        rec.rng_seed = Some(s.rng_seed);
        rec.tournament = s.tournament.clone();
        Some(rec)
    }

    /// Seat `seat` decides `d`: checked on a copy, handed to `journal` (which
    /// writes it, durably or not), and only when that succeeded applied.
    /// Returns the hand's record when the decision ended it.
    ///
    /// # Errors
    /// The check's ([`TableError`], through `E`) or the journal's; the table is
    /// then unchanged.
    pub fn decide<E: From<TableError>>(
        &mut self,
        seat: Seat,
        d: Decision,
        journal: impl FnOnce(&Step) -> Result<(), E>,
    ) -> Result<Option<HandRecord>, E> {
        let after = self.check(seat, d)?;
        let step = Step { seat, act: d };
        journal(&step)?;
        Ok(self.apply(after, step))
    }

    /// The bot of `seat` decides now, here (with its generator), and its
    /// decision is applied: the step, and the hand's record when it ended.
    ///
    /// # Errors
    /// No bot in that seat, or it failed or decided something illegal (the
    /// table unchanged).
    pub fn play_bot(&mut self, seat: Seat) -> Result<(Step, Option<HandRecord>), BotError> {
        let Some(Some(bot)) = self.bots.get_mut(seat.index()) else {
            return Err(BotError::NoBot(seat));
        };
        let d = bot.decide_at(&self.hand, seat, &mut self.rngs[seat.index()]);
        let name = bot.player_name().to_string();
        let decision = d.map_err(|why| BotError::Failed { name: name.clone(), seat, why })?;
        let after = self.check(seat, decision).map_err(|e| {
            let why = match e {
                TableError::Illegal(h) => h.to_string(),
                e => e.to_string(),
            };
            BotError::Illegal { name, seat, decision, why }
        })?;
        let step = Step { seat, act: decision };
        Ok((step, self.apply(after, step)))
    }

    /// Takes the bot of `seat` and its generator out, with a copy of the hand,
    /// to decide without the caller's lock; [`Table::return_bot`] puts them
    /// back. `None` when the seat has no bot here.
    pub fn lend_bot(&mut self, seat: Seat) -> Option<(Seated, AgentRng, Hand)> {
        let bot = self.bots.get_mut(seat.index())?.take()?;
        Some((bot, self.take_rng(seat), self.hand))
    }

    /// Puts back a bot lent by [`Table::lend_bot`] and its generator.
    pub fn return_bot(&mut self, seat: Seat, bot: Seated, rng: AgentRng) {
        self.bots[seat.index()] = Some(bot);
        self.rngs[seat.index()] = rng;
    }

    /// Takes the generator of `seat` out (an agent of the caller's decides for
    /// the seat: a stand-in for a person); [`Table::put_rng`] puts it back.
    pub fn take_rng(&mut self, seat: Seat) -> AgentRng {
        std::mem::replace(&mut self.rngs[seat.index()], rng_from_seed(0))
    }

    /// Puts back a generator taken by [`Table::take_rng`].
    pub fn put_rng(&mut self, seat: Seat, rng: AgentRng) {
        self.rngs[seat.index()] = rng;
    }

    /// A decision read back from a journal, played again: checked as when it
    /// was taken and applied. With `ask_bot`, the seat's bot is asked again
    /// first (its answer dropped: the journal's stands) so that its generator
    /// and state are as they were.
    ///
    /// # Errors
    /// Out of turn or illegal (the table unchanged).
    pub fn replay(&mut self, step: Step, ask_bot: bool) -> Result<Option<HandRecord>, TableError> {
        let after = self.check(step.seat, step.act)?;
        if ask_bot && let Some(Some(bot)) = self.bots.get_mut(step.seat.index()) {
            let _ = bot.decide_at(&self.hand, step.seat, &mut self.rngs[step.seat.index()]);
        }
        Ok(self.apply(after, step))
    }

    /// Cuts the hand back to its first `keep` decisions (an undo): dealt again
    /// and those replayed; the bots begin it again.
    ///
    /// # Errors
    /// More decisions to keep than taken, or a decision that no longer applies.
    pub fn cut(&mut self, keep: usize) -> Result<(), TableError> {
        if keep > self.steps.len() {
            return Err(TableError::Cut { keep, at: self.steps.len() });
        }
        let s = &self.setup;
        let mut h = Hand::with_rules(s.rules, s.players, s.deal, s.dealer).map_err(TableError::Deal)?;
        for st in &self.steps[..keep] {
            h.apply(st.act).map_err(TableError::Illegal)?;
        }
        self.hand = h;
        self.steps.truncate(keep);
        self.begin();
        Ok(())
    }
}
