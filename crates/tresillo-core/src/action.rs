//! A fixed action space of small integers, one for every decision of every rule
//! set at three and four players, in the manner of OpenSpiel: a learning agent
//! sees the same numbering whatever the rule set, and a mask of the legal ones.
//!
//! A discard is a set of cards, which would need one action per subset (up to
//! 512); here it is taken one card at a time ([`Action::DiscardCard`], cards in
//! increasing [`Card::index`] order) and closed by [`Action::DiscardDone`], so the
//! space stays at [`NUM_ACTIONS`]. [`DiscardBuilder`] keeps the cards chosen so
//! far and says which actions are legal. docs/PYTHON.md tables the numbering.
//!
//! | ids        | action                                                   |
//! |------------|----------------------------------------------------------|
//! | 0..40      | play card `i` ([`Card::index`])                          |
//! | 40..80     | put card `i - 40` into the discard                       |
//! | 80         | discard done                                             |
//! | 81         | pass (*paso*)                                            |
//! | 82..90     | bid level `i - 81` (1 to 8)                              |
//! | 90..130    | declare contract `(i - 90) / 5` of [`CONTRACTS`], trumps `(i - 90) % 5` (0 none, then [`Suit::ALL`]) |
//! | 130..133   | conversation word ([`Word::ALL`])                        |
//! | 133..147   | yes/no question `(i - 133) / 2` of [`QUESTIONS`], answer `(i - 133) % 2` (0 no, 1 yes) |
//! | 147..149   | penetro: which end of the heap ([`HeapEnd::ALL`])        |
//! | 149..153   | penetro: drop-out word ([`DropWord::ALL`])               |
//! | 153..      | yes/no question `7 + (i - 153) / 2` (questions added later), answer as above |

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::game::{Bid, Contract, Word};
pub use crate::hand::QUESTIONS;
use crate::penetro::{DropWord, HeapEnd};
use crate::question::Question;
use crate::spec::Names;
use crate::state::{Decision, Request};
use crate::view::PlayerView;

/// The number of actions: every id is below it.
pub const NUM_ACTIONS: usize = FIRST_LATER_QUESTION + 2 * (QUESTIONS.len() - EARLY_QUESTIONS);

/// Every contract of every rule set, in the order of the declare ids.
pub const CONTRACTS: [Contract; 8] = [
    Contract::Entrada,
    Contract::Vuelta,
    Contract::Solo,
    Contract::Contrabola,
    Contract::GrandTourne,
    Contract::Nolo,
    Contract::PureNolo,
    Contract::NoloOuvert,
];

const DISCARD: usize = 40;
const DONE: usize = 80;
const PASS: usize = 81;
const BID: usize = 82;
/// The highest bid level the space holds.
pub const MAX_BID_LEVEL: u8 = 8;
const DECLARE: usize = 90;
const WORD: usize = 130;
const QUESTION: usize = 133;
const PENETRO: usize = 147;
const DROP: usize = 149;
/// The questions whose ids sit in the block `QUESTION..PENETRO`.
const EARLY_QUESTIONS: usize = (PENETRO - QUESTION) / 2;
/// Where the ids of questions added after the first seven begin.
const FIRST_LATER_QUESTION: usize = 153;

/// The id of answer `yes` to question `q`.
fn answer_id(q: Question, yes: bool) -> usize {
    let q = usize::from(q.id());
    let base =
        if q < EARLY_QUESTIONS { QUESTION + 2 * q } else { FIRST_LATER_QUESTION + 2 * (q - EARLY_QUESTIONS) };
    base + usize::from(yes)
}

/// One action: a decision of the engine, or one step of a discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Any decision but a discard.
    Decision(Decision),
    /// A card put into the discard being built.
    DiscardCard(Card),
    /// The discard is complete.
    DiscardDone,
}

fn contract_index(c: Contract) -> usize {
    match c {
        Contract::Entrada => 0,
        Contract::Vuelta => 1,
        Contract::Solo => 2,
        Contract::Contrabola => 3,
        Contract::GrandTourne => 4,
        Contract::Nolo => 5,
        Contract::PureNolo => 6,
        Contract::NoloOuvert => 7,
    }
}

