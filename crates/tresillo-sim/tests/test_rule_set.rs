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
    let rules = Rules::from(register_rule_set(&TEST_THREE).expect("a new name"));
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
