//! The hand of Tresillo as a state machine driven by decisions.
//!
//! [`Hand::request`] says whose decision it is and of what kind, with the legal
//! choices; [`Hand::apply`] takes a [`Decision`] and either advances the hand or
//! rejects it with a [`HandError`], leaving the state unchanged.
//!
//! The state is split in two: [`PublicState`], everything every player may see
//! (RULES.md section 9), and the hidden part (hands, discards, the heap), private to
//! this module. A [`PlayerView`] is a copy of the public part plus one seat's own
//! cards, so it cannot hold anyone else's.

use crate::card::MAX_TRICKS;
use crate::card::{BySeat, Card, Seat, Suit};
use crate::cardset::CardSet;
use crate::game::{Bid, BidEntry, Contract, Outcome, PuestaKind, Word, WordEntry};
use crate::notation::{Deal, Heap};
use crate::penetro::{HeapEnd, PenetroState, take_ten};
use crate::play::{PlayState, legal_moves, trick_winner};
use crate::question::{Answers, MAX_QUESTIONS, Question};
use crate::result::{HandResult, SurrenderRecord};
use crate::rules::Rules;
use crate::spec::RuleSet;
use crate::spec::Words;
use crate::tables::table;
use crate::view::PlayerView;
use std::fmt;

pub(crate) mod seat_view;

pub use crate::state::*;

/// The hidden part: hands, discards and the heap. Never leaves this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Hidden {
    hands: BySeat<CardSet>,
    discards: BySeat<CardSet>,
    heap: Heap,
    heap_pos: u8,
    deal: Deal,
    hands_at_play: BySeat<CardSet>,
}

/// A hand of Tresillo from the deal to the outcome. `Copy`, about 400 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hand {
    public: PublicState,
    hidden: Hidden,
}

/// What a yes/no [`Question`] is: its words and its effect on the hand
/// (see [`crate::question`]). Declared by the rule set's module beside the
/// question, as an associated constant of [`Hand`].
pub struct QuestionDef {
    /// The question.
    pub question: Question,
    /// Its name in records, the bot protocol and the play page (`surrender`).
    pub name: &'static str,
    /// Its request's kind in the bot protocol (`surrender`, `takeover`).
    pub kind: &'static str,
    /// What it decides, as an action's text says it (`give up`: `give up: yes`).
    pub topic: &'static str,
    /// The question in a rule set's words (lower case, ending with `?`).
    pub text: fn(&Words) -> &'static str,
    /// The answers *no* and *yes* in a rule set's words.
    pub answers: fn(&Words) -> [&'static str; 2],
    /// What a seat that answered no and yes did, for a narration (`plays on`,
    /// `gives up`), in a rule set's words.
    pub narration: fn(&Words) -> [&'static str; 2],
    /// What each answer, no and yes, leads to, for a person choosing (`""`: no
    /// gloss).
    pub gloss: [&'static str; 2],
    /// The question explained for a person, with its section of RULES.md.
    pub help: &'static str,
    /// Whether it is asked between tricks, so that the hand has a play position.
    pub in_play: bool,
    /// Who is asked, in the hand's present state.
    pub(crate) asked: fn(&Hand) -> Option<Seat>,
    /// What an answer of `seat` does to the hand (the answer is legal).
    pub(crate) answer: fn(&mut Hand, Seat, bool),
    /// Asked just before the first card when this holds and it is not answered yet.
    pub(crate) before_play: Option<fn(&Hand) -> bool>,
}

/// Declares the modules that define yes/no questions and registers their
/// definitions in `QUESTIONS`, in the order given: one line per module,
/// `module: X_DEF, Y_DEF;`.
macro_rules! questions {
    ($($module:ident: $($def:ident),+;)*) => {
        $(pub(crate) mod $module;)*

        /// Every yes/no question, in the order of their numbers.
        pub const QUESTIONS: &[&QuestionDef] = &[$($(&Hand::$def,)+)*];
    };
}

// The registry of yes/no questions: a new one is declared in its rule set's
// module (`impl Question { pub const X }` and `impl Hand { const X_DEF }`, its
// number the next free one) and listed here at the end, a new module on a line
// of its own.
questions! {
    tresillo: SURRENDER_DEF, TAKE_OVER_DEF, BOLA_DEF;
    hombre: GASCARILLE_DEF, EXCHANGE_FIRST_DEF, ACCEPT_SURRENDER_DEF, DECLARE_VOLE_DEF;
}

const _: () = {
    assert!(QUESTIONS.len() <= MAX_QUESTIONS);
    let mut i = 0;
    while i < QUESTIONS.len() {
        assert!(QUESTIONS[i].question.id() as usize == i, "a question's number is its place in QUESTIONS");
        i += 1;
    }
};

impl Question {
    /// Its definition.
    #[must_use]
    pub const fn def(self) -> &'static QuestionDef {
        QUESTIONS[self.id() as usize]
    }

    /// Its name in records and the protocol (`surrender`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.def().name
    }

    /// The question named `name` in records and the protocol.
    #[must_use]
    pub fn by_name(name: &str) -> Option<Question> {
        QUESTIONS.iter().find(|q| q.name == name).map(|q| q.question)
    }
}

impl fmt::Debug for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Question {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Hand {
    /// Starts a hand of `rules` (without options) at a table of `players` from a
    /// full deal (9 cards each, 13 in the heap), `dealer` dealing. At a table of four
    /// the dealer's hand in the deal is empty (section 12.2; see [`Deal::seated`]).
    pub fn new(rules: RuleSet, players: u8, deal: Deal, dealer: Seat) -> Result<Hand, HandError> {
        Hand::with_rules(Rules::from(rules), players, deal, dealer)
    }

