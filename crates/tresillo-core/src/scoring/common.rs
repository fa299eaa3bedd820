//! What every ledger shares (scoring.rs re-exports it): the configuration, a
//! hand's score, the settlement, the scoring mode, the errors, and the helpers
//! that build and check results. The ledgers (ledger.rs, points.rs, chips.rs,
//! lhombre.rs) and the validation import it, never scoring.rs itself.

use crate::card::{BySeat, Seat};
use crate::game::{Contract, Outcome, PuestaKind};
use crate::result::HandResult;
use crate::rules::{RuleOptions, Rules};
use crate::spec::RuleSet;
use crate::table::Table;
use std::fmt;

/// The starting bowl of each player by default, before the first pajarito.
pub const DEFAULT_START_BOWL: i64 = 160;
/// The pajarito, each player's stake in the pajaritos dish.
pub const DEFAULT_PAJARITO: i64 = 5;

/// The condiciones of the `tresillo` rule set (section 8), in tantos from or to each
/// other player.
pub mod condiciones {
    /// An entrada.
    pub const ENTRADA: i64 = 0;
    /// A vuelta.
    pub const VUELTA: i64 = 1;
    /// A solo.
    pub const SOLO: i64 = 2;
    /// A four-player penetro, on top of its contract.
    pub const PENETRO: i64 = 1;
    /// The declarer held espada, mala and basto when play began, and won.
    pub const ESTUCHE: i64 = 1;
    /// The declarer won the first five tricks and stopped.
    pub const PRIMERAS: i64 = 1;
    /// Bola made (from each) or failed (to each).
    pub const BOLA: i64 = 8;
}

/// The table a [`Ledger`] keeps score for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct LedgerConfig {
    /// The rule set (a Spanish rule set: the puesta system).
    pub rules: RuleSet,
    /// The rule set's options.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "RuleOptions::is_default"))]
    pub options: RuleOptions,
    /// Players at the table: 3, or 4 with an inactive dealer.
    pub players: u8,
    /// Each player's bowl before the first pajarito (160 by default).
    pub start_bowl: i64,
    /// Each player's stake in the pajaritos dish (5).
    pub pajarito: i64,
    /// Four players: in a penetro nobody drops out and the dealer plays against the
    /// three others (RULES.md section 12.2); otherwise a penetro with three
    /// opponents holding tricks is refused.
    #[cfg_attr(feature = "serde", serde(default))]
    pub penetro_all_play: bool,
    /// `hombre` points: the session's number of deals; after the last the pot is
    /// paid out (0: no fixed end). See [`PointsLedger`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub deals: u32,
}

impl LedgerConfig {
    /// The largest starting bowl.
    pub const MAX_BOWL: i64 = 1_000_000;
    /// The largest pajarito.
    pub const MAX_PAJARITO: i64 = 10_000;

    /// The default configuration for a table of `players`: rule set `tresillo`,
    /// bowls of 160, pajaritos of 5.
    #[must_use]
    pub const fn new(players: u8) -> LedgerConfig {
        LedgerConfig {
            rules: RuleSet::TRESILLO,
            options: RuleOptions::NONE,
            players,
            start_bowl: DEFAULT_START_BOWL,
            pajarito: DEFAULT_PAJARITO,
            penetro_all_play: false,
            deals: 0,
        }
    }
}

impl LedgerConfig {
    /// The default configuration of a table of `players` playing `rules`.
    #[must_use]
    pub fn with_rules(rules: Rules, players: u8) -> LedgerConfig {
        LedgerConfig {
            rules: rules.set,
            options: rules.options,
            penetro_all_play: rules.penetro_all_play(),
            ..LedgerConfig::new(players)
        }
    }
}

impl LedgerConfig {
    /// The rules of the session (the rule set with its options).
    #[must_use]
    pub const fn game_rules(&self) -> Rules {
        Rules { set: self.rules, options: self.options }
    }

    /// The table of the session ([`Rules::table`]).
    #[must_use]
    pub fn table(&self) -> Table {
        self.rules.table(self.players)
    }
}

impl Default for LedgerConfig {
    fn default() -> Self {
        LedgerConfig::new(3)
    }
}

/// A reserved puesta written on the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Debt {
    /// The player it is written against.
    pub owner: Seat,
    /// Its amount in tantos.
    pub amount: i64,
    /// The hand of the ledger that wrote it (1 for the first hand scored).
    pub hand: u32,
}