impl Action {
    /// The id of this action; `None` for a [`Decision::Discard`] (a set: use
    /// [`Action::DiscardCard`] steps) and for a bid above [`MAX_BID_LEVEL`].
    #[must_use]
    pub fn id(self) -> Option<usize> {
        match self {
            Action::DiscardCard(c) => Some(DISCARD + c.index()),
            Action::DiscardDone => Some(DONE),
            Action::Decision(d) => match d {
                Decision::Play(c) => Some(c.index()),
                Decision::Bid(Bid::Paso) => Some(PASS),
                Decision::Bid(Bid::Level(l)) => {
                    (1..=MAX_BID_LEVEL).contains(&l).then(|| BID + usize::from(l) - 1)
                }
                Decision::Declare(c, t) => {
                    Some(DECLARE + 5 * contract_index(c) + t.map_or(0, |s| 1 + s.index()))
                }
                Decision::Word(w) => Some(WORD + Word::ALL.iter().position(|x| *x == w)?),
                Decision::Answer(q, b) => Some(answer_id(q, b)),
                Decision::Penetro(e) => Some(PENETRO + HeapEnd::ALL.iter().position(|x| *x == e)?),
                Decision::DropOut(w) => Some(DROP + DropWord::ALL.iter().position(|x| *x == w)?),
                Decision::Discard(_) => None,
            },
        }
    }

    /// The action with id `id`; `None` at or above [`NUM_ACTIONS`].
    #[must_use]
    pub fn from_id(id: usize) -> Option<Action> {
        let d = match id {
            0..DISCARD => Decision::Play(Card::try_index(id)?),
            DISCARD..DONE => return Some(Action::DiscardCard(Card::try_index(id - DISCARD)?)),
            DONE => return Some(Action::DiscardDone),
            PASS => Decision::Bid(Bid::Paso),
            BID..DECLARE => Decision::Bid(Bid::Level((id - BID + 1) as u8)),
            DECLARE..WORD => {
                let (c, t) = ((id - DECLARE) / 5, (id - DECLARE) % 5);
                Decision::Declare(CONTRACTS[c], t.checked_sub(1).map(|s| Suit::ALL[s]))
            }
            WORD..QUESTION => Decision::Word(Word::ALL[id - WORD]),
            QUESTION..PENETRO => {
                let (q, b) = ((id - QUESTION) / 2, (id - QUESTION) % 2 == 1);
                Decision::Answer(QUESTIONS[q].question, b)
            }
            PENETRO..DROP => Decision::Penetro(HeapEnd::ALL[id - PENETRO]),
            DROP..FIRST_LATER_QUESTION => Decision::DropOut(DropWord::ALL[id - DROP]),
            _ if (FIRST_LATER_QUESTION..NUM_ACTIONS).contains(&id) => {
                let (q, b) = ((id - FIRST_LATER_QUESTION) / 2, (id - FIRST_LATER_QUESTION) % 2 == 1);
                Decision::Answer(QUESTIONS[EARLY_QUESTIONS + q].question, b)
            }
            _ => return None,
        };
        Some(Action::Decision(d))
    }
}

/// A discard being built one card at a time: the cards chosen so far, for the
/// request `Discard { min, max }` of a seat holding `hand`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DiscardBuilder {
    /// The cards chosen so far.
    pub chosen: CardSet,
}

impl DiscardBuilder {
    /// The legal actions: each card of `hand` after the last chosen (in
    /// [`Card::index`] order) that still leaves room under `max`, and
    /// [`Action::DiscardDone`] once at least `min` are chosen. Cards that would
    /// leave too few later cards to reach `min` are left out, so every sequence
    /// of legal actions ends in a legal discard.
    pub fn legal(&self, hand: CardSet, min: u8, max: u8, mut f: impl FnMut(Action)) {
        let n = self.chosen.len() as u8;
        let last = self.chosen.iter().map(Card::index).max();
        if n < max {
            let mut later: Vec<Card> = hand.iter().filter(|c| last.is_none_or(|l| c.index() > l)).collect();
            later.sort_by_key(|c| c.index());
            let left = later.len() as u8;
            for (k, c) in later.into_iter().enumerate() {
                // After taking c, the cards after it must still reach `min`.
                if n + 1 + (left - 1 - k as u8) >= min {
                    f(Action::DiscardCard(c));
                }
            }
        }
        if n >= min {
            f(Action::DiscardDone);
        }
    }
}

