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

use super::{Hand, Phase};
use crate::card::{Card, Seat};

impl Hand {
    /// The phase after all pass when the forced declarer `holder` exchanges
    /// before naming trumps (`RuleSpec::forced_exchange_first`): the gascarille
    /// demand when the option is on (only `hombre` has it) and `holder` was dealt
    /// the espada, else the forced exchange (the obligation's, the house's forced
    /// entrada's).
    pub(super) fn forced_exchange_phase(&self, holder: Seat) -> Phase {
        if self.public.game_rules().gascarille() && self.hidden.hands[holder].contains(Card::ESPADA) {
            Phase::Gascarille
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
            OpponentsOrder::RightOfNext => Phase::ExchangeRight,
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
        p.phase = Phase::Play;
    }
}
