//! `pimc`, `oracle` and `cheat` under every rule set (RULES.md section 12):
//! small duplicate tournaments against `rule` in `hombre` (points, chips,
//! contrabola, favorito, gascarille), `lhombre` (nolo contracts included),
//! `tresillo-house` and four-player `tresillo` (with and without
//! `penetro_all_play`) end without an illegal decision and score; nolo ouvert's
//! public hand is the declarer's in every sampled world.

use crate::common;
use tresillo_core::Question;

use tresillo_agents::cheat::Seated;
use tresillo_agents::{
    Agent, Sampler, build_agent, build_seated, play_hand, rng_from_seed, seat_rngs, splitmix64,
};
use tresillo_core::{
    Bid, Contract, Decision, Hand, HandResult, LedgerConfig, Request, RuleSet, Rules, Seat, score_deal,
};

/// Plays `deals` deals of `rules` at a table of `players`, each once per seat
/// of `spec` with `rule` in the other seats (duplicate); every result scores
/// with a fresh ledger. Returns the results.
fn duplicate(spec: &str, rules: Rules, players: u8, deals: u64, salt: u64) -> Vec<HandResult> {
    let mut out = Vec::new();
    for i in 0..deals {
        let seed = splitmix64(salt ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let dealer = Seat((i % u64::from(players)) as u8);
        for at in 0..players {
            let mut agents: Vec<Seated> = (0..players)
                .map(|s| build_seated(if s == at { spec } else { "rule" }).expect("a valid spec"))
                .collect();
            let deal = common::deal(seed).seated(rules.table(players), dealer);
            let mut hand = Hand::with_rules(rules, players, deal, dealer).unwrap();
            let mut rngs = seat_rngs(seed);
            let r = play_hand(&mut hand, &mut agents, &mut rngs)
                .unwrap_or_else(|e| panic!("{rules}, {spec} at {at}, seed {seed}: {e}"));
            score_deal(LedgerConfig::with_rules(rules, players), &r)
                .unwrap_or_else(|e| panic!("{rules}, {spec} at {at}, seed {seed}: {e}: {r:?}"));
            out.push(r);
        }
    }
    out
}

const SEARCHERS: [&str; 3] = ["pimc:worlds=4:bid_worlds=2", "oracle", "cheat:rollouts=4"];

#[test]
fn search_agents_play_hombre_points_chips_and_its_options() {
    let p = |o: &[(&str, &str)]| Rules::parse("hombre", o).unwrap();
    for rules in [
        p(&[]),
        p(&[("hombre-chips", "true"), ("gascarille", "true")]),
        p(&[("favorito", "true"), ("contrabola", "true"), ("show_heap", "true")]),
    ] {
        for spec in SEARCHERS {
            duplicate(spec, rules, 3, 4, 1);
        }
    }
}

#[test]
fn search_agents_play_lhombre() {
    let rules = Rules::from(RuleSet::LHOMBRE);
    for spec in SEARCHERS {
        duplicate(spec, rules, 3, 4, 2);
    }
}

#[test]
fn search_agents_play_tresillo_house() {
    for spec in SEARCHERS {
        duplicate(spec, Rules::from(RuleSet::TRESILLO_HOUSE), 3, 3, 3);
    }
}

#[test]
fn search_agents_play_four_players_with_and_without_all_play() {
    let all_play = Rules::parse("tresillo", &[("penetro_all_play", "true")]).unwrap();
    for rules in [Rules::default(), all_play] {
        for spec in SEARCHERS {
            duplicate(spec, rules, 4, 3, 4);
        }
    }
}

/// A `lhombre` hand of the deal of `seed` in which the first bidder declares
/// `contract` (every other seat passes), then the seats play with `agents`.
fn forced_contract(seed: u64, contract: Contract, agents: &mut [Box<dyn Agent>]) -> HandResult {
    let rules = Rules::from(RuleSet::LHOMBRE);
    let mut h = Hand::with_rules(rules, 3, common::deal(seed), Seat((seed % 3) as u8)).unwrap();
    let mut rngs = seat_rngs(seed);
    while let Some(seat) = h.request().seat() {
        let d = match h.request() {
            Request::Bid { .. } if h.public().standing.is_none() => {
                Decision::Bid(Bid::Level(contract.level()))
            }
            Request::Bid { .. } => Decision::Bid(Bid::Paso),
            Request::Declare { .. } => Decision::Declare(contract, None),
            _ => agents[seat.index()].decide(&h.view(seat), &mut rngs[seat.index()]).unwrap(),
        };
        h.apply(d).unwrap_or_else(|e| panic!("seed {seed}, {contract}: {e}"));
    }
    h.result().unwrap()
}

#[test]
fn pimc_declares_and_defends_lhombre_nolo_contracts_legally() {
    for contract in [Contract::Nolo, Contract::PureNolo, Contract::NoloOuvert] {
        for seed in 0..3u64 {
            let mut agents: Vec<Box<dyn Agent>> =
                (0..3).map(|_| build_agent("pimc:worlds=4").unwrap()).collect();
            let r = forced_contract(seed, contract, &mut agents);
            assert_eq!(r.contract, Some(contract));
            assert!(score_deal(LedgerConfig::with_rules(Rules::from(RuleSet::LHOMBRE), 3), &r).is_ok());
        }
    }
}

#[test]
fn nolo_ouverts_public_hand_reaches_the_worlds() {
    let mut checked = 0;
    for seed in 0..6u64 {
        let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| build_agent("rule").unwrap()).collect();
        let rules = Rules::from(RuleSet::LHOMBRE);
        let mut h = Hand::with_rules(rules, 3, common::deal(seed), Seat((seed % 3) as u8)).unwrap();
        let mut rngs = seat_rngs(seed);
        while let Some(seat) = h.request().seat() {
            let view = h.view(seat);
            if let (Some(exposed), Some(decl)) = (view.exposed_hand(), h.public().declarer)
                && seat != decl
                && matches!(view.request(), Request::Play { .. })
            {
                assert_eq!(exposed, h.hand_of(decl), "seed {seed}");
                let sampler = Sampler::new(&view).unwrap();
                let mut rng = rng_from_seed(seed);
                for _ in 0..20 {
                    assert_eq!(sampler.sample(&mut rng).hands[decl], exposed, "seed {seed}");
                }
                checked += 1;
            }
            let d = match h.request() {
                Request::Bid { .. } if h.public().standing.is_none() => Decision::Bid(Bid::Level(7)),
                Request::Bid { .. } => Decision::Bid(Bid::Paso),
                Request::Declare { .. } => Decision::Declare(Contract::NoloOuvert, None),
                _ => agents[seat.index()].decide(&view, &mut rngs[seat.index()]).unwrap(),
            };
            h.apply(d).unwrap();
        }
        assert_eq!(h.public().contract, Some(Contract::NoloOuvert));
    }
    assert!(checked > 20, "{checked}");
}

