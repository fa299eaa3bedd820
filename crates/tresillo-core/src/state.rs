//! The vocabulary of a hand: its [`Phase`], the [`Request`] a seat answers, the
//! [`Decision`]s, the [`HandError`]s, and the [`PublicState`] every player may see
//! (RULES.md section 9). The state machine (hand.rs) and the views (view.rs) both
//! import it; neither imports the other's internals.

use crate::card::MAX_TRICKS;
use crate::card::{BySeat, Card, Seat, Suit};
use crate::cardset::CardSet;
use crate::game::{Bid, BidEntry, Contract, Word, WordEntry};
use crate::penetro::{DropWord, HeapEnd, PenetroState, playing_seats};
use crate::play::PlayState;
use crate::question::{Answers, Question};
use crate::rules::{RuleOptions, Rules};
use crate::spec::RuleSet;
use crate::table::Table;

/// The most calls an auction can take (each call passes or raises, or equals once
/// per raise).
pub const MAX_BIDS: usize = 24;
/// The most statements of the first-opponent conversation (three rounds).
pub const MAX_WORDS: usize = 6;
/// Cards played in a hand (nine tricks of up to four cards: four only under
/// `penetro_all_play`, RULES.md section 12.2).
pub const MAX_PLAYS: usize = 36;

/// The phase of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Phase {
    /// Bidding.
    Auction,
    /// The declarer names the contract and trumps.
    Declare,
    /// The declarer discards and draws.
    DeclarerExchange,
    /// The opponents decide who is first opponent.
    Conversation,
    /// The first opponent exchanges.
    FirstOpponentExchange,
    /// The second opponent exchanges.
    SecondOpponentExchange,
    /// Under `penetro_all_play`, the third opponent exchanges (section 12.2).
    ThirdOpponentExchange,
    /// Four players, all passed, espada in the heap: the dealer takes ten cards
    /// from the top or the bottom of the heap (section 12.2).
    PenetroTake,
    /// The dealer who penetra may give up at once.
    PenetroGiveUp,
    /// The players who did not penetrar decide who drops out.
    DropOut,
    /// Tricks.
    Play,
    /// A yes/no question is asked ([`crate::question`]).
    Ask(Question),
    /// The hand is over.
    Done,
}

/// The decision the hand waits for, with what is legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Request {
    /// Bid or pass. Legal: [`Bid::Paso`], or a level in `min_level..=max_level`
    /// (none when `min_level > max_level`).
    Bid {
        /// Who speaks.
        seat: Seat,
        /// The lowest level this seat may bid.
        min_level: u8,
        /// The highest level of the rule set.
        max_level: u8,
    },
    /// Name the contract (level at least `min_level`) and, for entrada and solo, the
    /// trump suit. When `forced`, only entrada is allowed.
    Declare {
        /// The declarer.
        seat: Seat,
        /// The level that won the auction.
        min_level: u8,
        /// Espada forzada: all passed and this seat holds the espada.
        forced: bool,
    },
    /// Discard between `min` and `max` cards of the hand (then draw as many).
    Discard {
        /// Who exchanges.
        seat: Seat,
        /// Fewest cards.
        min: u8,
        /// Most cards.
        max: u8,
    },
    /// Say *vienen*, *como quiera* or *van*.
    Word {
        /// Who speaks.
        seat: Seat,
    },
    /// Play one of the `legal` cards.
    Play {
        /// Who plays.
        seat: Seat,
        /// The legal cards.
        legal: CardSet,
    },
    /// Answer a yes/no question ([`crate::question`]): legal are both answers.
    Ask {
        /// Who is asked.
        seat: Seat,
        /// The question.
        question: Question,
    },
    /// Penetro: take the top or the bottom ten cards of the heap (section 12.2).
    Penetro {
        /// The dealer.
        seat: Seat,
    },
    /// Penetro: say *me quedo*, *puedo quedarme*, *puedo irme* or *me voy*.
    DropOut {
        /// Who speaks.
        seat: Seat,
    },
    /// No decision: the hand is over.
    Done,
}

