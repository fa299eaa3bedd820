//! The steps of the `hombre` rule set (RULES.md section 12.3) that the other rule
//! sets do not have: the gascarille demand, the obligation's exchange, the
//! exchange right of the declarer's next opponent, the accepted surrender of a
//! vuelta, the declared vole and the outcome of a contrabola. The hand calls
//! these where its own table ([`RuleSpec`](crate::RuleSpec)) says so.
//!
//! Engine choices where RULES.md is silent:
//! - **Gascarille** (option): after all pass with the espada dealt, each other
//!   player in turn order from its holder is asked whether to make the holder play
//!   a gascarille; the first *yes* does. Otherwise (and when mano must play because
//!   the espada is in the heap) it is an obligation. Both exchange as the
//!   obligation does: discard all but one, draw eight, then name trumps.
//! - **Obligation and gascarille** are simple games (entradas) for the takeover.
//! - **Declared vole**: asked of the declarer once every exchange is over, before
//!   the first card (never in contrabola). A declared vole cannot be surrendered.
//! - **Contrabola**: all nine tricks are played; the declarer succeeds with none.
//!   No surrender, no primeras or vole.
//! - **Accepted surrender** (vuelta): the opponents are asked in turn order from the
//!   declarer; the first refusal sends the declarer back to play.

use super::QuestionDef;
use super::{Hand, Phase};
use crate::card::{Card, Seat};
use crate::game::Contract;
use crate::question::Question;

impl Question {
    /// Option `gascarille`: make the holder of the espada play a gascarille (*yes*)
    /// or not; the others in turn order from the holder.
    pub const GASCARILLE: Question = Question::new(3);
}

impl Hand {
    /// [`Question::GASCARILLE`]'s definition.
    pub(crate) const GASCARILLE_DEF: QuestionDef = QuestionDef {
        question: Question::GASCARILLE,
        name: "gascarille",
        kind: "gascarille",
        topic: "gascarille",
        text: |w| w.questions.gascarille,
        answers: |w| w.labels.gascarille,
        narration: |_| ["does not demand the gascarille", "demands the gascarille"],
        gloss: ["", "the espada's holder must play, worth 3"],
        help: "Gascarille (RULES.md section 12.3, option gascarille): everybody passed. \
               In turn order from the holder of the espada, the others may make that player play a gascarille: \
               discard and draw eight, then name trumps; it is worth 3. If nobody does, the obligation follows.",
        in_play: false,
        asked: Hand::next_gascarille,
        answer: Hand::do_gascarille,
        before_play: None,
    };
}

impl Question {
    /// Exchange first (*yes*) or pass that right to the other opponent: the
    /// declarer's next opponent.
    pub const EXCHANGE_FIRST: Question = Question::new(4);
}

impl Hand {
    /// [`Question::EXCHANGE_FIRST`]'s definition.
    pub(crate) const EXCHANGE_FIRST_DEF: QuestionDef = QuestionDef {
        question: Question::EXCHANGE_FIRST,
        name: "exchange_first",
        kind: "exchangeright",
        topic: "exchange first",
        text: |w| w.questions.exchange_right,
        answers: |w| w.labels.exchange_first,
        narration: |_| ["passes the right to exchange first", "exchanges first"],
        gloss: ["the other opponent exchanges first", ""],
        help: "Exchange (RULES.md section 12.3): after the declarer, the declarer's \
               next opponent exchanges first (up to 8 cards, and no more than the heap holds) or passes that right \
               to the other opponent, who then exchanges first.",
        in_play: false,
        asked: |h| h.public.opponents().map(|o| o[0]),
        answer: Hand::do_exchange_right,
        before_play: None,
    };
}

impl Question {
    /// Accept the declarer's surrender of a vuelta (*yes*) or refuse it (the declarer
    /// plays on): the opponents in turn.
    pub const ACCEPT_SURRENDER: Question = Question::new(5);
}

impl Hand {
    /// [`Question::ACCEPT_SURRENDER`]'s definition.
    pub(crate) const ACCEPT_SURRENDER_DEF: QuestionDef = QuestionDef {
        question: Question::ACCEPT_SURRENDER,
        name: "accept_surrender",
        kind: "acceptsurrender",
        topic: "accept the surrender",
        text: |w| w.questions.accept_surrender,
        answers: |w| w.labels.accept_surrender,
        narration: |_| ["refuses the surrender", "accepts the surrender"],
        gloss: ["the declarer plays on", "the hand ends as the declarer's puesta"],
        help: "Surrender (RULES.md section 12.3): the declarer gives up a vuelta. \
               It ends as the declarer's puesta only if both opponents accept; if either refuses, the declarer \
               plays on.",
        in_play: false,
        asked: Hand::next_acceptor,
        answer: Hand::do_accept,
        before_play: None,
    };
}

