//! The `ismcts` agent: legal in every seat, deterministic given its seed, the same
//! decisions whatever the hidden cards behind a view, MO equal to SO when every move
//! is public, and clear errors for bad parameters.

use crate::common;

use tresillo_agents::{
    Agent, Budget, Ismcts, IsmctsParams, Playout, RuleAgent, Sampler, build_agent, play_hand, rng_from_seed,
    seat_rngs, splitmix64,
};
use tresillo_core::{Decision, Hand, Request};

fn agent(iters: u32, playout: Playout, mo: bool) -> Ismcts {
    Ismcts::new(IsmctsParams { budget: Budget::Iterations(iters), playout, mo, ..IsmctsParams::default() })
}

/// Every decision of `hand` for the seats in `searching` (the others are `rule`),
/// collected as (view, decision) pairs while playing it out.
fn play_recording(hand: &mut Hand, ag: &mut Ismcts, seed: u64) -> Vec<Decision> {
    let mut rule = RuleAgent::default();
    let mut rngs = seat_rngs(seed);
    let mut out = Vec::new();
    while let Some(seat) = hand.request().seat() {
        let v = hand.view(seat);
        let d = if seat.0 == 0 {
            ag.decide(&v, &mut rngs[0]).unwrap()
        } else {
            rule.decide(&v, &mut rngs[seat.index()]).unwrap()
        };
        hand.apply(d).expect("a legal decision");
        out.push(d);
    }
    out
}

