//! The `cheat` agent: it is handed the full state of the hand - every hand, the
//! discards, the heap - for **upper-bound experiments only** (how much better could
//! a player do if it knew the cards?).
//!
//! It is kept apart on purpose. A normal [`Agent`] receives only a
//! [`PlayerView`](tresillo_core::PlayerView) and has no way to reach hidden cards;
//! a [`CheatAgent`] is a different trait whose `decide` takes the [`Hand`] itself,
//! and it can only be seated through [`Seated::Cheat`] (played by [`crate::play_hand`]).
//! [`build_agent`](crate::build_agent) refuses to build it, so no subcommand that
//! plays fair agents can use it by accident; [`build_seated`](crate::build_seated)
//! builds it for experiments.
//!
//! The one cheat here, [`Cheat`], plays cards by perfect-information Monte Carlo:
//! each legal card is scored by random playouts of the *true* deal (no sampling),
//! and the card with the best average for its side is played (in `hombre`,
//! `lhombre` and at four players a playout scores the ledger's value of its
//! outcome for the contract, [`gpimc::stakes`](crate::search::gpimc::stakes): nolo,
//! contrabola, cuatro, three opponents under `penetro_all_play`). Every other decision
//! (auction, exchange, conversation, surrender, takeover, bola) is the rule agent's,
//! made from the fair view.

use crate::Agent;
use crate::heuristic::rule::RuleAgent;
use crate::heuristic::rule_eval::RuleParams;
use crate::rng::{AgentRng, below};
use tresillo_core::{Decision, Hand, Outcome, PlayState, Request, Seat};

/// An agent that sees the whole hand. Only for upper-bound experiments: see the
/// module documentation.
pub trait CheatAgent: Send {
    /// The agent's spec name.
    fn name(&self) -> &str;

    /// Called before each hand: forget everything about the previous one.
    fn new_hand(&mut self) {}

    /// Answers the request of `seat` in `hand` (the full state). Must be legal.
    fn decide(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Decision;

    /// Its work since the last call, then zero ([`crate::Agent::take_work`]).
    fn take_work(&mut self) -> crate::Work {
        crate::Work::default()
    }
}

/// Perfect-information card play by random playouts of the true deal; every other
/// decision by [`RuleAgent`]. Keeps no memory between decisions.
#[derive(Clone, Copy, Debug)]
pub struct Cheat {
    /// The rule agent's thresholds for the decisions other than card play.
    pub rule: RuleAgent,
    /// Playouts per legal card.
    pub rollouts: u32,
}

impl Default for Cheat {
    fn default() -> Self {
        Cheat { rule: RuleAgent::new(RuleParams::default()), rollouts: 32 }
    }
}

impl CheatAgent for Cheat {
    fn name(&self) -> &str {
        "cheat"
    }

    fn decide(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Decision {
        let view = hand.view(seat);
        match (view.request(), hand.play_state(), hand.public().declarer) {
            (Request::Play { legal, .. }, Some(ps), Some(d)) if legal.len() > 1 => {
                // hombre, lhombre, four players: playouts scored by the ledger's stakes.
                let general = crate::search::gpimc::handles(hand.public())
                    .then(|| crate::search::gpimc::stakes(hand.public(), d))
                    .flatten();
                let mut best = (i64::MIN, legal.first().expect("a legal card"));
                for c in legal {
                    let mut total = 0i64;
                    for _ in 0..self.rollouts.max(1) {
                        let mut p = ps;
                        p.play_unchecked(c);
                        random_playout(&mut p, rng);
                        total += match &general {
                            Some(st) => {
                                (crate::search::gpimc::side_utility(st, &p, d, seat) * 100.0).round() as i64
                            }
                            None => side_score(&p, d, seat),
                        };
                    }
                    if total > best.0 {
                        best = (total, c);
                    }
                }
                Decision::Play(best.1)
            }
            _ => self.rule.choose(&view, rng),
        }
    }
}

/// Plays random legal cards to the end of the hand.
fn random_playout(p: &mut PlayState, rng: &mut AgentRng) {
    p.playout(|n| below(rng, n));
}

/// How good the finished play `p` is for `me` with `d` declaring: the declarer's
/// side wants a sacado, the opponents anything else (a codillo of one's own best);
/// tricks break ties.
fn side_score(p: &PlayState, d: Seat, me: Seat) -> i64 {
    let opp = [d.next(3), d.plus(2, 3)];
    let o = Outcome::from_tricks(
        p.tricks[d.index()],
        &[(opp[0], p.tricks[opp[0].index()]), (opp[1], p.tricks[opp[1].index()])],
    );
    let mine = i64::from(p.tricks[me.index()]);
    if me == d {
        if o.is_won() { 100 + mine } else { mine }
    } else {
        match o {
            Outcome::Sacado => mine,
            Outcome::Codillo { winner } if winner == me => 120 + mine,
            _ => 100 + mine,
        }
    }
}

/// A seat at a table where some seats may cheat (experiments only).
pub enum Seated {
    /// A fair agent, given only its view.
    Fair(Box<dyn Agent>),
    /// A cheat, given the whole hand.
    Cheat(Box<dyn CheatAgent>),
}

impl Seated {
    /// The seated agent's name.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Seated::Fair(a) => a.name(),
            Seated::Cheat(a) => a.name(),
        }
    }

    /// [`Agent::set_likelihood`] for a fair agent; a cheat sees the hands and
    /// has no worlds to weight (`false`).
    pub fn set_likelihood(&mut self, model: std::sync::Arc<dyn crate::Likelihood>) -> bool {
        match self {
            Seated::Fair(a) => a.set_likelihood(model),
            Seated::Cheat(_) => false,
        }
    }
}

impl crate::TablePlayer for Seated {
    fn player_name(&self) -> &str {
        self.name()
    }

    fn begin_hand(&mut self) {
        match self {
            Seated::Fair(a) => a.new_hand(),
            Seated::Cheat(a) => a.new_hand(),
        }
    }

    fn decide_at(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Result<Decision, crate::Failure> {
        match self {
            Seated::Fair(a) => a.decide(&hand.view(seat), rng),
            Seated::Cheat(a) => Ok(a.decide(hand, seat, rng)),
        }
    }

    fn finish_hand(&mut self, result: &tresillo_core::HandResult) {
        if let Seated::Fair(a) = self {
            a.end_hand(result);
        }
    }

    fn player_work(&mut self) -> crate::Work {
        match self {
            Seated::Fair(a) => a.take_work(),
            Seated::Cheat(c) => c.take_work(),
        }
    }

    fn player_startup_ns(&mut self) -> u64 {
        match self {
            Seated::Fair(a) => a.take_startup_ns(),
            Seated::Cheat(_) => 0,
        }
    }
}
