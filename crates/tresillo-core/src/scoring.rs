//! Scoring: the puesta system of RULES.md section 8 for the `tresillo` rule set, at
//! a table of three or four players.
//!
//! A [`Ledger`] holds every bowl, the plato (and whether it holds a failure payment),
//! the pajaritos dish and the paper (the reserved puestas, each with its owner, in the
//! order written). [`Ledger::apply`] scores one [`HandResult`] at a time: first the
//! dealer's moves before the deal (a pajarito when the plato and the paper are empty,
//! then the dealer's tanto), then the payments of the hand, then the condiciones. A
//! result that does not hold together is rejected with a [`ScoringError`] and the
//! ledger is left unchanged. [`Ledger::settle`] computes the end-of-session
//! settlement.
//!
//! ```
//! use tresillo_core::{table_result, Contract, Ledger, LedgerConfig, Seat};
//!
//! let mut ledger = Ledger::new(LedgerConfig::default())?;
//! assert_eq!((ledger.bowls(), ledger.pajaritos()), (&[155, 155, 155][..], 15));
//!
//! // Seat 0 deals: a pajarito (5) goes to the plato, and the dealer's tanto.
//! // Seat 1 plays an entrada and makes 5 tricks to 2 and 2: sacado.
//! let score = ledger.apply(&table_result(3, Seat(0), Seat(1), Contract::Entrada, &[2, 5, 2]))?;
//! assert_eq!(score.aip, 6 + 3); // first puesta: plato + n
//! assert_eq!(score.totals().0[..3], [-2, 8, -1]); // the plato (6) and 1 from each
//! assert_eq!(ledger.plato(), 0);
//!
//! // Seat 1 deals, seat 2 plays a solo and makes only 4 tricks to 4 and 1: puesta.
//! let score = ledger.apply(&table_result(3, Seat(1), Seat(2), Contract::Solo, &[4, 1, 4]))?;
//! assert_eq!(score.aip, 6 + 3);
//! assert_eq!(score.pool.0[2], -9); // into the plato, which now holds a failure
//! assert_eq!(score.condiciones.0[..3], [2, 2, -4]); // solo: 2 to each
//! assert!(ledger.plato_has_failure());
//! assert_eq!(ledger.next_aip(), 15 + 1 + 3);
//! # Ok::<(), tresillo_core::ScoringError>(())
//! ```
//!
//! # Choices where RULES.md is silent
//!
//! - **Trick counts not recorded.** A result whose trick counts are all zero (typed
//!   in from a real table with only its outcome) is taken at its word: the outcome
//!   is checked against the seats, not against the tricks. The engine never produces
//!   such a result for a hand that was played.
//! - **The deal rotates.** Once a ledger has scored a hand, the next result must be
//!   dealt by the next seat in turn order ([`ScoringError::DealerOutOfTurn`]). The
//!   first hand of a ledger may be dealt by anyone.
//! - **Penetro** (four players, section 12.2). The dealer is the declarer; the
//!   contract is an entrada (or none when the dealer gives up at once), so the
//!   condiciones are the penetro's 1 plus the entrada's 0, plus estuche, primeras and
//!   bola on a win. Giving up at once is recorded as a surrender by the dealer with
//!   nobody taking over and no tricks; it is paid as a puesta plus the penetro
//!   condición. The player who dropped out is not recorded: like the inactive
//!   dealer of an ordinary hand, they pay and receive condiciones and the sacado
//!   tanto ("every other player"). A four-player hand is never cancelled.
//! - **Failed bola.** The contract is paid as won (contract, estuche), and the bola's
//!   8 is paid by the declarer to each other player; the two are netted in the
//!   condiciones of the hand.
//! - **Takeover.** The player who took over neither pays nor receives any condición
//!   (estuche, primeras and bola included); the original declarer pays each other
//!   player the condiciones of a lost contract. A codillo after a takeover may be won
//!   by the original declarer, who is then paid the amount in play by the new one.
//! - **Refilling the dish.** "At once" means in the same step: the pajarito that
//!   empties the dish is followed by every player's 5 before the dealer's tanto.
//! - **Settlement order.** With no hand scored yet, the remainder goes in turn order
//!   from seat 0.
//! - **Per-hand split.** [`HandScore::pool`] is every change of a bowl that is not a
//!   condición: the dealer's tanto, pajarito refills, what is taken from or paid into
//!   the plato, the sacado tantos, payments of reserved puestas and the amounts paid
//!   to a codillo winner or to a player who took over.

mod ledger;
mod validate;

pub use ledger::{Ledger, Scorer, score_deal};

