//! Criterion benches for the two figures of `tresillo bench movegen` and
//! `tresillo bench playouts`: one legal-move call, and one random play-phase playout.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tresillo_agents::{Draws, below, rng_from_seed};
use tresillo_core::{Card, CardSet, PlayState, Seat, Suit, legal_moves};

fn positions() -> Vec<(CardSet, Option<Suit>, Option<Card>)> {
    let mut rng = rng_from_seed(7);
    (0..1024u64)
        .map(|i| {
            let d = tresillo_sim::deal_for_seed(7 ^ i);
            let others = d.hands.0[1];
            let led = if i % 3 == 0 { None } else { others.nth(below(&mut rng, others.len())) };
            (d.hands.0[0], Some(Suit::ALL[i as usize % 4]), led)
        })
        .collect()
}

fn movegen(c: &mut Criterion) {
    let pos = positions();
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(pos.len() as u64));
    g.bench_function("legal_moves x1024", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(h, t, l) in &pos {
                acc ^= legal_moves(black_box(h), black_box(t), black_box(l)).bits();
            }
            acc
        })
    });
    g.finish();
}

fn playouts(c: &mut Criterion) {
    let d = tresillo_sim::deal_for_seed(1);
    let start = PlayState::new([d.hands.0[0], d.hands.0[1], d.hands.0[2]], Some(Suit::Oros), Seat(1));
    let mut rng = rng_from_seed(3);
    let mut g = c.benchmark_group("playouts");
    g.throughput(Throughput::Elements(1));
    g.bench_function("random playout (27 cards)", |b| {
        b.iter(|| {
            let mut p = black_box(start);
            let mut d = Draws::new(&mut rng);
            p.playout(|n| d.below(n));
            p.tricks[0]
        })
    });
    g.finish();
}

criterion_group!(benches, movegen, playouts);

fn playout_parts(c: &mut Criterion) {
    let d = tresillo_sim::deal_for_seed(1);
    let start = PlayState::new([d.hands.0[0], d.hands.0[1], d.hands.0[2]], Some(Suit::Oros), Seat(1));
    let mut g = c.benchmark_group("playout-parts");
    g.bench_function("first legal card (no rng)", |b| {
        b.iter(|| {
            let mut p = black_box(start);
            for _ in 0..27 {
                let l = p.legal_moves();
                p.play_unchecked(l.first().expect("legal"));
            }
            p.tricks[0]
        })
    });
    let mut rng = rng_from_seed(3);
    g.bench_function("27 rng draws only", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for i in 0..27 {
                acc = acc.wrapping_add(below(&mut rng, 1 + (i % 9)));
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(parts, playout_parts);
criterion_main!(benches, parts);
