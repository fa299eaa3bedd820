//! A rule set defined as data: a TOML file naming a built-in base and the
//! subsets of it the set plays (docs/RULE-SET-FILES.md), parsed, validated,
//! turned into a `&'static RuleSpec` (leaked: registered sets live for the
//! process) and registered. The caller reads the file (core does no I/O): the
//! CLI's global `--rule-set FILE`, Python's `tresillo.register_rule_set(path)`.
//!
//! What data cannot say (an option the base lacks, other mechanics) needs a
//! `RuleSpec` in Rust ([`register_rule_set`](crate::register_rule_set)).

use crate::game::Contract;
use crate::rules::{Condiciones, OptionInfo, RuleSet, RuleSetError, RuleSpec, register_rule_set};
use serde::Deserialize;
use std::sync::Mutex;
use toml::Spanned;

/// The file's fields (docs/RULE-SET-FILES.md).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Def {
    name: Spanned<String>,
    base: Spanned<String>,
    summary: Option<String>,
    players: Option<Spanned<Vec<u8>>>,
    contracts: Option<Spanned<Vec<Contract>>>,
    takeover_in: Option<Spanned<Vec<Contract>>>,
    condiciones: Option<Spanned<CondicionesDef>>,
    options: Option<Spanned<Vec<String>>>,
}

/// Condiciones that replace the base's, each optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CondicionesDef {
    entrada: Option<i64>,
    vuelta: Option<i64>,
    solo: Option<i64>,
    penetro: Option<i64>,
    estuche: Option<i64>,
    contra_estuche: Option<i64>,
    primeras: Option<i64>,
    bola: Option<i64>,
}

/// The sets defined from files so far, with their text: the same text again
/// gives the same set.
static DEFINED: Mutex<Vec<(String, RuleSet)>> = Mutex::new(Vec::new());

/// Defines the rule set of the TOML `text` (read from `origin`, a file name for
/// errors) and registers it. Defining the same text again returns the same set;
/// a name already taken is an error. Errors are one line, `ORIGIN:LINE: ...`,
/// naming the key.
pub fn define_rule_set(text: &str, origin: &str) -> Result<RuleSet, RuleSetError> {
    let mut defined = DEFINED.lock().map_err(|_| RuleSetError::Poisoned)?;
    if let Some((_, set)) = defined.iter().find(|(t, _)| t == text) {
        return Ok(*set);
    }
    let spec = rule_spec_from_toml(text, origin)?;
    let set = register_rule_set(spec)
        .map_err(|e| RuleSetError::File { origin: origin.to_string(), error: Box::new(e) })?;
    defined.push((text.to_string(), set));
    Ok(set)
}

/// The rule set of the TOML `text` (read from `origin`), validated against its
/// base, as a `&'static RuleSpec` not registered: for a Rust caller that adds
/// what data cannot say (an option, a mechanic) before registering it.
pub fn rule_spec_from_toml(text: &str, origin: &str) -> Result<&'static RuleSpec, RuleSetError> {
    let at = |span: std::ops::Range<usize>| {
        let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
        format!("{origin}:{line}")
    };
    let def: Def = toml::from_str(text).map_err(|e| {
        let place = e.span().map_or_else(|| origin.to_string(), &at);
        RuleSetError::Toml { place, message: e.message().trim().to_string() }
    })?;
    let spec =
        spec_of(&def).map_err(|(span, key, message)| RuleSetError::Key { place: at(span), key, message })?;
    Ok(Box::leak(Box::new(spec)))
}

