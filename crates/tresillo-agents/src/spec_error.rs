//! [`SpecError`]: a bad agent spec, or a registration the registry refuses. Its own
//! module so that agents parsing their own specs (`ismcts`) need not import the
//! registry that builds them.

/// A bad agent spec, or a registration the registry refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A spec holding a control character (shown escaped): a spec is printed as the
    /// agent's label in tables and files, so it must be printable.
    #[error("agent spec `{0}` holds a control character: a name, path or value must be printable")]
    ControlCharacter(String),
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
        "agent `{0}` sees every hand: it only takes a seat in upper-bound experiments \
         (tournament, tune, play --agents), and cannot advise or decide where only a \
         player's own cards may be seen"
    )]
    FullState(String),
    /// A name registered twice.
    #[error("an agent named `{0}` is already registered")]
    Duplicate(String),
}

/// Why a spec value is refused (the `why` of [`SpecError::BadValue`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// Not an integer.
    #[error("expected an integer")]
    NotInteger,
    /// An integer out of its bounds.
    #[error("must be between {min} and {max}")]
    Range {
        /// The least value.
        min: u32,
        /// The greatest value.
        max: u32,
    },
    /// Not what the parameter takes (`0`: what it takes, as "expected a number").
    #[error("{0}")]
    Expected(&'static str),
}

/// A spec value as an integer in `min..=max`, or why not.
pub(crate) fn int_in(value: &str, min: u32, max: u32) -> Result<u32, ValueError> {
    let x: i64 = value.parse().map_err(|_| ValueError::NotInteger)?;
    if x < i64::from(min) || x > i64::from(max) {
        return Err(ValueError::Range { min, max });
    }
    Ok(x as u32)
}
