//! Yes/no questions: every step of a rule set that asks one seat *yes* or *no*
//! (give up? take over? play on for bola? ...) is one [`Question`], a value the
//! rule set's own module declares with its words, who is asked and what each
//! answer does. The engine's shared types know only [`Decision::Answer`],
//! [`Request::Ask`] and [`Phase::Ask`]: adding a mechanic of this kind is its
//! module (a `const` [`Question`]) plus its line in [`QUESTIONS`].
//!
//! A question is asked either where its module moves the hand to
//! [`Phase::Ask`], or, when it gives [`QuestionDef::before_play`], just before
//! the first card whenever that test holds and it has not been answered yet.
//!
//! [`Decision::Answer`]: crate::Decision::Answer
//! [`Request::Ask`]: crate::Request::Ask
//! [`Phase::Ask`]: crate::Phase::Ask

use crate::card::Seat;
use crate::hand::Hand;
use crate::spec::Words;
use std::fmt;

/// What a yes/no question is: its words and its effect on the hand.
pub struct QuestionDef {
    /// The question; its number is its place in [`QUESTIONS`] and fixes its
    /// action ids for good.
    pub question: Question,
    /// Its name in records, the bot protocol and the play page (`surrender`).
    pub name: &'static str,
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

/// A yes/no question of a rule set (see the [module](self)): its number in
/// [`QUESTIONS`]. Its module declares it as a `const`, which patterns can match.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Question(u8);

impl Question {
    /// The question numbered `id` (its module's declaration).
    #[must_use]
    pub const fn new(id: u8) -> Question {
        Question(id)
    }

    /// Its definition.
    #[must_use]
    pub const fn def(self) -> &'static QuestionDef {
        QUESTIONS[self.0 as usize]
    }

    /// Its number, its place in [`QUESTIONS`].
    #[must_use]
    pub const fn id(self) -> u8 {
        self.0
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

    /// The question numbered `id`.
    #[must_use]
    pub fn from_id(id: usize) -> Option<Question> {
        QUESTIONS.get(id).map(|q| q.question)
    }

    /// Every question, in the order of their ids.
    pub fn all() -> impl Iterator<Item = Question> {
        QUESTIONS.iter().map(|q| q.question)
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

/// The questions of `hombre` (RULES.md section 12.3).
pub use crate::hand::hombre::{ACCEPT_SURRENDER, DECLARE_VOLE, EXCHANGE_FIRST, GASCARILLE};
/// The questions of the Spanish game, which every built-in rule set asks.
pub use crate::hand::tresillo::{BOLA, SURRENDER, TAKE_OVER};

/// Every yes/no question, in the order of their ids: a new one is declared in
/// its module and registered here, at the end.
pub const QUESTIONS: &[&QuestionDef] = &[
    &crate::hand::tresillo::SURRENDER_DEF,
    &crate::hand::tresillo::TAKE_OVER_DEF,
    &crate::hand::tresillo::BOLA_DEF,
    &crate::hand::hombre::GASCARILLE_DEF,
    &crate::hand::hombre::EXCHANGE_FIRST_DEF,
    &crate::hand::hombre::ACCEPT_SURRENDER_DEF,
    &crate::hand::hombre::DECLARE_VOLE_DEF,
];

/// The most questions an answer store ([`crate::PublicState::answers`]) holds.
pub const MAX_QUESTIONS: usize = 16;

const _: () = {
    assert!(QUESTIONS.len() <= MAX_QUESTIONS);
    let mut i = 0;
    while i < QUESTIONS.len() {
        assert!(QUESTIONS[i].question.0 as usize == i, "a question's number is its place in QUESTIONS");
        i += 1;
    }
};

/// The latest answer to each question in a hand: two bits a question, asked and
/// yes. Any question's module reads its own with [`Answers::get`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Answers(u32);

impl Answers {
    /// The latest answer to `q`, if it was asked.
    #[must_use]
    pub const fn get(self, q: Question) -> Option<bool> {
        let i = 2 * q.id() as u32;
        if self.0 & (1 << i) == 0 { None } else { Some(self.0 & (2 << i) != 0) }
    }

    /// Records `yes` as the latest answer to `q`.
    pub fn set(&mut self, q: Question, yes: bool) {
        let i = 2 * q.id() as u32;
        self.0 = (self.0 & !(3 << i)) | (1 << i) | (u32::from(yes) << (i + 1));
    }
}
