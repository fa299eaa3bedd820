//! Sequential testing: play duplicate deals in batches and stop as soon as the
//! paired difference between two agent slots is decided, with stated error rates.
//!
//! The test is two one-sided sequential probability ratio tests (Wald) on the
//! paired difference per scoring unit, `d` = (slot A's tantos over the unit's
//! seatings minus slot B's) / seatings, taken as normal with its variance
//! estimated from the units so far (the generalised SPRT that chess engine
//! testing uses, fishtest among them):
//!
//! - test 1, H0: mean(d) = 0 against H1: mean(d) = +margin;
//! - test 2, H0: mean(d) = 0 against H1: mean(d) = -margin.
//!
//! With n units of mean m and variance s², each test's log-likelihood ratio is
//! `n (margin·|m|·sign - margin²/2) / s²`; a test accepts H1 above
//! `ln((1 - beta) / alpha)` and H0 below `ln(beta / (1 - alpha))`. The run stops
//! when test 1 accepts H1 (A is better), test 2 accepts H1 (B is better), or both
//! accept H0 (no difference as large as the margin), checked after every batch;
//! or at the deal limit, undecided. The false-positive rate with two identical
//! agents stays at or under `alpha` for each side (tested by simulation).

use crate::runner::{AgentSlots, SimError, Tournament};

/// The settings of a sequential test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    /// The two slots compared (A, B).
    pub slots: (usize, usize),
    /// The probability of declaring a winner when there is no difference (each side).
    pub alpha: f64,
    /// The probability of missing a difference of `margin`.
    pub beta: f64,
    /// The indifference margin: the smallest difference worth finding, in tantos
    /// per scoring unit.
    pub margin: f64,
    /// Scoring units played between two looks.
    pub batch: u64,
}

/// How a sequential test ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Slot A is better (by the margin, at the stated error rates).
    ABetter,
    /// Slot B is better.
    BBetter,
    /// Neither is better by as much as the margin.
    NoDifference,
    /// The unit limit came first.
    Undecided,
}

/// The state of a sequential test after a look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// Units played.
    pub units: u64,
    /// The mean paired difference, A minus B, per unit.
    pub mean: f64,
    /// Its 95% confidence half-width (fixed-sample, for information only).
    pub ci95: f64,
    /// The log-likelihood ratios of test 1 (A better) and test 2 (B better).
    pub llr: (f64, f64),
    /// The bounds: accept H0 at or below the first, H1 at or above the second.
    pub bounds: (f64, f64),
    /// The verdict so far (`Undecided` while the test goes on).
    pub verdict: Verdict,
}

impl SprtSettings {
    /// Checks the settings (one line naming what is wrong).
    pub fn check(&self, players: u8) -> Result<(), String> {
        let (a, b) = self.slots;
        let n = usize::from(players);
        if a >= n || b >= n || a == b {
            return Err(format!("slots {a} and {b}: two different slots of 0 to {}", n - 1));
        }
        for (name, p) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name} {p}: between 0 and 0.5 (exclusive)"));
            }
        }
        if !(self.margin > 0.0 && self.margin.is_finite()) {
            return Err(format!("margin {}: a positive number of tantos per deal", self.margin));
        }
        if self.batch == 0 {
            return Err("the batch must hold at least one scoring unit".into());
        }
        Ok(())
    }

    /// The state after units with these sums of `d` and `d²`.
    #[must_use]
    pub fn state(&self, units: u64, sum: f64, sum_sq: f64) -> SprtState {
        let n = units as f64;
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let mean = if units > 0 { sum / n } else { 0.0 };
        let var = if units > 1 { ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
        let ci95 = if units > 1 { 1.96 * (var / n).sqrt() } else { f64::INFINITY };
        // Without spread yet (a few identical units) nothing is decided.
        let (llr1, llr2) = if units < 2 || var <= 0.0 {
            (0.0, 0.0)
        } else {
            let m = self.margin;
            (n * (m * mean - m * m / 2.0) / var, n * (-m * mean - m * m / 2.0) / var)
        };
        let verdict = if llr1 >= upper {
            Verdict::ABetter
        } else if llr2 >= upper {
            Verdict::BBetter
        } else if llr1 <= lower && llr2 <= lower {
            Verdict::NoDifference
        } else {
            Verdict::Undecided
        };
        SprtState { units, mean, ci95, llr: (llr1, llr2), bounds: (lower, upper), verdict }
    }
}