/// Plays hands of `rules` with `rule` in every seat and asks the general search
/// every play-phase question on the true hands: each is answered (the stakes
/// score with the ledger, a world is solved) and legally. Returns how many
/// questions of each kind were asked (card, surrender, takeover, bola, accept,
/// vole). With `vuelta`, every declarer who may names vuelta; with `sampled`,
/// the worlds are drawn from the view (as `pimc` does), else the true hands.
fn general_answers_everything(
    rules: Rules,
    players: u8,
    deals: u64,
    vuelta: bool,
    sampled: bool,
) -> [u32; 6] {
    use tresillo_agents::gpimc::General;
    let mut asked = [0u32; 6];
    let mut general = General::new();
    for seed in 0..deals {
        let dealer = Seat((seed % u64::from(players)) as u8);
        let mut h =
            Hand::with_rules(rules, players, common::deal(seed).seated(rules.table(players), dealer), dealer)
                .unwrap();
        let mut agents: Vec<Box<dyn Agent>> = (0..players).map(|_| build_agent("rule").unwrap()).collect();
        let mut rngs = seat_rngs(seed);
        while let Some(seat) = h.request().seat() {
            let view = h.view(seat);
            let give_up = h.public().phase == tresillo_core::Phase::PenetroGiveUp;
            let kind = match view.request() {
                _ if give_up => None,
                Request::Play { legal, .. } if legal.len() > 1 => Some(0),
                Request::Ask { question: Question::SURRENDER, .. } => Some(1),
                Request::Ask { question: Question::TAKE_OVER, .. } => Some(2),
                Request::Ask { question: Question::BOLA, .. } => Some(3),
                Request::Ask { question: Question::ACCEPT_SURRENDER, .. } => Some(4),
                Request::Ask { question: Question::DECLARE_VOLE, .. } => Some(5),
                _ => None,
            };
            let d = if let (Request::Declare { min_level, forced: false, .. }, true) =
                (view.request(), vuelta)
                && min_level <= 2
            {
                Decision::Declare(Contract::Vuelta, None)
            } else if let Some(k) = kind {
                asked[k] += 1;
                let d = if sampled {
                    // pimc's path: worlds drawn from the view.
                    let sampler = Sampler::new(&view).unwrap_or_else(|e| panic!("{rules}, seed {seed}: {e}"));
                    let mut rng = rng_from_seed(seed);
                    general.decide(&view, 2, None, || Some(sampler.sample(&mut rng).hands))
                } else {
                    // oracle's path: the true hands.
                    let hands = tresillo_core::BySeat(std::array::from_fn(|i| h.hand_of(Seat(i as u8))));
                    let mut once = Some(hands);
                    general.decide(&view, 1, None, || once.take())
                };
                let d = d.unwrap_or_else(|| panic!("{rules}, seed {seed}: {:?} unanswered", view.request()));
                // Give up every hombre game that may be given up, so that the
                // opponents are asked to accept the surrendered vuelta.
                if k == 1 && rules.set == RuleSet::HOMBRE {
                    Decision::Answer(Question::SURRENDER, true)
                } else {
                    d
                }
            } else {
                agents[seat.index()].decide(&view, &mut rngs[seat.index()]).unwrap()
            };
            h.apply(d).unwrap_or_else(|e| panic!("{rules}, seed {seed}: {e}"));
        }
    }
    asked
}

