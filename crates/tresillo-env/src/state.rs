//! [`Env`] and [`State`]: one hand as a state machine over the fixed action space.
//!
//! [`Env`] checks the rules, players, seat and dealer. [`State`] deals with 40 chance
//! actions, then the seats decide (a discard card by card with core's
//! `DiscardBuilder`); it has a legality fast path for card play and chance, returns
//! scored by [`deal_scores`] (a fresh ledger, as deals.csv), its history, the
//! information-state string and tensor, and `resample_from_infostate`. `EnvError` is
//! `Invalid` (Python's `ValueError`) or `Engine` (`RuntimeError`). `deal_scores` scores
//! a hand alone (the returns and the protocol's result); `decide_by_actions` asks a
//! decision action by action, a discard card by card (external bots and Python
//! callables); `decision_actions` and `discard_step` are the reverse, for
//! `tresillo.Agent`.

use crate::observation;
use std::fmt;
use tresillo_core::action::{Action, DiscardBuilder, NUM_ACTIONS, legal_ids};
use tresillo_core::{
    Card, CardSet, Deal, Decision, Hand, HandResult, LedgerConfig, Names, PlayerView, Request, Rules, Seat,
    score_deal,
};

/// Why the environment refused: a request it cannot honour ([`EnvError::Invalid`]:
/// an illegal action, a seat not at the table, a deal that is not one), or a
/// refusal of the engine it should never meet ([`EnvError::Engine`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvError {
    /// The caller asked for something the state does not allow; the text says what.
    Invalid(String),
    /// The engine or the ledger refused what the environment gave it.
    Engine(String),
}

impl EnvError {
    /// The error of asking a seat's view while the pack is being dealt.
    #[must_use]
    pub fn chance_node() -> EnvError {
        EnvError::Invalid("the pack is still being dealt (a chance node)".into())
    }
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvError::Invalid(m) | EnvError::Engine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for EnvError {}

fn invalid(msg: impl Into<String>) -> EnvError {
    EnvError::Invalid(msg.into())
}

/// Who acts next in a [`State`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Chance deals the next card of the pack.
    Chance,
    /// A seat decides.
    Seat(Seat),
    /// The hand is over.
    Terminal,
}

/// A rule set with its options at a table of three, or four with an inactive
/// dealer: the game whose hands [`State`]s are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    rules: Rules,
    players: u8,
}

impl Env {
    /// The number of distinct actions (every action id is below it).
    pub const NUM_ACTIONS: usize = NUM_ACTIONS;
    /// The length of [`State::observation_tensor`].
    pub const OBSERVATION_SIZE: usize = observation::SIZE;
    /// The most actions a hand can take after the deal (an upper bound:
    /// auction, contract, discards card by card, words, 36 cards, questions).
    pub const MAX_GAME_LENGTH: usize = 400;
    /// The length of [`State::information_state_tensor`].
    pub const INFORMATION_STATE_SIZE: usize = observation::INFO_SIZE;

    /// The game of `rules` at a table of `players`; an error when the rule set
    /// is not played by that many.
    pub fn new(rules: Rules, players: u8) -> Result<Env, EnvError> {
        rules.check_players(players).map_err(|e| invalid(e.to_string()))?;
        Ok(Env { rules, players })
    }

    /// The rule set with its options.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Players at the table.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The seat `player`, checked to be at the table.
    pub fn seat(&self, player: i64) -> Result<Seat, EnvError> {
        u8::try_from(player)
            .ok()
            .filter(|&p| p < self.players)
            .map(Seat)
            .ok_or_else(|| invalid(format!("player {player}: the table has seats 0 to {}", self.players - 1)))
    }

