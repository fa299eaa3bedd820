//! Tests of `exchange` (a file of their own: they build agents through the
//! registry, which imports this module, and a test module inside it would make an
//! import circle for scripts/check-imports.py).
use super::*;
use crate::Agent;
use crate::heuristic::rule::RuleAgent;
use crate::heuristic::rule_eval::RuleParams;
use crate::rng::{deal_for_seed, rng_from_seed};
use crate::search::pimc::{PimcAgent, PimcParams};
use tresillo_core::{Decision, Hand, Request, RuleSet, Rules};

fn searching(worlds: u32, cands: u32) -> PimcAgent {
    PimcAgent::new(PimcParams {
        worlds: 2,
        bid_worlds: 2,
        discard_search: true,
        discard_worlds: worlds,
        discard_cands: cands,
        discard_z: 0,
        ..PimcParams::default()
    })
}

/// Plays hands of `rules` at `players` seats with the rule agent, every
/// discard made by `agent` (applied, so it must be legal); calls `each`
/// with every discard's view, the agent's decision and the rule agent's.
fn discards(
    rules: Rules,
    players: u8,
    seeds: std::ops::Range<u64>,
    agent: &mut dyn Agent,
    mut each: impl FnMut(&PlayerView, CardSet, CardSet),
) -> usize {
    let mut n = 0;
    for seed in seeds {
        let dealer = Seat((seed % u64::from(players)) as u8);
        let deal = deal_for_seed(seed).seated(rules.table(players), dealer);
        let mut h = Hand::with_rules(rules, players, deal, dealer).unwrap();
        let mut rule = RuleAgent::new(RuleParams::default());
        let mut rng = rng_from_seed(seed);
        agent.new_hand();
        while let Some(seat) = h.request().seat() {
            let view = h.view(seat);
            let d = if let Request::Discard { .. } = view.request() {
                let Decision::Discard(ours) = agent.decide(&view, &mut rng).unwrap() else {
                    panic!("a discard")
                };
                let Decision::Discard(theirs) = rule.decide(&view, &mut rng).unwrap() else {
                    panic!("a discard")
                };
                each(&view, ours, theirs);
                n += 1;
                Decision::Discard(ours)
            } else {
                rule.decide(&view, &mut rng).unwrap()
            };
            h.apply(d).unwrap_or_else(|e| panic!("{rules}, {players} players, seed {seed}: {e}"));
        }
    }
    n
}

#[test]
fn candidates_start_with_rules_discard_and_respect_the_counts() {
    for seed in 0..300u64 {
        let hand = deal_for_seed(seed).hands.0[0];
        let trump = Suit::ALL[(seed % 4) as usize];
        for (min, max) in [(0, 9), (1, 9), (0, 3), (0, 0), (2, 2), (1, 13)] {
            let rule = exchange_discards(hand, trump, min, max.min(9));
            for cands in [1, 6, MAX_CANDIDATES] {
                let (c, n) = candidates(hand, trump, min, max, cands);
                assert_eq!(c[0], rule, "seed {seed}: rule's discard first");
                assert!(n >= 1 && n <= cands, "seed {seed}: {n} candidates");
                for (i, d) in c[..n].iter().enumerate() {
                    assert!(*d - hand == CardSet::EMPTY, "seed {seed}: from the hand");
                    assert!((min..=max).contains(&d.len()), "seed {seed}: {min}..={max}");
                    assert!(!c[..i].contains(d), "seed {seed}: no repeats");
                }
            }
        }
    }
}

#[test]
fn searched_discards_are_legal_in_every_rule_set() {
    let all_play = Rules::parse("tresillo", &[("penetro_all_play", "true")]).unwrap();
    let cases = [
        (Rules::default(), 3, 24),
        (Rules::from(RuleSet::TRESILLO_HOUSE), 3, 24),
        (Rules::from(RuleSet::HOMBRE), 3, 8),
        (Rules::from(RuleSet::LHOMBRE), 3, 8),
        (Rules::default(), 4, 8),
        (all_play, 4, 8),
    ];
    // Built from its spec: the parameters reach the agent.
    let mut agent = crate::build_agent("pimc:worlds=2:bid_worlds=2:discard=search:discard_worlds=4").unwrap();
    for (rules, players, seeds) in cases {
        let mut changed = 0;
        let n = discards(rules, players, 0..seeds, agent.as_mut(), |view, ours, theirs| {
            let Request::Discard { min, max, .. } = view.request() else { unreachable!() };
            assert!(ours - view.hand() == CardSet::EMPTY);
            assert!((u32::from(min)..=u32::from(max)).contains(&ours.len()));
            changed += usize::from(ours != theirs);
            if players == 4 || rules.set == RuleSet::HOMBRE || rules.set == RuleSet::LHOMBRE {
                assert_eq!(ours, theirs, "{rules}: as the rule agent");
            }
        });
        assert!(n > 0, "{rules}, {players} players: some discards");
        if players == 3 && rules.set == RuleSet::TRESILLO {
            assert!(changed > 0, "the search departs from rule's discard somewhere");
        }
    }
}

#[test]
fn declarer_only_searches_as_declarer() {
    let mut agent =
        crate::build_agent("pimc:worlds=2:bid_worlds=2:discard=declarer:discard_worlds=4").unwrap();
    let (mut changed, mut n) = (0, 0);
    discards(Rules::default(), 3, 0..40, agent.as_mut(), |view, ours, theirs| {
        if view.public().declarer == Some(view.seat()) {
            changed += usize::from(ours != theirs);
        } else {
            n += 1;
            assert_eq!(ours, theirs, "an opponent discards as rule");
        }
    });
    assert!(n > 0 && changed > 0, "{n} opponents' discards, {changed} declarer's searched away from rule");
}

