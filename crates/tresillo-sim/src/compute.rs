//! Compute accounting: per agent slot, the decisions by kind, the agents' own
//! work counters ([`Work`]: worlds, solver nodes, iterations, forfeits), and the
//! time spent deciding (wall and thread CPU time), with a histogram of the card
//! decisions' times.
//!
//! Counts are exact and deterministic (the same for any thread count, shard
//! split or interruption); times are measurements, different on every run. So
//! the runner returns them apart from the statistics ([`crate::Stats`]), and
//! run directories write them to their own files (`compute.csv`,
//! `forfeits.csv`).
//!
//! **What is timed.** A clock read costs about 30 ns (wall) and 350 ns (thread
//! CPU time, a system call), as much as a whole decision of the `rule` agent. So
//! each slot times its decisions in two classes (card play, everything else):
//! every decision of a class while the class's timed decisions average at least
//! [`FULL_TIMING_NS`] of wall time (any search agent, an external bot, a Python agent) or while fewer than [`WARMUP`] are
//! timed, else one in [`STRIDE`], which then counts for [`STRIDE`] decisions
//! (itself and those let pass before it). The times (totals, the card
//! decisions' mean and their histogram) are then sums of timed decisions
//! weighted so: estimates, exact when every decision is timed (a sample whose
//! wall time exceeds its CPU time by over [`PREEMPTED_NS`] was switched out by
//! a busy machine, and counts its CPU time as its wall time; a decision's CPU
//! time counts at most its wall time, the excess being the clock's own cost). (An estimate,
//! not a mean scaled afterwards: the first decisions of a thread, slow with
//! cold caches and lazy set-up, count once, not for [`STRIDE`].)
//!
//! The runner meters a seat's card player and its bidding agent apart (`MeteredSeat =
//! SplitPlayer<Metered<Seated>>`), so the bidding agent's work is `Compute::bidding`,
//! not the slots'; a start-up inside a decision (`Agent::take_startup_ns`) is taken out
//! of it and counted apart; the agent's `Work` is taken after every hand. `SlotCompute`
//! and `Compute` (per unit in `UnitOutput`, merged in deal order), `Forfeit`, and the
//! log-spaced `Histogram` are here.

use serde::{Deserialize, Serialize};
use std::time::Instant;
use tresillo_agents::{AgentRng, Failure, TablePlayer, Work};
use tresillo_core::{Decision, Hand, HandResult, Phase, Seat};

/// The decision kinds counted, in the order of [`SlotCompute::decisions`]: the
/// auction's bids, the contract (and trump), discards, conversation words, card
/// play, and every other question (surrender, takeover, bola, the penetro's, ...).
pub const KINDS: [&str; 6] = ["bid", "declare", "discard", "word", "card", "other"];

/// The index in [`KINDS`] of card play.
pub const CARD: usize = 4;

/// The index in [`KINDS`] of a decision.
#[must_use]
pub fn kind_index(d: &Decision) -> usize {
    match d {
        Decision::Bid(_) => 0,
        Decision::Declare(..) => 1,
        Decision::Discard(_) => 2,
        Decision::Word(_) => 3,
        Decision::Play(_) => CARD,
        _ => 5,
    }
}

/// A class whose timed decisions average at least this wall time (nanoseconds)
/// has every decision timed: the clocks then cost under a tenth of it. Wall
/// time, not CPU time: an agent that waits (an external bot behind its pipes,
/// a Python agent, a search on other threads) spends little CPU time on the
/// calling thread, and its samples must not be taken for preempted ones.
pub const FULL_TIMING_NS: u64 = 5_000;
/// Decisions of a class timed before its mean decides the pace.
pub const WARMUP: u64 = 16;
/// Below [`FULL_TIMING_NS`], one decision in this many is timed.
pub const STRIDE: u32 = 1024;

/// A sampled decision whose wall time exceeds its CPU time by more than this
/// (nanoseconds) was switched out: its CPU time counts as its wall time.
pub const PREEMPTED_NS: u64 = 20_000;

/// Buckets of [`Histogram`]: 8 of one nanosecond, then 8 per octave up to 2^40 ns
/// (about 18 minutes; longer times count in the last bucket).
pub const BUCKETS: usize = 8 + 37 * 8;