    /// A new hand dealt by chance: its first 40 actions deal the pack one card
    /// at a time (the hands in seat order, then the heap from its top), as
    /// OpenSpiel deals.
    pub fn initial_state(&self, dealer: Seat) -> Result<State, EnvError> {
        if dealer.0 >= self.players {
            return Err(invalid(format!("dealer {dealer}: the table has seats 0 to {}", self.players - 1)));
        }
        Ok(State {
            env: *self,
            dealer,
            pack: Vec::with_capacity(40),
            dealt: CardSet::EMPTY,
            hand: None,
            discard: DiscardBuilder::default(),
            history: Vec::with_capacity(128),
            movers: Vec::with_capacity(96),
        })
    }

    /// A new hand on the deal `tresillo` deals for `seed` (the `deal_seed`
    /// column of deals.csv), seated for `dealer`; play starts at once, the 40
    /// chance actions of that deal first in the history.
    pub fn state_for_seed(&self, seed: u64, dealer: Seat) -> Result<State, EnvError> {
        let mut s = self.initial_state(dealer)?;
        s.deal_out(tresillo_agents::deal_for_seed(seed).seated(self.rules.table(self.players), dealer))?;
        Ok(s)
    }

    /// A new hand on `deal` (seated: at four the dealer's hand is empty); play
    /// starts at once, the 40 chance actions of that deal first in the history.
    pub fn state_for_deal(&self, deal: Deal, dealer: Seat) -> Result<State, EnvError> {
        let mut s = self.initial_state(dealer)?;
        s.deal_out(deal)?;
        Ok(s)
    }

    /// The state `history` (chance's actions included) reaches from a new hand
    /// dealt by chance.
    pub fn state_from_history(&self, dealer: Seat, history: &[usize]) -> Result<State, EnvError> {
        let mut s = self.initial_state(dealer)?;
        for &a in history {
            s.apply_action(a)?;
        }
        Ok(s)
    }
}

/// One hand of an [`Env`]: the state machine over the fixed action space.
#[derive(Clone, Debug)]
pub struct State {
    env: Env,
    dealer: Seat,
    /// The cards dealt so far by chance actions (before `hand` exists).
    pack: Vec<Card>,
    /// The same cards as a set.
    dealt: CardSet,
    hand: Option<Hand>,
    /// The discard being built by the seat to move.
    discard: DiscardBuilder,
    history: Vec<u16>,
    /// The seat that took each action after the deal (the history's actions
    /// from the 41st), for the information-state string.
    movers: Vec<u8>,
}

impl State {
    /// Starts the hand on `deal` (seated), its 40 chance actions first in the
    /// history: the seats' hands in seat order (each card in index order; the
    /// empty hand of a dealer who sits out adds none), then the heap from its
    /// top, as the chance nodes would deal it.
    fn deal_out(&mut self, deal: Deal) -> Result<(), EnvError> {
        for s in 0..usize::from(self.env.players) {
            self.history.extend(deal.hands.0[s].iter().map(|c| c.index() as u16));
        }
        self.history.extend(deal.heap.cards().iter().map(|c| c.index() as u16));
        if self.history.len() != 40 {
            return Err(invalid(format!("deal {deal}: not the whole pack")));
        }
        self.start(deal)
    }

    fn start(&mut self, deal: Deal) -> Result<(), EnvError> {
        let hand = Hand::with_rules(self.env.rules, self.env.players, deal, self.dealer)
            .map_err(|e| invalid(format!("deal {deal}: {e}")))?;
        self.hand = Some(hand);
        Ok(())
    }

    /// The game this hand is of.
    #[must_use]
    pub fn env(&self) -> &Env {
        &self.env
    }

    /// The dealer's seat.
    #[must_use]
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The engine's hand (`None` while the pack is being dealt).
    #[must_use]
    pub fn hand(&self) -> Option<&Hand> {
        self.hand.as_ref()
    }

    /// The deal (`None` while the pack is being dealt).
    #[must_use]
    pub fn deal(&self) -> Option<&Deal> {
        self.hand.as_ref().map(Hand::deal)
    }

    /// The discard the seat to move is building (empty otherwise).
    #[must_use]
    pub fn discard(&self) -> DiscardBuilder {
        self.discard
    }