#[test]
fn one_candidate_is_rules_discard_and_off_is_rule() {
    let mut one = searching(4, 1);
    let n = discards(Rules::default(), 3, 0..20, &mut one, |_, ours, theirs| assert_eq!(ours, theirs));
    assert!(n > 20);
    let mut off = PimcAgent::new(PimcParams { worlds: 2, bid_worlds: 2, ..PimcParams::default() });
    discards(Rules::default(), 3, 0..20, &mut off, |_, ours, theirs| assert_eq!(ours, theirs));
}

#[test]
fn bad_discard_parameters_are_errors() {
    use crate::{SpecError, build_agent};
    assert!(build_agent("pimc:discard=search:discard_worlds=8:discard_cands=3:discard_z=150").is_ok());
    assert!(build_agent("pimc:discard=rule").is_ok());
    assert!(build_agent("pimc:discard=declarer").is_ok());
    for bad in ["discard=maybe", "discard_cands=0", "discard_cands=13", "discard_worlds=0", "discard_z=-1"] {
        let spec = format!("pimc:{bad}");
        assert!(matches!(build_agent(&spec), Err(SpecError::BadValue { .. })), "{spec}");
    }
}

#[test]
fn a_gain_within_the_noise_keeps_rules_discard() {
    // Candidate 1 gains 4 over 8 worlds (0.5 a world; differences +2 in 3
    // worlds, -1 in 2, 0 in 3: squares 14): a standard error of about
    // 0.46, a gain of 1.08 of them, so z 1.0 switches and z 1.5 does not.
    let (sums, squares) = ([0, 4, -8], [0, 14, 40]);
    assert_eq!(choose(&sums, &squares, 8, 0), 1);
    assert_eq!(choose(&sums, &squares, 8, 100), 1);
    assert_eq!(choose(&sums, &squares, 8, 150), 0);
    // Equal sums: the earlier candidate.
    assert_eq!(choose(&[2, 2, 2], &[0, 4, 4], 4, 0), 0);
}

#[test]
fn searched_discards_are_deterministic() {
    let mut views = Vec::new();
    discards(Rules::default(), 3, 0..12, &mut searching(4, 6), |v, _, _| views.push(*v));
    assert!(views.len() > 12);
    let decide = |v: &PlayerView, k: u64| {
        let mut ctx = SolverContext::new();
        let mut rng = rng_from_seed(k);
        let Request::Discard { min, max, .. } = v.request() else { unreachable!() };
        let d = searched_discard(v, min, max, (8, 6, 100), &mut rng, &mut ctx, &mut 0);
        (d, rng)
    };
    // The same choice and generator afterwards, in a fresh or a used context.
    let mut warm = SolverContext::new();
    for (k, v) in views.iter().enumerate() {
        let want = decide(v, k as u64);
        let Request::Discard { min, max, .. } = v.request() else { unreachable!() };
        let mut rng = rng_from_seed(k as u64);
        let got = searched_discard(v, min, max, (8, 6, 100), &mut rng, &mut warm, &mut 0);
        assert!(want == (got, rng), "view {k}");
    }
}

#[test]
fn keeping_a_card_that_wins_is_found() {
    // Espadas trumps; the declarer (seat 0, mano) holds the three
    // matadors, the king of bastos, king and caballo of oros with the 4,
    // and caballo and sota of copas without their king: the rule agent
    // discards the copas and the 4 of oros and draws low bastos and oros
    // from the heap's top (its bottom holds the king of copas, which
    // nobody draws). In this world that is a puesta, and keeping the 4 of
    // oros (discarding the two copas only) a sacado: the search keeps it.
    let set = |cs: &[&str]| cs.iter().map(|s| s.parse::<Card>().unwrap()).collect::<CardSet>();
    let hand = set(&["1e", "2e", "1b", "12b", "11c", "10c", "12o", "11o", "4o"]);
    let a = set(&["12e", "11e", "10e", "7e", "11b", "10b", "7b", "6b", "5b"]);
    let b = set(&["6e", "5e", "4e", "3e", "1o", "2o", "3o", "10o", "5o"]);
    let heap: Vec<Card> = ["2b", "3b", "4b", "6o", "7o", "1c", "2c", "3c", "4c", "5c", "6c", "7c", "12c"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(heap.iter().copied().collect::<CardSet>() | hand | a | b, CardSet::FULL);
    let trump = Suit::Espadas;
    let rule = exchange_discards(hand, trump, 0, 9);
    assert_eq!(rule, set(&["11c", "10c", "4o"]));
    let world = Exchange {
        me: Seat(0),
        declarer: Seat(0),
        mano: Seat(0),
        trump,
        later: [(Seat(1), 9), (Seat(2), 9)],
        num_later: 2,
    };
    let (cand, n) = candidates(hand, trump, 0, 9, 6);
    let mut values = [0i64; MAX_CANDIDATES];
    let mut ctx = SolverContext::new();
    assert!(world.values([hand, a, b], &heap, &cand[..n], &mut ctx, &mut values));
    assert_eq!(values[0], -1, "rule's discard: a puesta");
    let best = choose(&values[..n], &[0; MAX_CANDIDATES][..n], 1, 0);
    assert_eq!(cand[best], set(&["11c", "10c"]), "keeps the 4 of oros");
    assert_eq!(values[best], 1, "a sacado");
}