/// The kind of a request or a decision, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    /// A bid.
    Bid,
    /// Contract and trump.
    Declare,
    /// Discards.
    Discard,
    /// A conversation word.
    Word,
    /// A card.
    Play,
    /// The answer to a yes/no question.
    Answer(Question),
    /// The heap end of a penetro.
    Penetro,
    /// A drop-out word.
    DropOut,
    /// Nothing (the hand is over).
    Done,
}

impl DecisionKind {
    /// Its name in the bot protocol's requests (`play`, `surrender`, `takeover`):
    /// a question's [`kind`](crate::QuestionDef), the lower-case name otherwise.
    #[must_use]
    pub fn protocol_name(self) -> &'static str {
        match self {
            DecisionKind::Bid => "bid",
            DecisionKind::Declare => "declare",
            DecisionKind::Discard => "discard",
            DecisionKind::Word => "word",
            DecisionKind::Play => "play",
            DecisionKind::Answer(q) => q.def().kind,
            DecisionKind::Penetro => "penetro",
            DecisionKind::DropOut => "dropout",
            DecisionKind::Done => "done",
        }
    }
}

/// A player's answer to a [`Request`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// A call of the auction.
    Bid(Bid),
    /// The contract and, for entrada and solo, the trump suit (`None` for vuelta).
    Declare(Contract, Option<Suit>),
    /// The cards to discard.
    Discard(CardSet),
    /// A conversation word.
    Word(Word),
    /// A card.
    Play(Card),
    /// The answer to a yes/no question ([`crate::question`]): `true` is *yes*.
    Answer(Question, bool),
    /// The ten cards a penetrating dealer takes.
    Penetro(HeapEnd),
    /// A word of the drop-out conversation.
    DropOut(DropWord),
}

impl Decision {
    /// The kind of this decision.
    #[must_use]
    pub const fn kind(&self) -> DecisionKind {
        match self {
            Decision::Bid(_) => DecisionKind::Bid,
            Decision::Declare(..) => DecisionKind::Declare,
            Decision::Discard(_) => DecisionKind::Discard,
            Decision::Word(_) => DecisionKind::Word,
            Decision::Play(_) => DecisionKind::Play,
            Decision::Answer(q, _) => DecisionKind::Answer(*q),
            Decision::Penetro(_) => DecisionKind::Penetro,
            Decision::DropOut(_) => DecisionKind::DropOut,
        }
    }
}

/// Why a hand could not be created or a decision was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    /// The hand is over.
    #[error("the hand is over")]
    Finished,
    /// The decision is of another kind than the one requested.
    #[error("expected a {expected:?} decision, got {got:?}")]
    WrongKind {
        /// Requested.
        expected: DecisionKind,
        /// Given.
        got: DecisionKind,
    },
    /// An illegal bid. The message names the bid and every bid open to the
    /// player, in the rule set's own words ([`Rules::bid_words`]).
    #[error("illegal bid {said}: {legal}")]
    IllegalBid {
        /// The bid.
        bid: Bid,
        /// Lowest level of the request.
        min_level: u8,
        /// Highest level of the request.
        max_level: u8,
        /// The bid in the rule set's words.
        said: String,
        /// What the player may bid instead, in the rule set's words.
        legal: String,
    },
    /// An illegal contract or trump choice.
    #[error("illegal contract: {0}")]
    IllegalContract(String),
    /// An illegal set of discards.
    #[error("illegal discard: {0}")]
    IllegalDiscard(String),
    /// A card that may not be played.
    #[error("illegal card {card}: legal cards are {legal}")]
    IllegalCard {
        /// The card.
        card: Card,
        /// The legal cards.
        legal: CardSet,
    },
    /// A deal that cannot start a hand.
    #[error("invalid deal: {0}")]
    InvalidDeal(String),
    /// A table size the rule set does not support.
    #[error("rule set {rules} with {players} players is not supported")]
    Unsupported {
        /// The rule set.
        rules: RuleSet,
        /// Players requested.
        players: u8,
    },
}

