//! The learning loop end to end, small: rows checked against the deals they
//! come from, a tiny training run whose loss falls and whose card-location model
//! beats the uniform guess on held-out deals, the agents that use the models,
//! and the structural guarantee that a network sees nothing its seat may not.

use std::sync::Arc;
use tresillo_agents::{Agent, Registry};
use tresillo_core::{CardSet, Rules, Seat};
use tresillo_learn::data::{self, PLACES, Row, Setup};
use tresillo_learn::features::{self, INPUT};
use tresillo_learn::{Kind, Net, TrainConfig};

fn setup() -> Setup {
    Setup { rules: Rules::default(), players: 3, seed: 11, explore: 0, phases: 0 }
}

fn rule_rows(deals: u64) -> Vec<Row> {
    let specs = vec!["rule".to_string(); 3];
    data::play_deals(&setup(), &specs, &Registry::builtin(), 0..deals).unwrap()
}

#[test]
fn rows_agree_with_the_deals_they_come_from() {
    let rows = rule_rows(40);
    assert!(rows.len() > 40 * 30, "{} rows", rows.len());
    // Replay each deal with the same agents and check every row against the hand.
    let mut agents: Vec<Box<dyn Agent>> =
        (0..3).map(|_| Registry::builtin().build_agent("rule").unwrap()).collect();
    for d in 0..40u64 {
        let mut again = Vec::new();
        data::play_deal(&setup(), d, &mut agents, &mut again).unwrap();
        let mine: Vec<&Row> = rows.iter().filter(|r| r.deal == d).collect();
        assert_eq!(mine.len(), again.len());
        assert!(mine.iter().zip(&again).all(|(a, b)| *a == b), "deal {d}: rows differ on replay");
        // The first row of the deal: the hand as dealt.
        let hand = data::new_hand(setup().rules, 3, setup().seed, d).unwrap();
        let first = mine[0];
        let seat = Seat(first.seat);
        let view = hand.view(seat);
        let mut x = vec![0f32; INPUT];
        first.input(&mut x);
        assert_eq!(x, features::input(&view, CardSet::EMPTY), "deal {d}: the input is the view's");
        for c in CardSet::FULL {
            let place = first.owners[c.index()];
            let truth = if view.known_cards().contains(c) {
                "known"
            } else if hand.heap_remaining().contains(c) {
                "heap"
            } else if hand.hand_of(seat.plus(1, 3)).contains(c) {
                "next"
            } else {
                assert!(hand.hand_of(seat.plus(2, 3)).contains(c));
                "second"
            };
            assert_eq!(PLACES[usize::from(place)], truth, "deal {d}, card {c}");
        }
        // Every row of the deal has the seat's score, the same for a seat's rows.
        for r in &mine {
            assert!(r.is_legal(usize::from(r.action)));
            let same_seat = mine.iter().find(|o| o.seat == r.seat).unwrap();
            assert_eq!(r.tantos, same_seat.tantos);
        }
    }
}

#[test]
fn rows_do_not_depend_on_the_thread_count() {
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| rule_rows(150));
    let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| rule_rows(150));
    assert!(one == two);
}

#[test]
fn a_network_sees_only_its_seats_view() {
    // A marker planted in the hidden cards: two deals that differ only in which
    // opponent holds two cards give the seat the same input, at every decision
    // reached alike.
    let hand = data::new_hand(Rules::default(), 3, 5, 0).unwrap();
    let me = hand.request().seat().unwrap();
    let (a, b) = (me.plus(1, 3), me.plus(2, 3));
    let ca = hand.hand_of(a).first().unwrap();
    let cb = hand.hand_of(b).first().unwrap();
    let mut hands = tresillo_core::BySeat::default();
    for s in 0..3u8 {
        let mut h = hand.hand_of(Seat(s));
        if Seat(s) == a {
            h.take(ca);
            h.insert(cb);
        } else if Seat(s) == b {
            h.take(cb);
            h.insert(ca);
        }
        hands[Seat(s)] = h;
    }
    let deal = tresillo_core::Deal { hands, heap: hand.deal().heap };
    let swapped = tresillo_core::Hand::with_rules(Rules::default(), 3, deal, hand.public().dealer).unwrap();
    assert_ne!(hand.hand_of(a), swapped.hand_of(a));
    assert_eq!(
        features::input(&hand.view(me), CardSet::EMPTY),
        features::input(&swapped.view(me), CardSet::EMPTY),
        "the input changed with cards the seat cannot see"
    );
}

