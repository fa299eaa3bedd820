//! `tresillo bench`: quick speed figures on one thread (criterion benches give the
//! careful ones).

use anyhow::Result;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;
use tresillo_agents::{
    Agent, Draws, Position, RuleAgent, RuleParams, Sampler, SolverContext, below, rng_from_seed, seat_rngs,
};
use tresillo_core::{Card, CardSet, Hand, PlayState, PlayerView, Request, RuleSet, Seat, Suit, legal_moves};

/// Arguments of `tresillo bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    target: Target,
}

#[derive(clap::Subcommand)]
enum Target {
    /// Nanoseconds per legal-move call.
    Movegen {
        /// Calls to time.
        #[arg(long, default_value_t = 50_000_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        n: u64,
    },
    /// Random play-phase playouts per second on one thread.
    Playouts {
        /// Playouts to time.
        #[arg(long, default_value_t = 5_000_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        n: u64,
    },
    /// Deals per second of a tournament (no files written), on one thread and on all.
    Deals {
        /// Three agent specs, comma-separated.
        #[arg(long, default_value = "rule,rule,rule")]
        agents: String,
        /// Deals to time on each setting.
        #[arg(long, default_value_t = 200_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        n: u64,
    },
    /// The exact solver at the first trick of fresh deals (random trump, declarer
    /// and leader): the value, then the class of every card of the leader; median,
    /// 90th and 99th percentile and worst time per position.
    Solver {
        /// Deals to solve.
        #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<usize>)]
        n: usize,
        /// First deal seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        seed: u64,
    },
    /// Microseconds per sampled world at trick 1 and at trick 6 (the sampler of
    /// `tresillo-agents`, from the view of the player to move).
    Sampler {
        /// Worlds to draw at each of the two points.
        #[arg(long, default_value_t = 1_000_000, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        n: u64,
    },
}

/// Views of the player to move at the first card of trick `trick` (1-based) in
/// hands of `rule` agents, from the deals of seeds `0..`; hands that end earlier
/// are skipped.
pub fn sampler_views(trick: u8, count: usize) -> Vec<PlayerView> {
    let mut out = Vec::with_capacity(count);
    let mut agent = RuleAgent::new(RuleParams::default());
    let mut seed = 0u64;
    while out.len() < count {
        let mut hand =
            Hand::new(RuleSet::Tresillo, 3, tresillo_sim::deal_for_seed(seed), Seat((seed % 3) as u8))
                .expect("a full deal");
        let mut rngs = seat_rngs(seed);
        seed += 1;
        while let Some(seat) = hand.request().seat() {
            let view = hand.view(seat);
            if let Request::Play { .. } = view.request() {
                let p = view.public();
                if p.tricks_done + 1 == trick && p.current_trick().is_empty() {
                    out.push(view);
                    break;
                }
            }
            let d = agent.decide(&view, &mut rngs[seat.index()]);
            hand.apply(d).expect("the rule agent is legal");
        }
    }
    out
}

/// Mean microseconds per world drawn from the views (the sampler built once per
/// view, as a player would for one decision) and per sampler built.
fn time_sampler(views: &[PlayerView], n: u64) -> (f64, f64) {
    let mut rng = rng_from_seed(11);
    let t = Instant::now();
    let samplers: Vec<Sampler> = views.iter().map(|v| Sampler::new(v).expect("a real view")).collect();
    let build = t.elapsed().as_secs_f64() * 1e6 / views.len() as f64;
    let per = n.div_ceil(samplers.len() as u64);
    let t = Instant::now();
    let mut acc = 0u64;
    for s in &samplers {
        for _ in 0..per {
            acc ^= black_box(s.sample(&mut rng)).heap.bits();
        }
    }
    black_box(acc);
    let sample = t.elapsed().as_secs_f64() * 1e6 / (per * samplers.len() as u64) as f64;
    (sample, build)
}

/// First-trick positions of fresh deals: the hands of the deal of seed `seed + i`,
/// with trump, declarer and leader drawn from the seed.
pub fn solver_positions(count: usize, seed: u64) -> Vec<Position> {
    (0..count as u64)
        .map(|i| {
            let s = seed.wrapping_add(i);
            let deal = tresillo_sim::deal_for_seed(s);
            let mut rng = rng_from_seed(s ^ 0xB0B);
            let trump = Suit::ALL[below(&mut rng, 4) as usize];
            let declarer = Seat(below(&mut rng, 3) as u8);
            let leader = Seat(below(&mut rng, 3) as u8);
            let h = deal.hands.0;
            Position::new([h[0], h[1], h[2]], trump, declarer, leader, &[], [0, 0, 0])
                .expect("a fresh deal is a position")
        })
        .collect()
}

