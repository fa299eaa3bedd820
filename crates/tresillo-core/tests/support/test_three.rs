//! The test-only rule set `test-three` (issue 37): three players, entrada and solo
//! only, its own condiciones, defined as data in `tests/data/test-three.toml`
//! (the file the CLI's `--rule-set` and Python's `register_rule_set` read), and
//! here, in Rust, what data cannot say: an option of its own (`max_bid`) read by
//! its own mechanic. Included by the tests that register and play it (`#[path]`
//! modules in tresillo-agents', tresillo-sim's and tresillo-bots' tests/test_rule_set.rs):
//! no other file names it.

use std::sync::LazyLock;
use tresillo_core::rulesets::spanish;
use tresillo_core::{Mechanics, OptionInfo, OptionKind, RuleSpec, Rules, rule_spec_from_toml};

/// The set's data, as the CLI and Python read it.
pub const FILE: &str = include_str!("../data/test-three.toml");

/// `max_bid`: the highest level the auction opens (1 entrada, 3 solo), an option
/// no other rule set has.
pub const MAX_BID: OptionInfo = OptionInfo {
    kind: OptionKind::Count { min: 1, max: 3, default: 3 },
    default: "3",
    values: "1 to 3",
    section: "none (a test's option)",
    help: "the highest bid level",
    ..OptionInfo::flag("max_bid")
};

/// The highest bid level: `max_bid` (tresillo's 3 without it).
fn max_level(rules: &Rules) -> u8 {
    rules.count(&MAX_BID) as u8
}

/// Tresillo's mechanics, with the auction capped by `max_bid`.
static MECHANICS: Mechanics = Mechanics { max_level, ..spanish::MECHANICS };

/// The test's rule set: the file's data, with `max_bid` and its mechanic.
pub static TEST_THREE: LazyLock<&'static RuleSpec> = LazyLock::new(|| {
    let data = rule_spec_from_toml(FILE, "tests/data/test-three.toml").expect("a valid rule-set file");
    Box::leak(Box::new(RuleSpec { options: &[MAX_BID], mechanics: &MECHANICS, ..*data }))
});