fn tiny(kind: Kind, slot: Option<u8>) -> TrainConfig {
    TrainConfig {
        kind,
        hidden: vec![64],
        epochs: 3,
        batch: 128,
        lr: 3e-3,
        seed: 7,
        held_out: 20,
        slot,
        ..TrainConfig::default()
    }
}

#[test]
fn a_tiny_card_location_model_learns_and_beats_the_uniform_guess() {
    let rows = rule_rows(500);
    let (net, report) = tresillo_learn::train(&rows, &tiny(Kind::Locations, None), |_| {}).unwrap();
    let metric = |k: &str| report.metrics.iter().find(|(n, _)| n == k).unwrap().1;
    assert!(report.last_loss < report.first_loss * 0.8, "{report:?}");
    assert!(metric("test_loss") < metric("test_loss_uniform_places"), "{report:?}");
    // Training is deterministic for a seed.
    let (again, _) = tresillo_learn::train(&rows, &tiny(Kind::Locations, None), |_| {}).unwrap();
    assert_eq!(net.to_bytes().unwrap(), again.to_bytes().unwrap());
}

#[test]
fn learned_agents_play_whole_hands() {
    let rows = rule_rows(200);
    let (policy, report) = tresillo_learn::train(&rows, &tiny(Kind::Policy, Some(0)), |_| {}).unwrap();
    assert!(report.last_loss < report.first_loss, "{report:?}");
    let (loc, _) = tresillo_learn::train(&rows, &tiny(Kind::Locations, None), |_| {}).unwrap();
    let files = [("p", policy.to_bytes().unwrap()), ("l", loc.to_bytes().unwrap())];
    let mut registry = Registry::builtin();
    let read: tresillo_learn::ModelReader = Arc::new(move |name: &str| {
        files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| b.clone())
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, format!("no file {name}")))
    });
    tresillo_learn::register(&mut registry, read).unwrap();
    let specs: Vec<String> =
        ["net:model=p", "pimc:worlds=4:loc=l", "rule:bid=p"].iter().map(|s| s.to_string()).collect();
    let played = data::play_deals(&Setup { seed: 99, ..setup() }, &specs, &registry, 0..6).unwrap();
    assert!(played.len() > 100);
    let e = registry.build_agent("net:model=l").err().unwrap().to_string();
    assert!(e.contains("locations model"), "{e}");
    let e = registry.build_agent("net:model=missing").err().unwrap().to_string();
    assert!(e.contains("no file missing"), "{e}");
    assert!(registry.build_agent("rule:loc=l").is_err(), "rule samples no worlds: loc is not its parameter");
}

#[test]
fn a_model_runs_the_same_as_its_file() {
    let net = Net::new(Kind::Value, &[16, 16], 5).unwrap();
    let back = Net::from_bytes(&net.to_bytes().unwrap()).unwrap();
    let x: Vec<f32> = (0..2 * INPUT).map(|i| ((i * 37) % 11) as f32 / 11.0).collect();
    assert_eq!(net.run(x.clone(), 2).unwrap(), back.run(x, 2).unwrap());
}