    /// Starts a hand of a rule set with its options (see [`Hand::new`]).
    pub fn with_rules(game: Rules, players: u8, deal: Deal, dealer: Seat) -> Result<Hand, HandError> {
        let rules = game.set;
        if game.check_players(players).is_err() {
            return Err(HandError::Unsupported { rules, players });
        }
        if dealer.0 >= players {
            return Err(HandError::InvalidDeal(format!("dealer seat {dealer} out of range")));
        }
        let table = game.table(players);
        for s in 0..4 {
            let want = if table.active(Seat(s as u8), dealer) { 9 } else { 0 };
            if deal.hands.0[s].len() != want {
                return Err(HandError::InvalidDeal(format!("hand {s} does not hold {want} cards")));
            }
        }
        if deal.heap.len() != 13 || deal.all_cards() != CardSet::FULL {
            return Err(HandError::InvalidDeal("the deal must hold all 40 cards, 13 in the heap".into()));
        }
        let mano = dealer.next(players);
        let public = PublicState {
            rules,
            options: game.options,
            players,
            table,
            dealer,
            phase: Phase::Auction,
            bids: [BidEntry { seat: Seat(0), bid: Bid::Paso }; MAX_BIDS],
            num_bids: 0,
            // A dealer who sits out takes no part in the auction.
            passed: table.sits_out(dealer).map_or(0, |s| 1 << s.0),
            standing: None,
            to_speak: mano,
            declarer: None,
            original_declarer: None,
            level: 0,
            contract: None,
            trump: None,
            forced: false,
            turned: None,
            exchanged: BySeat::default(),
            heap_left: 13,
            words: [WordEntry { seat: Seat(0), word: Word::Van }; MAX_WORDS],
            num_words: 0,
            first_opponent: None,
            plays: [Card::ESPADA; MAX_PLAYS],
            num_plays: 0,
            leaders: [mano; MAX_TRICKS as usize],
            winners: [Seat(0); MAX_TRICKS as usize],
            tricks: BySeat::default(),
            tricks_done: 0,
            surrendered: None,
            took_over: None,
            declined: 0,
            bola: None,
            exposed: None,
            gascarille: false,
            gascarille_declined: 0,
            exchange_first: None,
            shown_heap: CardSet::EMPTY,
            accepted: 0,
            refused: None,
            vole_declared: None,
            answers: Answers::default(),
            penetro: PenetroState::default(),
        };
        let hidden = Hidden {
            hands: deal.hands,
            discards: BySeat::default(),
            heap: deal.heap,
            heap_pos: 0,
            deal,
            hands_at_play: BySeat::default(),
        };
        Ok(Hand { public, hidden })
    }

    /// The public part of the state.
    #[must_use]
    pub fn public(&self) -> &PublicState {
        &self.public
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.public.phase
    }

    /// Whether the hand is over.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.public.phase == Phase::Done
    }

    /// The cards `seat` holds now. Only for the table itself (the CLI's narration,
    /// the cheat wrapper, tests): agents get a [`PlayerView`].
    #[must_use]
    pub fn hand_of(&self, seat: Seat) -> CardSet {
        self.hidden.hands[seat]
    }

