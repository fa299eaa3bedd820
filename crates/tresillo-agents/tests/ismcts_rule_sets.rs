//! `ismcts` in every rule set (RULES.md section 12): legal decisions against `rule`
//! in each rule set and option and at four players, the play-phase questions of
//! each rule set searched, rewards from the rule set's own ledger as the
//! tournament scores a deal, and MO equal to SO where every move is public.

use crate::common;
use tresillo_core::Question;

use tresillo_agents::{
    Agent, Budget, HandEnd, Ismcts, IsmctsParams, RandomAgent, RuleAgent, below, hand_tantos, ledger_tantos,
    rng_from_seed, seat_rngs, splitmix64,
};
use tresillo_core::{
    Bid, Contract, Decision, Hand, LedgerConfig, Outcome, Request, RuleSet, Rules, Scorer, ScoringMode, Seat,
    contract_condicion,
};

/// Every rule set and option, with the table size.
fn rule_sets() -> Vec<(Rules, u8)> {
    let p = |set: &str, o: &[(&str, &str)]| Rules::parse(set, o).unwrap();
    vec![
        (p("tresillo-house", &[]), 3),
        (p("tresillo", &[("palo_de_favor", "oros")]), 3),
        (p("tresillo", &[("codillo_old", "true")]), 3),
        (p("tresillo", &[]), 4),
        (p("tresillo", &[("penetro_all_play", "true")]), 4),
        (p("tresillo", &[("palo_de_favor", "copas"), ("codillo_old", "true")]), 4),
        (p("hombre", &[]), 3),
        (p("hombre", &[("show_heap", "true")]), 3),
        (p("hombre", &[("hombre-chips", "true"), ("gascarille", "true")]), 3),
        (p("hombre", &[("favorito", "true"), ("contrabola", "true")]), 3),
        (p("lhombre", &[]), 3),
        (p("lhombre", &[("redeal_all_pass", "true")]), 3),
    ]
}

/// A hand of `rules` at a table of `players` from the deal of `seed`.
fn hand(rules: Rules, players: u8, seed: u64) -> Hand {
    let dealer = Seat((seed % u64::from(players)) as u8);
    let deal = common::deal(seed).seated(rules.table(players), dealer);
    Hand::with_rules(rules, players, deal, dealer).expect("a full deal")
}

fn ismcts(iters: u32, mo: bool) -> Ismcts {
    Ismcts::new(IsmctsParams { budget: Budget::Iterations(iters), mo, ..IsmctsParams::default() })
}

/// What the searching seats decided, by request kind, in hands played out.
#[derive(Default, Debug)]
struct Searched {
    cards: u32,
    questions: u32,
    vole: u32,
}

/// Plays `hands` hands of `rules`: `ismcts` in seat 0 and the last seat (SO, or
/// MO), `rule` elsewhere; every decision is applied by the hand, which refuses
/// an illegal one.
fn play(rules: Rules, players: u8, hands: u64, mo: bool, seen: &mut Searched) {
    for k in 0..hands {
        let seed = splitmix64(k ^ u64::from(players) << 32 ^ u64::from(mo) << 40);
        let mut h = hand(rules, players, seed);
        let mut rngs = seat_rngs(seed);
        let mut search = ismcts(30, mo);
        let mut rule = RuleAgent::default();
        while let Some(seat) = h.request().seat() {
            let v = h.view(seat);
            let searching = seat.0 == 0 || seat.0 == players - 1;
            let d = if searching {
                let d = search.decide(&v, &mut rngs[seat.index()]).unwrap();
                if search.last_iterations() > 0 {
                    match v.request() {
                        Request::Play { .. } => seen.cards += 1,
                        Request::Ask { question: Question::DECLARE_VOLE, .. } => seen.vole += 1,
                        _ => seen.questions += 1,
                    }
                }
                d
            } else {
                rule.decide(&v, &mut rngs[seat.index()]).unwrap()
            };
            h.apply(d).unwrap_or_else(|e| panic!("{rules} at {players}, seed {seed}: {d:?}: {e}"));
        }
        assert!(h.is_done());
    }
}

#[test]
fn ismcts_plays_every_rule_set_legally_against_rule() {
    let n: u64 = std::env::var("TRESILLO_HANDS").ok().and_then(|s| s.parse().ok()).unwrap_or(6);
    let mut hombre = Searched::default();
    for (rules, players) in rule_sets() {
        let mut seen = Searched::default();
        play(rules, players, n, false, &mut seen);
        play(rules, players, n / 2, true, &mut seen);
        assert!(seen.cards > 0, "{rules} at {players}: no card searched");
        if rules.set == RuleSet::HOMBRE {
            hombre.vole += seen.vole;
        }
    }
    // Hombre's declared vole before the first trick is a searched question.
    assert!(hombre.vole > 0, "{hombre:?}");
}

