//! What a game is: [`GameSpec`], the first line of its log, and [`NewGame`], what
//! the page (or any client) posts to create one.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tresillo_core::{Deal, Rules};

/// The seat name of the person (the records' `agents` entry, as `play --human`).
pub const HUMAN: &str = "human";

/// Most hands a session may have.
pub const MAX_HANDS: u32 = 200;

/// A game as its log's first line keeps it: everything needed to play it again
/// from its decisions. A study creates games with `deals` (its deal book) and
/// `owner` (the participant) set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// The rule set's name (`tresillo rules`).
    pub rules: String,
    /// Rule options not at their defaults, as typed.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Seats at the table: 3 or 4, as the rule set allows.
    pub players: u8,
    /// Who sits in each seat: an agent spec, or [`HUMAN`] (exactly one seat).
    pub seats: Vec<String>,
    /// Hands in the session (one ledger; the dealer rotates).
    pub hands: u32,
    /// The master seed: hand k is deal k of it (unless `deals` gives it), and the
    /// seats' generators come from that deal's seed as in `play --human`.
    pub seed: u64,
    /// The dealer of the first hand.
    #[serde(default)]
    pub dealer: u8,
    /// Fixed deals (a study's deal book): hand k is `deals[k]`, as dealt (at four
    /// players, the dealer's hand `-`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deals: Option<Vec<Deal>>,
    /// Whose game it is (a study's participant id), for [`crate::Server::games_of`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The bots' pace: each bot decision is shown at least this many
    /// milliseconds after the one before (0: as fast as they decide).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pace_ms: u32,
    /// The person may take back their last decision of the hand (a casual game;
    /// each undo is a line of the log).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undo: bool,
    /// The seat of the person who made the game (the game's token is theirs),
    /// when more than one seat is [`HUMAN`] (a table with friends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<u8>,
    /// Each other human seat's secret token (32 hex digits), the key of its own
    /// link: a table with friends.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seat_tokens: BTreeMap<u8, String>,
    /// A human seat whose turn has waited this many milliseconds is taken over
    /// by [`GameSpec::takeover`] (0: never).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub takeover_ms: u64,
    /// The agent that takes over a seat left waiting (`rule` when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeover: Option<String>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

/// The shortest wait a takeover may be set to (milliseconds).
pub const MIN_TAKEOVER_MS: u64 = 1_000;

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The slowest pace a game may ask for (milliseconds a bot decision).
pub const MAX_PACE_MS: u32 = 5_000;

impl GameSpec {
    /// The rule set with its options.
    ///
    /// # Errors
    /// An unknown rule set or option, or a bad value.
    pub fn parse_rules(&self) -> Result<Rules, tresillo_core::RulesError> {
        let pairs: Vec<(&str, &str)> = self.options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let rules = Rules::parse(self.rules.trim(), &pairs)?;
        rules.check_players(self.players)?;
        Ok(rules)
    }
}

/// A request to create a game (`POST /api/games`): one person against bots.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The rule set's name; `tresillo` when absent.
    #[serde(default)]
    pub rules: Option<String>,
    /// Rule options as key and value (values as typed on the command line).
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Seats at the table; the rule set's first table size when absent.
    #[serde(default)]
    pub players: Option<u8>,
    /// The person's seat (0 when absent).
    #[serde(default)]
    pub seat: u8,
    /// The bots' agent specs in seat order after the person's seat (`rule` each
    /// when absent).
    #[serde(default)]
    pub opponents: Option<Vec<String>>,
    /// Hands in the session (1 when absent).
    #[serde(default)]
    pub hands: Option<u32>,
    /// The master seed; drawn from the OS when absent (and kept in the log and the
    /// records).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Milliseconds between the bots' decisions as shown (0 when absent: at
    /// once; the page asks for 500), at most [`MAX_PACE_MS`].
    #[serde(default)]
    pub pace_ms: Option<u32>,
    /// The person may take back their last decision of the hand (false when
    /// absent).
    #[serde(default)]
    pub undo: Option<bool>,
    /// A friend's seat left waiting this long (ms) is played by `takeover`
    /// (absent or 0: never; else at least [`MIN_TAKEOVER_MS`]).
    #[serde(default)]
    pub takeover_ms: Option<u64>,
    /// The agent that takes a waiting seat over (`rule` when absent; from the
    /// operator's list).
    #[serde(default)]
    pub takeover: Option<String>,
}