    /// How many cards chance has dealt (40 once the hand has started).
    #[must_use]
    pub fn cards_dealt(&self) -> usize {
        if self.hand.is_some() { 40 } else { self.pack.len() }
    }

    /// Who acts next.
    #[must_use]
    pub fn current_player(&self) -> Player {
        match &self.hand {
            None => Player::Chance,
            Some(h) => h.request().seat().map_or(Player::Terminal, Player::Seat),
        }
    }

    /// Whether the pack is being dealt (the next action is chance's).
    #[must_use]
    pub fn is_chance_node(&self) -> bool {
        self.hand.is_none()
    }

    /// Whether the hand is over.
    #[must_use]
    pub fn is_terminal(&self) -> bool {
        self.hand.as_ref().is_some_and(Hand::is_done)
    }

    /// The chance outcomes with their probabilities (uniform over the cards not
    /// yet dealt); empty after the deal.
    #[must_use]
    pub fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        if self.hand.is_some() {
            return Vec::new();
        }
        let legal = self.legal_actions();
        let p = 1.0 / legal.len() as f64;
        legal.into_iter().map(|a| (a, p)).collect()
    }

    /// The legal action ids of the player to move, increasing (chance: the cards
    /// not yet dealt; empty when the hand is over).
    #[must_use]
    pub fn legal_actions(&self) -> Vec<usize> {
        match &self.hand {
            None => {
                (0..40).filter(|&i| Card::try_index(i).is_some_and(|c| !self.dealt.contains(c))).collect()
            }
            Some(h) => match h.request().seat() {
                Some(s) => legal_ids(&h.view(s), self.discard),
                None => Vec::new(),
            },
        }
    }

    /// Whether `a` is legal for the player to move (card play and chance are
    /// checked without listing every legal action).
    #[must_use]
    pub fn is_legal(&self, a: usize) -> bool {
        if self.is_terminal() {
            return false;
        }
        let card = Card::try_index(a).filter(|_| a < 40);
        match (&self.hand, card) {
            (None, Some(c)) => !self.dealt.contains(c),
            (None, None) => false,
            (Some(h), _) => match h.request() {
                Request::Play { legal, .. } => card.is_some_and(|c| legal.contains(c)),
                _ => self.legal_actions().contains(&a),
            },
        }
    }

    fn names(&self) -> Names {
        self.env.rules.spec().names
    }

    /// The words of action `a` (`deal 1E` at a chance node, `play 1E`, `bid 2`,
    /// ...), in the rule set's names.
    #[must_use]
    pub fn action_string(&self, a: usize) -> String {
        let names = self.names();
        if self.hand.is_none() {
            return match Card::try_index(a) {
                Some(c) if a < 40 => format!("deal {}", names.card(c)),
                _ => format!("action {a}"),
            };
        }
        tresillo_core::action::words(names, a)
    }

    /// Plays action `a` for the player to move; [`EnvError::Invalid`] names the
    /// seat, the action and the legal ones when it is not legal.
    pub fn apply_action(&mut self, a: usize) -> Result<(), EnvError> {
        if self.is_terminal() {
            return Err(invalid(format!("action {a}: the hand is over")));
        }
        if !self.is_legal(a) {
            let who = match self.hand.as_ref().and_then(|h| h.request().seat()) {
                Some(s) => format!("seat {s}"),
                None => "chance".into(),
            };
            let legal: Vec<String> = self.legal_actions().iter().map(|&l| self.action_string(l)).collect();
            return Err(invalid(format!(
                "{who}: action {a} ({}) is not legal; legal: {}",
                self.action_string(a),
                legal.join(", ")
            )));
        }
        let Some(hand) = self.hand.as_mut() else {
            let card = Card::try_index(a).expect("a legal chance action is a card");
            self.pack.push(card);
            self.dealt.insert(card);
            self.history.push(a as u16);
            if self.pack.len() == 40 {
                let pack: [Card; 40] = self.pack.as_slice().try_into().expect("40 cards");
                let deal = Deal::from_pack(&pack).map_err(|e| EnvError::Engine(e.to_string()))?;
                self.start(deal.seated(self.env.rules.table(self.env.players), self.dealer))?;
            }
            return Ok(());
        };
        let mover = hand.request().seat().map_or(u8::MAX, |s| s.0);
        let decision = match Action::from_id(a).expect("a legal id") {
            Action::Decision(d) => Some(d),
            Action::DiscardCard(c) => {
                self.discard.chosen.insert(c);
                None
            }
            Action::DiscardDone => Some(Decision::Discard(std::mem::take(&mut self.discard).chosen)),
        };
        if let Some(d) = decision {
            hand.apply(d).map_err(|e| EnvError::Engine(format!("the engine refused {d:?}: {e}")))?;
        }
        self.history.push(a as u16);
        self.movers.push(mover);
        Ok(())
    }

    /// Each seat's result of the finished hand in the rule set's unit (tantos,
    /// `hombre` points or chips), by [`deal_scores`]; zeros before the end.
    pub fn returns(&self) -> Result<Vec<f64>, EnvError> {
        let n = usize::from(self.env.players);
        let Some(r) = self.hand.as_ref().and_then(Hand::result) else {
            return Ok(vec![0.0; n]);
        };
        Ok(deal_scores(&r)?.into_iter().map(|s| s as f64).collect())
    }

    /// Every action so far, chance's included.
    #[must_use]
    pub fn history(&self) -> &[u16] {
        &self.history
    }

    /// What `seat` sees (RULES.md section 9).
    pub fn view(&self, seat: Seat) -> Result<PlayerView, EnvError> {
        let hand = self.hand.as_ref().ok_or_else(EnvError::chance_node)?;
        let seat = self.env.seat(i64::from(seat.0))?;
        Ok(hand.view(seat))
    }

    /// The discard `view`'s seat is building: the state's when that seat is
    /// to move, else none.
    #[must_use]
    pub fn building(&self, view: &PlayerView) -> CardSet {
        let mine = self.hand.as_ref().and_then(|h| h.request().seat()) == Some(view.seat());
        if mine { self.discard.chosen } else { CardSet::EMPTY }
    }

    /// What `seat` may know, as [`Env::OBSERVATION_SIZE`] values of 0/1 and
    /// small fractions ([`observation::tensor`], laid out in docs/PYTHON.md);
    /// zeros while the pack is being dealt.
    pub fn observation_tensor(&self, seat: Seat) -> Result<Vec<f32>, EnvError> {
        if self.hand.is_none() {
            return Ok(vec![0.0; observation::SIZE]);
        }
        let view = self.view(seat)?;
        Ok(observation::tensor(&view, self.building(&view)))
    }

    /// What `seat` knows, as a compact string: equal for two states that seat
    /// cannot tell apart, different otherwise (perfect recall). It is
    /// `p<seat> | <hand> | <discards> | <seen> | <actions>`: the seat's cards
    /// now, its discards, the cards it has seen besides those and the cards
    /// played (a turned card, a heap shown, a hand laid down), then every
    /// action id since the deal in order, another seat's discarded card as `x`
    /// (docs/PYTHON.md). Cards in index order, by their names (`1E`, `12O`).
    /// Which of its cards it drew in the exchange is not part of it (as in the
    /// engine's view, RULES.md section 9). While the pack is being dealt:
    /// `p<seat> dealing <cards dealt>`.
    pub fn information_state_string(&self, seat: Seat) -> Result<String, EnvError> {
        use std::fmt::Write as _;
        let player = self.env.seat(i64::from(seat.0))?.0;
        if self.hand.is_none() {
            return Ok(format!("p{player} dealing {}", self.pack.len()));
        }
        let view = self.view(seat)?;
        let played: CardSet = view.public().plays().iter().copied().collect();
        let seen = view.known_cards() & !view.hand() & !view.discards() & !played;
        let mut out = String::with_capacity(160 + 4 * self.movers.len());
        // Sections apart by " | "; an empty one is "-".
        let cards = |out: &mut String, set: CardSet| {
            out.push_str(" |");
            if set.is_empty() {
                out.push_str(" -");
            }
            for c in set.iter() {
                let _ = write!(out, " {c}");
            }
        };
        let _ = write!(out, "p{player}");
        cards(&mut out, view.hand());
        cards(&mut out, view.discards());
        cards(&mut out, seen);
        out.push_str(" |");
        if self.movers.is_empty() {
            out.push_str(" -");
        }
        for (&a, &by) in self.history[self.history.len() - self.movers.len()..].iter().zip(&self.movers) {
            let hidden =
                by != player && matches!(Action::from_id(usize::from(a)), Some(Action::DiscardCard(_)));
            if hidden {
                out.push_str(" x");
            } else {
                let _ = write!(out, " {a}");
            }
        }
        Ok(out)
    }

    /// What `seat` knows with perfect recall, as [`Env::INFORMATION_STATE_SIZE`]
    /// values of 0/1 and small fractions: its observation tensor, then the
    /// actions since the deal in order, each as the mover's seat relative to
    /// `seat` (4 values) and the action (154: the 153 ids, then "another
    /// seat's discarded card"), for the first [`observation::INFO_STEPS`]
    /// actions (laid out in docs/PYTHON.md). The same knowledge as
    /// [`State::information_state_string`]; zeros while the pack is being dealt.
    pub fn information_state_tensor(&self, seat: Seat) -> Result<Vec<f32>, EnvError> {
        let mut t = vec![0.0; observation::INFO_SIZE];
        let player = self.env.seat(i64::from(seat.0))?.0;
        if self.hand.is_none() {
            return Ok(t);
        }
        let view = self.view(seat)?;
        observation::write(&view, self.building(&view), &mut t[..observation::SIZE]);
        let n = self.env.players;
        let actions = &self.history[self.history.len() - self.movers.len()..];
        for (k, (&a, &by)) in actions.iter().zip(&self.movers).take(observation::INFO_STEPS).enumerate() {
            let at = observation::SIZE + k * observation::INFO_STEP;
            t[at + usize::from((by + n - player) % n)] = 1.0;
            let hidden =
                by != player && matches!(Action::from_id(usize::from(a)), Some(Action::DiscardCard(_)));
            t[at + 4 + if hidden { NUM_ACTIONS } else { usize::from(a) }] = 1.0;
        }
        Ok(t)
    }

    /// A state `seat` cannot tell from this one, drawn uniformly among the deals
    /// consistent with what that seat has seen (the sampler of the search
    /// agents), with every public decision replayed. Its history is its own
    /// world's: the drawn deal's 40 chance actions, then this state's actions
    /// with the other seats' discarded cards those of the world (in index
    /// order; of another seat's discard still being built, its lowest cards in
    /// the world, as many as it has chosen: which ones is hidden). `seed` seeds
    /// the draw. An error at a chance node.
    pub fn resample_from_infostate(&self, seat: Seat, seed: u64) -> Result<State, EnvError> {
        let view = self.view(seat)?;
        let sampler = tresillo_agents::Sampler::new(&view).map_err(|e| EnvError::Engine(e.to_string()))?;
        let mut rng = tresillo_agents::rng_from_seed(seed);
        let world = sampler.sample(&mut rng);
        let hand = world.replay(&view).map_err(|e| EnvError::Engine(e.to_string()))?;
        let mut s = self.env.state_for_deal(*hand.deal(), self.dealer)?;
        let mut discards: Vec<_> = world.discards.0.iter().map(|d| d.iter()).collect();
        let post = &self.history[self.history.len() - self.movers.len()..];
        for (&a, &by) in post.iter().zip(&self.movers) {
            let a = match Action::from_id(usize::from(a)) {
                Some(Action::DiscardCard(_)) if by != seat.0 => match discards[usize::from(by)].next() {
                    Some(c) => Action::DiscardCard(c).id().expect("a card's id"),
                    // A discard still being built: which cards it holds so
                    // far is hidden, the world has none of it; the lowest
                    // cards it may take.
                    None => s
                        .legal_actions()
                        .into_iter()
                        .find(|&x| matches!(Action::from_id(x), Some(Action::DiscardCard(_))))
                        .ok_or_else(|| EnvError::Engine("replaying the world: no card to discard".into()))?,
                },
                _ => usize::from(a),
            };
            s.apply_action(a).map_err(|e| EnvError::Engine(format!("replaying the world: {e}")))?;
        }
        Ok(s)
    }
}