/// Plays a hand of `rules` with random cards and random answers to every
/// question (surrender, takeover, accepting a surrendered vuelta, bola or tout,
/// declared vole), so that hands end in every way; the rule agent bids.
fn random_ending(rules: Rules, players: u8, seed: u64) -> Hand {
    random_ending_with(rules, players, seed, false)
}

/// [`random_ending`], with mano bidding and declaring vuelta when `vuelta`.
fn random_ending_with(rules: Rules, players: u8, seed: u64, vuelta: bool) -> Hand {
    let mut h = hand(rules, players, seed);
    let mut rngs = seat_rngs(seed);
    let mut rng = rng_from_seed(seed ^ 0xE4D);
    let mut rule = RuleAgent::default();
    while let Some(seat) = h.request().seat() {
        let v = h.view(seat);
        let yes = below(&mut rng, 2) == 1;
        let d = match v.request() {
            Request::Play { .. } => RandomAgent.decide(&v, &mut rngs[seat.index()]).unwrap(),
            Request::Ask { question: Question::SURRENDER, .. }
                if v.public().phase != tresillo_core::Phase::PenetroGiveUp =>
            {
                Decision::Answer(Question::SURRENDER, below(&mut rng, 3) == 0)
            }
            Request::Ask { question: Question::TAKE_OVER, .. } => Decision::Answer(Question::TAKE_OVER, yes),
            Request::Ask { question: Question::BOLA, .. } => Decision::Answer(Question::BOLA, yes),
            Request::Ask { question: Question::ACCEPT_SURRENDER, .. } => {
                Decision::Answer(Question::ACCEPT_SURRENDER, yes)
            }
            Request::Ask { question: Question::DECLARE_VOLE, .. } => {
                Decision::Answer(Question::DECLARE_VOLE, below(&mut rng, 4) == 0)
            }
            Request::Bid { .. } if vuelta => {
                Decision::Bid(if seat == v.public().mano() { Bid::Level(2) } else { Bid::Paso })
            }
            Request::Declare { .. } if vuelta => Decision::Declare(Contract::Vuelta, None),
            _ => rule.decide(&v, &mut rngs[seat.index()]).unwrap(),
        };
        h.apply(d).expect("legal");
    }
    h
}

/// The ledger the tournament scores a deal with (`--scoring deal`).
fn tournament_ledger(rules: Rules, players: u8) -> LedgerConfig {
    let mut l = LedgerConfig::with_rules(rules, players);
    l.deals = 1;
    l
}