/// Every legal action id of `view`'s seat, in increasing order; a discard
/// request takes `discard`, the cards chosen so far (empty when it is not the
/// seat's turn).
#[must_use]
pub fn legal_ids(view: &PlayerView, discard: DiscardBuilder) -> Vec<usize> {
    let mut v = Vec::with_capacity(12);
    match view.request() {
        Request::Discard { min, max, .. } => discard.legal(view.hand(), min, max, |a| v.extend(a.id())),
        Request::Play { legal, .. } => v.extend(legal.iter().map(Card::index)),
        Request::Done => {}
        _ => v.extend(view.legal_decisions().into_iter().filter_map(|d| Action::Decision(d).id())),
    }
    v.sort_unstable();
    v
}

/// The words of action `a` of a seat (`play 1E`, `bid juego`, `declare solo (spades)`),
/// in `names`: distinct for the legal actions of any request.
#[must_use]
pub fn words(names: Names, a: usize) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    match Action::from_id(a) {
        None => format!("action {a}"),
        Some(Action::DiscardCard(c)) => format!("discard {}", names.card(c)),
        Some(Action::DiscardDone) => "discard done".into(),
        Some(Action::Decision(d)) => match d {
            Decision::Play(c) => format!("play {}", names.card(c)),
            Decision::Bid(b @ Bid::Paso) => names.bid(b, false),
            Decision::Bid(b) => format!("bid {}", names.bid(b, false)),
            Decision::Declare(c, t) => names.declaration(c, t),
            Decision::Word(w) => w.name().into(),
            Decision::Answer(q, b) => format!("{}: {}", q.def().topic, yes(b)),
            Decision::Penetro(e) => format!("penetro: the {e:?} of the heap").to_lowercase(),
            Decision::DropOut(w) => format!("{w:?}").to_lowercase(),
            Decision::Discard(s) => format!("discard {}", names.cards(s)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_cover_the_space() {
        for id in 0..NUM_ACTIONS {
            let a = Action::from_id(id).unwrap_or_else(|| panic!("id {id}"));
            assert_eq!(a.id(), Some(id), "{a:?}");
        }
        assert_eq!(Action::from_id(NUM_ACTIONS), None);
    }

    #[test]
    fn every_decision_of_a_hand_has_an_id() {
        use crate::{Hand, RuleSet, Seat};
        for set in RuleSet::BUILT_IN {
            let deal = crate::Deal::parse(
                "1E 2E 3E 4E 5E 6E 7E 10E 11E / 12E 1B 2B 3B 4B 5B 6B 7B 10B / 11B 12B 1C 2C 3C 4C 5C 6C 7C / \
                 10C 11C 12C 1O 2O 3O 4O 5O 6O 7O 10O 11O 12O",
            )
            .unwrap();
            let h = Hand::new(set, 3, deal, Seat(0)).unwrap();
            for d in h.view(h.request().seat().unwrap()).legal_decisions() {
                assert!(Action::Decision(d).id().is_some(), "{set:?} {d:?}");
            }
        }
    }

    #[test]
    fn a_discard_is_built_in_order_within_its_bounds() {
        let hand = crate::parse_hand("1E 2E 3E 4E").unwrap();
        let mut b = DiscardBuilder::default();
        let mut legal = Vec::new();
        b.legal(hand, 2, 3, |a| legal.push(a));
        // Two cards at least: the last card cannot come first (nothing after it).
        assert_eq!(legal.len(), 3);
        assert!(!legal.contains(&Action::DiscardDone));
        b.chosen.insert(crate::parse_card("2E").unwrap());
        legal.clear();
        b.legal(hand, 2, 3, |a| legal.push(a));
        assert_eq!(legal.len(), 2);
        b.chosen.insert(crate::parse_card("4E").unwrap());
        legal.clear();
        b.legal(hand, 2, 3, |a| legal.push(a));
        assert_eq!(legal, vec![Action::DiscardDone]);
    }
}