/// Checks that `file` (a model file written outside Rust) gives, for the inputs
/// of `json` (`{"inputs": [[612 values], ...], "outputs": [[...], ...]}`), the
/// outputs there, to 1e-5.
fn same_outputs(file: &[u8], json: &str, kind: Kind) {
    let net = Net::from_bytes(file).unwrap();
    assert_eq!(net.info().kind, kind);
    let want: serde_json::Value = serde_json::from_str(json).unwrap();
    let rows = want["inputs"].as_array().unwrap();
    let x: Vec<f32> =
        rows.iter().flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32)).collect();
    let got = net.run(x, rows.len()).unwrap();
    let expected: Vec<f64> = want["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().clone())
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(got.len(), expected.len());
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert!((f64::from(*g) - e).abs() < 1e-5, "output {i}: {g} against {e}");
    }
}

#[test]
fn a_model_written_in_python_gives_the_same_outputs() {
    // scripts/make-learn-parity.py: PyTorch's layout, written with numpy, and
    // the outputs numpy computes (in f64) for three inputs.
    same_outputs(
        include_bytes!("data/parity.safetensors"),
        include_str!("data/parity.json"),
        Kind::Locations,
    );
}

#[test]
fn a_model_trained_in_pytorch_gives_pytorch_outputs() {
    // examples/python/train_locations.py, run with PyTorch 2.15 on 2,000 deals of
    // rule (612 -> 4 -> 4 -> 200, one epoch; the command is in docs/LEARNING.md,
    // "PyTorch"): the file torch saved (safetensors.torch.save_file) and the
    // outputs torch computed for three held-out rows of the dataset.
    let file = include_bytes!("data/torch-locations.safetensors");
    same_outputs(file, include_str!("data/torch-locations.json"), Kind::Locations);
    let info = Net::from_bytes(file).unwrap().info().clone();
    assert_eq!((info.hidden, info.rules.as_deref(), info.players), (vec![4, 4], Some("tresillo"), Some(3)));
    assert!(info.command.contains("train_locations.py"), "{}", info.command);
}

