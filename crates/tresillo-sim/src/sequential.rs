//! Sequential testing: play duplicate deals in batches and stop as soon as the
//! paired difference between two agent slots is decided, with stated error rates.
//!
//! The data are the paired differences per scoring unit, `d` = (slot A's tantos
//! over the unit's seatings minus slot B's) / seatings, the numbers `pairs.csv`
//! averages. The test is the generalised sequential probability ratio test
//! (GSPRT) that chess engine testing uses (fishtest among them): the
//! log-likelihood ratio of a normal model of `d`, with the variance estimated from
//! the units so far. After `n` units of mean `m` and sample variance `s²`, the
//! log-likelihood ratio of H1: mean(d) = `mu1` against H0: mean(d) = 0 is
//!
//! ```text
//! LLR(mu1) = sum_i [(d_i)² - (d_i - mu1)²] / (2 s²) = n (mu1·m - mu1²/2) / s²
//! ```
//!
//! Two one-sided tests run side by side, each at half the stated `alpha`:
//!
//! - test A: `LLR(+margin)`: A is better when it reaches `ln((1 - beta) / (alpha/2))`;
//! - test B: `LLR(-margin)`: B is better when it reaches the same bound;
//! - no difference as large as the margin when both are at or below
//!   `ln(beta / (1 - alpha/2))` at the same look.
//!
//! That is [`Test::Difference`], the default. [`Test::Bounds`] is the one-sided
//! test of engine testers (fishtest's `[elo0, elo1]`), on the mean of B minus A
//! (`-d`): H0: mean = `h0` against H1: mean = `h1` (`h0 < h1`), with
//!
//! ```text
//! LLR = n (h1 - h0) (m' - (h0 + h1) / 2) / s²      (m' = mean of B minus A)
//! ```
//!
//! accepting H1 at `ln((1 - beta) / alpha)` and H0 at `ln(beta / (1 - alpha))`.
//! "B is better than A by the margin" is `h0 = 0, h1 = margin`; the
//! non-regression test "B is not worse than A by more than the margin" is
//! `h0 = -margin, h1 = 0`.
//!
//! Looks come after every batch, none before [`MIN_UNITS`] units (the variance
//! estimate needs them); the limit of units ends the test undecided.
//!
//! **Zero variance so far is not zero variance.** Agents that play alike on most
//! deals give the same difference on every unit of a first look (identical play
//! so far, as of an agent against itself, or against a variant that changes a
//! rare decision), and a sample variance of 0 would make the ratios infinite: a
//! verdict on no evidence. The variance of the test is therefore never taken
//! below what the units cannot rule out: at confidence `1 - e` (`e` the smaller
//! of the error rates of one side, `alpha / 2` or `alpha`, and `beta`), the share
//! of units whose play differs may be as large as `ln(1/e) / n` when none has
//! differed in `n` units, and a unit whose play differs has a difference of the
//! size of the two slots' scores: the floor is `ln(1/e) / n` times the mean of
//! `a² + b²` (`a`, `b`: the two slots' scores of a unit, per seating). An agent
//! against itself is still decided within a few looks (the floor falls as
//! `1/n`); near-identical agents are decided only once their differences show.
//!
//! Under H0 each one-sided likelihood ratio is a martingale (known variance), so
//! by Ville's inequality it ever reaches `(1 - beta) / (alpha/2)` with probability
//! at most `alpha/2`, however long the test goes on and however often it looks:
//! the chance of naming a winner between two identical agents is at most `alpha`.
//! The estimated variance makes that approximate; the simulations in the tests
//! (heavy-tailed, discrete differences like tantos) measure it at or under
//! `alpha`, and the power against a true difference of the margin at or above
//! `1 - beta`.

use crate::runner::{AgentSlots, SimError, Tournament};

/// No verdict before this many units: the variance estimate needs them.
pub const MIN_UNITS: u64 = 30;

