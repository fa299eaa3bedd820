//! Clocks: a time control with an increment for any agent (`tc=BASE+INC`, or
//! `tc=HANDS/BASE+INC` for a clock that covers several hands; docs/AGENTS.md,
//! "Clocks"). [`Clocked`] wraps the agent: before each decision it tells the
//! agent the time left and a budget allocated from it ([`Agent::set_time`]: a
//! search agent searches for that budget, as `ms=` would have it; an external
//! bot is sent the time left and waits no longer), and after it takes the time
//! the decision took off the clock and adds the increment. A decision that
//! overruns the time left loses on time: it is not played; the `rule` agent
//! decides in its place, and for the rest of the clock's hands, each decision a
//! forfeit ([`Work::forfeits`]). Clocked decisions depend on the machine's
//! speed: a clocked run is not reproducible.

pub use crate::agent::TimeLeft;
use crate::agent::{Agent, Failure, Work};
use crate::rng::AgentRng;
use std::time::{Duration, Instant};
use tresillo_core::{Decision, HandResult, Phase, PlayerView};

/// A time control: `base` for every `hands` hands of the agent, `inc` added
/// after each of its decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The hands one clock covers (1: a clock per hand).
    pub hands: u32,
    /// The time on the clock when it is set.
    pub base: Duration,
    /// The time added after each decision.
    pub inc: Duration,
}

/// Why a time control is refused ([`TimeControl::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The hands are not a number.
    #[error("`{0}` is not a number of hands")]
    Hands(String),
    /// Hands out of bounds.
    #[error("a clock covers 1 to {MAX_CLOCK_HANDS} hands, not {0}")]
    HandsRange(u32),
    /// A time that is not a number (`what`: the base time or the increment).
    #[error("the {what} `{x}` is not a number of seconds")]
    Seconds {
        /// Which time.
        what: &'static str,
        /// The text given.
        x: String,
    },
    /// A time out of bounds.
    #[error("the {what} must be 0 to 86400 seconds, not {x}")]
    SecondsRange {
        /// Which time.
        what: &'static str,
        /// The text given.
        x: String,
    },
    /// A base time of 0.
    #[error("the base time must be above 0")]
    NoBase,
}

/// The most hands one clock may cover.
pub const MAX_CLOCK_HANDS: u32 = 1_000_000;

impl TimeControl {
    /// Reads `BASE+INC` or `HANDS/BASE+INC` (seconds, decimals allowed; `+INC`
    /// may be left out): `60+0.5` is a minute per hand and half a second more
    /// after each decision, `10/300+1` five minutes for ten hands.
    pub fn parse(s: &str) -> Result<TimeControl, ClockError> {
        let (hands, rest) = match s.split_once('/') {
            Some((h, rest)) => {
                let h: u32 = h.trim().parse().map_err(|_| ClockError::Hands(h.to_string()))?;
                if h == 0 || h > MAX_CLOCK_HANDS {
                    return Err(ClockError::HandsRange(h));
                }
                (h, rest)
            }
            None => (1, s),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |x: &str, what: &'static str| -> Result<Duration, ClockError> {
            let v: f64 = x.trim().parse().map_err(|_| ClockError::Seconds { what, x: x.to_string() })?;
            if !(0.0..=86_400.0).contains(&v) {
                return Err(ClockError::SecondsRange { what, x: x.to_string() });
            }
            Ok(Duration::from_secs_f64(v))
        };
        let tc = TimeControl { hands, base: secs(base, "base time")?, inc: secs(inc, "increment")? };
        if tc.base.is_zero() {
            return Err(ClockError::NoBase);
        }
        Ok(tc)
    }
}

/// The decisions a seat will likely still make on its clock: the cards in its
/// hand (one play each), three more before the tricks (bids, the exchange, a
/// question), and twelve per hand the clock covers after this one.
#[must_use]
pub fn decisions_left(view: &PlayerView, hands_left: u32) -> u32 {
    let p = view.public();
    let before_play = p.tricks_done == 0 && p.plays().is_empty() && p.phase != Phase::Play;
    let this_hand = view.hand().len() + if before_play { 3 } else { 0 };
    this_hand.max(1).saturating_add(hands_left.saturating_sub(1).saturating_mul(12))
}

