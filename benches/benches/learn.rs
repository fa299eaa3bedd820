//! Criterion benches of the learned models' costs in a search (tresillo-learn):
//! the card-location network's forward pass for one view (once per weighted
//! decision), the weights of a pool of 2,048 worlds from it (`pimc`'s pool at
//! 64 worlds and `infer_pool=32`), Policy-Based Inference on 64 of them
//! (`pbi=`: each replayed and the other seats' decisions scored by the
//! policy network, in the middle of the card play), and the rows of 100 deals
//! of rule play.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use tresillo_agents::{Likelihood, Registry, Sampler, World, rng_from_seed};
use tresillo_core::{Request, Rules};
use tresillo_learn::agents::{PolicyLikelihood, StagedLikelihood};
use tresillo_learn::data::{Setup, new_hand, play_deals};
use tresillo_learn::{LocationLikelihood, Net};

fn learn(c: &mut Criterion) {
    let net = Arc::new(Net::from_bytes(tresillo_learn::builtin_models()[0].1).expect("the shipped model"));
    let model = LocationLikelihood::new(net, 0.4).expect("a locations model");
    // A card-play view after the first lead, in the first deal rule plays to the cards.
    let mut rule = tresillo_agents::RuleAgent::new(Default::default());
    let mut rng = rng_from_seed(2);
    let mut played_to = |plays: usize| {
        (0..50)
            .find_map(|i| {
                let mut hand = new_hand(Rules::default(), 3, 1, i).expect("a deal");
                while let Some(seat) = hand.request().seat() {
                    if matches!(hand.request(), Request::Play { .. }) && hand.public().plays().len() >= plays
                    {
                        return Some(hand);
                    }
                    let d = tresillo_agents::Agent::decide(&mut rule, &hand.view(seat), &mut rng)
                        .expect("rule decides");
                    hand.apply(d).expect("legal");
                }
                None
            })
            .expect("a deal played to the cards")
    };
    let hand = played_to(1);
    let late = played_to(12);
    let view = hand.view(hand.request().seat().expect("a seat"));
    let sampler = Sampler::new(&view).expect("a world");
    let worlds: Vec<World> = (0..2048).map(|_| sampler.sample(&mut rng)).collect();
    let mut out = Vec::new();
    let mut g = c.benchmark_group("learn");
    g.bench_function("locations forward pass (one view)", |b| b.iter(|| model.log_probs(black_box(&view))));
    g.throughput(Throughput::Elements(worlds.len() as u64));
    g.bench_function("locations weights of 2,048 worlds (forward pass included)", |b| {
        b.iter(|| model.log_weights(black_box(&view), &worlds, &mut out))
    });
    let by_name = |n: &str| {
        let bytes = tresillo_learn::builtin_models().iter().find(|(k, _)| *k == n).expect("shipped").1;
        Arc::new(Net::from_bytes(bytes).expect("the shipped model"))
    };
    let late_view = late.view(late.request().seat().expect("a seat"));
    let late_sampler = Sampler::new(&late_view).expect("a world");
    let late_worlds: Vec<World> = (0..2048).map(|_| late_sampler.sample(&mut rng)).collect();
    let staged = StagedLikelihood {
        first: Some(Box::new(LocationLikelihood::new(by_name("locations-rule"), 0.4).expect("locations"))),
        second: PolicyLikelihood::new(by_name("policy-pimc"), 1.0).expect("a policy"),
        keep: 64,
    };
    g.sample_size(10);
    g.bench_function("locations then policy (pbi) weights of 2,048 worlds, 64 scored, after 12 cards", |b| {
        b.iter(|| staged.log_weights(black_box(&late_view), &late_worlds, &mut out))
    });
    let specs = vec!["rule".to_string(); 3];
    let setup = Setup { rules: Rules::default(), players: 3, seed: 1, explore: 0, phases: 0 };
    g.throughput(Throughput::Elements(100));
    g.bench_function("rows of 100 deals of rule play", |b| {
        b.iter(|| play_deals(&setup, &specs, &Registry::builtin(), 0..100).expect("rows"))
    });
    g.finish();
}

criterion_group!(benches, learn);
criterion_main!(benches);