/// A fixed log-spaced histogram of nanoseconds (8 buckets per octave, so a
/// bucket's upper edge is at most 12.5% above any time in it), kept sparse: the
/// non-empty buckets as pairs (bucket, count) in bucket order, which is also how
/// `compute.json` stores it (a unit's histogram is usually empty or a few
/// pairs, so the runner's per-unit output stays small). Fixed buckets merge
/// exactly, in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram(Vec<[u64; 2]>);

impl Histogram {
    /// The bucket of `ns` nanoseconds.
    #[must_use]
    pub fn bucket(ns: u64) -> usize {
        if ns < 8 {
            return ns as usize;
        }
        let e = 63 - ns.leading_zeros() as usize; // 3 or more
        let m = ((ns >> (e - 3)) & 7) as usize;
        (8 + (e - 3) * 8 + m).min(BUCKETS - 1)
    }

    /// The upper edge of bucket `b` (exclusive), in nanoseconds.
    #[must_use]
    pub fn upper(b: usize) -> u64 {
        if b < 8 {
            return b as u64 + 1;
        }
        let (e, m) = ((b - 8) / 8 + 3, ((b - 8) % 8) as u64);
        (9 + m) << (e - 3)
    }

    /// Counts a time of `ns` nanoseconds `weight` times.
    pub fn add(&mut self, ns: u64, weight: u64) {
        self.add_to(Histogram::bucket(ns) as u64, weight);
    }

    fn add_to(&mut self, b: u64, n: u64) {
        match self.0.binary_search_by_key(&b, |p| p[0]) {
            Ok(k) => self.0[k][1] += n,
            Err(k) => self.0.insert(k, [b, n]),
        }
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, o: &Histogram) {
        for &[b, n] in &o.0 {
            self.add_to(b, n);
        }
    }

    /// [`Histogram::merge`], or `None` (and `self` unchanged) when a count
    /// would pass `u64::MAX`.
    fn checked_merge(&self, o: &Histogram) -> Option<Histogram> {
        let mut h = self.clone();
        for &[b, n] in &o.0 {
            match h.0.binary_search_by_key(&b, |p| p[0]) {
                Ok(k) => h.0[k][1] = h.0[k][1].checked_add(n)?,
                Err(k) => h.0.insert(k, [b, n]),
            }
        }
        Some(h)
    }

    /// The times counted.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.0.iter().map(|p| p[1]).sum()
    }

    /// The non-empty buckets, `[bucket, count]` in bucket order.
    #[must_use]
    pub fn buckets(&self) -> &[[u64; 2]] {
        &self.0
    }

    /// The upper edge (nanoseconds) of the bucket holding the `q` quantile
    /// (0 < q <= 1) of the times counted, or `None` when there are none.
    #[must_use]
    pub fn quantile(&self, q: f64) -> Option<u64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for &[b, c] in &self.0 {
            seen += c;
            if seen >= rank {
                return Some(Histogram::upper(b as usize));
            }
        }
        None
    }
}

/// The compute of one agent slot: exact counts (decisions by kind, the agent's
/// [`Work`]) and measured times of the decisions timed (see the module
/// documentation). Sums only, so it merges in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotCompute {
    /// Decisions by kind ([`KINDS`]).
    pub decisions: [u64; 6],
    /// Worlds the agent searched ([`Work::worlds`]).
    pub worlds: u64,
    /// Solver nodes ([`Work::nodes`]).
    pub nodes: u64,
    /// Search iterations ([`Work::iters`]).
    pub iters: u64,
    /// Decisions forfeited ([`Work::forfeits`]).
    pub forfeits: u64,
    /// Decisions with likelihood-weighted worlds ([`Work::weighted`]).
    #[serde(default)]
    pub weighted: u64,
    /// Their pools' effective sample sizes, summed ([`Work::ess`]).
    #[serde(default)]
    pub ess: u64,
    /// Weighted decisions that fell back on uniform worlds ([`Work::fallbacks`]).
    #[serde(default)]
    pub fallbacks: u64,
    /// Decisions timed (measured: differs between runs).
    pub timed: u64,
    /// Estimated wall time of every decision, in nanoseconds (the timed
    /// decisions' times, each weighted by the decisions it stands for).
    pub wall_ns: u64,
    /// Estimated thread CPU time of every decision, in nanoseconds (0 where
    /// the platform has no per-thread CPU clock).
    pub cpu_ns: u64,
    /// Estimated wall time of the card decisions, in nanoseconds.
    pub card_wall_ns: u64,
    /// Wall times of the timed card decisions, each counted for the decisions
    /// it stands for.
    pub card_hist: Histogram,
    /// Wall nanoseconds the agent spent getting ready rather than deciding
    /// (an external bot's process start and greeting,
    /// [`tresillo_agents::Agent::take_startup_ns`]), taken out of the decision
    /// it happened in (measured).
    #[serde(default)]
    pub startup_ns: u64,
}