impl fmt::Display for State {
    /// `dealing: N of 40 cards dealt`, or the deal, the request and the history.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.hand {
            None => write!(f, "dealing: {} of 40 cards dealt", self.pack.len()),
            Some(h) => {
                let history: Vec<String> = self.history.iter().map(u16::to_string).collect();
                write!(f, "deal {}; {:?}; history {}", h.deal(), h.request(), history.join(", "))
            }
        }
    }
}

/// What a finished hand scored for each seat when scored alone, in the rule
/// set's unit: the bowl's change (pool plus condiciones) of a fresh ledger of
/// its rule set, one deal the session, as the runner scores by the deal
/// (deals.csv's `pool` + `cond` columns). One value per seat at the table.
pub fn deal_scores(r: &HandResult) -> Result<Vec<i64>, EnvError> {
    let mut config = LedgerConfig::with_rules(Rules { set: r.rules, options: r.options }, r.players);
    config.deals = 1;
    let s = score_deal(config, r).map_err(|e| EnvError::Engine(e.to_string()))?;
    Ok(s.totals().0[..usize::from(r.players)].to_vec())
}

/// The action ids that make decision `d`: a discard is its cards in index
/// order then "done"; any other decision its one id (`None` for a decision
/// without one).
#[must_use]
pub fn decision_actions(d: Decision) -> Option<Vec<usize>> {
    match d {
        Decision::Discard(set) => {
            let mut v: Vec<usize> = set.iter().filter_map(|c| Action::DiscardCard(c).id()).collect();
            v.extend(Action::DiscardDone.id());
            Some(v)
        }
        d => Action::Decision(d).id().map(|a| vec![a]),
    }
}

