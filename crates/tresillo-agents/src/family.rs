//! The agents' table of the rule sets: what the heuristics, the searches and the
//! sampler need to know about a rule set beyond its
//! [`RuleSpec`](tresillo_core::RuleSpec). One row per rule set (and scoring
//! option), here only: a built-in rule set adds its row; any other set takes
//! [`GENERAL`], which opts into no fast path.
//!
//! A row says which rule agent plays the set, whether `pimc` runs its own auction, the
//! search's goal, the gascarille demand, the sampler's constraints (the grand
//! tourné's), and the fast paths the set opts into, each taken only at a table where
//! every seat plays: `spanish_search` (pimc, oracle, cheat, alphamu and the searched
//! discard on the Spanish path; off, they take the general path, `gpimc::handles`),
//! `fast_sim` (ISMCTS's `Sim`; off, its `HandSim`; on only for plain `tresillo`) and
//! `rule_likelihood` (the rule agent's likelihood of a sampled world; off under a
//! favoured suit or contrabola). They are asked through `family::spanish_search` and
//! `family::fast_sim`, never by a table size. ISMCTS's reward scale and the dealer's
//! stake are not the row's but the scoring system's (`ScoringSystem::reward_scale`,
//! `Rules::dealer_stake`). This is the one place on the agents' side that compares rule
//! sets (with the `RuleSet` consts).

use crate::search::gsolver::Goal;
use tresillo_core::{Contract, PublicState, RuleSet, Rules, ScoringSystem};

/// Which rule agent decides (the `rule` spec's code path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// The Spanish evaluation of sections 3-6 (with the rule set's hooks).
    Spanish,
    /// L'Hombre's own bidding, contract and play (`heuristic/rule_lhombre.rs`).
    Lhombre,
}

/// A rule set's row.
#[derive(Clone, Copy, Debug)]
pub struct AgentRules {
    /// The rule agent's code path.
    pub heuristic: Heuristic,
    /// `pimc` bids and names the contract by its own Monte Carlo auction with the
    /// ledger's utilities (hombre: points or chips), not through the general path.
    pub pimc_auction: bool,
    /// At a table where every seat plays, `pimc`, `oracle`, `cheat` and `alphamu`
    /// may take the Spanish fast path (the puesta system's three classes,
    /// section 3's contracts, its auction; its stakes from the ledger): an
    /// opt-in of the rule set, so that a rule set added later takes the general
    /// path ([`gpimc`](crate::search::gpimc)) unless its row says it is that game.
    pub spanish_search: bool,
    /// At a table where every seat plays, ISMCTS searches on its fast simulator,
    /// which scores plain `tresillo` (no option) by its own tantos: an opt-in of
    /// the rule set with its options.
    pub fast_sim: bool,
    /// At a table where every seat plays, `RuleLikelihood` weighs a sampled world
    /// by how likely the rule agent's public decisions were in it: its model
    /// knows the Spanish contracts without a favoured suit or a contrabola.
    pub rule_likelihood: bool,
    /// A bid of rank 4 or a declared grand tourné (`lhombre`, RULES.md section
    /// 12.4) shows the seat was dealt both spadille and basta: the sampler keeps
    /// only such deals.
    pub grand_tourne: bool,
    /// What the declarer of a trump contract plays for (the general search's
    /// goal before any bola, vole or tout; nolo and contrabola have their own).
    pub goal: Goal,
    /// `hombre`'s gascarille is demanded (chips scoring, where the opponents pay
    /// 3 for a won gascarille instead of 5 for a won obligation); never under
    /// points, where a gascarille is worth more to the declarer.
    pub demand_gascarille: bool,
}

/// The Spanish rows' common part (`tresillo`, the puesta system).
const SPANISH: AgentRules = AgentRules {
    heuristic: Heuristic::Spanish,
    pimc_auction: false,
    spanish_search: true,
    fast_sim: false,
    rule_likelihood: true,
    grand_tourne: false,
    goal: Goal::Spanish,
    demand_gascarille: false,
};

/// `hombre` in points: the 4-3-2 cuatro counts double.
const HOMBRE: AgentRules =
    AgentRules { pimc_auction: true, spanish_search: false, goal: Goal::Cuatro, ..SPANISH };