impl SlotCompute {
    /// Adds another slot's sums.
    pub fn merge(&mut self, o: &SlotCompute) {
        for k in 0..KINDS.len() {
            self.decisions[k] += o.decisions[k];
        }
        self.timed += o.timed;
        self.wall_ns += o.wall_ns;
        self.cpu_ns += o.cpu_ns;
        self.card_wall_ns += o.card_wall_ns;
        self.worlds += o.worlds;
        self.nodes += o.nodes;
        self.iters += o.iters;
        self.forfeits += o.forfeits;
        self.weighted += o.weighted;
        self.ess += o.ess;
        self.fallbacks += o.fallbacks;
        self.card_hist.merge(&o.card_hist);
        self.startup_ns += o.startup_ns;
    }

    /// [`SlotCompute::merge`] with every sum checked: `None` (and `self`
    /// unchanged) when one would pass `u64::MAX` (a count read from a damaged
    /// file, where a plain sum would wrap around in a release build).
    #[must_use]
    pub fn checked_merge(&self, o: &SlotCompute) -> Option<SlotCompute> {
        let mut decisions = self.decisions;
        for (d, &o) in decisions.iter_mut().zip(&o.decisions) {
            *d = d.checked_add(o)?;
        }
        Some(SlotCompute {
            decisions,
            timed: self.timed.checked_add(o.timed)?,
            wall_ns: self.wall_ns.checked_add(o.wall_ns)?,
            cpu_ns: self.cpu_ns.checked_add(o.cpu_ns)?,
            card_wall_ns: self.card_wall_ns.checked_add(o.card_wall_ns)?,
            worlds: self.worlds.checked_add(o.worlds)?,
            nodes: self.nodes.checked_add(o.nodes)?,
            iters: self.iters.checked_add(o.iters)?,
            forfeits: self.forfeits.checked_add(o.forfeits)?,
            weighted: self.weighted.checked_add(o.weighted)?,
            ess: self.ess.checked_add(o.ess)?,
            fallbacks: self.fallbacks.checked_add(o.fallbacks)?,
            card_hist: self.card_hist.checked_merge(&o.card_hist)?,
            startup_ns: self.startup_ns.checked_add(o.startup_ns)?,
        })
    }

    /// Adds an agent's work counters.
    pub fn add_work(&mut self, w: Work) {
        self.worlds += w.worlds;
        self.nodes += w.nodes;
        self.iters += w.iters;
        self.forfeits += w.forfeits;
        self.weighted += w.weighted;
        self.ess += w.ess;
        self.fallbacks += w.fallbacks;
    }

    /// Decisions of every kind.
    #[must_use]
    pub fn total_decisions(&self) -> u64 {
        self.decisions.iter().sum()
    }

    /// Estimated wall time spent deciding, in seconds.
    #[must_use]
    pub fn decision_seconds(&self) -> f64 {
        self.wall_ns as f64 / 1e9
    }

    /// Estimated thread CPU time spent deciding, in seconds.
    #[must_use]
    pub fn cpu_seconds(&self) -> f64 {
        self.cpu_ns as f64 / 1e9
    }

    /// Estimated mean milliseconds per card decision, or `None` when none was
    /// timed.
    #[must_use]
    pub fn card_ms_mean(&self) -> Option<f64> {
        (self.card_hist.count() > 0).then(|| self.card_wall_ns as f64 / self.decisions[CARD] as f64 / 1e6)
    }

    /// The 99th percentile of milliseconds per timed card decision (the upper
    /// edge of its histogram bucket), or `None` when none was timed.
    #[must_use]
    pub fn card_ms_p99(&self) -> Option<f64> {
        self.card_hist.quantile(0.99).map(|ns| ns as f64 / 1e6)
    }
}

