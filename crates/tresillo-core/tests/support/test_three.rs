//! The test-only rule set `test-three` (issue 37): three players, entrada and solo
//! only, its own condiciones. Defined once here and included by the tests that
//! register and play it (`#[path]` modules in tresillo-agents', tresillo-sim's and
//! tresillo-bots' tests/test_rule_set.rs): no other file names it.

use tresillo_core::rulesets::spanish;
use tresillo_core::{Condiciones, Contract, RuleSpec, Table};

/// The test's rule set: tresillo without vuelta, with other condiciones.
pub static TEST_THREE: RuleSpec = RuleSpec {
    name: "test-three",
    section: "none (a test's rule set)",
    summary: "tresillo without vuelta and with other condiciones, for a test",
    tables: &[Table::THREE],
    options: &[],
    contracts: &[Contract::Entrada, Contract::Solo],
    takeover_in: &[Contract::Entrada],
    condiciones: Condiciones {
        entrada: 1,
        vuelta: 0,
        solo: 3,
        penetro: 0,
        estuche: 2,
        contra_estuche: 0,
        primeras: 2,
        bola: 12,
    },
    ..spanish::TRESILLO
};