#[test]
fn lpimc_plays_with_the_shipped_models_and_only_in_their_game() {
    let mut registry = Registry::builtin();
    tresillo_learn::register(
        &mut registry,
        Arc::new(|p: &str| Err(std::io::Error::other(format!("no files here: {p}")))),
    )
    .unwrap();
    let a = registry.build_agent("lpimc:worlds=4").unwrap();
    assert_eq!(a.name(), "lpimc");
    let specs: Vec<String> = ["lpimc:worlds=4", "pimc:worlds=4:bid=builtin/value-bids-rule", "rule"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for rules in ["tresillo", "hombre"] {
        let setup = Setup { rules: Rules::parse(rules, &[]).unwrap(), seed: 31, ..setup() };
        let rows = data::play_deals(&setup, &specs, &registry, 0..3).unwrap();
        assert!(rows.len() > 60, "{rules}");
    }
    let info = registry.info("lpimc").unwrap();
    let default = |k: &str| info.params.iter().find(|p| p.name == k).unwrap().default.clone();
    assert!(default("loc").starts_with("builtin/locations-rule+builtin/locations-hombre"));
    assert_eq!(default("bid"), "builtin/value-bids-rule");
    let e = registry.build_agent("net:model=builtin/nothing").err().unwrap().to_string();
    assert!(e.contains("no built-in model \"nothing\"") && e.contains("locations-rule"), "{e}");
}

#[test]
fn the_counts_are_the_tensors_only_fractions() {
    // Every other position of a tensor is 0 or 1 in every view of a played hand:
    // what the datasets bit-pack (Row::obs).
    let mut hand = data::new_hand(Rules::default(), 3, 7, 0).unwrap();
    let mut agent = tresillo_agents::RuleAgent::new(Default::default());
    let mut rng = tresillo_agents::rng_from_seed(1);
    while let Some(seat) = hand.request().seat() {
        let t = tresillo_env::observation::tensor(&hand.view(seat), CardSet::EMPTY);
        for (i, x) in t.iter().enumerate() {
            assert!(features::COUNT_POSITIONS.contains(&i) || *x == 0.0 || *x == 1.0, "position {i}: {x}");
        }
        let d = agent.decide(&hand.view(seat), &mut rng).unwrap();
        hand.apply(d).unwrap();
    }
}

/// The true world of `hand`, at a table of three.
fn truth(hand: &tresillo_core::Hand) -> tresillo_agents::World {
    let mut w = tresillo_agents::World::default();
    for s in 0..3u8 {
        w.hands.0[s as usize] = hand.hand_of(Seat(s));
        w.discards.0[s as usize] = hand.discards_of(Seat(s));
    }
    w.heap = hand.heap_remaining();
    w
}

#[test]
fn policy_based_inference_scores_the_other_seats_decisions_and_favours_the_truth() {
    use tresillo_agents::{Likelihood, Sampler, deal_for_seed, rng_from_seed};
    use tresillo_core::{Decision, Hand, Request, RuleSet};
    use tresillo_learn::agents::PolicyLikelihood;
    let rows = rule_rows(400);
    let (policy, _) = tresillo_learn::train(&rows, &tiny(Kind::Policy, None), |_| {}).unwrap();
    let policy = Arc::new(policy);
    let pbi = PolicyLikelihood::new(policy.clone(), 1.0).unwrap();
    let (mut above, mut checked) = (0, 0);
    for seed in 1000..1040u64 {
        let mut hand = Hand::new(RuleSet::TRESILLO, 3, deal_for_seed(seed), Seat((seed % 3) as u8)).unwrap();
        let mut agent = tresillo_agents::RuleAgent::new(Default::default());
        let mut rng = rng_from_seed(seed);
        let mut done = false;
        while !hand.is_done() {
            let seat = hand.request().seat().unwrap();
            let view = hand.view(seat);
            if !done && matches!(hand.request(), Request::Play { .. }) && view.public().plays().len() >= 10 {
                done = true;
                let sampler = Sampler::new(&view).unwrap();
                let mut worlds: Vec<_> = (0..15).map(|_| sampler.sample(&mut rng)).collect();
                worlds.push(truth(&hand));
                let mut lw = Vec::new();
                pbi.log_weights(&view, &worlds, &mut lw);
                // Each world's weight is the sum, over the other seats'
                // decisions with a choice, of the log-softmax over the legal
                // actions: recomputed here one decision at a time.
                for (w, world) in worlds.iter().zip(&lw).take(3) {
                    let mut sum = 0.0;
                    w.replay_visit(&view, |h, d| {
                        let s = h.request().seat().unwrap();
                        if s == seat || matches!(d, Decision::Discard(_)) {
                            return;
                        }
                        let v = h.view(s);
                        let legal = tresillo_core::action::legal_ids(&v, Default::default());
                        if legal.len() < 2 {
                            return;
                        }
                        let y = policy.run(features::input(&v, CardSet::EMPTY), 1).unwrap();
                        let a = tresillo_core::action::Action::Decision(d).id().unwrap();
                        let z: f64 = legal.iter().map(|&i| f64::from(y[i]).exp()).sum::<f64>().ln();
                        sum += f64::from(y[a]) - z;
                    })
                    .unwrap();
                    assert!((sum - world).abs() < 1e-3, "{sum} against {world}");
                    assert!(sum < 0.0);
                }
                let t = lw[15];
                above += lw[..15].iter().filter(|&&x| x < t).count();
                checked += 15;
            }
            let d = agent.decide(&view, &mut rng).unwrap();
            hand.apply(d).unwrap();
        }
    }
    // A policy of rule's play, scoring rule's play, puts the true world above
    // most uniformly drawn ones (chance: half of them).
    assert!(above * 10 > checked * 7, "the truth above {above} of {checked} worlds");
}

#[test]
fn a_location_model_weights_the_worlds_of_hombre_too() {
    use tresillo_agents::{deal_for_seed, rng_from_seed};
    use tresillo_core::Hand;
    let rules = Rules::parse("hombre", &[]).unwrap();
    let specs = vec!["rule".to_string(); 3];
    let hombre = Setup { rules, ..setup() };
    let rows = data::play_deals(&hombre, &specs, &Registry::builtin(), 0..150).unwrap();
    let (loc, _) = tresillo_learn::train(&rows, &tiny(Kind::Locations, None), |_| {}).unwrap();
    assert_eq!(loc.info().rules, None, "train leaves the description to its caller");
    let bytes = loc.to_bytes().unwrap();
    let mut registry = Registry::builtin();
    tresillo_learn::register(&mut registry, Arc::new(move |_: &str| Ok(bytes.clone()))).unwrap();
    for (spec, seed) in [("pimc:worlds=4:loc=l", 5u64), ("pimc:worlds=4", 5)] {
        let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|_| registry.build_agent(spec).unwrap()).collect();
        let mut hand = Hand::with_rules(rules, 3, deal_for_seed(seed), Seat(0)).unwrap();
        let mut rng = rng_from_seed(seed);
        while !hand.is_done() {
            let seat = hand.request().seat().unwrap();
            let d = agents[seat.0 as usize].decide(&hand.view(seat), &mut rng).unwrap();
            hand.apply(d).unwrap();
        }
        let weighted: u64 = agents.iter_mut().map(|a| a.take_work().weighted).sum();
        if spec.contains("loc") {
            assert!(weighted > 0, "no decision of hombre's search was weighted");
        } else {
            assert_eq!(weighted, 0, "without a model hombre's worlds stay uniform");
        }
    }
}