/// A hand in which an agent forfeited decisions ([`Work::forfeits`]): a row of
/// `forfeits.csv`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeit {
    /// The deal index.
    pub deal: u64,
    /// The seating (as in `deals.csv`).
    pub seating: String,
    /// The agent slot.
    pub slot: u8,
    /// The seat it sat in.
    pub seat: u8,
    /// Decisions forfeited in the hand.
    pub count: u64,
}

/// The compute of a run or a part of it: per agent slot, and the hands with
/// forfeits in deal order. Merged in deal order (as `deals.csv` is written), it
/// is the same for any thread count or shard split, but for its times.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compute {
    /// Deals counted.
    pub deals: u64,
    /// Per agent slot.
    pub slots: Vec<SlotCompute>,
    /// The hands with forfeits, in deal then seating order.
    pub forfeits: Vec<Forfeit>,
    /// The bidding agent of a run with one (`--bidding`): its decisions,
    /// work and times in every seat, charged here rather than to the slots
    /// whose seats it bid for. `None` without a bidding agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bidding: Option<SlotCompute>,
}

impl Compute {
    /// Empty compute of `slots` agent slots.
    #[must_use]
    pub fn new(slots: usize) -> Compute {
        Compute { deals: 0, slots: vec![SlotCompute::default(); slots], forfeits: Vec::new(), bidding: None }
    }

    /// Adds the compute of the deals after these (call in deal order).
    pub fn merge(&mut self, o: &Compute) {
        self.deals += o.deals;
        if self.slots.len() < o.slots.len() {
            self.slots.resize(o.slots.len(), SlotCompute::default());
        }
        for (a, b) in self.slots.iter_mut().zip(&o.slots) {
            a.merge(b);
        }
        if let Some(b) = &o.bidding {
            self.bidding.get_or_insert_with(SlotCompute::default).merge(b);
        }
        self.forfeits.extend(o.forfeits.iter().cloned());
    }

    /// [`Compute::merge`] with every sum checked: an error (and `self`
    /// unchanged) when a count would pass `u64::MAX`, as a damaged compute file
    /// can make it; a plain sum would wrap around silently.
    pub fn try_merge(&mut self, o: &Compute) -> Result<(), CountOverflow> {
        let deals = self.deals.checked_add(o.deals).ok_or(CountOverflow)?;
        let mut slots = self.slots.clone();
        if slots.len() < o.slots.len() {
            slots.resize(o.slots.len(), SlotCompute::default());
        }
        for (a, b) in slots.iter_mut().zip(&o.slots) {
            *a = a.checked_merge(b).ok_or(CountOverflow)?;
        }
        let bidding = match (&self.bidding, &o.bidding) {
            (a, Some(b)) => Some(a.clone().unwrap_or_default().checked_merge(b).ok_or(CountOverflow)?),
            (a, None) => a.clone(),
        };
        self.deals = deals;
        self.slots = slots;
        self.bidding = bidding;
        self.forfeits.extend(o.forfeits.iter().cloned());
        Ok(())
    }

    /// The counts alone (times, timed counts and histograms cleared): what is
    /// the same for any thread count, shard split or interruption.
    #[must_use]
    pub fn counts(&self) -> Compute {
        let mut c = self.clone();
        for s in c.slots.iter_mut().chain(c.bidding.as_mut()) {
            (s.timed, s.wall_ns, s.cpu_ns, s.card_wall_ns, s.startup_ns) = (0, 0, 0, 0, 0);
            s.card_hist = Histogram::default();
        }
        c
    }
}

/// This thread's CPU time in nanoseconds (0 where there is no such clock).
#[must_use]
pub fn thread_cpu_ns() -> u64 {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
    }
    #[cfg(not(unix))]
    {
        0
    }
}

/// The thread CPU time that timing adds to a decision's (the median of 63
/// empty intervals timed as decisions are), subtracted from each timed decision.
#[must_use]
pub fn cpu_clock_overhead() -> u64 {
    static OVERHEAD: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *OVERHEAD.get_or_init(|| {
        let mut x: Vec<u64> = (0..63)
            .map(|_| {
                let cpu = thread_cpu_ns();
                let wall = Instant::now();
                std::hint::black_box(wall.elapsed());
                thread_cpu_ns().saturating_sub(cpu)
            })
            .collect();
        x.sort_unstable();
        x[x.len() / 2]
    })
}

