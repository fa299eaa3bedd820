//! The `pimc` and `oracle` agents: legal whole hands, determinism, and decisions
//! that follow from the solver.

use tresillo_agents::{Agent, Oracle, Position, RuleParams, SolverContext};
use tresillo_agents::{build_seated, cheat::Seated, play_hand, seat_rngs};
use tresillo_core::{Decision, Hand, Request, RuleSet, Seat};

fn hand(seed: u64) -> Hand {
    Hand::new(RuleSet::TRESILLO, 3, tresillo_agents::deal_for_seed(seed), Seat((seed % 3) as u8)).unwrap()
}

#[test]
fn pimc_and_oracle_play_legal_hands_deterministically() {
    for seed in 0..12u64 {
        let specs = ["pimc:worlds=6", "oracle", "rule"];
        let run = || {
            let mut h = hand(seed);
            let mut seats: Vec<Seated> = specs.iter().map(|s| build_seated(s).unwrap()).collect();
            let mut rngs = seat_rngs(seed);
            let r = play_hand(&mut h, &mut seats, &mut rngs).expect("legal decisions");
            (r, h.public().plays().to_vec())
        };
        assert_eq!(run(), run(), "seed {seed}");
    }
}

#[test]
fn oracle_plays_a_card_of_the_best_class() {
    // Whatever the oracle plays as the declarer, the solver must rate it as good
    // as the position's value.
    let mut checked = 0;
    for seed in 0..40u64 {
        let mut h = hand(seed);
        let mut rule = tresillo_agents::RuleAgent::new(RuleParams::default());
        let mut oracle = Oracle::new(RuleParams::default());
        let mut rngs = seat_rngs(seed);
        while let Some(seat) = h.request().seat() {
            let view = h.view(seat);
            let d = match (view.request(), h.public().declarer) {
                (Request::Play { legal, .. }, Some(decl)) if seat == decl && legal.len() > 1 => {
                    let d = tresillo_agents::cheat::CheatAgent::decide(&mut oracle, &h, seat, &mut rngs[0]);
                    let pos = Position::from_play_state(&h.play_state().unwrap(), decl).unwrap();
                    let sol = SolverContext::new().solve(&pos);
                    let Decision::Play(c) = d else { panic!("{d:?}") };
                    assert_eq!(sol.class_of(c), Some(sol.value), "seed {seed}");
                    checked += 1;
                    d
                }
                _ => rule.decide(&view, &mut rngs[seat.index()]).unwrap(),
            };
            h.apply(d).unwrap();
        }
    }
    assert!(checked > 20, "{checked}");
}

/// A hand where seat 0 (mano, dealer 2) holds `mine`; the other cards in order.
fn deal_with(mine: &str) -> Hand {
    let m = tresillo_core::parse_hand(mine).unwrap();
    let rest: Vec<String> = (m.complement()).iter().map(|c| c.to_string()).collect();
    let text =
        format!("{} / {} / {} / {}", m, rest[..9].join(" "), rest[9..18].join(" "), rest[18..].join(" "));
    Hand::new(RuleSet::TRESILLO, 3, tresillo_core::Deal::parse(&text).unwrap(), Seat(2)).unwrap()
}

#[test]
fn pimc_bids_a_strong_hand_and_passes_a_weak_one() {
    let mut rngs = seat_rngs(3);
    for (mine, bids) in [("1E 2E 1B 12E 11E 10E 7E 12C 12O", true), ("2C 3C 4C 5C 2O 3O 4O 5O 3B", false)] {
        let h = deal_with(mine);
        assert_eq!(h.request().seat(), Some(Seat(0)));
        let mut a = tresillo_agents::build_agent("pimc:bid_worlds=8").unwrap();
        a.new_hand();
        let d = a.decide(&h.view(Seat(0)), &mut rngs[0]).unwrap();
        assert_eq!(d != Decision::Bid(tresillo_core::Bid::Paso), bids, "{mine}: {d:?}");
    }
}

#[test]
fn take_work_counts_the_worlds_nodes_and_iterations_of_each_decision() {
    // Every card decision with a choice: `pimc:worlds=5:adaptive=0` draws exactly
    // 5 worlds, the oracle solves the 1 true world, `ismcts:iters=40` runs 40
    // iterations; the counts are taken once (then zero), and a forced card
    // (one legal) costs nothing.
    let mut pimc = tresillo_agents::build_agent("pimc:worlds=5:adaptive=0:threads=1").unwrap();
    let mut ismcts = tresillo_agents::build_agent("ismcts:iters=40").unwrap();
    let mut oracle = Oracle::new(RuleParams::default());
    let mut rule = tresillo_agents::RuleAgent::new(RuleParams::default());
    let (mut choices, mut forced) = (0, 0);
    for seed in 0..6u64 {
        let mut h = hand(seed);
        let mut rngs = seat_rngs(seed);
        while let Some(seat) = h.request().seat() {
            let view = h.view(seat);
            if let (Request::Play { legal, .. }, Some(_)) = (view.request(), h.public().declarer) {
                let mut r = rngs[0].clone();
                pimc.decide(&view, &mut r).unwrap();
                ismcts.decide(&view, &mut r).unwrap();
                tresillo_agents::cheat::CheatAgent::decide(&mut oracle, &h, seat, &mut r);
                let (p, i, o) = (
                    pimc.take_work(),
                    ismcts.take_work(),
                    tresillo_agents::cheat::CheatAgent::take_work(&mut oracle),
                );
                if legal.len() > 1 {
                    choices += 1;
                    assert_eq!((p.worlds, i.iters, o.worlds), (5, 40, 1), "seed {seed}");
                    assert!(p.nodes > 0 && o.nodes > 0, "seed {seed}: {p:?} {o:?}");
                } else {
                    forced += 1;
                    assert_eq!((p, i, o), Default::default(), "seed {seed}");
                }
                assert_eq!(pimc.take_work(), tresillo_agents::Work::default(), "taken once");
            }
            let d = rule.decide(&view, &mut rngs[seat.index()]).unwrap();
            h.apply(d).unwrap();
        }
    }
    assert!(choices > 30 && forced > 5, "{choices} {forced}");
}

#[test]
fn a_time_budget_draws_worlds_until_it_has_passed() {
    // `ms=`: at least one world, and (with the budget far above a world's
    // cost) more than one; the count is not fixed.
    let mut pimc = tresillo_agents::build_agent("pimc:ms=30:threads=1").unwrap();
    let mut rule = tresillo_agents::RuleAgent::new(RuleParams::default());
    let (mut seen, mut worlds) = (0, 0);
    for seed in 0..20u64 {
        let mut h = hand(seed);
        let mut rngs = seat_rngs(seed);
        while let Some(seat) = h.request().seat() {
            let view = h.view(seat);
            if let (Request::Play { legal, .. }, Some(_)) = (view.request(), h.public().declarer)
                && legal.len() > 1
            {
                let d = pimc.decide(&view, &mut rngs[0].clone()).unwrap();
                assert!(matches!(d, Decision::Play(c) if legal.contains(c)));
                let w = pimc.take_work().worlds;
                assert!(w >= 1);
                (seen, worlds) = (seen + 1, worlds + w);
            }
            let d = rule.decide(&view, &mut rngs[seat.index()]).unwrap();
            h.apply(d).unwrap();
        }
        if seen > 3 {
            break;
        }
    }
    assert!(seen > 3 && worlds > seen, "{seen} decisions, {worlds} worlds");
}