#[test]
fn ismcts_plays_legally_in_every_seat() {
    let n: u64 = std::env::var("TRESILLO_HANDS").ok().and_then(|s| s.parse().ok()).unwrap_or(150);
    for (i, (playout, mo)) in
        [(Playout::Random, false), (Playout::Random, true), (Playout::Rule, false)].into_iter().enumerate()
    {
        let iters = if playout == Playout::Rule { 20 } else { 60 };
        let hands = if playout == Playout::Rule { n / 3 } else { n };
        let mut agents: Vec<Box<dyn Agent>> = vec![
            Box::new(agent(iters, playout, mo)),
            Box::new(RuleAgent::default()),
            Box::new(agent(iters, playout, mo)),
        ];
        for k in 0..hands {
            let seed = splitmix64(k ^ (i as u64) << 40);
            let mut hand = common::hand(seed);
            let mut rngs = seat_rngs(seed);
            play_hand(&mut hand, &mut agents, &mut rngs).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(hand.is_done());
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_decisions() {
    for seed in 0..8u64 {
        let a = play_recording(&mut common::hand(seed), &mut agent(200, Playout::Random, false), seed);
        let b = play_recording(&mut common::hand(seed), &mut agent(200, Playout::Random, false), seed);
        assert_eq!(a, b, "seed {seed}");
    }
}

/// With every move of the play phase public, the three trees of MO-ISMCTS grow as
/// the one tree of SO-ISMCTS does, and with the same random numbers they choose
/// the same moves.
#[test]
fn mo_chooses_as_so_when_every_move_is_public() {
    for seed in 0..6u64 {
        let so = play_recording(&mut common::hand(seed), &mut agent(300, Playout::Random, false), seed);
        let mo = play_recording(&mut common::hand(seed), &mut agent(300, Playout::Random, true), seed);
        assert_eq!(so, mo, "seed {seed}");
    }
}

/// The agent sees only the view: two hands with different hidden cards behind the
/// same view get the same decision from the same seed.
#[test]
fn decisions_depend_only_on_the_view() {
    let mut compared = 0;
    for seed in 0..40u64 {
        let mut hand = common::hand(seed);
        let mut rngs = seat_rngs(seed);
        let mut rule = RuleAgent::default();
        let mut k = 0;
        while let Some(seat) = hand.request().seat() {
            let v = hand.view(seat);
            if matches!(v.request(), Request::Play { legal, .. } if legal.len() > 1) && k % 4 == 0 {
                // Another world behind the same view.
                let s = Sampler::new(&v).expect("a real view");
                let other = s.sample(&mut rng_from_seed(seed ^ k)).replay(&v).expect("a consistent world");
                let v2 = other.view(seat);
                assert_eq!(v, v2);
                let (mut a, mut b) = (agent(150, Playout::Random, false), agent(150, Playout::Random, false));
                let da = a.decide(&v, &mut rng_from_seed(k)).unwrap();
                let db = b.decide(&v2, &mut rng_from_seed(k)).unwrap();
                assert_eq!(da, db);
                compared += 1;
            }
            k += 1;
            let d = rule.decide(&v, &mut rngs[seat.index()]).unwrap();
            hand.apply(d).expect("legal");
        }
    }
    assert!(compared > 30);
}

/// The first hand from `seed` on that reaches play, at its first card (the rule
/// agent bids and exchanges).
fn first_card(seed: u64) -> Hand {
    for s in seed.. {
        let mut hand = common::hand(s);
        let mut rngs = seat_rngs(s);
        let mut rule = RuleAgent::default();
        while !matches!(hand.request(), Request::Play { .. } | Request::Done) {
            let seat = hand.request().seat().expect("a seat");
            let d = rule.decide(&hand.view(seat), &mut rngs[seat.index()]).unwrap();
            hand.apply(d).expect("legal");
        }
        if !hand.is_done() {
            return hand;
        }
    }
    unreachable!("some deal is played")
}

#[test]
fn iterations_and_memory_are_as_documented() {
    let hand = first_card(0);
    let seat = hand.request().seat().expect("play begins");
    let mut a = agent(2000, Playout::Random, false);
    let d = a.decide(&hand.view(seat), &mut rng_from_seed(1)).unwrap();
    assert!(matches!(d, Decision::Play(_)));
    assert_eq!(a.last_iterations(), 2000);
    // One node per iteration at most, plus the root.
    assert!(a.last_nodes() <= 2001 && a.last_nodes() > 100, "{}", a.last_nodes());
    assert_eq!(tresillo_agents::NODE_BYTES, 32);
}

#[test]
fn bad_parameters_are_refused_with_the_parameter_named() {
    let mut p = IsmctsParams::default();
    assert!(p.set("iters", "0").unwrap_err().to_string().contains("between 1"));
    assert!(p.set("c", "-0.5").unwrap_err().to_string().contains("at least 0"));
    assert!(p.set("c", "nan").is_err());
    assert!(p.set("playout", "greedy").unwrap_err().to_string().contains("random"));
    assert!(p.set("mo", "2").is_err());
    assert_eq!(p.set("entrada", "40"), Ok(false));
    assert_eq!(p.set("c", "1.5"), Ok(true));
    assert_eq!(p.c, 1.5);
    assert_eq!(p.set("ms", "20"), Ok(true));
    assert_eq!(p.budget, Budget::Millis(20));
    // Through the registry: one line naming the parameter.
    for (spec, param) in [
        ("ismcts:iters=0", "`iters`"),
        ("ismcts:c=-1", "`c`"),
        ("ismcts:playout=greedy", "`playout`"),
        ("ismcts:mo=yes", "`mo`"),
        ("ismcts:depth=3", "`depth`"),
    ] {
        let e = build_agent(spec).map(|a| a.name().to_string()).unwrap_err().to_string();
        assert!(e.contains(param) && !e.contains('\n'), "{spec}: {e}");
    }
    assert_eq!(build_agent("ismcts:iters=50:c=1.2:playout=rule:mo=1:entrada=40").unwrap().name(), "ismcts");
}

#[test]
fn a_time_budget_searches_until_the_time_is_up() {
    let hand = first_card(5);
    let seat = hand.request().seat().expect("play begins");
    let mut a = Ismcts::new(IsmctsParams { budget: Budget::Millis(20), ..IsmctsParams::default() });
    let d = a.decide(&hand.view(seat), &mut rng_from_seed(2)).unwrap();
    hand.request().check(&d, hand.hand_of(seat)).expect("a legal card");
    assert!(a.last_iterations() >= 32, "{}", a.last_iterations());
}