impl Request {
    /// Whose decision it is.
    #[must_use]
    pub const fn seat(&self) -> Option<Seat> {
        match *self {
            Request::Bid { seat, .. }
            | Request::Declare { seat, .. }
            | Request::Discard { seat, .. }
            | Request::Word { seat }
            | Request::Play { seat, .. }
            | Request::Ask { seat, .. }
            | Request::Penetro { seat }
            | Request::DropOut { seat } => Some(seat),
            Request::Done => None,
        }
    }

    /// The kind of decision requested.
    #[must_use]
    pub const fn kind(&self) -> DecisionKind {
        match self {
            Request::Bid { .. } => DecisionKind::Bid,
            Request::Declare { .. } => DecisionKind::Declare,
            Request::Discard { .. } => DecisionKind::Discard,
            Request::Word { .. } => DecisionKind::Word,
            Request::Play { .. } => DecisionKind::Play,
            Request::Ask { question, .. } => DecisionKind::Answer(*question),
            Request::Penetro { .. } => DecisionKind::Penetro,
            Request::DropOut { .. } => DecisionKind::DropOut,
            Request::Done => DecisionKind::Done,
        }
    }

    /// Checks `d` against this request for a player holding `hand`, under the
    /// rules of `tresillo` without options (see [`Request::check_in`]).
    pub fn check(&self, d: &Decision, hand: CardSet) -> Result<(), HandError> {
        self.check_in(&Rules::default(), d, hand)
    }

    /// Checks `d` against this request for a player holding `hand` under `rules`
    /// (which contracts fulfil a bid level depends on `palo_de_favor`).
    pub fn check_in(&self, rules: &Rules, d: &Decision, hand: CardSet) -> Result<(), HandError> {
        if let Request::Done = self {
            return Err(HandError::Finished);
        }
        if self.kind() != d.kind() {
            return Err(HandError::WrongKind { expected: self.kind(), got: d.kind() });
        }
        match (*self, *d) {
            (Request::Bid { min_level, max_level, .. }, Decision::Bid(b)) => match b {
                Bid::Paso => Ok(()),
                Bid::Level(l) if l >= min_level && l <= max_level && rules.may_bid(l, hand) => Ok(()),
                bid => Err(HandError::IllegalBid {
                    bid,
                    min_level,
                    max_level,
                    said: rules.bid_words(bid),
                    legal: rules.legal_bids_text(min_level, max_level, hand),
                }),
            },
            (Request::Declare { min_level, forced, .. }, Decision::Declare(c, t)) => {
                match rules.declare_error(c, t, min_level, forced, hand) {
                    Some(e) => Err(HandError::IllegalContract(e)),
                    None => Ok(()),
                }
            }
            (Request::Discard { min, max, .. }, Decision::Discard(set)) => {
                if !hand.is_superset(set) {
                    return Err(HandError::IllegalDiscard(format!("{} not in hand", set - hand)));
                }
                let k = set.len() as u8;
                if k < min || k > max {
                    return Err(HandError::IllegalDiscard(format!("{k} cards; must discard {min} to {max}")));
                }
                Ok(())
            }
            (Request::Play { legal, .. }, Decision::Play(c)) => {
                if legal.contains(c) {
                    Ok(())
                } else {
                    Err(HandError::IllegalCard { card: c, legal })
                }
            }
            _ => Ok(()),
        }
    }

    /// Every legal decision for a player holding `hand`, under the rules of
    /// `tresillo` without options (see [`Request::legal_decisions_in`]). For
    /// discards this enumerates every allowed subset (at most 512).
    #[must_use]
    pub fn legal_decisions(&self, hand: CardSet) -> Vec<Decision> {
        self.legal_decisions_in(&Rules::default(), hand)
    }