/// The budget of one decision with `left` on the clock, `inc` added after it,
/// and `decisions` still to make (this one included): an even share of the
/// time left plus the increment, never more than half the time left (a
/// decision that overruns its share still leaves time on the clock).
#[must_use]
pub fn allocate(left: Duration, inc: Duration, decisions: u32) -> Duration {
    (left / decisions.max(1) + inc).min(left / 2)
}

/// An agent on a clock (see the module's documentation).
pub struct Clocked {
    inner: Box<dyn Agent>,
    fallback: Box<dyn Agent>,
    tc: TimeControl,
    left: Duration,
    /// Hands begun on the current clock (1 after the first `new_hand`).
    hands_on_clock: u32,
    /// The clock ran out: the fallback decides until the clock is set again.
    flagged: bool,
    forfeits: u64,
    startup_ns: u64,
}

impl Clocked {
    /// `inner` on the clock `tc`.
    #[must_use]
    pub fn new(inner: Box<dyn Agent>, tc: TimeControl) -> Clocked {
        Clocked {
            inner,
            fallback: Box::new(crate::RuleAgent::new(crate::RuleParams::default())),
            tc,
            left: tc.base,
            hands_on_clock: 0,
            flagged: false,
            forfeits: 0,
            startup_ns: 0,
        }
    }

    /// The time left on the clock now.
    #[must_use]
    pub fn left(&self) -> Duration {
        self.left
    }

    fn forfeit(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        self.forfeits += 1;
        self.fallback.decide(view, rng)
    }
}

impl Agent for Clocked {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn new_hand(&mut self) {
        if self.hands_on_clock >= self.tc.hands {
            // The clock is set again.
            self.hands_on_clock = 0;
            self.left = self.tc.base;
            self.flagged = false;
        }
        self.hands_on_clock += 1;
        self.inner.new_hand();
        self.fallback.new_hand();
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        if self.flagged {
            return self.forfeit(view, rng);
        }
        let hands_left = (self.tc.hands + 1).saturating_sub(self.hands_on_clock.max(1));
        let budget = allocate(self.left, self.tc.inc, decisions_left(view, hands_left));
        self.inner.set_time(&TimeLeft { left: self.left, inc: self.tc.inc, hands_left, budget });
        let t0 = Instant::now();
        let decided = self.inner.decide(view, rng);
        let took = t0.elapsed();
        // An external bot's start-up is not its decision's time.
        let startup = self.inner.take_startup_ns();
        self.startup_ns += startup;
        let took = took.saturating_sub(Duration::from_nanos(startup));
        if took >= self.left {
            // Lost on time: the decision is not played, whatever it was.
            self.left = Duration::ZERO;
            self.flagged = true;
            return self.forfeit(view, rng);
        }
        let d = decided?;
        self.left = self.left - took + self.tc.inc;
        Ok(d)
    }

    fn end_hand(&mut self, result: &HandResult) {
        self.inner.end_hand(result);
    }

    /// The agent's work, and the decisions the fallback made on time forfeits.
    fn take_work(&mut self) -> Work {
        let mut w = self.inner.take_work();
        w.forfeits += std::mem::take(&mut self.forfeits);
        w
    }

    fn take_startup_ns(&mut self) -> u64 {
        std::mem::take(&mut self.startup_ns) + self.inner.take_startup_ns()
    }