/// The search's tantos are the tournament's scores of a deal (`Scorer` in `Deal`
/// mode) for hands that end every way in every rule set, and in plain `tresillo`
/// the fast search's [`hand_tantos`] is the same ledger (the dealer's tanto aside).
#[test]
fn rewards_are_the_ledgers_for_every_ending() {
    let mut endings = std::collections::HashSet::new();
    for (rules, players) in rule_sets().into_iter().chain([(Rules::default(), 3)]) {
        let ledger = tournament_ledger(rules, players);
        for seed in 0..80u64 {
            let h = random_ending(rules, players, seed);
            let r = h.result().expect("over");
            let mut scorer = Scorer::new(ScoringMode::Deal, ledger).unwrap();
            let s = scorer.apply(&r).unwrap();
            let t = ledger_tantos(&h, &ledger).expect("scored");
            for (i, x) in t.iter().enumerate().take(usize::from(players)) {
                assert_eq!(*x, s.total(Seat(i as u8)), "{rules}, seed {seed}");
            }
            let p = h.public();
            let kind = match r.outcome {
                Outcome::Puesta { .. } => "puesta",
                Outcome::Codillo { .. } => "codillo",
                _ => "won",
            };
            endings.insert((rules.set, kind, p.surrendered, p.took_over.is_some(), p.accepted != 0, p.bola));
            endings.insert((rules.set, "vole", None, false, false, p.vole_declared));
            if rules == Rules::default() && players == 3 {
                let Some(d) = p.original_declarer else { continue };
                let c = p.contract.expect("a contract");
                let e = HandEnd {
                    tricks: [p.tricks.0[0], p.tricks.0[1], p.tricks.0[2]],
                    original: d,
                    declarer: p.declarer.unwrap_or(d),
                    surrendered: p.surrendered == Some(true),
                    took_over: p.took_over,
                    bola: p.bola,
                    condicion: contract_condicion(c) as i32,
                    estuche: r.estuche,
                };
                let fast = hand_tantos(&e);
                for i in 0..3 {
                    let dealer = i64::from(Seat(i as u8) == p.dealer);
                    assert_eq!(i64::from(fast[i]), t[i] + dealer, "seed {seed}: {e:?}");
                }
            }
        }
    }
    // Every way a hand ends, in the rule sets that have it.
    for want in [
        (RuleSet::HOMBRE, "won", Some(false), false, false, None),
        (RuleSet::HOMBRE, "vole", None, false, false, Some(true)),
        (RuleSet::TRESILLO, "codillo", Some(false), false, false, None),
        (RuleSet::TRESILLO, "won", Some(false), false, false, Some(false)),
        (RuleSet::TRESILLO, "puesta", Some(true), false, false, None),
        (RuleSet::LHOMBRE, "won", None, false, false, None),
        (RuleSet::LHOMBRE, "puesta", None, false, false, None),
    ] {
        assert!(endings.contains(&want), "{want:?} never happened");
    }
    assert!(endings.iter().any(|e| e.0 == RuleSet::TRESILLO && e.3), "no takeover");
    assert!(endings.iter().any(|e| e.0 == RuleSet::HOMBRE && e.3), "no takeover in hombre");
    // A vuelta surrendered and accepted by both opponents (hombre): rarer.
    let hombre = Rules::from(RuleSet::HOMBRE);
    let ledger = tournament_ledger(hombre, 3);
    let mut accepted = 0;
    for seed in 0..400u64 {
        let h = random_ending_with(hombre, 3, seed, true);
        if h.public().accepted.count_ones() == 2 {
            let r = h.result().expect("over");
            let s = Scorer::new(ScoringMode::Deal, ledger).unwrap().apply(&r).unwrap();
            let t = ledger_tantos(&h, &ledger).expect("scored");
            assert!((0..3).all(|i| t[i] == s.total(Seat(i as u8))), "seed {seed}");
            assert!(matches!(r.outcome, Outcome::Puesta { .. }), "seed {seed}");
            accepted += 1;
            if accepted == 3 {
                break;
            }
        }
    }
    assert!(accepted > 0, "no accepted vuelta surrender");
}

/// The decisions of seat 0 (`ismcts`, the others `rule`) over a hand.
fn decisions(rules: Rules, players: u8, seed: u64, mo: bool) -> Vec<Decision> {
    let mut h = hand(rules, players, seed);
    let mut rngs = seat_rngs(seed);
    let mut a = ismcts(120, mo);
    let mut rule = RuleAgent::default();
    let mut out = Vec::new();
    while let Some(seat) = h.request().seat() {
        let v = h.view(seat);
        let d = if seat.0 == 0 {
            a.decide(&v, &mut rngs[0]).unwrap()
        } else {
            rule.decide(&v, &mut rngs[seat.index()]).unwrap()
        };
        if seat.0 == 0 {
            out.push(d);
        }
        h.apply(d).expect("legal");
    }
    out
}

/// Every searched move is public in every rule set, so MO-ISMCTS (a tree per
/// seat) chooses as SO-ISMCTS does with the same random numbers.
#[test]
fn mo_chooses_as_so_in_every_rule_set() {
    let p = |set: &str, o: &[(&str, &str)]| Rules::parse(set, o).unwrap();
    for (rules, players) in [
        (p("hombre", &[]), 3),
        (p("lhombre", &[]), 3),
        (p("tresillo", &[]), 4),
        (p("tresillo", &[("penetro_all_play", "true")]), 4),
    ] {
        for seed in 0..3u64 {
            let so = decisions(rules, players, seed, false);
            let mo = decisions(rules, players, seed, true);
            assert_eq!(so, mo, "{rules} at {players}, seed {seed}");
        }
    }
}