    /// The cards `seat` discarded (hidden from the others).
    #[must_use]
    pub fn discards_of(&self, seat: Seat) -> CardSet {
        self.hidden.discards[seat]
    }

    /// The cards still in the heap (hidden from everyone).
    #[must_use]
    pub fn heap_remaining(&self) -> CardSet {
        self.heap_slice().iter().copied().collect()
    }

    fn heap_slice(&self) -> &[Card] {
        &self.hidden.heap.cards()[self.hidden.heap_pos as usize..]
    }

    /// The deal the hand started from.
    #[must_use]
    pub fn deal(&self) -> &Deal {
        &self.hidden.deal
    }

    /// The view of `seat`: the public state and that seat's own cards.
    #[must_use]
    pub fn view(&self, seat: Seat) -> PlayerView {
        let req = self.request();
        let request = if req.seat() == Some(seat) { req } else { Request::Done };
        PlayerView::new(seat, self.hidden.hands[seat], self.hidden.discards[seat], self.public, request)
    }

    /// The position of the play phase (a full world: every hand). `None` before
    /// play begins.
    #[must_use]
    pub fn play_state(&self) -> Option<PlayState> {
        self.public.play_state(self.hidden.hands)
    }

    /// The decision the hand waits for.
    #[must_use]
    pub fn request(&self) -> Request {
        let p = &self.public;
        match p.phase {
            Phase::Auction => {
                let s = p.to_speak;
                let min_level = match p.standing {
                    None => 1,
                    Some((l, h)) if p.priority(s) < p.priority(h) => l,
                    Some((l, _)) => l + 1,
                };
                Request::Bid { seat: s, min_level, max_level: p.game_rules().max_level() }
            }
            Phase::Declare => Request::Declare {
                seat: p.declarer.expect("declarer"),
                min_level: p.level,
                forced: p.forced || p.penetro.active,
            },
            // A penetrating dealer discards exactly one card and draws none.
            Phase::DeclarerExchange if p.penetro.active => {
                Request::Discard { seat: p.dealer, min: 1, max: 1 }
            }
            Phase::DeclarerExchange => {
                // Before the contract is named: a forced game that exchanges first.
                let min = if p.contract.is_none() {
                    p.game_rules().spec().forced_min_discard
                } else {
                    p.game_rules().declarer_min_discard(p.contract)
                };
                // Before the contract is named only a forced game exchanges; after
                // it, up to the whole hand.
                let spec = p.game_rules().spec();
                let most = if p.contract.is_none() { spec.forced_max_discard } else { spec.tricks };
                Request::Discard { seat: p.declarer.expect("declarer"), min, max: p.heap_left.min(most) }
            }
            Phase::Conversation => Request::Word { seat: self.next_speaker() },
            Phase::FirstOpponentExchange | Phase::SecondOpponentExchange | Phase::ThirdOpponentExchange => {
                let fo = p.first_opponent.expect("first opponent");
                let seat = match p.phase {
                    Phase::FirstOpponentExchange => fo,
                    // Under penetro_all_play the three exchange in turn order.
                    Phase::SecondOpponentExchange if p.opponents().is_none() => p.next_playing(fo),
                    Phase::SecondOpponentExchange => self.other_opponent(fo),
                    _ => p.playing_plus(fo, 2),
                };
                let most = if p.phase == Phase::FirstOpponentExchange {
                    p.game_rules().spec().first_opponent_max
                } else {
                    9
                };
                Request::Discard { seat, min: 0, max: p.heap_left.min(most) }
            }
            Phase::PenetroTake => Request::Penetro { seat: p.dealer },
            Phase::PenetroGiveUp => Request::Ask { seat: p.dealer, question: Question::SURRENDER },
            Phase::DropOut => {
                let n = p.penetro.words().len() as u8;
                Request::DropOut { seat: p.mano().plus(n, p.players) }
            }
            Phase::Play => {
                let seat = self.seat_to_play();
                Request::Play { seat, legal: legal_moves(self.hidden.hands[seat], p.trump, p.led()) }
            }
            Phase::Ask(question) => {
                Request::Ask { seat: (question.def().asked)(self).expect("a seat is asked"), question }
            }
            Phase::Done => Request::Done,
        }
    }

    fn seat_to_play(&self) -> Seat {
        let p = &self.public;
        p.playing_plus(p.current_leader(), p.current_trick().len() as u8)
    }