    fn set_likelihood(&mut self, model: std::sync::Arc<dyn crate::Likelihood>) -> bool {
        self.inner.set_likelihood(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tresillo_core::{Hand, Rules, Seat};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_time_control_reads_base_increment_and_hands() {
        let tc = |s: &str| TimeControl::parse(s);
        assert_eq!(tc("60+0.5").unwrap(), TimeControl { hands: 1, base: ms(60_000), inc: ms(500) });
        assert_eq!(tc("10/300+1").unwrap(), TimeControl { hands: 10, base: ms(300_000), inc: ms(1000) });
        assert_eq!(tc("0.25").unwrap(), TimeControl { hands: 1, base: ms(250), inc: Duration::ZERO });
        for bad in ["", "x", "0", "-1+1", "60+x", "0/60", "a/60", "60+-1", "1e9"] {
            assert!(tc(bad).is_err(), "{bad}");
        }
    }

    /// The allocator: an even share of the time left over the decisions left,
    /// plus the increment, at most half the time left.
    #[test]
    fn the_allocator_shares_the_time_left_over_the_decisions_left() {
        assert_eq!(allocate(ms(12_000), Duration::ZERO, 12), ms(1000));
        assert_eq!(allocate(ms(12_000), ms(500), 12), ms(1500));
        // Never more than half the time left, whatever the increment.
        assert_eq!(allocate(ms(1000), ms(5000), 4), ms(500));
        assert_eq!(allocate(ms(1000), Duration::ZERO, 1), ms(500));
        assert_eq!(allocate(ms(1000), Duration::ZERO, 0), ms(500));
        assert_eq!(allocate(Duration::ZERO, ms(100), 3), Duration::ZERO);
    }

    #[test]
    fn the_decisions_left_are_the_cards_held_and_the_hands_to_come() {
        let rules = Rules::parse("tresillo", &[]).unwrap();
        let deal = crate::deal_for_seed(3);
        let hand = Hand::with_rules(rules, 3, deal, Seat(0)).unwrap();
        let seat = hand.request().seat().unwrap();
        let view = hand.view(seat);
        // Nine cards and the auction, the exchange and a question.
        assert_eq!(decisions_left(&view, 1), 12);
        assert_eq!(decisions_left(&view, 3), 12 + 24);
    }

    /// An agent that takes `delay` for each decision (the rule agent's
    /// answer), counting its decisions.
    struct Slow(Duration, crate::RuleAgent, std::sync::Arc<std::sync::atomic::AtomicU64>);

    impl Agent for Slow {
        fn name(&self) -> &str {
            "slow"
        }
        fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
            self.2.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            std::thread::sleep(self.0);
            self.1.decide(view, rng)
        }
    }

    fn play(agent: &mut Clocked, hands: u64) {
        let rules = Rules::parse("tresillo", &[]).unwrap();
        let mut rule = crate::RuleAgent::new(crate::RuleParams::default());
        for i in 0..hands {
            let mut hand = Hand::with_rules(rules, 3, crate::deal_for_seed(i), Seat(0)).unwrap();
            agent.new_hand();
            let mut rng = crate::rng_from_seed(i);
            while let Some(seat) = hand.request().seat() {
                let view = hand.view(seat);
                let d = if seat == Seat(0) {
                    agent.decide(&view, &mut rng)
                } else {
                    rule.decide(&view, &mut rng)
                };
                hand.apply(d.unwrap()).unwrap();
            }
        }
    }

    /// A decision that overruns the clock is a forfeit, and so is every later
    /// decision of the hand; the clock is set again at the next hand.
    #[test]
    fn an_agent_that_overruns_its_clock_forfeits_the_rest_of_the_hand() {
        let tc = TimeControl { hands: 1, base: ms(5), inc: Duration::ZERO };
        let asked = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let slow = Slow(ms(20), crate::RuleAgent::new(crate::RuleParams::default()), asked.clone());
        let mut a = Clocked::new(Box::new(slow), tc);
        play(&mut a, 3);
        let forfeits = a.take_work().forfeits;
        // Every hand the agent was asked once (the clock set again at each hand):
        // that decision overran, and it and the rest were the fallback's.
        assert_eq!(asked.load(std::sync::atomic::Ordering::Relaxed), 3);
        assert!(forfeits >= 3, "{forfeits}");
        // One clock for two hands: out of time in the first, the agent is not
        // asked in the second; the clock is set again for the third.
        let asked = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let slow = Slow(ms(20), crate::RuleAgent::new(crate::RuleParams::default()), asked.clone());
        let mut a = Clocked::new(Box::new(slow), TimeControl { hands: 2, base: ms(5), inc: Duration::ZERO });
        play(&mut a, 4);
        assert_eq!(asked.load(std::sync::atomic::Ordering::Relaxed), 2);
        // A clock of ten hours is never used up.
        let tc = TimeControl { hands: 2, base: Duration::from_secs(36_000), inc: ms(1) };
        let mut a = Clocked::new(Box::new(crate::RuleAgent::new(crate::RuleParams::default())), tc);
        play(&mut a, 3);
        assert_eq!(a.take_work().forfeits, 0);
        assert!(a.left() > Duration::from_secs(35_000));
    }
}
