//! Yes/no questions: every step of a rule set that asks one seat *yes* or *no*
//! (give up? take over? play on for bola? ...) is one [`Question`], declared by
//! the rule set's own module (`hand/tresillo.rs`, `hand/hombre.rs`) as an
//! associated constant (`Question::SURRENDER`) with its [`QuestionDef`]: its
//! words, who is asked, what each answer does. The engine's shared types know
//! only [`Decision::Answer`], [`Request::Ask`] and [`Phase::Ask`]: adding a
//! mechanic of this kind is its module plus its line in the `questions!` list
//! of `hand.rs`, which appends it to [`QUESTIONS`].
//!
//! A question is asked either where its module moves the hand to [`Phase::Ask`],
//! or, when it gives [`QuestionDef::before_play`], just before the first card
//! whenever that test holds and it has not been answered yet.
//!
//! This module holds the number and the answers' store only; the definitions and
//! their registry live with the hand ([`QuestionDef`], [`QUESTIONS`]), whose
//! state they read and change.
//!
//! [`Decision::Answer`]: crate::Decision::Answer
//! [`Request::Ask`]: crate::Request::Ask
//! [`Phase::Ask`]: crate::Phase::Ask
//! [`QuestionDef`]: crate::QuestionDef
//! [`QuestionDef::before_play`]: crate::QuestionDef
//! [`QUESTIONS`]: crate::QUESTIONS

/// A yes/no question of a rule set (see the [module](self)): its number in
/// [`QUESTIONS`](crate::QUESTIONS), which fixes its action ids for good.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Question(u8);

impl Question {
    /// The question numbered `id` (its module's declaration).
    #[must_use]
    pub const fn new(id: u8) -> Question {
        Question(id)
    }

    /// Its number, its place in [`QUESTIONS`](crate::QUESTIONS).
    #[must_use]
    pub const fn id(self) -> u8 {
        self.0
    }
}

/// The most questions an answer store ([`Answers`]) holds.
pub const MAX_QUESTIONS: usize = 16;

/// The latest answer to each question in a hand: two bits a question, asked and
/// yes. Any question's module reads its own with [`Answers::get`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
