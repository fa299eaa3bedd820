//! The agents that decide by fixed rules: `random`, and `rule` (its Spanish
//! heuristics, `lhombre`'s, and the hand evaluation both share).

pub mod random;
pub mod rule;
pub mod rule_eval;
pub mod rule_lhombre;
