//! Tournaments of every rule set and option implemented so far (RULES.md section
//! 12), through the library: no error, the same rows on any thread count, and the
//! rule agent ahead of random (the 10,000-deal runs are experiments/rules-*.toml).

use tresillo_core::{RuleOptions, RuleSet, Rules};
use tresillo_sim::{Scoring, Stats, Tournament, TournamentConfig, simple_config};

fn run(rules: Rules, scoring: Scoring, threads: usize) -> (Vec<String>, Stats) {
    let config =
        TournamentConfig { rules, scoring, ..simple_config(["rule", "random", "random"], 120, 5, true) };
    let t = Tournament::new(config).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let (u0, u1) = t.config().unit_range();
    let outs = pool
        .install(|| t.run(u0..u1, |u| (u.rows.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>(), u.stats)))
        .unwrap_or_else(|e| panic!("{rules}: {e}"));
    let mut rows = Vec::new();
    let mut stats = Stats::default();
    for (r, s) in outs {
        rows.extend(r);
        stats.merge(&s);
    }
    (rows, stats)
}

#[test]
fn every_rule_set_and_option_plays_a_duplicate_tournament_where_rule_beats_random() {
    let opts = [
        RuleOptions::default(),
        Rules::parse("tresillo", &[("palo_de_favor", "oros")]).unwrap().options,
        Rules::parse("tresillo", &[("codillo_old", "true")]).unwrap().options,
        Rules::parse("lhombre", &[("redeal_all_pass", "true")]).unwrap().options,
    ];
    for set in RuleSet::BUILT_IN {
        for options in opts {
            if !set.spec().options.contains(&tresillo_core::PALO_DE_FAVOR) && !options.is_default() {
                continue; // hombre's own options: tests/hombre.rs
            }
            let rules = Rules { set, options };
            if rules.check_options().is_err() {
                continue;
            }
            for scoring in [Scoring::Deal, Scoring::Session(6)] {
                let (rows, stats) = run(rules, scoring, 2);
                assert_eq!(rows.len(), 120 * 6);
                assert_eq!((rows.clone(), stats.clone()), run(rules, scoring, 1), "{rules}: thread count");
                if set == RuleSet::TRESILLO_HOUSE {
                    assert_eq!(stats.cancelled, 0, "{rules}: never cancelled");
                }
                let mean = |i: usize| stats.agents[i].units.mean_ci(1.0).unwrap().0;
                assert!(
                    mean(0) > mean(1) && mean(0) > mean(2),
                    "{rules} {scoring}: rule {} random {} {}",
                    mean(0),
                    mean(1),
                    mean(2)
                );
            }
        }
    }
}

/// `hombre` (RULES.md section 12.3) and each of its options: a duplicate
/// tournament by the deal and by sessions of points or chips, identical on any
/// thread count, never cancelled, the rule agent ahead of random.
#[test]
fn every_hombre_option_plays_a_duplicate_tournament_where_rule_beats_random() {
    let sets: [&[(&str, &str)]; 6] = [
        &[("show_heap", "true")],
        &[("hombre-chips", "true")],
        &[("hombre-chips", "true"), ("ante", "2"), ("gascarille", "true")],
        &[("favorito", "true")],
        &[("gascarille", "true")],
        &[("contrabola", "true")],
    ];
    for opts in sets {
        let rules = Rules::parse("hombre", opts).unwrap();
        for scoring in [Scoring::Deal, Scoring::Session(6)] {
            let (rows, stats) = run(rules, scoring, 2);
            assert_eq!(rows.len(), 120 * 6);
            assert_eq!((rows.clone(), stats.clone()), run(rules, scoring, 1), "{rules}: thread count");
            assert_eq!(stats.cancelled, 0, "{rules}: never cancelled");
            let mean = |i: usize| stats.agents[i].units.mean_ci(1.0).unwrap().0;
            assert!(
                mean(0) > mean(1) && mean(0) > mean(2),
                "{rules} {scoring}: rule {} random {}",
                mean(0),
                mean(1)
            );
        }
    }
}
