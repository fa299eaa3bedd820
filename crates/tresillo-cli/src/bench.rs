//! `tresillo bench`: quick speed figures on one thread (criterion benches give the
//! careful ones).

use anyhow::Result;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;
use tresillo_agents::{below, rng_from_seed};
use tresillo_core::{Card, CardSet, PlayState, Seat, Suit, legal_moves};

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
        #[arg(long, default_value_t = 50_000_000)]
        n: u64,
    },
    /// Random play-phase playouts per second on one thread.
    Playouts {
        /// Playouts to time.
        #[arg(long, default_value_t = 5_000_000)]
        n: u64,
    },
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
    for _ in 0..27 {
        let legal = p.legal_moves();
        let c = legal.nth(below(rng, legal.len())).expect("legal card");
        p.play_unchecked(c);
    }
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
            let secs = t.elapsed().as_secs_f64();
            writeln!(out, "playouts: {n} random play-phase playouts (27 cards each) on one thread")?;
            writeln!(out, "{:.0} playouts per second", n as f64 / secs)?;
        }
    }
    Ok(())
}
