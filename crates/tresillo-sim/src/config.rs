//! Tournament configuration: agents, deal range, seed, scoring, duplicate, shards.
//!
//! [`TournamentConfig`] (players 3 or 4), [`Scoring`], [`Shard`], and the seatings
//! `SEATINGS` and `SEATINGS4` (`--duplicate` plays all 6, or all 24 at four players).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use tresillo_agents::{BiddingCovers, Registry, SpecError};
use tresillo_core::{Rules, ScoringMode};

/// A bad configuration.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// An agent spec the registry refuses.
    #[error(transparent)]
    Agent(#[from] SpecError),
    /// Not one agent per seat.
    #[error("a tournament of {players} players needs {players} agents (one per seat), got {got}")]
    AgentCount {
        /// Agents given.
        got: usize,
        /// Seats at the table.
        players: u8,
    },
    /// A malformed `--shard`.
    #[error("bad shard `{0}`: expected K/N with 0 <= K < N, for example 0/4")]
    Shard(String),
    /// A malformed `--scoring`.
    #[error(
        "bad scoring `{0}`: expected `deal` or `session:K` with 1 <= K <= {max} (deals per session)",
        max = Scoring::MAX_SESSION
    )]
    Scoring(String),
    /// Zero deals, or deals not a multiple of the session length.
    #[error("{0}")]
    Deals(String),
    /// An agent that does not play the rule set.
    #[error("{0}")]
    Rules(String),
    /// A spec that an equal time budget cannot be given.
    #[error("{0}")]
    Budget(String),
    /// A deal book that does not fit the run.
    #[error("{0}")]
    Book(String),
    /// A bidding cover without a bidding agent.
    #[error("{0}")]
    Bidding(String),
}

/// How hands are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Scoring {
    /// Every hand from a fresh ledger.
    Deal,
    /// Sessions of `K` consecutive deals, one ledger each.
    Session(u32),
}

impl Scoring {
    /// The longest session: a session's rows are held in memory until it ends.
    pub const MAX_SESSION: u32 = 10_000;

    /// Deals per scoring unit (1 for `deal`).
    #[must_use]
    pub fn unit_len(self) -> u64 {
        match self {
            Scoring::Deal => 1,
            Scoring::Session(k) => u64::from(k),
        }
    }

    /// The core's scoring mode.
    #[must_use]
    pub fn mode(self) -> ScoringMode {
        match self {
            Scoring::Deal => ScoringMode::Deal,
            Scoring::Session(_) => ScoringMode::Session,
        }
    }
}

impl FromStr for Scoring {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        let bad = || ConfigError::Scoring(s.to_string());
        match s.trim() {
            "deal" => Ok(Scoring::Deal),
            t => {
                let k = t.strip_prefix("session:").ok_or_else(bad)?;
                let k: u32 = k.parse().map_err(|_| bad())?;
                if k == 0 || k > Scoring::MAX_SESSION { Err(bad()) } else { Ok(Scoring::Session(k)) }
            }
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scoring::Deal => f.write_str("deal"),
            Scoring::Session(k) => write!(f, "session:{k}"),
        }
    }
}

/// Shard `index` of `count`: a contiguous share of the scoring units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// This shard (0-based).
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// The units `[start, end)` of this shard out of `units`.
    #[must_use]
    pub fn range(self, units: u64) -> (u64, u64) {
        let at = |k: u64| ((u128::from(units) * u128::from(k)) / u128::from(self.count)) as u64;
        (at(self.index), at(self.index + 1))
    }
}

impl FromStr for Shard {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, ConfigError> {
        let bad = || ConfigError::Shard(s.to_string());
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count { Err(bad()) } else { Ok(Shard { index, count }) }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Everything that determines a tournament's output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// One agent spec per agent slot (one per seat: three, or four).
    pub agents: Vec<String>,
    /// Seats at the table: 3, or 4 with an inactive dealer (RULES.md section 12.2).
    /// Absent from manifests when 3.
    #[serde(default = "three", skip_serializing_if = "is_three")]
    pub players: u8,
    /// Deals in the whole run (all shards).
    pub deals: u64,
    /// The master seed.
    pub seed: u64,
    /// The rule set with its options (in files: its name, or a table
    /// `{ name = "...", key = value }` when an option is set).
    pub rules: Rules,
    /// Scoring.
    pub scoring: Scoring,
    /// Play every deal under all six seatings (all 24 at four players).
    pub duplicate: bool,
    /// Which share of the run this is.
    pub shard: Shard,
    /// An agent spec that makes every seat's bidding-phase decisions (auction,
    /// contract and trump, exchange, conversation), so that the seated agents
    /// decide only card play, surrender, takeover and bola; `None`: each agent
    /// decides everything. Absent from manifests when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bidding: Option<String>,
    /// Which decisions the bidding agent makes: the bidding phase (the default,
    /// absent from manifests), or with `all` every decision but card play
    /// (surrender, takeover, bola and hombre's other questions too), so that
    /// the seated agents decide card play alone. Needs `bidding`.
    #[serde(default, skip_serializing_if = "BiddingCovers::is_default", with = "covers_serde")]
    pub bidding_covers: BiddingCovers,
}

/// [`BiddingCovers`] as its word (`"bidding"`, `"all"`) in manifests and records.
pub(crate) mod covers_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use tresillo_agents::BiddingCovers;