#[test]
fn models_of_several_games_weight_each_game_by_its_own() {
    use tresillo_agents::{Likelihood, Sampler, deal_for_seed, rng_from_seed};
    use tresillo_core::{Hand, Request};
    use tresillo_learn::agents::{ByGame, LocationLikelihood};
    let model = |rules: &str, seed: u64| {
        let mut net = Net::new(Kind::Locations, &[8], seed).unwrap();
        net.info_mut().rules = Some(rules.into());
        net.info_mut().players = Some(3);
        Arc::new(net)
    };
    let (t, h) = (model("tresillo", 1), model("hombre", 2));
    let both = ByGame(vec![
        (h.clone(), Box::new(LocationLikelihood::new(h.clone(), 1.0).unwrap())),
        (t.clone(), Box::new(LocationLikelihood::new(t.clone(), 1.0).unwrap())),
    ]);
    let tresillo_only = LocationLikelihood::new(t, 1.0).unwrap();
    let hombre_only = LocationLikelihood::new(h, 1.0).unwrap();
    for name in ["tresillo", "hombre", "lhombre"] {
        let rules = Rules::parse(name, &[]).unwrap();
        let mut agent = tresillo_agents::RuleAgent::new(Default::default());
        let mut rng = rng_from_seed(3);
        // The first deal that reaches its fifth card (in some every seat passes).
        let hand = (0..)
            .find_map(|seed| {
                let mut hand = Hand::with_rules(rules, 3, deal_for_seed(seed), Seat(0)).unwrap();
                while !hand.is_done() {
                    if matches!(hand.request(), Request::Play { .. }) && hand.public().plays().len() >= 4 {
                        return Some(hand);
                    }
                    let seat = hand.request().seat().unwrap();
                    hand.apply(agent.decide(&hand.view(seat), &mut rng).unwrap()).unwrap();
                }
                None
            })
            .unwrap();
        let view = hand.view(hand.request().seat().unwrap());
        let sampler = Sampler::new(&view).unwrap();
        let worlds: Vec<_> = (0..8).map(|_| sampler.sample(&mut rng)).collect();
        let weights = |l: &dyn Likelihood| {
            let mut out = Vec::new();
            l.log_weights(&view, &worlds, &mut out);
            out
        };
        let want = match name {
            "tresillo" => weights(&tresillo_only),
            "hombre" => weights(&hombre_only),
            _ => vec![0.0; 8],
        };
        assert_eq!(weights(&both), want, "{name}");
        assert!(name == "lhombre" || want.iter().any(|&w| w != 0.0));
    }
}