impl Question {
    /// Declare the vole (all nine tricks) before the first card (*yes*) or not: the
    /// declarer, when the rule set declares voles, in any contract but contrabola.
    pub const DECLARE_VOLE: Question = Question::new(6);
}

impl Hand {
    /// [`Question::DECLARE_VOLE`]'s definition.
    pub(crate) const DECLARE_VOLE_DEF: QuestionDef = QuestionDef {
        question: Question::DECLARE_VOLE,
        name: "declare_vole",
        kind: "declarevole",
        topic: "declare the vole",
        text: |w| w.questions.declare_vole,
        answers: |w| w.labels.declare_vole,
        narration: |_| ["does not declare the vole", "declares the vole"],
        gloss: ["", "all nine tricks: x8 if made, x8 lost if not"],
        help: "Declared vole (RULES.md section 12.3): before the first trick you may \
               declare that you will win all nine tricks. Made, the game scores x8; failed, you lose the base \
               value x8. A declared vole cannot be given up.",
        in_play: false,
        asked: |h| h.public.declarer,
        answer: |h, _, yes| h.do_declare_vole(yes),
        before_play: Some(|h| {
            let p = &h.public;
            p.game_rules().spec().declared_vole && p.contract != Some(Contract::Contrabola)
        }),
    };
}

impl Hand {
    /// The phase after all pass when the forced declarer `holder` exchanges
    /// before naming trumps (`RuleSpec::forced_exchange_first`): the gascarille
    /// demand when the option is on (only `hombre` has it) and `holder` was dealt
    /// the espada, else the forced exchange (the obligation's, the house's forced
    /// entrada's).
    pub(super) fn forced_exchange_phase(&self, holder: Seat) -> Phase {
        if self.public.game_rules().gascarille() && self.hidden.hands[holder].contains(Card::ESPADA) {
            Phase::Ask(Question::GASCARILLE)
        } else {
            Phase::DeclarerExchange
        }
    }

    /// The next player asked to demand the gascarille: the others in turn order
    /// from the holder of the espada, who have not declined.
    pub(super) fn next_gascarille(&self) -> Option<Seat> {
        let p = &self.public;
        let d = p.declarer?;
        [d.next(p.players), d.plus(2, p.players)]
            .into_iter()
            .find(|s| p.gascarille_declined & (1 << s.0) == 0)
    }

    pub(super) fn do_gascarille(&mut self, seat: Seat, yes: bool) {
        if yes {
            self.public.gascarille = true;
            self.public.phase = Phase::DeclarerExchange;
            return;
        }
        self.public.gascarille_declined |= 1 << seat.0;
        if self.next_gascarille().is_none() {
            self.public.phase = Phase::DeclarerExchange;
        }
    }

    /// After the declarer's exchange (or at once when the declarer does not
    /// exchange): the opponents' exchange, in the order of the rule set, or play
    /// when nobody else exchanges (contrabola).
    pub(super) fn opponents_exchange(&mut self) {
        use crate::rules::OpponentsOrder;
        let p = &mut self.public;
        if !p.contract.is_some_and(|c| c.opponents_exchange()) {
            self.begin_play();
            return;
        }
        p.phase = match p.game_rules().spec().opponents_order {
            OpponentsOrder::Conversation => Phase::Conversation,
            OpponentsOrder::RightOfNext => Phase::Ask(Question::EXCHANGE_FIRST),
            // `lhombre` (section 12.4): from the opponent after the declarer.
            OpponentsOrder::FromDeclarer => {
                p.first_opponent = p.opponents().map(|o| o[0]);
                Phase::FirstOpponentExchange
            }
        };
    }

    pub(super) fn do_exchange_right(&mut self, seat: Seat, first: bool) {
        let other = self.other_opponent(seat);
        let p = &mut self.public;
        p.exchange_first = Some(first);
        p.first_opponent = Some(if first { seat } else { other });
        p.phase = Phase::FirstOpponentExchange;
    }

    /// The next opponent asked to accept a surrendered vuelta.
    pub(super) fn next_acceptor(&self) -> Option<Seat> {
        let opp = self.public.opponents()?;
        opp.into_iter().find(|o| self.public.accepted & (1 << o.0) == 0)
    }

    pub(super) fn do_accept(&mut self, seat: Seat, yes: bool) {
        if yes {
            self.public.accepted |= 1 << seat.0;
            if self.next_acceptor().is_none() {
                self.public.phase = Phase::Done;
            }
            return;
        }
        let p = &mut self.public;
        p.refused = Some(seat);
        p.surrendered = Some(false);
        p.phase = Phase::Play;
    }

    pub(super) fn do_declare_vole(&mut self, yes: bool) {
        let p = &mut self.public;
        p.vole_declared = Some(yes);
        if yes {
            p.bola = Some(true);
        }
        self.ask_before_play();
    }
}
