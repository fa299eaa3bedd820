//! `--rules NAME --rule-option key=value`, shared by the subcommands, and
//! `tresillo rules`, the list of rule sets and their options.

use anyhow::Result;
use std::io::Write;
use tresillo_core::{RuleSet, Rules};

/// The flags that choose a rule set and its options.
#[derive(clap::Args, Clone, Debug)]
pub struct RulesArgs {
    /// The rule set (see `tresillo rules`).
    #[arg(long, default_value = "tresillo")]
    pub rules: String,
    /// A rule-set option as key=value (repeatable; see `tresillo rules`).
    #[arg(long = "rule-option", value_name = "KEY=VALUE")]
    pub rule_option: Vec<String>,
    /// Players at the table: 3, or 4 with an inactive dealer (RULES.md section 12.2).
    #[arg(long, default_value_t = tresillo_core::Table::DEFAULT_PLAYERS, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u8>)]
    pub players: u8,
}

impl Default for RulesArgs {
    fn default() -> Self {
        RulesArgs {
            rules: RuleSet::TRESILLO.name().into(),
            rule_option: Vec::new(),
            players: tresillo_core::Table::DEFAULT_PLAYERS,
        }
    }
}

impl RulesArgs {
    /// The flags for `rules` (the inverse of [`RulesArgs::parse`]).
    pub fn from_rules(rules: &Rules) -> RulesArgs {
        RulesArgs {
            rules: rules.set.name().into(),
            rule_option: rules.set_options().into_iter().map(|(k, v)| format!("{k}={v}")).collect(),
            players: tresillo_core::Table::DEFAULT_PLAYERS,
        }
    }

    /// The table size the flags name, checked against the rule set: a one-line
    /// error for a size the rule set is not played at (or `penetro_all_play` at
    /// three).
    pub fn players(&self) -> Result<u8> {
        let rules = self.parse()?;
        rules.check_players(self.players)?;
        Ok(self.players)
    }

    /// The rule set and options the flags name; unknown names, options that do not
    /// apply and bad values are one-line errors.
    pub fn parse(&self) -> Result<Rules> {
        let pairs = self.rule_option.iter().map(|o| Rules::split_option(o)).collect::<Result<Vec<_>, _>>()?;
        Ok(Rules::parse(self.rules.trim(), &pairs)?)
    }

    /// The flags as words of a command line.
    pub fn words(&self) -> Vec<String> {
        let mut w = vec!["--rules".to_string(), self.rules.clone()];
        for o in &self.rule_option {
            w.push("--rule-option".into());
            w.push(o.clone());
        }
        if self.players != tresillo_core::Table::DEFAULT_PLAYERS {
            w.push("--players".into());
            w.push(self.players.to_string());
        }
        w
    }
}

/// Prints `tresillo rules`: every rule set with its section, table sizes and
/// options (default and values).
pub fn list(out: &mut impl Write) -> Result<()> {
    let width = RuleSet::all().flat_map(|r| r.spec().options).map(|o| o.name.len()).max().unwrap_or(0);
    for r in RuleSet::all() {
        let spec = r.spec();
        let players: Vec<String> = spec.tables.iter().map(|t| t.players.to_string()).collect();
        writeln!(
            out,
            "{:<16} RULES.md section {:<5} {} players: {}",
            r.name(),
            spec.section,
            players.join(" or "),
            spec.summary
        )?;
        for o in spec.options {
            writeln!(
                out,
                "    {:<width$} default {:<6} section {:<5} values: {}; {}",
                o.name, o.default, o.section, o.values, o.help
            )?;
        }
    }
    Ok(())
}