/// Plays `t` from unit 0 in batches until the test decides or `max_units` are
/// played, calling `look` after every batch. Deterministic: the units are the
/// tournament's, in order, whatever the thread count.
pub fn run_sprt(
    t: &Tournament,
    settings: &SprtSettings,
    max_units: u64,
    mut look: impl FnMut(&SprtState),
) -> Result<SprtState, SimError> {
    let seatings = t.config().seatings().len() as f64;
    let (a, b) = settings.slots;
    let slots = AgentSlots::new();
    let (mut sum, mut sum_sq, mut units) = (0.0, 0.0, 0);
    let mut state = settings.state(0, 0.0, 0.0);
    while units < max_units {
        let end = (units + settings.batch).min(max_units);
        let diffs = t.run_in(&slots, units..end, |u| {
            let s = &u.stats.agents;
            (s[a].units.sum - s[b].units.sum) as f64 / seatings
        })?;
        for d in diffs {
            sum += d;
            sum_sq += d * d;
        }
        units = end;
        state = settings.state(units, sum, sum_sq);
        look(&state);
        if state.verdict != Verdict::Undecided {
            return Ok(state);
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simple_config;

    fn settings() -> SprtSettings {
        SprtSettings { slots: (0, 1), alpha: 0.05, beta: 0.05, margin: 1.5, batch: 20 }
    }

    #[test]
    fn identical_agents_rarely_make_a_winner() {
        // Two random agents are identical players (their own random streams):
        // over many independent runs a winner is declared at most about alpha of
        // the time on each side.
        let runs = 120;
        let mut winners = 0;
        let mut decided = 0;
        for seed in 0..runs {
            let t = Tournament::new(simple_config(["random", "random", "rule"], 2_000, 1_000 + seed, true))
                .unwrap();
            let s = run_sprt(&t, &settings(), 2_000, |_| {}).unwrap();
            match s.verdict {
                Verdict::ABetter | Verdict::BBetter => winners += 1,
                Verdict::NoDifference => decided += 1,
                Verdict::Undecided => {}
            }
        }
        println!("{winners} winners, {decided} without a difference, in {runs} runs");
        // 2 alpha = 0.1 of 120 is 12; allow for the simulation's own noise.
        assert!(winners <= 18, "{winners} winners in {runs} runs");
        assert!(decided > runs / 2, "{decided} decided");
    }

    #[test]
    fn a_real_difference_is_found_quickly() {
        let t = Tournament::new(simple_config(["rule", "random", "rule"], 10_000, 3, true)).unwrap();
        let s = run_sprt(&t, &settings(), 10_000, |_| {}).unwrap();
        assert_eq!(s.verdict, Verdict::ABetter);
        assert!(s.units < 500, "{s:?}");
        let t = Tournament::new(simple_config(["random", "rule", "rule"], 10_000, 3, true)).unwrap();
        assert_eq!(run_sprt(&t, &settings(), 10_000, |_| {}).unwrap().verdict, Verdict::BBetter);
    }

    #[test]
    fn bad_settings_are_refused() {
        let mut s = settings();
        s.slots = (1, 1);
        assert!(s.check(3).is_err());
        s.slots = (0, 3);
        assert!(s.check(3).is_err());
        let mut s = settings();
        s.alpha = 0.0;
        assert!(s.check(3).is_err());
        let mut s = settings();
        s.margin = -1.0;
        assert!(s.check(3).is_err());
    }
}