/// Which hypotheses a sequential test weighs (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Test {
    /// A better by the margin, B better by the margin, or neither: two one-sided
    /// tests at `alpha / 2` each.
    Difference,
    /// One test on the mean of B minus A: H0: mean = `h0` against H1: mean = `h1`.
    Bounds {
        /// The mean under H0, in tantos per scoring unit.
        h0: f64,
        /// The mean under H1 (above `h0`).
        h1: f64,
    },
}

/// The settings of a sequential test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    /// The two slots compared (A, B).
    pub slots: (usize, usize),
    /// The probability of naming a better slot when neither is (both sides
    /// together: each one-sided test runs at half of it).
    pub alpha: f64,
    /// The probability of missing a difference of `margin`.
    pub beta: f64,
    /// The indifference margin: the smallest difference worth finding, in tantos
    /// per scoring unit.
    pub margin: f64,
    /// Scoring units played between two looks.
    pub batch: u64,
    /// The hypotheses ([`Test::Difference`] uses `margin`; [`Test::Bounds`] its own).
    pub test: Test,
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
    /// [`Test::Bounds`]: H1 accepted (the mean of B minus A is `h1` rather than `h0`).
    AcceptH1,
    /// [`Test::Bounds`]: H0 accepted.
    AcceptH0,
}

/// The state of a sequential test after a look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// Units played.
    pub units: u64,
    /// The mean paired difference, A minus B, per unit.
    pub mean: f64,
    /// Its 95% confidence half-width (fixed-sample, for information only): Student's
    /// t with `units - 1` degrees of freedom, as `pairs.csv` computes it.
    pub ci95: f64,
    /// The log-likelihood ratios of test 1 (A better) and test 2 (B better);
    /// [`Test::Bounds`]: its one ratio (H1 against H0) in both.
    pub llr: (f64, f64),
    /// The bounds: accept H0 at or below the first, H1 at or above the second.
    pub bounds: (f64, f64),
    /// The verdict so far (`Undecided` while the test goes on).
    pub verdict: Verdict,
    /// Every unit so far had the same difference (identical play so far): the
    /// ratios use the variance the units cannot rule out (see the module
    /// documentation).
    pub zero_variance: bool,
    /// The units A won, drew and lost (its difference above, at, below 0).
    pub wdl: (u64, u64, u64),
    /// The likelihood of superiority of A over B, `pairs.csv`'s (the t
    /// distribution at mean / standard error; 0.5 below two units).
    pub los: f64,
    /// The Elo difference of A over B from `wdl` ([`crate::Elo`]; `None` below
    /// two units).
    pub elo: Option<crate::Elo>,
}

/// Why SPRT settings are refused ([`SprtSettings::check`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingsError {
    /// Slots not two different slots of the table.
    #[error("slots {a} and {b}: two different slots of 0 to {last}")]
    Slots {
        /// The first slot.
        a: usize,
        /// The second slot.
        b: usize,
        /// The last slot of the table.
        last: usize,
    },
    /// An error rate that is not a probability below one half.
    #[error("{name} {p}: a probability between 0 and 0.5 (exclusive)")]
    Probability {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value.
        p: f64,
    },
    /// A margin that is not a positive number.
    #[error("margin {0}: a positive number of tantos per deal")]
    Margin(f64),
    /// A batch of no units.
    #[error("the batch must hold at least one scoring unit")]
    Batch,
    /// Hypotheses that are not two numbers in order.
    #[error("hypotheses H0 {h0} and H1 {h1}: two numbers, H0 below H1")]
    Hypotheses {
        /// The null hypothesis.
        h0: f64,
        /// The alternative.
        h1: f64,
    },
}

