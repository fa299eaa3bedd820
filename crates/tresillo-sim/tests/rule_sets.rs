//! Tournaments of every rule set and option implemented so far (RULES.md section
//! 12), through the library: no error, the same rows on any thread count, and the
//! rule agent ahead of random (the 10,000-deal runs are experiments/rules-*.toml).

use tresillo_core::{RuleOptions, RuleSet, Rules, Suit};
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
        RuleOptions { palo_de_favor: Some(Suit::Oros), ..RuleOptions::default() },
        RuleOptions { codillo_old: true, ..RuleOptions::default() },
    ];
    for set in RuleSet::ALL {
        for options in opts {
            let rules = Rules { set, options };
            for scoring in [Scoring::Deal, Scoring::Session(6)] {
                let (rows, stats) = run(rules, scoring, 2);
                assert_eq!(rows.len(), 120 * 6);
                assert_eq!((rows.clone(), stats.clone()), run(rules, scoring, 1), "{rules}: thread count");
                if set == RuleSet::TresilloHouse {
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
