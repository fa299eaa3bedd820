//! The portable code and the BMI code play the same games (issue 36): builds target
//! x86-64-v2, and the hot loops (the playouts' tricks, the solver's nodes) are
//! compiled twice, the BMI1/BMI2/LZCNT copy taken when the CPU has them, PDEP and
//! PEXT through `tresillo_core::bits`. On a BMI machine the portable copies would
//! never run; `bits::set_portable` makes them run, and the same tournament of the
//! agents that use them (pimc: sampling and the solver; ismcts: playouts; the
//! general solver of hombre and four-player tresillo) must give the same rows, card for card.
//!
//! One test in its own binary: the switch is process-wide.

use tresillo_core::bits;
use tresillo_core::{RuleOptions, RuleSet, Rules};
use tresillo_sim::{Tournament, TournamentConfig, simple_config};

/// Every row (Debug form) of a small duplicate tournament.
fn rows(agents: &[&str], rules: Rules) -> Vec<String> {
    let config = TournamentConfig {
        agents: agents.iter().map(|a| a.to_string()).collect(),
        players: agents.len() as u8,
        rules,
        ..simple_config(["rule"; 3], 3, 11, true)
    };
    let t = Tournament::new(config).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let (u0, u1) = t.config().unit_range();
    let outs = pool
        .install(|| t.run(u0..u1, |u| u.rows.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>()))
        .unwrap();
    outs.into_iter().flatten().collect()
}

#[test]
fn the_portable_loops_play_the_games_the_bmi_loops_play() {
    let cpu_has_bmi = bits::has_bmi();
    let hombre = Rules { set: RuleSet::HOMBRE, options: RuleOptions::default() };
    let tables: [(&[&str], Rules); 3] = [
        (&["pimc:worlds=6", "ismcts:iters=150", "rule"], Rules::default()),
        (&["pimc:worlds=4", "ismcts:iters=100", "rule"], hombre),
        (&["pimc:worlds=4", "ismcts:iters=100", "rule", "rule"], Rules::default()),
    ];
    let with_cpu: Vec<_> = tables.iter().map(|(a, r)| rows(a, *r)).collect();
    bits::set_portable(true);
    assert!(!bits::has_bmi() && !bits::has_bmi2(), "set_portable(true) turns the BMI copies off");
    let portable: Vec<_> = tables.iter().map(|(a, r)| rows(a, *r)).collect();
    bits::set_portable(false);
    assert_eq!(bits::has_bmi(), cpu_has_bmi, "set_portable(false) gives the CPU's answer back");
    for ((w, p), (a, r)) in with_cpu.iter().zip(&portable).zip(&tables) {
        assert!(!w.is_empty());
        assert_eq!(w, p, "{a:?} in {r:?}: the portable code played other cards");
    }
    if !cpu_has_bmi {
        eprintln!("note: this CPU has no BMI1/BMI2/LZCNT: both runs took the portable code");
    }
}