/// Which of the three amount-in-play cases of section 8 a hand is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum AipCase {
    /// Case 1: the paper is empty and the plato holds no failure payment.
    /// AIP = plato + n.
    FirstPuesta,
    /// Case 2: the plato holds a failure payment. AIP = plato + n.
    PuestaInPlato,
    /// Case 3: the paper has debts and the plato holds no failure payment.
    /// AIP = largest debt (the last written among equals) + plato.
    Reserved,
}

impl AipCase {
    /// `first puesta`, `puesta in the plato` or `reserved puesta`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            AipCase::FirstPuesta => "first puesta",
            AipCase::PuestaInPlato => "puesta in the plato",
            AipCase::Reserved => "reserved puesta",
        }
    }
}

impl fmt::Display for AipCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How one hand changed the ledger, seat by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HandScore {
    /// The hand's number in its ledger (1 for the first).
    pub hand: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The amount-in-play case the hand was played under.
    pub case: AipCase,
    /// The amount in play (after the dealer's tanto and any pajarito).
    pub aip: i64,
    /// In case 3, the debt played for.
    pub played_for: Option<Debt>,
    /// Change of each bowl other than condiciones: the dealer's tanto, pajarito
    /// refills, the plato, sacado tantos, reserved puestas paid, codillo and takeover
    /// payments.
    pub pool: BySeat<i64>,
    /// Change of each bowl through condiciones.
    pub condiciones: BySeat<i64>,
    /// Change of what each seat owes on the paper (positive: more written against it).
    pub debts: BySeat<i64>,
    /// The debt crossed out by a sacado in case 3, if any.
    pub crossed_out: Option<Debt>,
    /// Debts written by this hand, in order (two for twin puestas).
    pub written: [Option<Debt>; 2],
}

impl HandScore {
    /// Hand number `hand` dealt by `dealer`, before any payment: nothing changed yet.
    #[must_use]
    pub fn new(hand: u32, dealer: Seat) -> HandScore {
        HandScore {
            hand,
            dealer,
            case: AipCase::FirstPuesta,
            aip: 0,
            played_for: None,
            pool: BySeat::default(),
            condiciones: BySeat::default(),
            debts: BySeat::default(),
            crossed_out: None,
            written: [None; 2],
        }
    }

    /// The change of `seat`'s bowl: pool plus condiciones.
    #[must_use]
    pub fn total(&self, seat: Seat) -> i64 {
        self.pool[seat] + self.condiciones[seat]
    }

    /// The change of every bowl.
    #[must_use]
    pub fn totals(&self) -> BySeat<i64> {
        BySeat(std::array::from_fn(|i| self.pool.0[i] + self.condiciones.0[i]))
    }

    /// The change of `seat`'s worth: its bowl change minus the change of what it owes
    /// on the paper. (A debt is paid at the latest at the settlement.)
    #[must_use]
    pub fn net(&self, seat: Seat) -> i64 {
        self.total(seat) - self.debts[seat]
    }

    /// The debts written by this hand, in order.
    pub fn written(&self) -> impl Iterator<Item = Debt> + '_ {
        self.written.iter().flatten().copied()
    }
}

/// The end-of-session settlement (section 8): every debt is paid by its owner into
/// a common fund together with the plato and the pajaritos dish, and the fund is
/// shared equally; a remainder of r tantos goes one each to the r players with the
/// lowest bowls after their debts are paid, ties broken in turn order starting after
/// the last dealer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Settlement {
    /// Players at the table.
    pub players: u8,
    /// The plato put into the fund.
    pub plato: i64,
    /// The pajaritos dish put into the fund.
    pub pajaritos: i64,
    /// What each seat paid for its debts.
    pub debts_paid: BySeat<i64>,
    /// The fund: plato + pajaritos + all debts.
    pub fund: i64,
    /// The equal share of each player (the fund divided by n, rounded down).
    pub share: i64,
    /// The seats that received one tanto of the remainder.
    pub remainder: BySeat<bool>,
    /// Each bowl after paying debts and receiving the shares.
    pub final_bowls: BySeat<i64>,
    /// Each player's result: final bowl minus the starting bowl.
    pub results: BySeat<i64>,
}

/// How simulations score consecutive hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ScoringMode {
    /// Every hand is scored from a fresh ledger, so agents are compared without pot
    /// history.
    #[default]
    Deal,
    /// One ledger carried across consecutive hands, as at a real table.
    Session,
}