/// The row of `rules` (`hombre` with `hombre-chips` has its own; options that
/// the fast paths do not know turn them off).
#[must_use]
pub fn of(rules: &Rules) -> AgentRules {
    let row = row(rules);
    AgentRules {
        fast_sim: row.fast_sim && !rules.has_options(),
        rule_likelihood: row.rule_likelihood
            && rules.favoured_suit().is_none()
            && !rules.has_contract(Contract::Contrabola),
        ..row
    }
}

/// Whether the decisions at `p` may take the Spanish fast path of `pimc`,
/// `oracle`, `cheat` and `alphamu` ([`AgentRules::spanish_search`]).
#[must_use]
pub fn spanish_search(p: &PublicState) -> bool {
    p.table.every_seat_plays() && of(&p.game_rules()).spanish_search
}

/// Whether ISMCTS searches `rules` at `table` on its fast simulator
/// ([`AgentRules::fast_sim`]).
#[must_use]
pub fn fast_sim(rules: &Rules, table: tresillo_core::Table) -> bool {
    table.every_seat_plays() && of(rules).fast_sim
}

/// A rule set the agents have no row for (one registered with
/// [`register_rule_set`](tresillo_core::register_rule_set), e.g. a test's): the
/// Spanish rule agent with the rule set's hooks and the general search's Spanish
/// goal, and no fast path at all (`spanish_search`, `fast_sim` and
/// `rule_likelihood` off), so that pimc, oracle, cheat and alphamu take the
/// general path ([`gpimc`](crate::search::gpimc)), ISMCTS its `HandSim`, and
/// every stake is asked of the rule set's ledger.
pub const GENERAL: AgentRules =
    AgentRules { spanish_search: false, fast_sim: false, rule_likelihood: false, ..SPANISH };

/// The rule set's row before its options: the built-in sets' rows, looked up by
/// the set (its name), [`GENERAL`] for any other.
fn row(rules: &Rules) -> AgentRules {
    let set = rules.set;
    if set == RuleSet::TRESILLO {
        AgentRules { fast_sim: true, ..SPANISH }
    } else if set == RuleSet::TRESILLO_HOUSE {
        SPANISH
    } else if set == RuleSet::HOMBRE && rules.scoring() == ScoringSystem::Chips {
        AgentRules { goal: Goal::Won, demand_gascarille: true, ..HOMBRE }
    } else if set == RuleSet::HOMBRE {
        HOMBRE
    } else if set == RuleSet::LHOMBRE {
        AgentRules {
            heuristic: Heuristic::Lhombre,
            spanish_search: false,
            grand_tourne: true,
            goal: Goal::Lhombre,
            ..SPANISH
        }
    } else {
        GENERAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tresillo_core::{Hand, Seat, Table};

    #[test]
    fn fast_paths_are_opt_ins_of_the_rows_at_tables_where_every_seat_plays() {
        // ISMCTS's simulator: plain `tresillo` only, and only where every seat plays.
        for set in RuleSet::BUILT_IN {
            let r = Rules::from(set);
            assert_eq!(fast_sim(&r, r.table(3)), set == RuleSet::TRESILLO, "{set}");
        }
        let plain = Rules::default();
        assert!(!fast_sim(&plain, plain.table(4)));
        let favor = Rules::parse("tresillo", &[("palo_de_favor", "oros")]).unwrap();
        assert!(!fast_sim(&favor, favor.table(3)) && of(&favor).spanish_search);
        // The rule agent's likelihood: not with a favoured suit or a contrabola.
        assert!(!of(&favor).rule_likelihood && of(&plain).rule_likelihood);
        let contra = Rules::parse("hombre", &[("contrabola", "true")]).unwrap();
        assert!(!of(&contra).rule_likelihood && of(&Rules::from(RuleSet::HOMBRE)).rule_likelihood);
        // The Spanish search asks the table, not the number of players: the same
        // three seats with a dealer who sits out leave the fast path.
        let deal = crate::rng::deal_for_seed(1);
        let mut p = *Hand::with_rules(plain, 3, deal, Seat(0)).unwrap().public();
        assert!(spanish_search(&p));
        p.table = Table { dealer_sits_out: true, ..Table::THREE };
        assert!(!spanish_search(&p));
        let hombre = *Hand::with_rules(Rules::from(RuleSet::HOMBRE), 3, deal, Seat(0)).unwrap().public();
        assert!(!spanish_search(&hombre));
    }
}