    fn other_opponent(&self, o: Seat) -> Seat {
        let [a, b] = self.public.opponents().expect("declarer");
        if a == o { b } else { a }
    }

    fn next_speaker(&self) -> Seat {
        let [first, second] = self.public.opponents().expect("declarer");
        if self.public.num_words.is_multiple_of(2) { first } else { second }
    }

    /// Applies a decision of the player whose turn it is. An illegal decision is
    /// rejected with the state unchanged.
    pub fn apply(&mut self, d: Decision) -> Result<(), HandError> {
        let req = self.request();
        let seat = req.seat().ok_or(HandError::Finished)?;
        req.check_in(&self.public.game_rules(), &d, self.hidden.hands[seat])?;
        self.apply_checked(seat, d);
        Ok(())
    }

    /// Applies a decision known to be legal (fast path). An illegal decision leaves
    /// the hand in an unspecified (but memory-safe) state.
    pub fn apply_unchecked(&mut self, d: Decision) {
        if let Some(seat) = self.request().seat() {
            self.apply_checked(seat, d);
        }
    }

    fn apply_checked(&mut self, seat: Seat, d: Decision) {
        match d {
            Decision::Bid(b) => self.do_bid(seat, b),
            Decision::Declare(c, t) => self.do_declare(c, t),
            Decision::Discard(set) => self.do_discard(seat, set),
            Decision::Word(w) => self.do_word(seat, w),
            Decision::Play(c) => self.do_play(seat, c),
            Decision::Penetro(end) => self.do_penetro(end),
            Decision::DropOut(w) => {
                if self.public.penetro.say(seat, w).is_some() {
                    self.public.phase = Phase::Conversation;
                }
            }
            Decision::Answer(q, yes) => {
                self.public.answers.set(q, yes);
                (q.def().answer)(self, seat, yes);
            }
        }
    }

    fn do_bid(&mut self, seat: Seat, b: Bid) {
        let p = &mut self.public;
        p.bids[p.num_bids as usize] = BidEntry { seat, bid: b };
        p.num_bids += 1;
        match b {
            Bid::Paso => p.passed |= 1 << seat.0,
            Bid::Level(l) => p.standing = Some((l, seat)),
        }
        let all = (1u8 << p.players) - 1;
        let active = all & !p.passed;
        if active == 0 {
            // All passed: the rule set says who must play and whether the forced
            // game exchanges before naming trumps, or the hand is cancelled.
            let rules = p.game_rules();
            let holder = rules.all_pass_declarer(&self.hidden.hands.0[..p.players as usize], p.mano());
            match holder {
                Some(h) => {
                    p.forced = true;
                    p.declarer = Some(h);
                    p.original_declarer = Some(h);
                    p.level = 1;
                    p.phase = Phase::Declare;
                    if rules.spec().forced_exchange_first {
                        self.public.phase = self.forced_exchange_phase(h);
                    }
                }
                // A dealer who sits out penetra (section 12.2).
                None if p.table.penetro => {
                    p.penetro.active = true;
                    p.declarer = Some(p.dealer);
                    p.original_declarer = Some(p.dealer);
                    p.level = 1;
                    p.phase = Phase::PenetroTake;
                }
                None => p.phase = Phase::Done,
            }
            return;
        }
        if let Some((l, h)) = p.standing
            && active == 1 << h.0
        {
            // Everyone else has passed: the holder of the standing bid declares.
            p.declarer = Some(h);
            p.original_declarer = Some(h);
            p.level = l;
            p.phase = Phase::Declare;
            return;
        }
        let next_bidder = p.game_rules().spec().mechanics.next_bidder;
        p.to_speak = next_bidder(p.bids(), p.passed, seat, p.dealer, p.players);
    }

    fn do_declare(&mut self, c: Contract, t: Option<Suit>) {
        let p = &mut self.public;
        p.contract = Some(c);
        if c.turns_card() {
            let top = self.hidden.heap.cards()[self.hidden.heap_pos as usize];
            p.turned = Some(top);
            p.trump = Some(top.suit());
        } else {
            p.trump = t;
        }
        let exchanged = p.declarer.is_some_and(|d| p.exchanged[d].is_some());
        if c.declarer_exchanges() && !exchanged {
            p.phase = Phase::DeclarerExchange;
        } else {
            self.opponents_exchange();
        }
    }

