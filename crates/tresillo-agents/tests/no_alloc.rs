//! The rule agent decides, and the sampler samples, without allocating (a counting
//! global allocator).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tresillo_agents::{
    Agent, Budget, Ismcts, IsmctsParams, Playout, RuleAgent, Sampler, rng_from_seed, seat_rngs,
};

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// Allocations counted on this thread (tests run on parallel threads).
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn allocs() -> usize {
    ALLOCS.with(Cell::get)
}

// SAFETY: forwards every call to the system allocator unchanged.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCS.with(|a| a.set(a.get() + 1));
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn rule_agent_and_sampler_do_not_allocate() {
    let mut agent = RuleAgent::default();
    let mut views = Vec::new();
    for seed in 0..300u64 {
        let mut hand = common::hand(seed);
        let mut rngs = seat_rngs(seed);
        while let Some(seat) = hand.request().seat() {
            let v = hand.view(seat);
            views.push(v);
            let d = agent.decide(&v, &mut rngs[seat.index()]).unwrap();
            hand.apply(d).expect("legal");
        }
    }
    let mut rng = rng_from_seed(0);
    // Warm up lazily built tables before counting.
    for v in views.iter().take(50) {
        let _ = agent.decide(v, &mut rng).unwrap();
    }
    COUNTING.with(|c| c.set(true));
    for v in &views {
        std::hint::black_box(agent.decide(v, &mut rng).unwrap());
    }
    for v in views.iter().step_by(7) {
        let s = Sampler::new(v).expect("a real view");
        for _ in 0..4 {
            std::hint::black_box(s.sample(&mut rng));
            std::hint::black_box(s.sample_fast(&mut rng));
        }
    }
    COUNTING.with(|c| c.set(false));
    assert_eq!(allocs(), 0, "allocations in {} decisions", views.len());
    // The counter does count.
    COUNTING.with(|c| c.set(true));
    std::hint::black_box(Vec::<u8>::with_capacity(8));
    COUNTING.with(|c| c.set(false));
    assert_eq!(allocs(), 1);
}

/// The ISMCTS agents search without allocating once their arenas have grown to the
/// budget (the first search): the tree reuses its nodes, playouts and sampling
/// allocate nothing.
#[test]
fn ismcts_does_not_allocate_in_the_steady_state() {
    let mut rule = RuleAgent::default();
    let mut views = Vec::new();
    for seed in 0..40u64 {
        let mut hand = common::hand(seed);
        let mut rngs = seat_rngs(seed);
        while let Some(seat) = hand.request().seat() {
            let v = hand.view(seat);
            views.push(v);
            let d = rule.decide(&v, &mut rngs[seat.index()]).unwrap();
            hand.apply(d).expect("legal");
        }
    }
    for (playout, mo, iters) in
        [(Playout::Random, false, 300), (Playout::Random, true, 300), (Playout::Rule, false, 30)]
    {
        let mut agent = Ismcts::new(IsmctsParams {
            budget: Budget::Iterations(iters),
            playout,
            mo,
            ..IsmctsParams::default()
        });
        // A first pass grows the arenas to the largest search; the same searches
        // again (same random numbers) must not allocate.
        let mut rng = rng_from_seed(1);
        for v in views.iter().step_by(3) {
            std::hint::black_box(agent.decide(v, &mut rng).unwrap());
        }
        let mut rng = rng_from_seed(1);
        let before = allocs();
        COUNTING.with(|c| c.set(true));
        for v in views.iter().step_by(3) {
            std::hint::black_box(agent.decide(v, &mut rng).unwrap());
        }
        COUNTING.with(|c| c.set(false));
        let n = allocs() - before;
        assert_eq!(n, 0, "{playout:?} mo={mo}: allocations in {} decisions", views.len() / 3);
    }
}