    pub(crate) fn serialize<S: Serializer>(c: &BiddingCovers, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.as_str())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BiddingCovers, D::Error> {
        let word = String::deserialize(d)?;
        word.parse().map_err(serde::de::Error::custom)
    }
}

/// The parameters that fix a search agent's amount of work: a spec that sets one
/// of them is refused by [`TournamentConfig::with_time_budget`].
pub const WORK_PARAMS: [&str; 3] = ["worlds", "iters", "ms"];

/// Whether the agent of `spec` is a search agent that takes a time budget: a
/// parameter `ms` beside an amount of work (`worlds` or `iters`) in `registry`.
/// (An external bot's `ms` is a limit on its answers, not a budget.)
#[must_use]
pub fn takes_time_budget(spec: &str, registry: &Registry) -> bool {
    let name = spec.split(':').next().unwrap_or("").trim();
    registry.info(name).is_some_and(|i| {
        let has = |n: &str| i.params.iter().any(|p| p.name == n);
        has("ms") && (has("worlds") || has("iters"))
    })
}

/// `spec` with a time budget of `ms` milliseconds per decision (`:ms=N`
/// appended) when its agent takes one ([`takes_time_budget`]); other specs
/// unchanged. Refuses, naming it, a spec that already fixes its work
/// ([`WORK_PARAMS`]).
pub fn with_time_budget(spec: &str, ms: u32, registry: &Registry) -> Result<String, ConfigError> {
    if !takes_time_budget(spec, registry) {
        return Ok(spec.to_string());
    }
    for key in WORK_PARAMS {
        if tresillo_agents::spec_param(spec, key)?.is_some() {
            return Err(ConfigError::Budget(format!(
                "`{spec}` already sets `{key}`: an equal time budget replaces the amount of work, so give \
                 the agent without worlds, iters or ms"
            )));
        }
    }
    Ok(format!("{}:ms={ms}", spec.trim()))
}

impl TournamentConfig {
    /// Gives every agent that takes a time budget (`pimc`, `ismcts`, any agent
    /// registered with a parameter `ms`), the bidding agent included, `ms`
    /// milliseconds per decision ([`with_time_budget`]); the others (`rule`,
    /// `random`, ...) are left alone. Time budgets are not reproducible.
    pub fn with_time_budget(&mut self, ms: u32, registry: &Registry) -> Result<(), ConfigError> {
        for a in &mut self.agents {
            *a = with_time_budget(a, ms, registry)?;
        }
        if let Some(b) = &mut self.bidding {
            *b = with_time_budget(b, ms, registry)?;
        }
        Ok(())
    }

    /// The search agents (and the bidding agent) whose spec sets a time budget
    /// (`ms=` above 0, [`takes_time_budget`]), and every agent on a clock
    /// (`tc=`, `tresillo_agents::clock`): their decisions depend on the
    /// machine's speed.
    #[must_use]
    pub fn timed_agents(&self, registry: &Registry) -> Vec<&str> {
        self.agents
            .iter()
            .chain(&self.bidding)
            .filter(|s| {
                let budget = takes_time_budget(s, registry)
                    && tresillo_agents::spec_param(s, "ms").ok().flatten().is_some_and(|v| v.trim() != "0");
                budget || tresillo_agents::spec_param(s, "tc").ok().flatten().is_some()
            })
            .map(String::as_str)
            .collect()
    }