#[test]
fn the_general_search_answers_every_play_question_of_every_rule_set() {
    let hombre = |o: &[(&str, &str)]| Rules::parse("hombre", o).unwrap();
    let cases = [
        (hombre(&[]), 3),
        (hombre(&[("hombre-chips", "true"), ("gascarille", "true")]), 3),
        (hombre(&[("favorito", "true"), ("contrabola", "true")]), 3),
        (Rules::from(RuleSet::LHOMBRE), 3),
        (Rules::default(), 4),
        (Rules::parse("tresillo", &[("penetro_all_play", "true")]).unwrap(), 4),
    ];
    let mut total = [0u32; 6];
    for (rules, players) in cases {
        for sampled in [false, true] {
            // Four-card tricks (penetro_all_play) are the general solver's
            // slowest: the true hands only (pimc's sampled worlds at four players
            // are played in `search_agents_play_four_players_...`).
            if sampled && rules.penetro_all_play() {
                continue;
            }
            let deals = if rules.penetro_all_play() { 12 } else { 25 };
            let asked =
                general_answers_everything(rules, players, deals, rules.set == RuleSet::HOMBRE, sampled);
            assert!(asked[0] > 100, "{rules}: {asked:?}");
            for k in 0..6 {
                total[k] += asked[k];
            }
        }
    }
    // Every kind of question came up somewhere.
    assert!(total.iter().all(|&n| n > 0), "{total:?}");
}
