//! What the operator allows the web to ask for (docs/SERVE.md, "Threat
//! model"): the opponents a game may seat (an allow-list of agent specs, set at
//! start), and the bounds on what games cost.

use std::time::Duration;

/// The opponents offered when the operator names none (`--opponents`): the
/// built-in agents at bounded settings (one thread, a fixed number of worlds or
/// iterations each; a few megabytes and well under a second a decision).
pub const DEFAULT_OPPONENTS: [&str; 4] = ["rule", "random", "pimc:worlds=32:threads=1", "ismcts:iters=2000"];

/// The bounds of a server (each a `tresillo serve` flag, docs/SERVE.md).
#[derive(Clone, Debug)]
pub struct Limits {
    /// The agent specs a game created from the web may seat, as the operator
    /// wrote them (`--opponents`). Anything else, external bots included, is
    /// refused.
    pub opponents: Vec<String>,
    /// The longest a bot may think over one decision (`--decision-ms`): past
    /// it the decision is stopped and the game stops with the reason.
    pub decision_time: Duration,
    /// The most games kept in memory (`--live-games`): past it, the games idle
    /// longest are unloaded (their logs stay on disk and are read again at
    /// their next request).
    pub live_games: usize,
    /// The most games one client address may create in a minute
    /// (`--games-per-minute`; 0: no limit).
    pub games_per_minute: u32,
    /// The most bytes the records directory may hold (`--disk-budget-mb`):
    /// past it no game is created, with a clear error.
    pub disk_budget: u64,
}

/// [`Limits::decision_time`] by default.
pub const DECISION_TIME: Duration = Duration::from_secs(10);
/// [`Limits::live_games`] by default.
pub const LIVE_GAMES: usize = 1000;
/// [`Limits::games_per_minute`] by default.
pub const GAMES_PER_MINUTE: u32 = 30;
/// [`Limits::disk_budget`] by default: 1 GiB.
pub const DISK_BUDGET: u64 = 1 << 30;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            opponents: DEFAULT_OPPONENTS.iter().map(|s| (*s).to_string()).collect(),
            decision_time: DECISION_TIME,
            live_games: LIVE_GAMES,
            games_per_minute: GAMES_PER_MINUTE,
            disk_budget: DISK_BUDGET,
        }
    }
}

/// A spec as compared with the allow-list: without white space.
#[must_use]
pub fn normal(spec: &str) -> String {
    spec.chars().filter(|c| !c.is_whitespace()).collect()
}

impl Limits {
    /// Whether the web may seat `spec`.
    #[must_use]
    pub fn offers(&self, spec: &str) -> bool {
        let s = normal(spec);
        self.opponents.iter().any(|o| normal(o) == s)
    }

    /// Refuses a seat the operator did not offer, naming what is offered.
    ///
    /// # Errors
    /// A one-line reason.
    pub fn check_opponent(&self, spec: &str) -> Result<(), NotOffered> {
        if self.offers(spec) {
            return Ok(());
        }
        let what = if normal(spec).starts_with("ext:") {
            "external bots run programs: only the operator may seat one (--opponents)"
        } else {
            "not offered by this server"
        };
        Err(NotOffered { spec: spec.trim().to_string(), what, offered: self.opponents.join(", ") })
    }
}

/// An opponent the operator did not offer ([`Limits::check_opponent`]).
#[derive(Debug, thiserror::Error)]
#[error("opponent `{spec}`: {what}; offered: {offered}")]
pub struct NotOffered {
    /// The spec asked for.
    pub spec: String,
    /// Why it is refused.
    pub what: &'static str,
    /// The specs offered.
    pub offered: String,
}