    /// Every legal decision for a player holding `hand` under `rules`, in a fixed
    /// order (contracts low to high, suits in sort order).
    #[must_use]
    pub fn legal_decisions_in(&self, rules: &Rules, hand: CardSet) -> Vec<Decision> {
        match *self {
            Request::Bid { min_level, max_level, .. } => std::iter::once(Decision::Bid(Bid::Paso))
                .chain(
                    (min_level..=max_level)
                        .filter(|&l| rules.may_bid(l, hand))
                        .map(|l| Decision::Bid(Bid::Level(l))),
                )
                .collect(),
            Request::Declare { min_level, forced, .. } => {
                let mut v = Vec::new();
                for &c in rules.spec().contracts {
                    let trumps: &[Option<Suit>] = if c.names_trump() {
                        &[Some(Suit::Espadas), Some(Suit::Bastos), Some(Suit::Copas), Some(Suit::Oros)]
                    } else {
                        &[None]
                    };
                    v.extend(
                        trumps
                            .iter()
                            .filter(|&&t| rules.declare_error(c, t, min_level, forced, hand).is_none())
                            .map(|&t| Decision::Declare(c, t)),
                    );
                }
                v
            }
            Request::Discard { min, max, .. } => hand
                .subsets()
                .filter(|s| (min..=max).contains(&(s.len() as u8)))
                .map(Decision::Discard)
                .collect(),
            Request::Word { .. } => Word::ALL.iter().map(|w| Decision::Word(*w)).collect(),
            Request::Play { legal, .. } => legal.iter().map(Decision::Play).collect(),
            Request::Ask { question, .. } => {
                vec![Decision::Answer(question, false), Decision::Answer(question, true)]
            }
            Request::Penetro { .. } => HeapEnd::ALL.iter().map(|e| Decision::Penetro(*e)).collect(),
            Request::DropOut { .. } => DropWord::ALL.iter().map(|w| Decision::DropOut(*w)).collect(),
            Request::Done => Vec::new(),
        }
    }
}

/// Everything about a hand that every player may know (RULES.md section 9). It holds
/// no card of any hand, discard pile or the heap, except cards that were made public:
/// cards played, and the turned vuelta card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PublicState {
    /// The rule set.
    pub rules: RuleSet,
    /// The rule set's options.
    pub options: RuleOptions,
    /// Seats at the table.
    pub players: u8,
    /// The table of [`PublicState::players`] the rule set declares: who sits out,
    /// whether a penetro is played ([`Rules::table`]).
    pub table: Table,
    /// The dealer.
    pub dealer: Seat,
    /// The phase.
    pub phase: Phase,
    pub(crate) bids: [BidEntry; MAX_BIDS],
    pub(crate) num_bids: u8,
    /// Seats that have passed, as a bit mask.
    pub passed: u8,
    /// The standing bid: level and holder.
    pub standing: Option<(u8, Seat)>,
    /// Who speaks next in the auction.
    pub to_speak: Seat,
    /// The declarer now (after a takeover, the new one).
    pub declarer: Option<Seat>,
    /// The declarer who won the auction.
    pub original_declarer: Option<Seat>,
    /// The level that won the auction.
    pub level: u8,
    /// The contract named.
    pub contract: Option<Contract>,
    /// Trumps.
    pub trump: Option<Suit>,
    /// All passed and this declarer must play: espada forzada (`tresillo`), or the
    /// forced entrada of `tresillo-house` (which exchanges before naming trumps).
    pub forced: bool,
    /// The card turned up in vuelta.
    pub turned: Option<Card>,
    /// Cards exchanged per seat (`None`: not yet, or not allowed).
    pub exchanged: BySeat<Option<u8>>,
    /// Cards left in the heap.
    pub heap_left: u8,
    pub(crate) words: [WordEntry; MAX_WORDS],
    pub(crate) num_words: u8,
    /// The first opponent, once agreed.
    pub first_opponent: Option<Seat>,
    pub(crate) plays: [Card; MAX_PLAYS],
    pub(crate) num_plays: u8,
    pub(crate) leaders: [Seat; MAX_TRICKS as usize],
    pub(crate) winners: [Seat; MAX_TRICKS as usize],
    /// Tricks won per seat.
    pub tricks: BySeat<u8>,
    /// Completed tricks.
    pub tricks_done: u8,
    /// The surrender decision, once asked.
    pub surrendered: Option<bool>,
    /// Who took over, if anyone did.
    pub took_over: Option<Seat>,
    /// Opponents who declined to take over, as a bit mask.
    pub declined: u8,
    /// Nolo ouvert (`lhombre`): the declarer's hand as laid face up just before
    /// their first card (cards played since are in [`PublicState::plays`]).
    pub exposed: Option<CardSet>,
    /// The bola decision: `Some(true)` played on, `Some(false)` stopped (primeras).
    pub bola: Option<bool>,
    /// `hombre` option `gascarille`: the holder of the espada was made to play a
    /// gascarille.
    pub gascarille: bool,
    /// Seats that declined to demand the gascarille, as a bit mask.
    pub gascarille_declined: u8,
    /// `hombre`: the declarer's next opponent exchanged first (`Some(true)`) or
    /// passed the right (`Some(false)`).
    pub exchange_first: Option<bool>,
    /// `hombre` option `show_heap`: the cards left in the heap, turned face up
    /// after the exchange (empty otherwise).
    pub shown_heap: CardSet,
    /// Opponents who accepted a surrendered vuelta, as a bit mask.
    pub accepted: u8,
    /// The opponent who refused a surrendered vuelta (the declarer played on).
    pub refused: Option<Seat>,
    /// `hombre`: the vole decision before the first trick.
    pub vole_declared: Option<bool>,
    /// The latest answer to each yes/no question asked in this hand.
    pub answers: Answers,
    /// Four players: the penetro, its heap end and drop-out conversation (section 12.2).
    pub penetro: PenetroState,
}

