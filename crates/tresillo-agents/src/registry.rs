//! The agent registry: every agent built from a spec string `name[:key=value]*`.

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
    vec![AgentInfo { name: "random", help: "uniform over the legal choices", params: vec![] }]
}

/// Builds an agent from its spec, `name[:key=value]*`.
pub fn build_agent(spec: &str) -> Result<Box<dyn Agent>, SpecError> {
    let mut parts = spec.trim().split(':');
    let name = parts.next().unwrap_or("");
    let mut kv = Vec::new();
    for p in parts {
        let (k, v) = p.split_once('=').ok_or_else(|| SpecError::Malformed(p.to_string()))?;
        kv.push((k.trim(), v.trim()));
    }
    match name {
        "random" => {
            if let Some((k, _)) = kv.first() {
                return Err(SpecError::UnknownParam {
                    agent: name.into(),
                    param: (*k).into(),
                    known: "(none)".into(),
                });
            }
            Ok(Box::new(RandomAgent))
        }
        _ => Err(SpecError::UnknownAgent {
            name: name.to_string(),
            known: agent_infos().iter().map(|a| a.name).collect::<Vec<_>>().join(", "),
        }),
    }
}