use crate::card::{BySeat, Seat};
use crate::game::{Contract, Outcome, PuestaKind, RuleSet};
use crate::result::HandResult;
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
pub struct LedgerConfig {
    /// The rule set (only `tresillo` has the puesta system so far).
    pub rules: RuleSet,
    /// Players at the table: 3, or 4 with an inactive dealer.
    pub players: u8,
    /// Each player's bowl before the first pajarito (160 by default).
    pub start_bowl: i64,
    /// Each player's stake in the pajaritos dish (5).
    pub pajarito: i64,
}

impl LedgerConfig {
    /// The default configuration for a table of `players`: rule set `tresillo`,
    /// bowls of 160, pajaritos of 5.
    #[must_use]
    pub const fn new(players: u8) -> LedgerConfig {
        LedgerConfig {
            rules: RuleSet::Tresillo,
            players,
            start_bowl: DEFAULT_START_BOWL,
            pajarito: DEFAULT_PAJARITO,
        }
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

impl std::str::FromStr for ScoringMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "deal" => Ok(ScoringMode::Deal),
            "session" => Ok(ScoringMode::Session),
            _ => Err(format!("unknown scoring mode `{s}` (known: deal, session)")),
        }
    }
}

/// Why a ledger cannot be made or a result cannot be scored. The ledger is left
/// unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoringError {
    /// A table size other than 3 or 4.
    #[error("a table of {0} players is not supported (3, or 4 with an inactive dealer)")]
    Players(u8),
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
    /// Any other contradiction inside the result.
    #[error("{0}")]
    Inconsistent(&'static str),
}

/// A minimal [`HandResult`] as typed in at a real table: `declarer` played
/// `contract` (dealt by `dealer`) and the seats took `tricks` (one count per seat;
/// all zero when not recorded). The outcome follows from the tricks (section 7).
/// Set the other fields (surrender, estuche, primeras, bola, penetro) as needed.
#[must_use]
pub fn table_result(players: u8, dealer: Seat, declarer: Seat, contract: Contract, tricks: &[u8]) -> HandResult {
    let mut t = BySeat::default();
    for (i, &k) in tricks.iter().take(Seat::MAX).enumerate() {
        t.0[i] = k;
    }
    let mut r = cancelled_result(players, dealer);
    r.declarer = Some(declarer);
    r.contract = Some(contract);
    r.tricks = t;
    r.outcome = outcome_of(players, dealer, declarer, false, &t);
    r
}

/// A cancelled [`HandResult`] dealt by `dealer` (everybody passed and the espada was
/// in the heap).
#[must_use]
pub fn cancelled_result(players: u8, dealer: Seat) -> HandResult {
    HandResult {
        rules: RuleSet::Tresillo,
        players,
        dealer,
        bids: Vec::new(),
        declarer: None,
        contract: None,
        trump: None,
        turned: None,
        forced: false,
        penetro: false,
        exchanged: BySeat::default(),
        conversation: Vec::new(),
        first_opponent: None,
        tricks: BySeat::default(),
        trick_winners: Vec::new(),
        outcome: Outcome::Cancelled,
        estuche: false,
        final_estuche: false,
        primeras: false,
        bola_attempted: false,
        bola_made: false,
        surrender: None,
        deal: None,
        hands_at_play: None,
    }
}

/// The outcome (section 7) of `tricks` for `declarer`, against every other seat that
/// plays: at four players all but the inactive dealer, or all three others in a
/// penetro (a player who dropped out has no tricks).
#[must_use]
pub fn outcome_of(players: u8, dealer: Seat, declarer: Seat, penetro: bool, tricks: &BySeat<u8>) -> Outcome {
    let mut opp = [(Seat(0), 0u8); 3];
    let mut k = 0;
    for s in (0..players).map(Seat) {
        if s != declarer && is_active(players, dealer, penetro, s) {
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
    Outcome::from_tricks(tricks[declarer], &opp[..k])
}

/// Whether `s` may play a hand: every seat at three players; at four, all but the
/// dealer, unless the dealer penetra.
pub(crate) fn is_active(players: u8, dealer: Seat, penetro: bool, s: Seat) -> bool {
    s.0 < players && (players == 3 || penetro || s != dealer)
}

/// The condición of a contract (entrada 0, vuelta 1, solo 2).
#[must_use]
pub const fn contract_condicion(c: Contract) -> i64 {
    match c {
        Contract::Entrada => condiciones::ENTRADA,
        Contract::Vuelta => condiciones::VUELTA,
        Contract::Solo => condiciones::SOLO,
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