impl PublicState {
    /// The rule set with its options.
    #[must_use]
    pub fn game_rules(&self) -> Rules {
        Rules { set: self.rules, options: self.options }
    }

    /// The calls of the auction, in order.
    #[must_use]
    pub fn bids(&self) -> &[BidEntry] {
        &self.bids[..self.num_bids as usize]
    }

    /// The conversation, in order.
    #[must_use]
    pub fn words(&self) -> &[WordEntry] {
        &self.words[..self.num_words as usize]
    }

    /// Every card played, in order.
    #[must_use]
    pub fn plays(&self) -> &[Card] {
        &self.plays[..self.num_plays as usize]
    }

    /// The set of cards played so far.
    #[must_use]
    pub fn played(&self) -> CardSet {
        self.plays().iter().copied().collect()
    }

    /// The seats that led each completed trick, then the seat that leads (or led)
    /// the trick in progress.
    #[must_use]
    pub fn trick_leaders(&self) -> &[Seat] {
        &self.leaders[..(self.tricks_done as usize + 1).min(usize::from(MAX_TRICKS))]
    }

    /// The winners of the completed tricks.
    #[must_use]
    pub fn trick_winners(&self) -> &[Seat] {
        &self.winners[..self.tricks_done as usize]
    }

    /// The cards of completed trick `i`, in play order, with their seats (three, or
    /// four under `penetro_all_play`).
    #[must_use]
    pub fn trick(&self, i: usize) -> Vec<(Seat, Card)> {
        let k = self.trick_size() as usize;
        let mut s = self.leaders[i];
        let mut out = Vec::with_capacity(k);
        for j in 0..k {
            out.push((s, self.plays[i * k + j]));
            s = self.next_playing(s);
        }
        out
    }

    /// The seats that play cards, as a bit mask (section 12.2: at four players the
    /// dealer sits out unless penetrating, and one player drops out of a penetro
    /// unless `penetro_all_play`).
    #[must_use]
    #[inline]
    pub fn playing(&self) -> u8 {
        playing_seats(self.table, self.dealer, &self.penetro)
    }

    /// Cards per trick: the number of seats that play.
    #[must_use]
    #[inline]
    pub fn trick_size(&self) -> u8 {
        if self.table == Table::THREE {
            return 3;
        }
        self.playing().count_ones() as u8
    }

    /// The next seat after `s` in turn order that plays cards.
    #[must_use]
    #[inline]
    pub fn next_playing(&self, s: Seat) -> Seat {
        if self.table == Table::THREE {
            return s.next(3);
        }
        let m = self.playing();
        let mut n = s.next(self.players);
        while m & (1 << n.0) == 0 {
            n = n.next(self.players);
        }
        n
    }