    fn do_penetro(&mut self, end: HeapEnd) {
        let h = &mut self.hidden;
        let d = self.public.dealer;
        let (ten, left) = take_ten(&h.heap, end);
        h.hands[d] = ten.iter().copied().collect();
        h.heap = left;
        h.heap_pos = 0;
        let p = &mut self.public;
        p.penetro.heap_end = Some(end);
        p.heap_left = 3;
        p.phase = Phase::PenetroGiveUp;
    }

    fn do_discard(&mut self, seat: Seat, set: CardSet) {
        if self.public.phase == Phase::DeclarerExchange && self.public.penetro.active {
            // The penetrating dealer discards one card and draws none; then the
            // others decide who drops out, or all three exchange in turn order.
            self.hidden.hands[seat] = self.hidden.hands[seat] - set;
            self.hidden.discards[seat] |= set;
            let p = &mut self.public;
            p.exchanged[seat] = Some(set.len() as u8);
            if p.game_rules().penetro_all_play() {
                p.first_opponent = Some(p.mano());
                p.phase = Phase::FirstOpponentExchange;
            } else {
                p.phase = Phase::DropOut;
            }
            return;
        }
        let k = set.len() as u8;
        let h = &mut self.hidden;
        h.hands[seat] = h.hands[seat] - set;
        h.discards[seat] |= set;
        for _ in 0..k {
            let c = h.heap.cards()[h.heap_pos as usize];
            h.hands[seat].insert(c);
            h.heap_pos += 1;
        }
        let p = &mut self.public;
        p.exchanged[seat] = Some(k);
        p.heap_left -= k;
        p.phase = match p.phase {
            // A forced entrada names trumps after its exchange.
            Phase::DeclarerExchange if p.contract.is_none() => Phase::Declare,
            Phase::DeclarerExchange => {
                self.opponents_exchange();
                return;
            }
            Phase::FirstOpponentExchange => Phase::SecondOpponentExchange,
            Phase::SecondOpponentExchange if p.opponents().is_none() => Phase::ThirdOpponentExchange,
            _ => {
                self.begin_play();
                return;
            }
        };
    }

    fn do_word(&mut self, seat: Seat, w: Word) {
        let [first, second] = self.public.opponents().expect("declarer");
        let p = &mut self.public;
        p.words[p.num_words as usize] = WordEntry { seat, word: w };
        p.num_words += 1;
        if p.num_words >= 2 {
            let latest =
                |s: Seat| p.words().iter().rev().find(|e| e.seat == s).map(|e| e.word).expect("spoke");
            let agreed = Word::agreement(latest(first), latest(second));
            let fo = match agreed {
                Some(true) => Some(first),
                Some(false) => Some(second),
                None if p.num_words as usize == MAX_WORDS => Some(first),
                None => None,
            };
            if let Some(fo) = fo {
                p.first_opponent = Some(fo);
                p.phase = Phase::FirstOpponentExchange;
            }
        }
    }

    fn begin_play(&mut self) {
        self.hidden.hands_at_play = self.hidden.hands;
        let shown =
            if self.public.game_rules().shows_heap() { self.heap_remaining() } else { CardSet::EMPTY };
        let p = &mut self.public;
        p.shown_heap = shown;
        p.phase = Phase::Play;
        // Mano leads, or the next player who plays if mano sits out (section 12.2).
        let mano = p.mano();
        p.leaders[0] = if p.playing() & (1 << mano.0) != 0 { mano } else { p.next_playing(mano) };
        self.ask_before_play();
        self.expose_if_due();
    }

    /// Just before the first card: the first question whose
    /// [`before_play`](QuestionDef::before_play) test holds and
    /// that is not answered yet is asked; else play goes on. A module's answer
    /// to such a question calls this again.
    pub(crate) fn ask_before_play(&mut self) {
        let due = QUESTIONS.iter().find(|q| {
            self.public.answers.get(q.question).is_none() && q.before_play.is_some_and(|due| due(self))
        });
        self.public.phase = due.map_or(Phase::Play, |q| Phase::Ask(q.question));
    }

    /// Nolo ouvert: just before the declarer's first card their hand is laid face
    /// up (RULES.md section 12.4).
    fn expose_if_due(&mut self) {
        let p = &self.public;
        if p.contract == Some(Contract::NoloOuvert)
            && p.exposed.is_none()
            && p.phase == Phase::Play
            && p.declarer == Some(self.seat_to_play())
        {
            let d = self.seat_to_play();
            self.public.exposed = Some(self.hidden.hands[d]);
        }
    }