impl SprtSettings {
    /// Checks the settings (one line naming what is wrong).
    pub fn check(&self, players: u8) -> Result<(), SettingsError> {
        let (a, b) = self.slots;
        let n = usize::from(players);
        if a >= n || b >= n || a == b {
            return Err(SettingsError::Slots { a, b, last: n - 1 });
        }
        for (name, p) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(SettingsError::Probability { name, p });
            }
        }
        if !(self.margin > 0.0 && self.margin.is_finite()) {
            return Err(SettingsError::Margin(self.margin));
        }
        if self.batch == 0 {
            return Err(SettingsError::Batch);
        }
        if let Test::Bounds { h0, h1 } = self.test
            && !(h0.is_finite() && h1.is_finite() && h0 < h1)
        {
            return Err(SettingsError::Hypotheses { h0, h1 });
        }
        Ok(())
    }

    /// The state after the units of `d`.
    #[must_use]
    pub fn state(&self, d: &Differences) -> SprtState {
        let Differences { units, wins, draws, losses, .. } = *d;
        let n = units as f64;
        let Evidence { mean, var, zero_variance, llr, bounds, verdict } = self.decide(d);
        let ci95 = if units > 1 { crate::student::t95(units - 1) * (var / n).sqrt() } else { f64::INFINITY };
        let los = if units > 1 { crate::student::los(mean, (var / n).sqrt(), units - 1) } else { 0.5 };
        SprtState {
            units,
            mean,
            ci95,
            llr,
            bounds,
            verdict,
            zero_variance,
            wdl: (wins, draws, losses),
            los,
            elo: crate::Elo::of(wins, draws, losses),
        }
    }

    /// The verdict after the units of `d` (the one [`SprtSettings::state`]
    /// gives), without the interval, the likelihood of superiority and the Elo
    /// that a look also reports: what a simulation of many tests needs.
    #[must_use]
    pub fn verdict(&self, d: &Differences) -> Verdict {
        self.decide(d).verdict
    }

    /// The mean, the sample variance and the likelihood ratios of `d`, and the
    /// verdict they give.
    fn decide(&self, d: &Differences) -> Evidence {
        let Differences { units, sum, sum_sq, scale_sq, .. } = *d;
        let n = units as f64;
        let (lower, upper) = match self.test {
            Test::Difference => {
                let side = self.alpha / 2.0;
                ((self.beta / (1.0 - side)).ln(), ((1.0 - self.beta) / side).ln())
            }
            Test::Bounds { .. } => {
                ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
            }
        };
        let mean = if units > 0 { sum / n } else { 0.0 };
        let sample_var = if units > 1 { ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
        // Rounding leaves a constant's variance a few ulps above zero: below this
        // share of the squared mean it is zero.
        let zero_variance = units >= MIN_UNITS && sample_var <= 1e-12 * (1.0 + mean * mean);
        // The variance the units cannot rule out (the module documentation): the
        // share of units that may differ unseen, times the size of a difference.
        let e = match self.test {
            Test::Difference => self.alpha / 2.0,
            Test::Bounds { .. } => self.alpha,
        }
        .min(self.beta);
        let floor = if units > 0 { ((1.0 / e).ln() / n).min(1.0) * (scale_sq / n) } else { 0.0 };
        let var = if zero_variance { floor } else { sample_var.max(floor) };
        // The exponent of a normal likelihood ratio of mean `hi` against `lo`
        // per unit of variance: `(hi - lo) (mean - (lo + hi) / 2)`.
        let slope = |lo: f64, hi: f64, mean: f64| (hi - lo) * (mean - (lo + hi) / 2.0);
        let ratio = |s: f64| n * s / var;
        // Nothing is decided before the variance is estimated from enough units
        // (from a handful, it can be far too small and the ratios far too large),
        // nor on no variance at all (every score 0).
        let decides = units >= MIN_UNITS && var > 0.0;
        let m = self.margin;
        let (llr1, llr2) = match self.test {
            _ if !decides => (0.0, 0.0),
            Test::Difference => (ratio(slope(0.0, m, mean)), ratio(slope(0.0, -m, mean))),
            Test::Bounds { h0, h1 } => {
                let r = ratio(slope(h0, h1, -mean));
                (r, r)
            }
        };
        let verdict = match self.test {
            Test::Difference if llr1 >= upper => Verdict::ABetter,
            Test::Difference if llr2 >= upper => Verdict::BBetter,
            Test::Difference if llr1 <= lower && llr2 <= lower => Verdict::NoDifference,
            Test::Bounds { .. } if decides && llr1 >= upper => Verdict::AcceptH1,
            Test::Bounds { .. } if decides && llr1 <= lower => Verdict::AcceptH0,
            _ => Verdict::Undecided,
        };
        Evidence { mean, var: sample_var, zero_variance, llr: (llr1, llr2), bounds: (lower, upper), verdict }
    }
}