    /// The seat `k` places after `s` among the seats that play.
    #[inline]
    pub(crate) fn playing_plus(&self, mut s: Seat, k: u8) -> Seat {
        if self.table == Table::THREE {
            return s.plus(k, 3);
        }
        for _ in 0..k {
            s = self.next_playing(s);
        }
        s
    }

    /// The seat that played card `i` of [`PublicState::plays`].
    #[must_use]
    pub fn play_seat(&self, i: usize) -> Seat {
        let k = self.trick_size() as usize;
        self.playing_plus(self.leaders[i / k], (i % k) as u8)
    }

    /// The cards of the trick in progress, in play order.
    #[must_use]
    pub fn current_trick(&self) -> &[Card] {
        let start = (self.tricks_done as usize * self.trick_size() as usize).min(self.num_plays as usize);
        &self.plays[start..self.num_plays as usize]
    }

    /// The seat that leads (or led) the trick in progress.
    #[must_use]
    pub fn current_leader(&self) -> Seat {
        self.leaders[(self.tricks_done as usize).min(8)]
    }

    /// The card led to the trick in progress.
    #[must_use]
    pub fn led(&self) -> Option<Card> {
        self.current_trick().first().copied()
    }

    /// Mano: the player after the dealer.
    #[must_use]
    pub fn mano(&self) -> Seat {
        self.dealer.next(self.players)
    }

    /// Position in priority order (mano 0, medio 1, postre 2).
    #[must_use]
    pub fn priority(&self, s: Seat) -> u8 {
        (s.0 + self.players - self.mano().0) % self.players
    }

    /// The two opponents of the current declarer, in turn order from the declarer
    /// (`None` without a declarer, and in a penetro until one player drops out or
    /// when all three play: see [`PublicState::all_opponents`]).
    #[must_use]
    #[inline]
    pub fn opponents(&self) -> Option<[Seat; 2]> {
        match self.all_opponents()? {
            (o, 2) => Some([o[0], o[1]]),
            _ => None,
        }
    }

    /// Every opponent of the current declarer in turn order from the declarer, and
    /// how many there are (two, or three in a penetro under `penetro_all_play`).
    #[must_use]
    #[inline]
    pub fn all_opponents(&self) -> Option<([Seat; 3], usize)> {
        let d = self.declarer?;
        if self.table == Table::THREE {
            return Some(([d.next(3), d.plus(2, 3), d], 2));
        }
        let mut out = [d; 3];
        let mut k = 0;
        let mut s = self.next_playing(d);
        while s != d && k < 3 {
            out[k] = s;
            k += 1;
            s = self.next_playing(s);
        }
        Some((out, k))
    }

    /// The position of the play phase with these `hands` (the true ones, or a
    /// sampled world's): the trick in progress, trick counts and turn from this
    /// public state. `None` before play begins.
    #[must_use]
    pub fn play_state(&self, hands: BySeat<CardSet>) -> Option<PlayState> {
        let asked_in_play = matches!(self.phase, Phase::Ask(q) if q.def().in_play);
        if !(self.phase == Phase::Play || asked_in_play) {
            return None;
        }
        let leader = self.current_leader();
        let mut ps = if self.table == Table::THREE {
            PlayState::new([hands.0[0], hands.0[1], hands.0[2]], self.trump, leader)
        } else {
            PlayState::with_seats(hands.0, self.trump, leader, self.playing())
        };
        let cur = self.current_trick();
        for (i, c) in cur.iter().enumerate() {
            ps.trick[i] = *c;
            ps.trick_seats[i] = self.playing_plus(leader, i as u8);
        }
        ps.trick_len = cur.len() as u8;
        ps.to_move = self.playing_plus(leader, cur.len() as u8);
        ps.tricks = self.tricks.0;
        ps.tricks_done = self.tricks_done;
        Some(ps)
    }

    /// Whether `s` is an opponent of the current declarer.
    #[must_use]
    pub fn is_opponent(&self, s: Seat) -> bool {
        self.declarer.is_some_and(|d| d != s)
    }
}
