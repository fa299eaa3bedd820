//! The agent registry: every agent built from a spec string `name[:key=value]*`,
//! for example `rule:entrada=44:vuelta=50`. Every subcommand builds its agents
//! here; [`agent_infos`] lists them for `tresillo agents`.

use crate::cheat::{Cheat, Seated};
use crate::rule::{RuleAgent, RuleParams};
use crate::{Agent, RandomAgent};

/// A bad agent spec.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// No agent of that name.
    #[error("unknown agent `{name}` (known agents: {known})")]
    UnknownAgent {
        /// The name given.
        name: String,
        /// The valid names.
        known: String,
    },
    /// A parameter the agent does not have.
    #[error("agent `{agent}` has no parameter `{param}` (its parameters: {known})")]
    UnknownParam {
        /// The agent.
        agent: String,
        /// The parameter given.
        param: String,
        /// The valid parameters.
        known: String,
    },
    /// A parameter value that does not parse or is out of range.
    #[error("agent `{agent}`: bad value `{value}` for `{param}`: {why}")]
    BadValue {
        /// The agent.
        agent: String,
        /// The parameter.
        param: String,
        /// The value given.
        value: String,
        /// Why it is bad.
        why: String,
    },
    /// A `key=value` part without `=`.
    #[error("malformed agent spec part `{0}` (expected key=value)")]
    Malformed(String),
    /// A parameter given twice in one spec (`rule:entrada=40:entrada=50`).
    #[error("agent `{agent}`: parameter `{param}` is given twice")]
    RepeatedParam {
        /// The agent.
        agent: String,
        /// The parameter.
        param: String,
    },
    /// An agent that sees the full state, asked for where only fair agents play.
    #[error(
        "agent `{0}` sees every hand and is only for upper-bound experiments; \
         it cannot be seated as a fair agent (use build_seated)"
    )]
    FullState(String),
}

/// One parameter of an agent, for `tresillo agents`.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamInfo {
    /// Its key.
    pub name: &'static str,
    /// Its default, as written in a spec.
    pub default: String,
    /// What it means.
    pub help: &'static str,
}

/// One agent of the registry, for `tresillo agents`.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentInfo {
    /// Its spec name.
    pub name: &'static str,
    /// What it does.
    pub help: &'static str,
    /// Its parameters.
    pub params: Vec<ParamInfo>,
}

/// Every agent the registry can build.
#[must_use]
pub fn agent_infos() -> Vec<AgentInfo> {
    let rule_params = || {
        let d = RuleParams::default();
        RuleParams::INFO
            .iter()
            .map(|(name, help)| ParamInfo {
                name,
                default: d.get(name).expect("a rule parameter").to_string(),
                help,
            })
            .collect::<Vec<_>>()
    };
    let mut cheat_params = vec![ParamInfo {
        name: "rollouts",
        default: Cheat::default().rollouts.to_string(),
        help: "random playouts of the true deal per legal card",
    }];
    cheat_params.extend(rule_params());
    vec![
        AgentInfo { name: "random", help: "uniform over the legal choices", params: vec![] },
        AgentInfo {
            name: "rule",
            help: "club-player heuristics: hand evaluation against per-contract thresholds, \
                   trump drawing, cooperating opponents (no search, no memory)",
            params: rule_params(),
        },
        AgentInfo {
            name: "cheat",
            help: "EXPERIMENTS ONLY: sees every hand; card play by playouts of the true deal, \
                   the rest as rule (cannot be seated as a fair agent)",
            params: cheat_params,
        },
    ]
}

/// The `key=value` pairs of a spec.
type Pairs<'a> = Vec<(&'a str, &'a str)>;

/// Splits a spec into its name and `key=value` pairs.
fn split_spec(spec: &str) -> Result<(&str, Pairs<'_>), SpecError> {
    let mut parts = spec.trim().split(':');
    let name = parts.next().unwrap_or("").trim();
    let mut kv = Vec::new();
    for p in parts {
        let (k, v) = p.split_once('=').ok_or_else(|| SpecError::Malformed(p.to_string()))?;
        let k = k.trim();
        if kv.iter().any(|&(seen, _)| seen == k) {
            return Err(SpecError::RepeatedParam { agent: name.to_string(), param: k.to_string() });
        }
        kv.push((k, v.trim()));
    }
    Ok((name, kv))
}

fn known_params(name: &str) -> String {
    let names: Vec<&str> = agent_infos()
        .into_iter()
        .find(|a| a.name == name)
        .map(|a| a.params.iter().map(|p| p.name).collect())
        .unwrap_or_default();
    if names.is_empty() { "(none)".into() } else { names.join(", ") }
}

fn unknown_param(agent: &str, param: &str) -> SpecError {
    SpecError::UnknownParam { agent: agent.into(), param: param.into(), known: known_params(agent) }
}