type DefError = (std::ops::Range<usize>, &'static str, String);

/// The spec of `def`, validated against its base.
fn spec_of(def: &Def) -> Result<RuleSpec, DefError> {
    let name = def.name.get_ref();
    let valid = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
    if name.is_empty() || name.len() > 40 || !name.chars().all(valid) {
        let msg = format!("`{name}` is not a rule-set name (1 to 40 of a-z, 0-9 and -)");
        return Err((def.name.span(), "name", msg));
    }
    let Some(base) = RuleSet::BUILT_IN.into_iter().find(|s| s.name() == def.base.get_ref()) else {
        let known: Vec<&str> = RuleSet::BUILT_IN.iter().map(|s| s.name()).collect();
        let msg =
            format!("unknown base `{}` (a built-in rule set: {})", def.base.get_ref(), known.join(", "));
        return Err((def.base.span(), "base", msg));
    };
    let b = base.spec();
    let mut spec = RuleSpec {
        name: leak(name),
        section: "none (a rule set defined in a file)",
        summary: leak(def.summary.as_deref().unwrap_or("a rule set defined in a file")),
        ..*b
    };
    if let Some(players) = &def.players {
        let sizes =
            |t: &[crate::Table]| t.iter().map(|t| t.players.to_string()).collect::<Vec<_>>().join(", ");
        if players.get_ref().is_empty() {
            return Err((players.span(), "players", "at least one table size".into()));
        }
        for p in players.get_ref() {
            if !b.tables.iter().any(|t| t.players == *p) {
                let msg = format!("{base} is not played by {p} (its tables: {})", sizes(b.tables));
                return Err((players.span(), "players", msg));
            }
        }
        let tables: Vec<crate::Table> =
            b.tables.iter().filter(|t| players.get_ref().contains(&t.players)).copied().collect();
        spec.tables = Box::leak(tables.into_boxed_slice());
    }
    if let Some(contracts) = &def.contracts {
        let c = subset(contracts, b.contracts, "contracts", base)?;
        if c.first() != b.contracts.first() {
            let lowest = b.contracts[0];
            let msg = format!("must keep `{lowest}`, {base}'s lowest contract (its forced game's)");
            return Err((contracts.span(), "contracts", msg));
        }
        spec.contracts = Box::leak(c.into_boxed_slice());
        let kept = |list: &[Contract]| -> &'static [Contract] {
            Box::leak(
                list.iter()
                    .filter(|x| spec.contracts.contains(x))
                    .copied()
                    .collect::<Vec<_>>()
                    .into_boxed_slice(),
            )
        };
        spec.takeover_in = kept(b.takeover_in);
        spec.accept_in = kept(b.accept_in);
    }
    if let Some(t) = &def.takeover_in {
        let list = subset(t, spec.contracts, "takeover_in", base)?;
        spec.takeover_in = Box::leak(list.into_boxed_slice());
    }
    if let Some(c) = &def.condiciones {
        let d = c.get_ref();
        let old = b.condiciones;
        let pick = |v: Option<i64>, o: i64| v.unwrap_or(o);
        spec.condiciones = Condiciones {
            entrada: pick(d.entrada, old.entrada),
            vuelta: pick(d.vuelta, old.vuelta),
            solo: pick(d.solo, old.solo),
            penetro: pick(d.penetro, old.penetro),
            estuche: pick(d.estuche, old.estuche),
            contra_estuche: pick(d.contra_estuche, old.contra_estuche),
            primeras: pick(d.primeras, old.primeras),
            bola: pick(d.bola, old.bola),
        };
        let all = spec.condiciones;
        let values = [
            all.entrada,
            all.vuelta,
            all.solo,
            all.penetro,
            all.estuche,
            all.contra_estuche,
            all.primeras,
            all.bola,
        ];
        if values.iter().any(|v| !(0..=1000).contains(v)) {
            return Err((c.span(), "condiciones", "each from 0 to 1000 tantos".into()));
        }
    }
    if let Some(options) = &def.options {
        let mut kept: Vec<OptionInfo> = Vec::new();
        for o in options.get_ref() {
            if !b.options.iter().any(|x| x.name == o) {
                let names: Vec<&str> = b.options.iter().map(|x| x.name).collect();
                let msg = format!("`{o}` is not an option of {base} (its options: {})", names.join(", "));
                return Err((options.span(), "options", msg));
            }
        }
        kept.extend(b.options.iter().filter(|x| options.get_ref().iter().any(|o| o == x.name)));
        spec.options = Box::leak(kept.into_boxed_slice());
    }
    Ok(spec)
}

/// The contracts of `list` (each of `of`, none twice), in `of`'s order.
fn subset(
    list: &Spanned<Vec<Contract>>,
    of: &[Contract],
    key: &'static str,
    base: RuleSet,
) -> Result<Vec<Contract>, DefError> {
    let given = list.get_ref();
    if given.is_empty() {
        return Err((list.span(), key, "at least one contract".into()));
    }
    for (i, c) in given.iter().enumerate() {
        if !of.contains(c) {
            let names: Vec<String> = of.iter().map(|c| c.to_string()).collect();
            let msg = format!("`{c}` is not among {base}'s ({})", names.join(", "));
            return Err((list.span(), key, msg));
        }
        if given[..i].contains(c) {
            return Err((list.span(), key, format!("`{c}` given twice")));
        }
    }
    Ok(of.iter().filter(|c| given.contains(c)).copied().collect())
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}
