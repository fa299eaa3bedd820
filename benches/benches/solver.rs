//! Criterion benches for the exact solver (`tresillo bench solver` gives the
//! distribution over 1,000 deals): the value of 16 fresh first-trick positions, and
//! the class of every card of the leader, each from an empty table.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tresillo_agents::{Position, SolverContext, below, rng_from_seed};
use tresillo_core::{Seat, Suit};

fn positions() -> Vec<Position> {
    (0..16u64)
        .map(|s| {
            let d = tresillo_sim::deal_for_seed(s);
            let mut rng = rng_from_seed(s ^ 0xB0B);
            let trump = Suit::ALL[below(&mut rng, 4) as usize];
            let declarer = Seat(below(&mut rng, 3) as u8);
            let leader = Seat(below(&mut rng, 3) as u8);
            let h = d.hands.0;
            Position::new([h[0], h[1], h[2]], trump, declarer, leader, &[], [0, 0, 0]).expect("a fresh deal")
        })
        .collect()
}

fn solver(c: &mut Criterion) {
    let pos = positions();
    let mut ctx = SolverContext::with_table_bits(16);
    let mut g = c.benchmark_group("solver");
    g.sample_size(10);
    g.throughput(Throughput::Elements(pos.len() as u64));
    g.bench_function("value x16 (first trick, empty table)", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for p in &pos {
                ctx.clear();
                n += ctx.value(black_box(p)) as u32;
            }
            n
        })
    });
    g.bench_function("every card x16 (first trick, empty table)", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for p in &pos {
                ctx.clear();
                n += ctx.solve(black_box(p)).value as u32;
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