fn parse_int(agent: &str, k: &str, v: &str, min: i64, max: i64) -> Result<i64, SpecError> {
    let bad =
        |why: String| SpecError::BadValue { agent: agent.into(), param: k.into(), value: v.into(), why };
    let x: i64 = v.parse().map_err(|_| bad("expected an integer".into()))?;
    if x < min || x > max {
        return Err(bad(format!("must be between {min} and {max}")));
    }
    Ok(x)
}

/// Rule parameters from `key=value` pairs (keys other than `extra` must be rule
/// parameters); the `extra` keys are returned.
fn rule_params<'a>(
    agent: &str,
    kv: &[(&'a str, &'a str)],
    extra: &[&str],
) -> Result<(RuleParams, Pairs<'a>), SpecError> {
    let mut p = RuleParams::default();
    let mut rest = Vec::new();
    for &(k, v) in kv {
        if extra.contains(&k) {
            rest.push((k, v));
        } else if p.get(k).is_some() {
            let x = parse_int(agent, k, v, -1000, 1000)?;
            p.set(k, x as i32);
        } else {
            return Err(unknown_param(agent, k));
        }
    }
    Ok((p, rest))
}

/// Builds a fair agent from its spec, `name[:key=value]*`. Fair agents see only
/// their seat's view; the `cheat` agent is refused ([`SpecError::FullState`]).
pub fn build_agent(spec: &str) -> Result<Box<dyn Agent>, SpecError> {
    let (name, kv) = split_spec(spec)?;
    match name {
        "random" => {
            if let Some((k, _)) = kv.first() {
                return Err(unknown_param(name, k));
            }
            Ok(Box::new(RandomAgent))
        }
        "rule" => {
            let (p, _) = rule_params(name, &kv, &[])?;
            Ok(Box::new(RuleAgent::new(p)))
        }
        "cheat" => Err(SpecError::FullState(name.into())),
        _ => Err(SpecError::UnknownAgent {
            name: name.to_string(),
            known: agent_infos().iter().map(|a| a.name).collect::<Vec<_>>().join(", "),
        }),
    }
}

/// Builds any agent, cheats included, for experiments ([`Seated`]): the fair agents
/// as [`build_agent`] does, and `cheat[:rollouts=N][:rule parameters]`.
pub fn build_seated(spec: &str) -> Result<Seated, SpecError> {
    let (name, kv) = split_spec(spec)?;
    if name == "cheat" {
        let (rule, rest) = rule_params(name, &kv, &["rollouts"])?;
        let mut c = Cheat { rule: RuleAgent::new(rule), ..Cheat::default() };
        for (k, v) in rest {
            c.rollouts = parse_int(name, k, v, 1, 1_000_000)? as u32;
        }
        return Ok(Seated::Cheat(Box::new(c)));
    }
    build_agent(spec).map(Seated::Fair)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_errors_list_valid_names() {
        assert_eq!(build_agent("rule:entrada=26:vuelta=31").unwrap().name(), "rule");
        assert_eq!(build_agent(" random ").unwrap().name(), "random");
        match build_agent("rule:foo=1") {
            Err(SpecError::UnknownParam { known, .. }) => {
                assert!(known.contains("entrada") && known.contains("vuelta") && known.contains("solo"))
            }
            other => panic!("{:?}", other.map(|a| a.name().to_string())),
        }
        assert!(matches!(build_agent("rule:entrada=x"), Err(SpecError::BadValue { .. })));
        assert!(matches!(build_agent("rule:entrada"), Err(SpecError::Malformed(_))));
        assert_eq!(
            build_agent("rule:entrada=40:solo=50:entrada=50").err(),
            Some(SpecError::RepeatedParam { agent: "rule".into(), param: "entrada".into() })
        );
        assert!(matches!(
            build_seated("cheat:rollouts=2: rollouts =3"),
            Err(SpecError::RepeatedParam { .. })
        ));
        match build_agent("nope") {
            Err(SpecError::UnknownAgent { known, .. }) => {
                assert!(known.contains("rule") && known.contains("random"))
            }
            other => panic!("{:?}", other.map(|a| a.name().to_string())),
        }
        assert!(matches!(build_agent("random:x=1"), Err(SpecError::UnknownParam { .. })));
        assert!(matches!(build_agent("cheat"), Err(SpecError::FullState(_))));
        assert_eq!(build_seated("cheat:rollouts=4:entrada=40").unwrap().name(), "cheat");
        assert!(matches!(build_seated("cheat:rollouts=0"), Err(SpecError::BadValue { .. })));
        assert_eq!(build_seated("rule").unwrap().name(), "rule");
    }

    #[test]
    fn infos_cover_every_buildable_agent() {
        for a in agent_infos() {
            let built = build_seated(a.name).unwrap();
            assert_eq!(built.name(), a.name);
            for p in &a.params {
                build_seated(&format!("{}:{}={}", a.name, p.name, p.default)).unwrap();
            }
        }
    }
}