/// Times `f` on every position with one context; returns sorted microseconds.
fn time_positions(pos: &[Position], mut f: impl FnMut(&mut SolverContext, &Position)) -> Vec<f64> {
    let mut ctx = SolverContext::new();
    let mut us: Vec<f64> = pos
        .iter()
        .map(|p| {
            let t = Instant::now();
            f(&mut ctx, p);
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    us.sort_by(f64::total_cmp);
    us
}

/// `median M us, p90 .., p99 .., worst ..` of sorted microseconds.
fn percentiles(us: &[f64]) -> String {
    let at = |q: f64| us[((us.len() as f64 * q) as usize).min(us.len() - 1)];
    format!(
        "median {:.1} us, p90 {:.1} us, p99 {:.1} us, worst {:.1} us",
        at(0.5),
        at(0.9),
        at(0.99),
        us[us.len() - 1]
    )
}

/// Positions for the movegen benchmark: (hand, trump, card led), from random deals.
pub fn movegen_positions(count: usize, seed: u64) -> Vec<(CardSet, Option<Suit>, Option<Card>)> {
    let mut rng = rng_from_seed(seed);
    (0..count)
        .map(|i| {
            let deal = tresillo_sim::deal_for_seed(seed ^ i as u64);
            let hand = deal.hands.0[0];
            let others = deal.hands.0[1];
            let led = if i % 3 == 0 { None } else { others.nth(below(&mut rng, others.len())) };
            (hand, Some(Suit::ALL[i % 4]), led)
        })
        .collect()
}

/// One random playout of the whole play phase from `start`; returns the tricks of seat 0.
#[inline]
pub fn playout(start: &PlayState, rng: &mut tresillo_agents::AgentRng) -> u8 {
    let mut p = *start;
    let mut d = Draws::new(rng);
    p.playout(|n| d.below(n));
    p.tricks[0]
}

/// The fixed start position of the playout benchmark: the deal of seed 1, oros
/// trumps, seat 1 (mano) leading.
pub fn playout_start() -> PlayState {
    let d = tresillo_sim::deal_for_seed(1);
    PlayState::new([d.hands.0[0], d.hands.0[1], d.hands.0[2]], Some(Suit::Oros), Seat(1))
}

/// Runs `tresillo bench`.
pub fn run(a: &BenchArgs, out: &mut impl Write) -> Result<()> {
    match a.target {
        Target::Movegen { n } => {
            let pos = movegen_positions(1024, 7);
            let t = Instant::now();
            let mut acc = 0u64;
            let rounds = n.div_ceil(pos.len() as u64);
            for _ in 0..rounds {
                for &(h, tr, led) in &pos {
                    acc ^= legal_moves(black_box(h), black_box(tr), black_box(led)).bits();
                }
            }
            black_box(acc);
            let calls = rounds * pos.len() as u64;
            let ns = t.elapsed().as_nanos() as f64 / calls as f64;
            writeln!(out, "movegen: {calls} legal-move calls on one thread")?;
            writeln!(out, "{ns:.2} ns per legal-move call")?;
        }
        Target::Playouts { n } => {
            let start = playout_start();
            let mut rng = rng_from_seed(3);
            let t = Instant::now();
            let mut acc = 0u64;
            for _ in 0..n {
                acc += u64::from(playout(&start, &mut rng));
            }
            black_box(acc);
            let one = n as f64 / t.elapsed().as_secs_f64();
            writeln!(out, "playouts: {n} random play-phase playouts (27 cards each) on one thread")?;
            writeln!(out, "{one:.0} playouts per second")?;
        }
        Target::Deals { ref agents, n } => {
            let specs: Vec<&str> = agents.split(',').map(str::trim).collect();
            anyhow::ensure!(specs.len() == 3, "--agents needs three agent specs");
            let t = tresillo_sim::Tournament::new(tresillo_sim::simple_config(
                [specs[0], specs[1], specs[2]],
                n,
                1,
                false,
            ))?;
            let mut rates = Vec::new();
            for threads in [1, rayon::current_num_threads()] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
                let start = Instant::now();
                let rows: u64 = pool.install(|| t.run(0..n, |u| u.stats.rows))?.iter().sum();
                black_box(rows);
                rates.push((threads, n as f64 / start.elapsed().as_secs_f64()));
            }
            writeln!(out, "deals: {n} deals of {agents}, scored, no files written")?;
            let (t1, r1) = rates[0];
            let (tn, rn) = rates[1];
            writeln!(
                out,
                "{r1:.0} deals per second on {t1} thread, {rn:.0} on {tn} threads ({:.2}x)",
                rn / r1
            )?;
        }
        Target::Solver { n, seed } => {
            anyhow::ensure!(n > 0, "--n must be at least 1");
            // Every position and its times are held in memory.
            anyhow::ensure!(n <= 1_000_000, "--n {n} is too many: at most 1000000 positions");
            let pos = solver_positions(n, seed);
            let cards = time_positions(&pos, |c, p| {
                black_box(c.solve(black_box(p)));
            });
            let value = time_positions(&pos, |c, p| {
                black_box(c.value(black_box(p)));
            });
            writeln!(
                out,
                "solver: {n} fresh deals at the first trick (seeds {seed}..), one thread, one context"
            )?;
            writeln!(out, "every card of the leader: {}", percentiles(&cards))?;
            writeln!(out, "value: {}", percentiles(&value))?;
        }
        Target::Sampler { n } => {
            let t1 = sampler_views(1, 200);
            let t6 = sampler_views(6, 200);
            let (s1, b1) = time_sampler(&t1, n);
            let (s6, b6) = time_sampler(&t6, n);
            writeln!(
                out,
                "sampler: {n} worlds at each point, from 200 views of rule-agent hands, one thread"
            )?;
            writeln!(out, "building a sampler: {b1:.2} us at trick 1, {b6:.2} us at trick 6")?;
            writeln!(out, "{s1:.3} us per sample at trick 1, {s6:.3} us per sample at trick 6")?;
        }
    }
    Ok(())
}
