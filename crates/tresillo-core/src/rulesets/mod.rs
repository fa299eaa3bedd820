//! One module per rule set: its [`RuleSpec`](crate::RuleSpec) table, its
//! [`Words`](crate::Words) and the logic that does not fit the table, consulted
//! through [`Rules`](crate::Rules) and `RuleSet::spec`.

#[cfg(feature = "rule-files")]
pub mod file;
pub mod hombre;
pub mod lhombre;
pub mod spanish;
