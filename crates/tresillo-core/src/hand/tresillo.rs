//! The yes/no questions of the Spanish game (RULES.md sections 6 and 7), which
//! every built-in rule set asks: the declarer's surrender after the third trick
//! (and a penetrating dealer's at once, section 12.2), an opponent's takeover
//! (*yo sigo*) and the declarer's bola after five straight tricks. The hand asks
//! them after a trick ([`Hand::do_play`](super::Hand)); this module says who is
//! asked and what an answer does.

use super::QuestionDef;
use super::{Hand, Phase};
use crate::card::Seat;
use crate::question::Question;

impl Question {
    /// Give up (*yes*) or play on: the declarer after the third trick, or a
    /// penetrating dealer at once.
    pub const SURRENDER: Question = Question::new(0);
}

impl Hand {
    /// [`Question::SURRENDER`]'s definition.
    pub(crate) const SURRENDER_DEF: QuestionDef = QuestionDef {
        question: Question::SURRENDER,
        name: "surrender",
        kind: "surrender",
        topic: "give up",
        text: |w| w.questions.surrender,
        answers: |w| w.labels.surrender,
        narration: |_| ["plays on", "gives up"],
        gloss: ["", "the hand ends as a puesta unless an opponent takes over"],
        help: "Surrender (section 6): after the third trick the declarer of entrada or \
               vuelta may give up. Each opponent may then say yo sigo and take over; if nobody does, the hand \
               is your puesta.",
        in_play: true,
        asked: |h| h.public.declarer,
        answer: surrender,
        before_play: None,
    };
}

impl Question {
    /// Take over as declarer (*yo sigo*, *yes*) or not: the opponents in turn.
    pub const TAKE_OVER: Question = Question::new(1);
}

impl Hand {
    /// [`Question::TAKE_OVER`]'s definition.
    pub(crate) const TAKE_OVER_DEF: QuestionDef = QuestionDef {
        question: Question::TAKE_OVER,
        name: "take_over",
        kind: "takeover",
        topic: "take over",
        text: |w| w.questions.take_over,
        answers: |w| w.labels.take_over,
        narration: |_| ["does not take over", "says yo sigo and takes over"],
        gloss: ["", "I play on as declarer"],
        help: "Take over (section 6): the declarer gave up. Say yo sigo to become the \
               declarer with the same trumps (tricks taken stay where they are); otherwise the hand ends as the \
               declarer's puesta unless the other opponent takes over.",
        in_play: true,
        asked: Hand::next_takeover,
        answer: take_over,
        before_play: None,
    };
}

impl Question {
    /// Play on for bola (*yes*) or stop with primeras: the declarer after five
    /// straight tricks.
    pub const BOLA: Question = Question::new(2);
}

impl Hand {
    /// [`Question::BOLA`]'s definition.
    pub(crate) const BOLA_DEF: QuestionDef = QuestionDef {
        question: Question::BOLA,
        name: "bola",
        kind: "bola",
        topic: "bola",
        text: |w| w.bola_question,
        answers: |w| w.bola_choices,
        narration: |w| w.bola_narration,
        gloss: ["the hand ends, won", "all nine tricks or a failed bola"],
        help: "Primeras or bola (section 6): you won the first five tricks. Stop now and the \
               hand is won with primeras, or play on for bola: all nine tricks, paid 8 by each other player; \
               losing a later trick is a failed bola (you pay 8 to each) though the contract is still won.",
        in_play: true,
        asked: |h| h.public.declarer,
        answer: |h, _, on| {
            h.public.bola = Some(on);
            h.public.phase = if on { Phase::Play } else { Phase::Done };
        },
        before_play: None,
    };
}

impl Hand {
    /// The next opponent asked to take over: those who have not declined.
    pub(super) fn next_takeover(&self) -> Option<Seat> {
        let opp = self.public.opponents()?;
        opp.into_iter().find(|o| self.public.declined & (1 << o.0) == 0)
    }
}

fn surrender(h: &mut Hand, _: Seat, give_up: bool) {
    let p = &mut h.public;
    if p.phase == Phase::PenetroGiveUp {
        // Given up at once: a puesta plus the penetro condición, no tricks.
        if give_up {
            p.surrendered = Some(true);
            p.phase = Phase::Done;
        } else {
            p.phase = Phase::Declare;
        }
        return;
    }
    p.surrendered = Some(give_up);
    let takeover = p.contract.is_some_and(|c| p.game_rules().takeover_allowed(c));
    let accept = p.contract.is_some_and(|c| p.game_rules().spec().accept_in.contains(&c));
    p.phase = match (give_up, takeover, accept) {
        (false, _, _) => Phase::Play,
        (true, true, _) => Phase::Ask(Question::TAKE_OVER),
        (true, false, true) => Phase::Ask(Question::ACCEPT_SURRENDER),
        (true, false, false) => Phase::Done,
    };
}

fn take_over(h: &mut Hand, seat: Seat, yes: bool) {
    if yes {
        h.public.took_over = Some(seat);
        h.public.declarer = Some(seat);
        h.public.phase = Phase::Play;
    } else {
        h.public.declined |= 1 << seat.0;
        if h.next_takeover().is_none() {
            h.public.phase = Phase::Done;
        }
    }
}