/// When a class of decisions is timed (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
struct Pace {
    /// Decisions to let pass untimed before the next timed one.
    skip: u32,
    /// The decisions the next timed one stands for (itself and those let pass).
    weight: u32,
    /// Decisions timed and their wall nanoseconds.
    n: u64,
    ns: u64,
}

/// A player that counts and times its decisions into [`Metered::compute`]
/// (see the module documentation). The runner seats every agent slot's player
/// in one.
#[derive(Debug)]
pub struct Metered<P> {
    /// The player.
    pub player: P,
    /// What it has spent since the compute was last taken.
    pub compute: SlotCompute,
    /// The pace of card decisions and of the others.
    pace: [Pace; 2],
}

impl<P: TablePlayer> Metered<P> {
    /// `player`, with nothing counted.
    pub fn new(player: P) -> Metered<P> {
        Metered { player, compute: SlotCompute::default(), pace: [Pace::default(); 2] }
    }

    /// Takes the player's work of the hand just played into the compute and
    /// returns it.
    pub fn take_hand_work(&mut self) -> Work {
        let w = self.player.player_work();
        self.compute.add_work(w);
        w
    }
}

impl<P: TablePlayer> TablePlayer for Metered<P> {
    fn player_name(&self) -> &str {
        self.player.player_name()
    }

    fn begin_hand(&mut self) {
        self.player.begin_hand();
    }