/// What `SprtSettings::decide` finds: the parts of a look the verdict rests on.
struct Evidence {
    mean: f64,
    /// The sample variance of the differences (before the floor).
    var: f64,
    zero_variance: bool,
    llr: (f64, f64),
    bounds: (f64, f64),
    verdict: Verdict,
}

/// The running sums of a sequential test: push the two slots' scores of each
/// unit in unit order, look after each batch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Differences {
    /// Units pushed.
    pub units: u64,
    /// The sum of the differences (A minus B).
    pub sum: f64,
    /// The sum of their squares.
    pub sum_sq: f64,
    /// The sum of `a² + b²`: the size of the scores, which bounds the variance
    /// the units cannot rule out (see the module documentation).
    pub scale_sq: f64,
    /// Units whose difference was above 0 (A won the deal), 0, below 0.
    pub wins: u64,
    /// See `wins`.
    pub draws: u64,
    /// See `wins`.
    pub losses: u64,
}

impl Differences {
    /// Adds one unit: slot A's and slot B's scores, per seating (their
    /// difference is the unit's paired difference).
    pub fn push(&mut self, a: f64, b: f64) {
        let d = a - b;
        self.units += 1;
        self.sum += d;
        self.sum_sq += d * d;
        self.scale_sq += a * a + b * b;
        match d.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => self.wins += 1,
            Some(std::cmp::Ordering::Less) => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    /// The test's state after the units pushed so far.
    #[must_use]
    pub fn look(&self, settings: &SprtSettings) -> SprtState {
        settings.state(self)
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
    let mut diffs = Differences::default();
    let mut state = diffs.look(settings);
    while diffs.units < max_units {
        let end = (diffs.units + settings.batch).min(max_units);
        for (x, y) in t.run_in(&slots, diffs.units..end, |u| {
            let s = &u.stats.agents;
            (s[a].units.sum as f64 / seatings, s[b].units.sum as f64 / seatings)
        })? {
            diffs.push(x, y);
        }
        state = diffs.look(settings);
        look(&state);
        if state.verdict != Verdict::Undecided {
            break;
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simple_config;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    fn settings() -> SprtSettings {
        SprtSettings {
            slots: (0, 1),
            alpha: 0.05,
            beta: 0.05,
            margin: 1.5,
            batch: 20,
            test: Test::Difference,
        }
    }

    /// A score like a seat's on a deal: discrete, skewed, heavy-tailed (mostly
    /// small, sometimes a large loss).
    fn score(rng: &mut Pcg64Mcg) -> f64 {
        match rng.random_range(0..100) {
            0..5 => -24.0,
            5..15 => -8.0,
            15..60 => 0.0,
            60..90 => 2.0,
            _ => 6.0,
        }
    }

    /// Two slots' scores of a unit like a duplicate deal's: two draws of
    /// [`score`], A's plus `shift`.
    fn draw(rng: &mut Pcg64Mcg, shift: f64) -> (f64, f64) {
        (score(rng) + shift, score(rng))
    }

    /// How often each verdict comes out of `runs` simulated tests whose
    /// differences have mean `shift` (at most `max` units each).
    /// `runs` sequential tests of `shift` tantos, each run on a generator of its
    /// own (seeded by its index), in parallel: the counts of each verdict, the
    /// same for any thread count.
    fn simulate(s: &SprtSettings, shift: f64, runs: u64, max: u64) -> [u64; 6] {
        use rayon::prelude::*;
        (0..runs)
            .into_par_iter()
            .map(|i| {
                let mut rng = Pcg64Mcg::seed_from_u64(tresillo_agents::splitmix64(23 ^ i));
                let mut diffs = Differences::default();
                loop {
                    for _ in 0..s.batch {
                        let (a, b) = draw(&mut rng, shift);
                        diffs.push(a, b);
                    }
                    let verdict = s.verdict(&diffs);
                    if verdict != Verdict::Undecided || diffs.units >= max {
                        break verdict as usize;
                    }
                }
            })
            .fold(
                || [0u64; 6],
                |mut c, v| {
                    c[v] += 1;
                    c
                },
            )
            .reduce(|| [0u64; 6], |a, b| std::array::from_fn(|k| a[k] + b[k]))
    }

    /// Issue 55: each look's evidence is `pairs.csv`'s for the same units: W/D/L,
    /// the likelihood of superiority and the Elo of those counts.
    #[test]
    fn a_look_carries_wins_draws_losses_los_and_elo() {
        let mut rng = Pcg64Mcg::seed_from_u64(55);
        let mut d = Differences::default();
        let mut xs = Vec::new();
        for _ in 0..200 {
            let (a, b) = draw(&mut rng, 1.0);
            d.push(a, b);
            xs.push(a - b);
        }
        let st = d.look(&settings());
        let p = crate::stats::Paired::of(&xs);
        assert_eq!(st.wdl, (p.wins, p.draws, p.losses));
        assert!((st.los - p.los.unwrap()).abs() < 1e-12, "{} {:?}", st.los, p.los);
        assert_eq!(st.elo, crate::Elo::of(p.wins, p.draws, p.losses));
        assert!(st.elo.unwrap().elo > 0.0 && st.los > 0.5, "{st:?}");
    }

    /// Issue 52 item 10: the interval sprt prints is `pairs.csv`'s for the same
    /// units (Student's t with `units - 1` degrees of freedom), not the normal's
    /// `1.96 · se`, which is 4% narrower at 30 units.
    #[test]
    fn the_interval_is_pairs_csvs_students_t() {
        let mut rng = Pcg64Mcg::seed_from_u64(52);
        let mut d = Differences::default();
        let mut xs = Vec::new();
        for _ in 0..MIN_UNITS {
            let (a, b) = draw(&mut rng, 0.5);
            d.push(a, b);
            xs.push(a - b);
        }
        let st = d.look(&settings());
        let p = crate::stats::Paired::of(&xs);
        let (lo, hi) = p.ci95.unwrap();
        assert!((st.mean - p.mean).abs() < 1e-12, "{} {}", st.mean, p.mean);
        assert!(
            (st.ci95 - (hi - lo) / 2.0).abs() < 1e-9,
            "{} against pairs.csv's {}",
            st.ci95,
            (hi - lo) / 2.0
        );
        // t(0.975, 29) = 2.0452, not z = 1.96.
        assert!((st.ci95 / p.se - 2.045_229_642_132_7).abs() < 1e-6, "{}", st.ci95 / p.se);
    }

    #[test]
    fn identical_agents_name_a_winner_at_most_alpha_of_the_time() {
        // Sigma of a difference is about 9.4 tantos; the margin a tenth of it.
        let s = SprtSettings {
            slots: (0, 1),
            alpha: 0.05,
            beta: 0.05,
            margin: 1.0,
            batch: 25,
            test: Test::Difference,
        };
        let runs = 4_000;
        let [a, b, none, undecided, ..] = simulate(&s, 0.0, runs, 100_000);
        let rate = (a + b) as f64 / runs as f64;
        println!("no difference: {a} A, {b} B, {none} none, {undecided} undecided in {runs}: {rate:.4}");
        assert!(rate <= s.alpha, "false-positive rate {rate} above alpha {}", s.alpha);
        // Both sides share it, and the rest is decided.
        assert!(a > 0 && b > 0 && undecided == 0, "{a} {b} {undecided}");
    }

    /// Looking after every unit (the most often) stays under alpha too. (A test
    /// of its own, so that the harness runs the two simulations side by side.)
    #[test]
    fn identical_agents_looked_at_after_every_unit_name_a_winner_at_most_alpha_of_the_time() {
        let s = SprtSettings {
            slots: (0, 1),
            alpha: 0.05,
            beta: 0.05,
            margin: 1.0,
            batch: 1,
            test: Test::Difference,
        };
        let runs = 4_000;
        let [a, b, ..] = simulate(&s, 0.0, runs, 100_000);
        println!("batch 1: {a} A, {b} B in {runs}");
        assert!((a + b) as f64 / runs as f64 <= s.alpha, "{a} + {b} in {runs} with batch 1");
    }

    #[test]
    fn a_difference_of_the_margin_is_found_at_least_one_minus_beta_of_the_time() {
        let s = SprtSettings {
            slots: (0, 1),
            alpha: 0.05,
            beta: 0.1,
            margin: 1.0,
            batch: 25,
            test: Test::Difference,
        };
        let runs = 2_000;
        let [a, b, none, undecided, ..] = simulate(&s, s.margin, runs, 100_000);
        let power = a as f64 / runs as f64;
        println!("difference of the margin: {a} A, {b} B, {none} none, {undecided} undecided: {power:.4}");
        assert!(power >= 1.0 - s.beta, "power {power} below 1 - beta");
        assert_eq!(b, 0);
        // And B's side the same.
        let [a, b, ..] = simulate(&s, -s.margin, runs, 100_000);
        assert!(b as f64 / runs as f64 >= 1.0 - s.beta && a == 0, "{a} {b}");
    }

    /// Issue 33, item 3: every difference 0 (an agent against itself) is a
    /// verdict within a few looks, not an endless test; a constant difference
    /// decides by its side.
    #[test]
    fn identical_play_decides() {
        let s = SprtSettings { margin: 0.5, batch: 500, ..settings() };
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        // Both slots score the same on every unit (scores of real size).
        let same = |units: u64, c: f64, rng: &mut Pcg64Mcg| {
            let mut d = Differences::default();
            for _ in 0..units {
                let x = score(rng) / 6.0;
                d.push(x + c, x);
            }
            d
        };
        let d = same(MIN_UNITS - 1, 0.0, &mut rng);
        assert_eq!(d.look(&s).verdict, Verdict::Undecided, "not before MIN_UNITS");
        let st = same(200, 0.0, &mut rng).look(&s);
        assert!(st.zero_variance, "{st:?}");
        assert_eq!(st.verdict, Verdict::NoDifference, "{st:?}");
        // A constant difference of the margin or more names the better side.
        for (c, want) in [(1.5, Verdict::ABetter), (-2.0, Verdict::BBetter), (0.1, Verdict::NoDifference)] {
            assert_eq!(same(400, c, &mut rng).look(&s).verdict, want, "{c}");
        }
        // The one-sided tests: identical play is not worse (non-regression), and
        // not better by the margin.
        let d = same(400, 0.0, &mut rng);
        let nonreg = SprtSettings { test: Test::Bounds { h0: -0.5, h1: 0.0 }, ..s };
        assert_eq!(d.look(&nonreg).verdict, Verdict::AcceptH1);
        let better = SprtSettings { test: Test::Bounds { h0: 0.0, h1: 0.5 }, ..s };
        assert_eq!(d.look(&better).verdict, Verdict::AcceptH0);
        // Exactly halfway: no evidence either way.
        let mid = SprtSettings { test: Test::Bounds { h0: -1.0, h1: 1.0 }, ..s };
        assert_eq!(d.look(&mid).verdict, Verdict::Undecided);
        // A single different unit is variance again: the ordinary ratio.
        let mut d = d;
        d.push(6.0, 0.0);
        assert!(!d.look(&s).zero_variance);
        // No scores at all: nothing to decide on.
        let mut d = Differences::default();
        for _ in 0..1000 {
            d.push(0.0, 0.0);
        }
        assert_eq!(d.look(&s).verdict, Verdict::Undecided);
    }

    /// Issue 52, item 9: the same difference on every unit of a first look is
    /// not evidence of identical play: agents that differ on one unit in 20
    /// (here by 12 tantos, a mean of -0.6) are not declared equal, nor B not
    /// worse, at the first look of 30 identical units, nor on any look before
    /// their differences show.
    #[test]
    fn zero_variance_so_far_is_not_a_verdict() {
        let s = SprtSettings { margin: 0.05, batch: 30, ..settings() };
        let nonreg = SprtSettings { test: Test::Bounds { h0: -0.05, h1: 0.0 }, ..s };
        let better = SprtSettings { test: Test::Bounds { h0: 0.0, h1: 0.05 }, ..s };
        let mut rng = Pcg64Mcg::seed_from_u64(52);
        let mut d = Differences::default();
        for _ in 0..30 {
            let x = score(&mut rng);
            d.push(x, x);
        }
        for t in [s, nonreg, better] {
            let st = d.look(&t);
            assert!(st.zero_variance && st.verdict == Verdict::Undecided, "{t:?}: {st:?}");
        }
        // Up to 120 identical units still decide nothing at a margin of 0.05.
        for _ in 0..90 {
            let x = score(&mut rng);
            d.push(x, x);
        }
        for t in [s, nonreg, better] {
            assert_eq!(d.look(&t).verdict, Verdict::Undecided, "{t:?}");
        }
        // The other agent loses 12 tantos on one unit in 20: non-regression fails
        // (or stays undecided), it never passes, on 200 simulated tests.
        let mut passes = 0;
        for _ in 0..200 {
            let mut d = Differences::default();
            let v = loop {
                for _ in 0..s.batch {
                    let x = score(&mut rng);
                    let b = if rng.random_range(0..20) == 0 { x - 12.0 } else { x };
                    d.push(x, b);
                }
                let st = d.look(&nonreg);
                if st.verdict != Verdict::Undecided || d.units >= 3000 {
                    break st.verdict;
                }
            };
            passes += u32::from(v == Verdict::AcceptH1);
        }
        assert!(passes <= 10, "non-regression passed {passes} times in 200 (alpha 0.05)");
    }

    /// The one-sided tests keep their error rates: "B better by the margin"
    /// accepted at most alpha of the time when B is not better, and at least
    /// 1 - beta of the time when it is; the non-regression test likewise.
    #[test]
    fn one_sided_tests_keep_their_error_rates() {
        let runs = 2_000;
        let m = 1.0;
        // `shift` is A minus B: B better by m is a shift of -m.
        let better = SprtSettings { alpha: 0.05, beta: 0.1, margin: m, batch: 25, ..settings() };
        let better = SprtSettings { test: Test::Bounds { h0: 0.0, h1: m }, ..better };
        let h1 = |c: [u64; 6]| c[Verdict::AcceptH1 as usize] as f64 / runs as f64;
        let false_pos = h1(simulate(&better, 0.0, runs, 100_000));
        let power = h1(simulate(&better, -m, runs, 100_000));
        println!("better: false positives {false_pos}, power {power}");
        assert!(false_pos <= better.alpha && power >= 1.0 - better.beta, "{false_pos} {power}");
        // Non-regression: B worse by m (shift +m) passes at most alpha of the time.
        let nonreg = SprtSettings { test: Test::Bounds { h0: -m, h1: 0.0 }, ..better };
        let false_pass = h1(simulate(&nonreg, m, runs, 100_000));
        let pass = h1(simulate(&nonreg, 0.0, runs, 100_000));
        println!("non-regression: false passes {false_pass}, passes {pass}");
        assert!(false_pass <= nonreg.alpha && pass >= 1.0 - nonreg.beta, "{false_pass} {pass}");
        assert!(simulate(&nonreg, 0.0, 50, 100_000)[Verdict::Undecided as usize] == 0);
        let bad = SprtSettings { test: Test::Bounds { h0: 0.0, h1: 0.0 }, ..better };
        assert!(bad.check(3).unwrap_err().to_string().contains("H0 below H1"));
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
        assert!(s.check(3).unwrap_err().to_string().contains("alpha 0: a probability"));
        s.alpha = 0.5;
        assert!(s.check(3).is_err());
        let mut s = settings();
        s.margin = -1.0;
        assert!(s.check(3).unwrap_err().to_string().contains("margin -1"));
        let mut s = settings();
        s.batch = 0;
        assert!(s.check(3).is_err());
    }
}