/// Nolo contracts are searched too: the declarer of a nolo wants no tricks, and
/// the search's rewards come from the ledger, which says so.
#[test]
fn nolo_hands_are_searched() {
    let rules = Rules::from(RuleSet::LHOMBRE);
    let mut searched = 0;
    for seed in 0..400u64 {
        let mut h = hand(rules, 3, seed);
        let mut rngs = seat_rngs(seed);
        let mut rule = RuleAgent::default();
        while !matches!(h.request(), Request::Play { .. } | Request::Done) {
            let seat = h.request().seat().expect("a seat");
            let d = rule.decide(&h.view(seat), &mut rngs[seat.index()]).unwrap();
            h.apply(d).expect("legal");
        }
        let p = *h.public();
        if !matches!(p.contract, Some(Contract::Nolo | Contract::PureNolo | Contract::NoloOuvert)) {
            continue;
        }
        let mut a = ismcts(40, false);
        while let Some(seat) = h.request().seat() {
            let v = h.view(seat);
            let d = a.decide(&v, &mut rngs[seat.index()]).unwrap();
            searched += u32::from(a.last_iterations() > 0);
            h.apply(d).expect("legal");
        }
        if searched > 20 {
            break;
        }
    }
    assert!(searched > 0, "no nolo hand found");
}

#[test]
fn four_player_penetros_are_searched() {
    // A penetro (every active player passes, the espada in the heap): the
    // dealer plays, and `ismcts` decides its cards from its view.
    let rules = Rules::parse("tresillo", &[("penetro_all_play", "true")]).unwrap();
    let mut played = 0;
    for seed in 0..200u64 {
        let mut h = hand(rules, 4, seed);
        let mut rngs = seat_rngs(seed);
        let mut rule = RuleAgent::default();
        let mut a = ismcts(30, true);
        while let Some(seat) = h.request().seat() {
            let v = h.view(seat);
            let d = match v.request() {
                Request::Bid { .. } => Decision::Bid(Bid::Paso),
                Request::Play { .. } if h.public().penetro.active => {
                    let d = a.decide(&v, &mut rngs[seat.index()]).unwrap();
                    played += u32::from(a.last_iterations() > 0);
                    d
                }
                _ => rule.decide(&v, &mut rngs[seat.index()]).unwrap(),
            };
            h.apply(d).expect("legal");
        }
        if played > 10 {
            break;
        }
    }
    assert!(played > 0, "no penetro searched");
}

/// The agent sees only the view in every rule set: another world behind the same
/// view (drawn by the sampler and replayed) gets the same decision from the same
/// seed.
#[test]
fn decisions_depend_only_on_the_view_in_every_rule_set() {
    let mut compared = 0;
    for (rules, players) in rule_sets() {
        for seed in 0..3u64 {
            let mut h = hand(rules, players, seed);
            let mut rngs = seat_rngs(seed);
            let mut rule = RuleAgent::default();
            let mut k = 0u64;
            while let Some(seat) = h.request().seat() {
                let v = h.view(seat);
                if matches!(v.request(), Request::Play { legal, .. } if legal.len() > 1)
                    && k.is_multiple_of(5)
                {
                    let s = tresillo_agents::Sampler::new(&v).expect("a real view");
                    let w = s.sample(&mut rng_from_seed(seed ^ k));
                    let other = w.replay(&v).unwrap_or_else(|e| {
                        panic!("{rules} at {players}, seed {seed}, k {k}: {e}\n{w:?}\n{:?}", h.public())
                    });
                    let v2 = other.view(seat);
                    assert_eq!(v, v2);
                    let da = ismcts(60, false).decide(&v, &mut rng_from_seed(k)).unwrap();
                    let db = ismcts(60, false).decide(&v2, &mut rng_from_seed(k)).unwrap();
                    assert_eq!(da, db, "{rules} at {players}, seed {seed}");
                    compared += 1;
                }
                k += 1;
                let d = rule.decide(&v, &mut rngs[seat.index()]).unwrap();
                h.apply(d).expect("legal");
            }
        }
    }
    assert!(compared > 30, "{compared}");
}

/// Rule playouts (the rule agent at every seat from the node on) in the other
/// rule sets: legal decisions.
#[test]
fn rule_playouts_play_every_rule_set_legally() {
    for (rules, players) in rule_sets() {
        let seed = 7;
        let mut h = hand(rules, players, seed);
        let mut rngs = seat_rngs(seed);
        let mut a = Ismcts::new(IsmctsParams {
            budget: Budget::Iterations(15),
            playout: tresillo_agents::Playout::Rule,
            ..IsmctsParams::default()
        });
        while let Some(seat) = h.request().seat() {
            let v = h.view(seat);
            let d = a.decide(&v, &mut rngs[seat.index()]).unwrap();
            h.apply(d).unwrap_or_else(|e| panic!("{rules} at {players}: {d:?}: {e}"));
        }
    }
}
