//! A rule set defined here and nowhere else (issue 37): `test-three` (three
//! players, entrada and solo only, its own condiciones), registered with
//! `register_rule_set` and played in duplicate tournaments by the deal and by
//! sessions, with `rule`, `pimc` and `ismcts` (small budgets) against `random`:
//! no error, every row of the set, the same rows on any thread count.

use tresillo_core::{Rules, register_rule_set};
use tresillo_sim::{Scoring, Tournament, TournamentConfig, simple_config};

#[path = "../../tresillo-core/tests/support/test_three.rs"]
mod test_three;
use test_three::TEST_THREE;

fn run(agents: [&str; 3], deals: u64, scoring: Scoring, threads: usize) -> Vec<String> {
    run_with(
        Rules::from(register_rule_set(*TEST_THREE).expect("a new name")),
        agents,
        deals,
        scoring,
        threads,
    )
}

fn run_with(rules: Rules, agents: [&str; 3], deals: u64, scoring: Scoring, threads: usize) -> Vec<String> {
    let config = TournamentConfig { rules, scoring, ..simple_config(agents, deals, 5, true) };
    let t = Tournament::new(config).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let (u0, u1) = t.config().unit_range();
    let outs = pool
        .install(|| t.run(u0..u1, |u| u.rows.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>()))
        .unwrap_or_else(|e| panic!("{rules}: {e}"));
    outs.into_iter().flatten().collect()
}

#[test]
fn the_test_set_plays_duplicate_tournaments_the_same_on_any_thread_count() {
    for agents in [
        ["rule", "random", "random"],
        ["pimc:worlds=3:bid_worlds=2:adaptive=0:threads=1", "rule", "random"],
        ["ismcts:iters=60", "rule", "random"],
    ] {
        for scoring in [Scoring::Deal, Scoring::Session(3)] {
            let rows = run(agents, 6, scoring, 2);
            assert_eq!(rows.len(), 6 * 6, "{agents:?} {scoring}");
            assert!(rows.iter().all(|r| r.contains("test-three")), "{agents:?}: rows of the set");
            assert_eq!(rows, run(agents, 6, scoring, 1), "{agents:?} {scoring}: thread count");
        }
    }
}

#[test]
fn the_sets_own_option_round_trips_through_files_and_plays() {
    register_rule_set(*TEST_THREE).expect("a new name");
    let r = Rules::parse("test-three", &[("max_bid", "2")]).unwrap();
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(json, r#"{"name":"test-three","max_bid":"2"}"#);
    assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), r);
    let options = serde_json::to_string(&r.options).unwrap();
    assert_eq!(options, r#"{"max_bid":2}"#);
    let back: tresillo_core::RuleOptions = serde_json::from_str(&options).unwrap();
    assert_eq!(Rules { set: r.set, options: back }, r);
    let rows = run_with(r, ["rule", "random", "random"], 4, Scoring::Deal, 1);
    assert_eq!(rows.len(), 4 * 6);
    let bids =
        |row: &str| row.split("bids: \"").nth(1).and_then(|b| b.split('"').next()).unwrap().to_string();
    assert!(rows.iter().all(|x| !bids(x).contains(":3")), "no bid above max_bid=2: {rows:?}");
    assert!(rows.iter().any(|x| bids(x).contains(":2")), "bids up to it");
}
