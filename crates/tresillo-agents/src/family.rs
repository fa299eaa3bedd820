//! The agents' table of the rule sets: what the heuristics and the searches need
//! to know about a rule set beyond its [`RuleSpec`](tresillo_core::RuleSpec). One
//! row per rule set, here only: a new rule set adds its row (and the compiler
//! points here when it adds a variant).

use tresillo_core::RuleSet;

/// Which rule agent decides (the `rule` spec's code path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// The Spanish evaluation of sections 3-6 (with the rule set's hooks).
    Spanish,
    /// L'Hombre's own bidding, contract and play (`heuristic/rule_lhombre.rs`).
    Lhombre,
}

/// A rule set's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentRules {
    /// The rule agent's code path.
    pub heuristic: Heuristic,
    /// `pimc` bids and names the contract by its own Monte Carlo auction with the
    /// ledger's utilities (hombre: points or chips), not through the general path.
    pub pimc_auction: bool,
    /// A bid of rank 4 or a declared grand tourné (`lhombre`, RULES.md section
    /// 12.4) shows the seat was dealt both spadille and basta: the sampler keeps
    /// only such deals.
    pub grand_tourne: bool,
}

/// The row of `set`.
#[must_use]
pub const fn of(set: RuleSet) -> AgentRules {
    match set {
        RuleSet::Tresillo | RuleSet::TresilloHouse => {
            AgentRules { heuristic: Heuristic::Spanish, pimc_auction: false, grand_tourne: false }
        }
        RuleSet::Hombre => {
            AgentRules { heuristic: Heuristic::Spanish, pimc_auction: true, grand_tourne: false }
        }
        RuleSet::Lhombre => {
            AgentRules { heuristic: Heuristic::Lhombre, pimc_auction: false, grand_tourne: true }
        }
    }
}