    #[inline]
    fn decide_at(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Result<Decision, Failure> {
        let pace = &mut self.pace[usize::from(hand.phase() != Phase::Play)];
        if pace.skip > 0 {
            pace.skip -= 1;
            let d = self.player.decide_at(hand, seat, rng)?;
            self.compute.decisions[kind_index(&d)] += 1;
            self.compute.startup_ns += self.player.player_startup_ns();
            return Ok(d);
        }
        // The CPU clock's system calls outside the wall interval: a system
        // call is where a busy machine switches threads, so inside it they
        // would count other processes' time slices as this decision's.
        let cpu = thread_cpu_ns();
        let wall = Instant::now();
        let d = self.player.decide_at(hand, seat, rng)?;
        let wall = u64::try_from(wall.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let cpu = thread_cpu_ns().saturating_sub(cpu).saturating_sub(cpu_clock_overhead());
        // A start-up within the decision (an external bot's process) is not
        // the decision's time: counted apart.
        let startup = self.player.player_startup_ns();
        self.compute.startup_ns += startup;
        let wall = wall.saturating_sub(startup);
        let weight = u64::from(pace.weight.max(1));
        // A sample (standing for others) whose wall time is far above its CPU
        // time was switched out by the system: counted STRIDE times, that
        // would count another process's time slice as many decisions'. Its CPU
        // time stands for its wall time.
        let wall = if weight > 1 && cpu > 0 && wall > cpu + PREEMPTED_NS { cpu } else { wall };
        // This thread's CPU time within the wall interval is at most that
        // interval: above it is the clock's own cost (read outside the interval).
        let cpu = cpu.min(wall);
        pace.n += 1;
        // The pace follows wall time (after the preemption correction above):
        // an agent that waits on a pipe or another thread uses little CPU time
        // here, yet each of its decisions is worth timing.
        pace.ns = pace.ns.saturating_add(wall);
        pace.skip = if pace.n < WARMUP || pace.ns / pace.n >= FULL_TIMING_NS { 0 } else { STRIDE - 1 };
        pace.weight = pace.skip + 1;
        let k = kind_index(&d);
        let c = &mut self.compute;
        c.decisions[k] += 1;
        c.timed += 1;
        c.wall_ns = c.wall_ns.saturating_add(wall.saturating_mul(weight));
        c.cpu_ns = c.cpu_ns.saturating_add(cpu.saturating_mul(weight));
        if k == CARD {
            c.card_wall_ns = c.card_wall_ns.saturating_add(wall.saturating_mul(weight));
            c.card_hist.add(wall, weight);
        }
        Ok(d)
    }

    fn finish_hand(&mut self, result: &HandResult) {
        self.player.finish_hand(result);
    }

    fn player_work(&mut self) -> Work {
        self.player.player_work()
    }

    fn player_startup_ns(&mut self) -> u64 {
        0 // taken by this meter, decision by decision
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 34, finding 9: a count that would pass 2^64 - 1 is an error, not a
    /// silent wrap-around, and the compute is left as it was.
    #[test]
    fn merged_counts_never_wrap_around() {
        let mut a = Compute::new(2);
        a.deals = 3;
        a.slots[1].nodes = u64::MAX;
        a.slots[0].card_hist.add(1_000, u64::MAX);
        let mut b = Compute::new(2);
        b.deals = 1;
        b.slots[1].nodes = 1;
        let before = a.clone();
        assert_eq!(a.try_merge(&b), Err(CountOverflow));
        assert_eq!(a, before);
        let mut h = Compute::new(2);
        h.slots[0].card_hist.add(1_000, 1);
        assert_eq!(a.try_merge(&h), Err(CountOverflow));
        b.slots[1].nodes = 0;
        a.try_merge(&b).unwrap();
        assert_eq!((a.deals, a.slots[1].nodes), (4, u64::MAX));
    }

    #[test]
    fn histogram_buckets_are_log_spaced_and_contain_their_times() {
        for ns in (0..5000u64).chain([1 << 20, (1 << 20) + 12345, 999_999_999, 1 << 39]) {
            let b = Histogram::bucket(ns);
            let low = if b == 0 { 0 } else { Histogram::upper(b - 1) };
            assert!(
                low <= ns && ns < Histogram::upper(b),
                "{ns} in bucket {b} [{low}, {})",
                Histogram::upper(b)
            );
            // At most 12.5% wide beyond the exact buckets.
            if ns >= 8 {
                assert!((Histogram::upper(b) - low) * 8 <= low, "{ns}");
            }
        }
        assert_eq!(Histogram::bucket(u64::MAX), BUCKETS - 1);
        let mut h = Histogram::default();
        for ns in 1..=100u64 {
            h.add(ns * 1000, 1);
        }
        // The 99th of 100 times is 99 µs: its bucket [96 µs, 104 µs) in ns.
        assert_eq!(h.quantile(0.99), Some(Histogram::upper(Histogram::bucket(99_000))));
        assert!(h.quantile(0.99).unwrap() >= 99_000 && h.quantile(0.99).unwrap() <= 99_000 * 9 / 8);
        assert_eq!(Histogram::default().quantile(0.99), None);
        // Merging is adding bucket by bucket, in any order; the pairs stay sorted.
        let (mut a, mut b) = (Histogram::default(), Histogram::default());
        for ns in [5_000u64, 70, 5_100, 1 << 30] {
            a.add(ns, 2);
            b.add(ns * 3, 1);
        }
        let (mut ab, mut ba) = (a.clone(), b.clone());
        ab.merge(&b);
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.count(), 12);
        assert!(ab.buckets().windows(2).all(|w| w[0][0] < w[1][0]));
    }

    #[test]
    fn metered_counts_every_decision_and_times_them_with_weights() {
        // The rule agent's decisions are cheap: after the warm-up, one in
        // STRIDE is timed and stands for STRIDE; every decision is counted.
        let mut m: Vec<Metered<Box<dyn tresillo_agents::Agent>>> =
            (0..3).map(|_| Metered::new(tresillo_agents::build_agent("rule").unwrap())).collect();
        let mut cards = 0;
        for seed in 0..300u64 {
            let deal = crate::deal_for_seed(seed);
            let mut h = Hand::new(tresillo_core::RuleSet::TRESILLO, 3, deal, Seat((seed % 3) as u8)).unwrap();
            let r =
                tresillo_agents::play_hand(&mut h, &mut m, &mut tresillo_agents::seat_rngs(seed)).unwrap();
            cards += h.public().plays().len() as u64;
            let _ = r;
        }
        let all: u64 = m.iter().map(|x| x.compute.decisions[CARD]).sum();
        assert_eq!(all, cards);
        for x in &m {
            let c = &x.compute;
            assert!(c.timed > 0 && c.timed < c.total_decisions(), "{c:?}");
            // The histogram's weights add up to about the card decisions (the
            // last sample's weight may reach past them).
            let h = c.card_hist.count();
            assert!(h <= c.decisions[CARD] + u64::from(STRIDE) && h + u64::from(STRIDE) >= c.decisions[CARD]);
            assert!(c.card_ms_mean().is_some() && c.card_ms_p99().is_some());
        }
    }
}

/// A sum of compute counts that would pass `u64::MAX` ([`Compute::try_merge`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a compute count passes 2^64 - 1 when added (a damaged compute file?)")]
pub struct CountOverflow;