impl ScoringMode {
    /// `deal` or `session`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ScoringMode::Deal => "deal",
            ScoringMode::Session => "session",
        }
    }
}

impl fmt::Display for ScoringMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A scoring mode of no known name ([`ScoringMode`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown scoring mode `{0}` (known: deal, session)")]
pub struct UnknownScoringMode(pub String);

impl std::str::FromStr for ScoringMode {
    type Err = UnknownScoringMode;
    fn from_str(s: &str) -> Result<Self, UnknownScoringMode> {
        match s {
            "deal" => Ok(ScoringMode::Deal),
            "session" => Ok(ScoringMode::Session),
            _ => Err(UnknownScoringMode(s.to_string())),
        }
    }
}

/// Why a ledger cannot be made or a result cannot be scored. The ledger is left
/// unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoringError {
    /// A table size the rule set is not played at.
    #[error("a table of {0} players is not one the rule set is played at")]
    Players(u8),
    /// A starting bowl or pajarito out of range (amounts are bounded so that no sum
    /// of a session can overflow).
    #[error(
        "the starting bowl must be between the pajarito and {max} and the pajarito between 1 and {max_p} \
         (got start_bowl {start_bowl}, pajarito {pajarito})",
        max = LedgerConfig::MAX_BOWL,
        max_p = LedgerConfig::MAX_PAJARITO
    )]
    Stakes {
        /// The starting bowl given.
        start_bowl: i64,
        /// The pajarito given.
        pajarito: i64,
    },
    /// A result for another table size than the ledger's.
    #[error("the result is for {got} players but the ledger's table has {expected}")]
    WrongTable {
        /// The ledger's.
        expected: u8,
        /// The result's.
        got: u8,
    },
    /// A result of another rule set than the ledger's.
    #[error("the result is for rule set {got} but the ledger scores {expected}")]
    WrongRules {
        /// The ledger's.
        expected: RuleSet,
        /// The result's.
        got: RuleSet,
    },
    /// A seat that is not at the table.
    #[error("unknown seat {seat} as {role} (seats are 0 to {last})")]
    UnknownSeat {
        /// What the seat was named as.
        role: &'static str,
        /// The seat.
        seat: Seat,
        /// The last seat at the table.
        last: u8,
    },
    /// A result dealt by the wrong seat.
    #[error("seat {expected} deals this hand, not seat {got} (the deal rotates in turn order)")]
    DealerOutOfTurn {
        /// The next dealer.
        expected: Seat,
        /// The result's dealer.
        got: Seat,
    },
    /// The inactive dealer of a four-player table named as playing.
    #[error("seat {seat} is the inactive dealer and cannot be the {role} (the dealer plays only a penetro)")]
    InactiveDealer {
        /// The dealer.
        seat: Seat,
        /// What it was named as.
        role: &'static str,
    },
    /// Trick counts that do not add up.
    #[error("the trick counts add up to {got}, not {expected}")]
    TrickTotal {
        /// Their sum.
        got: u32,
        /// What they must add up to.
        expected: u8,
    },
    /// An outcome the trick counts contradict.
    #[error("the outcome {given} contradicts the trick counts, which give {expected}")]
    OutcomeMismatch {
        /// The outcome in the result.
        given: Outcome,
        /// The outcome of the tricks.
        expected: Outcome,
    },
    /// A contract the ledger's rule set does not play (with its options).
    #[error("the contract {contract} is not played in rule set {rules}{}", if *.contract == Contract::Contrabola { " without the option `contrabola`" } else { "" })]
    NoSuchContract {
        /// The result's contract.
        contract: Contract,
        /// The ledger's rule set.
        rules: RuleSet,
    },
    /// Any other contradiction inside the result.
    #[error("{0}")]
    Inconsistent(&'static str),
    /// A ledger of another scoring system than the rule set's.
    #[error("rule set {rules} is not scored by the {ledger} ledger")]
    System {
        /// The rule set.
        rules: RuleSet,
        /// The ledger asked for.
        ledger: &'static str,
    },
    /// A hand after the last deal of a points session.
    #[error("the session of {0} deals is over")]
    SessionOver(u32),
}