    /// The note to show before a run whose agents decide under a time budget
    /// ([`timed_agents`](Self::timed_agents)): such a run does not reproduce.
    /// `None` when every agent does a fixed amount of work.
    #[must_use]
    pub fn time_budget_note(&self, registry: &Registry) -> Option<String> {
        let timed = self.timed_agents(registry);
        (!timed.is_empty()).then(|| {
            format!(
                "note: {} decide under a time budget (ms=) or a clock (tc=): the results depend on this machine \
                 and its load and do not reproduce; `tresillo calibrate` gives a reproducible spec of about the \
                 same time",
                timed.join(", ")
            )
        })
    }

    /// Checks the agents (with the built-in registry) and the counts.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.validate_with(&Registry::builtin())
    }

    /// Checks the agents against `registry`, and the counts.
    pub fn validate_with(&self, registry: &Registry) -> Result<(), ConfigError> {
        self.rules.check_players(self.players).map_err(|e| ConfigError::Rules(e.to_string()))?;
        if self.agents.len() != usize::from(self.players) {
            return Err(ConfigError::AgentCount { got: self.agents.len(), players: self.players });
        }
        for a in self.agents.iter().chain(&self.bidding) {
            registry.build_seated(a)?;
        }
        if self.bidding.is_none() && !self.bidding_covers.is_default() {
            return Err(ConfigError::Bidding(format!(
                "bidding covers `{}` needs a bidding agent (--bidding)",
                self.bidding_covers
            )));
        }
        if self.deals == 0 {
            return Err(ConfigError::Deals("deals must be at least 1".into()));
        }
        if !self.deals.is_multiple_of(self.scoring.unit_len()) {
            return Err(ConfigError::Deals(format!(
                "deals {} is not a multiple of the session length {}",
                self.deals,
                self.scoring.unit_len()
            )));
        }
        Ok(())
    }

    /// Scoring units in the whole run.
    #[must_use]
    pub fn units(&self) -> u64 {
        self.deals / self.scoring.unit_len()
    }

    /// The units of this shard.
    #[must_use]
    pub fn unit_range(&self) -> (u64, u64) {
        self.shard.range(self.units())
    }

    /// The deals of this shard, `[start, end)`.
    #[must_use]
    pub fn deal_range(&self) -> (u64, u64) {
        let (a, b) = self.unit_range();
        (a * self.scoring.unit_len(), b * self.scoring.unit_len())
    }

    /// The configuration of the whole run this shard belongs to.
    #[must_use]
    pub fn whole(&self) -> TournamentConfig {
        TournamentConfig { shard: Shard::WHOLE, ..self.clone() }
    }

    /// The seatings played per deal: agent slot per seat (the first is the
    /// identity; with `duplicate` all of [`SEATINGS`], or of [`SEATINGS4`] at four).
    #[must_use]
    pub fn seatings(&self) -> &'static [&'static [u8]] {
        // The permutations of as many slots as there are seats.
        let lists: [&'static [&'static [u8]]; 2] = [&SEATING_LIST, &SEATING_LIST4];
        let seats = usize::from(self.players);
        let all = lists.into_iter().find(|l| l[0].len() == seats).unwrap_or(&SEATING_LIST);
        if self.duplicate { all } else { &all[..1] }
    }
}