/// The next action of a seat discarding `plan` when `chosen` is already in:
/// its lowest card not yet chosen, else "done".
#[must_use]
pub fn discard_step(plan: CardSet, chosen: CardSet) -> usize {
    let rest = plan & !chosen;
    match rest.iter().min_by_key(|c| c.index()) {
        Some(c) => Action::DiscardCard(c).id().expect("a card id"),
        None => Action::DiscardDone.id().expect("the done id"),
    }
}

/// A decision asked action by action, as the fixed action space spells it: `ask`
/// is handed the discard built so far and the legal action ids (never empty
/// before the hand is over) and answers one of them; a discard is asked card by
/// card until "done", any other decision in one answer. What the external bots
/// (one request per action) and Python callables seated in a tournament decide
/// through. `ask`'s error ends the decision.
///
/// # Panics
/// If `ask` answers an id that is not in the legal ids it was handed.
pub fn decide_by_actions<E>(
    view: &PlayerView,
    mut ask: impl FnMut(DiscardBuilder, &[usize]) -> Result<usize, E>,
) -> Result<Decision, E> {
    let mut discard = DiscardBuilder::default();
    loop {
        let legal = legal_ids(view, discard);
        let a = ask(discard, &legal)?;
        assert!(legal.contains(&a), "action {a} is not among the legal ones {legal:?}");
        match Action::from_id(a).expect("a legal id") {
            Action::Decision(d) => return Ok(d),
            Action::DiscardCard(c) => discard.chosen.insert(c),
            Action::DiscardDone => return Ok(Decision::Discard(discard.chosen)),
        };
    }
}
