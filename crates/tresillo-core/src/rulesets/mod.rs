//! The rule sets whose logic does not fit the Spanish tables of
//! [`RuleSpec`](crate::RuleSpec): one module each, consulted through
//! [`Rules`](crate::Rules) and the `RuleSpec` fields that name them.

pub mod lhombre;