fn three() -> u8 {
    3
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_three(p: &u8) -> bool {
    *p == 3
}

/// The six seatings of duplicate play: `SEATINGS[k][seat]` is the agent slot in that
/// seat. The first is the identity.
pub const SEATINGS: [[u8; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// The 24 seatings of duplicate play at four (every permutation of the four slots,
/// in lexicographic order, the identity first). All of them, not a subset: every
/// slot sits in every seat (as dealer, mano, medio and postre) equally often and
/// behind every other slot equally often, so no seat or order advantage is left.
pub const SEATINGS4: [[u8; 4]; 24] = [
    [0, 1, 2, 3],
    [0, 1, 3, 2],
    [0, 2, 1, 3],
    [0, 2, 3, 1],
    [0, 3, 1, 2],
    [0, 3, 2, 1],
    [1, 0, 2, 3],
    [1, 0, 3, 2],
    [1, 2, 0, 3],
    [1, 2, 3, 0],
    [1, 3, 0, 2],
    [1, 3, 2, 0],
    [2, 0, 1, 3],
    [2, 0, 3, 1],
    [2, 1, 0, 3],
    [2, 1, 3, 0],
    [2, 3, 0, 1],
    [2, 3, 1, 0],
    [3, 0, 1, 2],
    [3, 0, 2, 1],
    [3, 1, 0, 2],
    [3, 1, 2, 0],
    [3, 2, 0, 1],
    [3, 2, 1, 0],
];

const SEATING_LIST: [&[u8]; 6] =
    [&SEATINGS[0], &SEATINGS[1], &SEATINGS[2], &SEATINGS[3], &SEATINGS[4], &SEATINGS[5]];

const SEATING_LIST4: [&[u8]; 24] = [
    &SEATINGS4[0],
    &SEATINGS4[1],
    &SEATINGS4[2],
    &SEATINGS4[3],
    &SEATINGS4[4],
    &SEATINGS4[5],
    &SEATINGS4[6],
    &SEATINGS4[7],
    &SEATINGS4[8],
    &SEATINGS4[9],
    &SEATINGS4[10],
    &SEATINGS4[11],
    &SEATINGS4[12],
    &SEATINGS4[13],
    &SEATINGS4[14],
    &SEATINGS4[15],
    &SEATINGS4[16],
    &SEATINGS4[17],
    &SEATINGS4[18],
    &SEATINGS4[19],
    &SEATINGS4[20],
    &SEATINGS4[21],
    &SEATINGS4[22],
    &SEATINGS4[23],
];

/// The configuration of a tournament scored by the deal, for quick use in tests
/// and tuning.
#[must_use]
pub fn simple_config(agents: [&str; 3], deals: u64, seed: u64, duplicate: bool) -> TournamentConfig {
    TournamentConfig {
        agents: agents.iter().map(|s| s.to_string()).collect(),
        players: 3,
        deals,
        seed,
        rules: tresillo_core::Rules::default(),
        scoring: Scoring::Deal,
        duplicate,
        shard: Shard::WHOLE,
        bidding: None,
        bidding_covers: tresillo_agents::BiddingCovers::Bidding,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_units() {
        for n in 1..7 {
            let mut next = 0;
            for k in 0..n {
                let (a, b) = Shard { index: k, count: n }.range(103);
                assert_eq!(a, next);
                next = b;
            }
            assert_eq!(next, 103);
        }
        assert!("3/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert_eq!("2/5".parse::<Shard>().unwrap(), Shard { index: 2, count: 5 });
    }

    #[test]
    fn scoring_parses() {
        assert_eq!("deal".parse::<Scoring>().unwrap(), Scoring::Deal);
        assert_eq!("session:12".parse::<Scoring>().unwrap(), Scoring::Session(12));
        assert!("session:0".parse::<Scoring>().is_err());
        assert!("sessions".parse::<Scoring>().is_err());
    }
}

#[cfg(test)]
mod budget_tests {
    use super::*;

    #[test]
    fn an_equal_time_budget_goes_to_the_search_agents_only() {
        let r = Registry::builtin();
        let mut c = simple_config(["pimc", "ismcts:c=1.2", "rule"], 3, 1, false);
        c.bidding = Some("random".into());
        c.with_time_budget(25, &r).unwrap();
        assert_eq!(c.agents, ["pimc:ms=25", "ismcts:c=1.2:ms=25", "rule"]);
        assert_eq!(c.bidding.as_deref(), Some("random"));
        assert_eq!(c.timed_agents(&r), ["pimc:ms=25", "ismcts:c=1.2:ms=25"]);
        c.validate_with(&r).unwrap();
        for spec in ["pimc:worlds=8", "ismcts:iters=100", "pimc:ms=3"] {
            let e = with_time_budget(spec, 5, &r).unwrap_err().to_string();
            assert!(e.contains(spec) && e.contains("already sets"), "{e}");
        }
        assert!(simple_config(["pimc:ms=0", "rule", "rule"], 1, 1, false).timed_agents(&r).is_empty());
        // An agent whose `ms` is not a search budget (no worlds or iters) is left alone.
        let mut own = Registry::builtin();
        let info = tresillo_agents::AgentInfo {
            name: "limited",
            help: "answers within a time limit",
            params: vec![tresillo_agents::ParamInfo { name: "ms", default: "0".into(), help: "a limit" }],
        };
        own.register(info, |_| Ok(Box::new(tresillo_agents::RandomAgent))).unwrap();
        assert!(!takes_time_budget("limited:ms=5", &own) && takes_time_budget("pimc", &own));
        assert_eq!(with_time_budget("limited", 5, &own).unwrap(), "limited");
        let c = simple_config(["limited:ms=5", "rule", "rule"], 1, 1, false);
        assert!(c.timed_agents(&own).is_empty());
    }
}