/// A minimal [`HandResult`] as typed in at a real table: `declarer` played
/// `contract` (dealt by `dealer`) and the seats took `tricks` (one count per seat;
/// all zero when not recorded). The outcome follows from the tricks (section 7).
/// Set the other fields (surrender, estuche, primeras, bola, penetro) as needed.
#[must_use]
pub fn table_result(
    players: u8,
    dealer: Seat,
    declarer: Seat,
    contract: Contract,
    tricks: &[u8],
) -> HandResult {
    let mut t = BySeat::default();
    for (i, &k) in tricks.iter().take(Seat::MAX).enumerate() {
        t.0[i] = k;
    }
    let mut r = cancelled_result(players, dealer);
    r.declarer = Some(declarer);
    r.contract = Some(contract);
    r.tricks = t;
    r.outcome = outcome_of(r.table(), dealer, declarer, false, &t);
    r
}

/// A cancelled [`HandResult`] dealt by `dealer` (everybody passed and the espada was
/// in the heap).
#[must_use]
pub fn cancelled_result(players: u8, dealer: Seat) -> HandResult {
    HandResult {
        rules: RuleSet::TRESILLO,
        options: RuleOptions::default(),
        players,
        dealer,
        bids: Vec::new(),
        declarer: None,
        contract: None,
        trump: None,
        turned: None,
        forced: false,
        penetro: false,
        dropped_out: None,
        exchanged: BySeat::default(),
        conversation: Vec::new(),
        first_opponent: None,
        tricks: BySeat::default(),
        trick_winners: Vec::new(),
        outcome: Outcome::Cancelled,
        estuche: false,
        final_estuche: false,
        contra_estuche: false,
        final_contra_estuche: false,
        primeras: false,
        bola_attempted: false,
        bola_made: false,
        surrender: None,
        deal: None,
        hands_at_play: None,
        gascarille: false,
        vole_declared: false,
    }
}

/// The outcome (section 7) of `tricks` for `declarer` at `table`, against every
/// other seat that plays: all but a dealer who sits out (four players), or all
/// three others in a penetro (a player who dropped out has no tricks). Seats past
/// the fourth are ignored.
#[must_use]
pub fn outcome_of(table: Table, dealer: Seat, declarer: Seat, penetro: bool, tricks: &BySeat<u8>) -> Outcome {
    let mut opp = [(Seat(0), 0u8); 3];
    let mut k = 0;
    for s in (0..table.players.min(4)).map(Seat) {
        if k < 3 && s != declarer && is_active(table, dealer, penetro, s) {
            opp[k] = (s, tricks[s]);
            k += 1;
        }
    }
    if penetro && opp[..k].iter().filter(|o| o.1 > 0).count() == 2 {
        // Only the two players who stayed are opponents; the one who dropped out has
        // no tricks.
        let mut stayed = opp[..k].iter().copied().filter(|o| o.1 > 0);
        opp = [stayed.next().expect("two"), stayed.next().expect("two"), (Seat(0), 0)];
        k = 2;
    }
    Outcome::from_tricks(tricks.0.get(declarer.index()).copied().unwrap_or(0), &opp[..k])
}

/// Whether `s` may play a hand at `table`: every seat dealt a hand, and a dealer
/// who sits out when they penetra.
pub(crate) fn is_active(table: Table, dealer: Seat, penetro: bool, s: Seat) -> bool {
    table.active(s, dealer) || (penetro && s.0 < table.players)
}

/// The condición of a contract in `tresillo` (entrada 0, vuelta 1, solo 2); other
/// rule sets: [`Condiciones::contract`](crate::Condiciones::contract).
#[must_use]
pub const fn contract_condicion(c: Contract) -> i64 {
    match c {
        Contract::Entrada => condiciones::ENTRADA,
        Contract::Vuelta => condiciones::VUELTA,
        Contract::Solo => condiciones::SOLO,
        _ => 0,
    }
}

pub(crate) const fn same_result(a: Outcome, b: Outcome) -> bool {
    match (a, b) {
        (Outcome::Cancelled, Outcome::Cancelled) | (Outcome::Sacado, Outcome::Sacado) => true,
        (Outcome::Puesta { kind: x }, Outcome::Puesta { kind: y }) => {
            matches!(x, PuestaKind::Surrendered) == matches!(y, PuestaKind::Surrendered)
        }
        (Outcome::Codillo { winner: x }, Outcome::Codillo { winner: y }) => x.0 == y.0,
        _ => false,
    }
}