    fn do_play(&mut self, seat: Seat, c: Card) {
        self.hidden.hands[seat].take(c);
        let p = &mut self.public;
        p.plays[p.num_plays as usize] = c;
        p.num_plays += 1;
        let k = p.trick_size() as usize;
        if p.current_trick().len() < k {
            self.expose_if_due();
            return;
        }
        let t = p.tricks_done as usize;
        let w = trick_winner(&p.plays[t * k..t * k + k], p.trump);
        let ws = p.playing_plus(p.leaders[t], w as u8);
        p.winners[t] = ws;
        p.tricks[ws] += 1;
        p.tricks_done += 1;
        let rules = p.game_rules();
        let tricks = rules.spec().tricks;
        if t + 1 < usize::from(tricks) {
            p.leaders[t + 1] = ws;
        }
        let d = p.declarer.expect("declarer");
        p.phase = if p.tricks_done == tricks {
            Phase::Done
        } else if p.tricks_done == 3
            && p.surrendered.is_none()
            && p.vole_declared != Some(true)
            && !p.penetro.active
            && p.contract.is_some_and(|c| rules.may_surrender(c))
        {
            Phase::Ask(Question::SURRENDER)
        } else if p.tricks_done == 5
            && p.tricks[d] == 5
            && p.bola.is_none()
            && p.contract.is_some_and(|c| rules.bola_allowed(c))
        {
            Phase::Ask(Question::BOLA)
        } else {
            Phase::Play
        };
        self.expose_if_due();
    }

    /// The result, once the hand is over.
    #[must_use]
    pub fn result(&self) -> Option<HandResult> {
        if !self.is_done() {
            return None;
        }
        let p = &self.public;
        let mut exchanged = BySeat::default();
        for s in 0..p.players as usize {
            exchanged.0[s] = p.exchanged.0[s].unwrap_or(0);
        }
        let outcome = match p.declarer {
            None => Outcome::Cancelled,
            Some(_) if p.surrendered == Some(true) && p.took_over.is_none() => {
                Outcome::Puesta { kind: PuestaKind::Surrendered }
            }
            Some(d) => {
                let (o, k) = p.all_opponents().expect("declarer");
                let opp: Vec<(Seat, u8)> = o[..k].iter().map(|o| (*o, p.tricks[*o])).collect();
                p.game_rules().outcome(p.contract, p.tricks[d], &opp)
            }
        };
        let estuche = table(p.trump).estuche;
        let held = |s: Option<Seat>| {
            s.is_some_and(|s| !estuche.is_empty() && self.hidden.hands_at_play[s].is_superset(estuche))
        };
        let held_none = |s: Option<Seat>| {
            s.is_some_and(|s| !estuche.is_empty() && (self.hidden.hands_at_play[s] & estuche).is_empty())
        };
        let primeras = p.bola == Some(false);
        let bola_attempted = p.bola == Some(true);
        let all = p.game_rules().spec().tricks;
        let bola_made = bola_attempted && p.declarer.is_some_and(|d| p.tricks[d] == all);
        Some(HandResult {
            rules: p.rules,
            options: p.options,
            players: p.players,
            dealer: p.dealer,
            bids: p.bids().to_vec(),
            declarer: p.original_declarer,
            contract: p.contract,
            trump: p.trump,
            turned: p.turned,
            forced: p.forced,
            penetro: p.penetro.active,
            dropped_out: p.penetro.dropped,
            exchanged,
            conversation: p.words().to_vec(),
            first_opponent: p.first_opponent,
            tricks: p.tricks,
            trick_winners: p.trick_winners().to_vec(),
            outcome,
            estuche: held(p.original_declarer),
            final_estuche: held(p.declarer),
            contra_estuche: held_none(p.original_declarer),
            final_contra_estuche: held_none(p.declarer),
            primeras,
            bola_attempted,
            bola_made,
            surrender: match (p.surrendered, p.original_declarer) {
                (Some(true), Some(by)) => Some(SurrenderRecord { by, took_over: p.took_over }),
                _ => None,
            },
            deal: Some(self.hidden.deal),
            hands_at_play: if p.declarer.is_some() { Some(self.hidden.hands_at_play) } else { None },
            gascarille: p.gascarille,
            vole_declared: p.vole_declared == Some(true),
        })
    }
}