/// Why a request to create a game is refused ([`NewGame::to_spec`]).
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// A takeover delay too short.
    #[error("bad takeover_ms {0}: 0 (never) or at least {MIN_TAKEOVER_MS}")]
    Takeover(u64),
    /// A pace too slow.
    #[error("bad pace_ms {0}: at most {MAX_PACE_MS} ms a bot decision")]
    Pace(u32),
    /// An unknown rule set or option, or a bad value.
    #[error(transparent)]
    Rules(#[from] tresillo_core::RulesError),
    /// A seat not at the table.
    #[error("bad seat {seat}: seats are 0 to {last}")]
    Seat {
        /// The seat asked for.
        seat: u8,
        /// The last seat of the table.
        last: u8,
    },
    /// Not one opponent for each other seat.
    #[error("a table of {n} needs {need} opponents (agent specs), got {got}")]
    Opponents {
        /// The players at the table.
        n: u8,
        /// The opponents it needs.
        need: u8,
        /// The opponents given.
        got: usize,
    },
    /// Undo asked at a table with friends.
    #[error("undo is for a game against bots only, not a table with friends")]
    Undo,
    /// The operating system's random source failed (a friend's seat token).
    #[error("{0}")]
    Random(getrandom::Error),
}

impl NewGame {
    /// The game this request asks for, with `seed` when it gives none.
    ///
    /// # Errors
    /// A one-line reason: bad rule set, table size, seat, opponents or hands.
    pub fn to_spec(&self, seed: u64) -> Result<GameSpec, RequestError> {
        let name = self.rules.clone().unwrap_or_else(|| "tresillo".into());
        let mut spec = GameSpec {
            rules: name,
            options: self.options.clone(),
            players: 0,
            seats: Vec::new(),
            hands: self.hands.unwrap_or(1),
            seed: self.seed.unwrap_or(seed),
            dealer: 0,
            deals: None,
            owner: None,
            pace_ms: self.pace_ms.unwrap_or(0),
            undo: self.undo.unwrap_or(false),
            host: None,
            seat_tokens: BTreeMap::new(),
            takeover_ms: self.takeover_ms.unwrap_or(0),
            takeover: self.takeover.clone(),
        };
        if spec.takeover_ms != 0 && spec.takeover_ms < MIN_TAKEOVER_MS {
            return Err(RequestError::Takeover(spec.takeover_ms));
        }
        if spec.pace_ms > MAX_PACE_MS {
            return Err(RequestError::Pace(spec.pace_ms));
        }
        let pairs: Vec<(&str, &str)> = spec.options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let rules = Rules::parse(spec.rules.trim(), &pairs)?;
        let n = self.players.unwrap_or_else(|| rules.set.spec().tables[0].players);
        spec.players = n;
        if self.seat >= n {
            return Err(RequestError::Seat { seat: self.seat, last: n - 1 });
        }
        let opponents = self
            .opponents
            .clone()
            .unwrap_or_else(|| vec!["rule".to_string(); usize::from(n.saturating_sub(1))]);
        if opponents.len() != usize::from(n.saturating_sub(1)) {
            return Err(RequestError::Opponents { n, need: n.saturating_sub(1), got: opponents.len() });
        }
        let mut seats = vec![String::new(); usize::from(n)];
        seats[usize::from(self.seat)] = HUMAN.into();
        for (i, o) in opponents.iter().enumerate() {
            seats[usize::from((self.seat + 1 + i as u8) % n)] = o.trim().to_string();
        }
        spec.seats = seats;
        // A table with friends: every other `human` seat gets a secret link.
        let friends: Vec<u8> =
            (0..n).filter(|&i| i != self.seat && spec.seats[usize::from(i)] == HUMAN).collect();
        if !friends.is_empty() {
            if spec.undo {
                return Err(RequestError::Undo);
            }
            spec.host = Some(self.seat);
            for f in friends {
                let t = crate::token::Token::random().map_err(RequestError::Random)?;
                spec.seat_tokens.insert(f, t.to_string());
            }
        }
        Ok(spec)
    }
}
