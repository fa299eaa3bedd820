//! The vocabulary of a hand: bids, contracts, conversation words and
//! outcomes.
//!
//! [`Contract`], [`Bid`], [`Word`] (with `BidEntry` and `WordEntry`),
//! [`Outcome`], [`PuestaKind`].

use crate::card::Seat;
use std::fmt;

/// A contract (RULES.md section 3), low to high.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Contract {
    /// Declarer names trumps and exchanges.
    Entrada,
    /// The heap's top card is turned for trumps; declarer exchanges, drawing it first.
    Vuelta,
    /// Declarer names trumps and does not exchange.
    Solo,
    /// `hombre` option `contrabola` (section 12.3): nobody exchanges; the declarer
    /// names a suit they hold as trumps and must lose every trick.
    Contrabola,
    /// L'Hombre's grand tourné: a tourné allowed only to a player dealt both
    /// spadille and basta (section 12.4).
    #[cfg_attr(feature = "serde", serde(rename = "grand-tourne"))]
    GrandTourne,
    /// L'Hombre's nolo: no trump, take no tricks, only the declarer exchanges.
    Nolo,
    /// L'Hombre's pure nolo: nolo without any exchange.
    #[cfg_attr(feature = "serde", serde(rename = "pure-nolo"))]
    PureNolo,
    /// L'Hombre's nolo ouvert: pure nolo with the declarer's hand laid face up just
    /// before their first card.
    #[cfg_attr(feature = "serde", serde(rename = "nolo-ouvert"))]
    NoloOuvert,
}

impl Contract {
    /// The contracts of section 3, low to high (each rule set's own list is
    /// [`RuleSpec::contracts`](crate::RuleSpec::contracts)).
    pub const ALL: [Contract; 3] = [Contract::Entrada, Contract::Vuelta, Contract::Solo];

    /// Every contract of the Spanish and English rule sets, low to high, with
    /// `hombre`'s contrabola (an option, ranking just below solo).
    pub const EVERY: [Contract; 4] =
        [Contract::Entrada, Contract::Vuelta, Contract::Contrabola, Contract::Solo];

    /// Bid level without options: entrada 1, vuelta 2, solo 3 (contrabola,
    /// which exists only with its option, 3: see
    /// [`Rules::contract_level`](crate::Rules::contract_level)); the L'Hombre
    /// contracts their rank (grand tourné 4, nolo 3, pure nolo 6, nolo ouvert 7).
    #[must_use]
    pub const fn level(self) -> u8 {
        match self {
            Contract::Entrada => 1,
            Contract::Vuelta => 2,
            Contract::Solo | Contract::Contrabola => 3,
            Contract::GrandTourne => 4,
            Contract::Nolo => 3,
            Contract::PureNolo => 6,
            Contract::NoloOuvert => 7,
        }
    }

    /// The index of the contract in per-contract statistics: entrada 0, vuelta 1,
    /// solo 2, contrabola 3; the L'Hombre contracts that of their
    /// [`Contract::family`].
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Contract::Entrada | Contract::Nolo => 0,
            Contract::Vuelta | Contract::GrandTourne => 1,
            Contract::Solo | Contract::PureNolo | Contract::NoloOuvert => 2,
            Contract::Contrabola => 3,
        }
    }

    /// Whether the declarer names the trump suit.
    #[must_use]
    pub const fn names_trump(self) -> bool {
        matches!(self, Contract::Entrada | Contract::Solo | Contract::Contrabola)
    }

    /// The Spanish contract it is counted with in the summaries' three contract
    /// columns: those where the declarer exchanges with named or no trumps count as
    /// entrada (game, spades game, nolo), those with a turned card as vuelta
    /// (tourné, grand tourné), those without the declarer's exchange as solo
    /// (solo, spades solo, pure nolo, nolo ouvert).
    #[must_use]
    pub const fn family(self) -> Contract {
        match self {
            Contract::Entrada | Contract::Nolo => Contract::Entrada,
            Contract::Vuelta | Contract::GrandTourne => Contract::Vuelta,
            Contract::Solo | Contract::PureNolo | Contract::NoloOuvert => Contract::Solo,
            Contract::Contrabola => Contract::Contrabola,
        }
    }

    /// Whether the top card of the heap is turned for trumps (vuelta, tourné,
    /// grand tourné).
    #[must_use]
    pub const fn turns_card(self) -> bool {
        matches!(self, Contract::Vuelta | Contract::GrandTourne)
    }

    /// Whether it is played without trumps and the declarer must take no tricks
    /// (the L'Hombre nolo contracts).
    #[must_use]
    pub const fn is_nolo(self) -> bool {
        matches!(self, Contract::Nolo | Contract::PureNolo | Contract::NoloOuvert)
    }

    /// Whether the declarer exchanges.
    #[must_use]
    pub const fn declarer_exchanges(self) -> bool {
        !matches!(self, Contract::Solo | Contract::Contrabola | Contract::PureNolo | Contract::NoloOuvert)
    }

    /// Whether the declarer may give up before the fourth trick (in a rule set with
    /// surrender).
    #[must_use]
    pub const fn may_surrender(self) -> bool {
        matches!(self, Contract::Entrada | Contract::Vuelta)
    }

    /// Whether the opponents exchange (all but contrabola and the nolo contracts).
    #[must_use]
    pub const fn opponents_exchange(self) -> bool {
        !matches!(self, Contract::Contrabola | Contract::Nolo | Contract::PureNolo | Contract::NoloOuvert)
    }

    /// Lower-case Spanish name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Contract::Entrada => "entrada",
            Contract::Vuelta => "vuelta",
            Contract::Solo => "solo",
            Contract::Contrabola => "contrabola",
            Contract::GrandTourne => "grand-tourne",
            Contract::Nolo => "nolo",
            Contract::PureNolo => "pure-nolo",
            Contract::NoloOuvert => "nolo-ouvert",
        }
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A call in the auction: pass (*paso*) or a bid level (1 *juego*, 2 and 3 *juego
/// más*). The contract is named only when the auction is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Bid {
    /// *Paso*: final, the player leaves the auction.
    Paso,
    /// A bid at this level (1..=3).
    Level(u8),
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Paso => f.write_str("paso"),
            Bid::Level(1) => f.write_str("juego"),
            Bid::Level(l) => write!(f, "juego más ({l})"),
        }
    }
}

/// A statement in the opponents' conversation on who goes first (section 4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Word {
    /// *Vienen*: I go first.
    Vienen,
    /// *Como quiera*: either.
    ComoQuiera,
    /// *Van*: you go first.
    Van,
}

impl Word {
    /// All three words.
    pub const ALL: [Word; 3] = [Word::Vienen, Word::ComoQuiera, Word::Van];

    /// The Spanish phrase.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Word::Vienen => "vienen",
            Word::ComoQuiera => "como quiera",
            Word::Van => "van",
        }
    }

    /// With the two speakers' latest words, who goes first if they agree: `Some(true)`
    /// for the speaker of `a`, `Some(false)` for the speaker of `b`, `None` if they
    /// do not agree yet.
    #[must_use]
    pub const fn agreement(a: Word, b: Word) -> Option<bool> {
        use Word::*;
        match (a, b) {
            (Vienen, Van) | (Vienen, ComoQuiera) | (ComoQuiera, Van) => Some(true),
            (Van, Vienen) | (ComoQuiera, Vienen) | (Van, ComoQuiera) => Some(false),
            _ => None,
        }
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a drawn result (section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum PuestaKind {
    /// Any other draw, such as 4-4-1.
    Plain,
    /// 3-3-3, *puesta sabia*.
    Sabia,
    /// Declarer 1, opponents 4 and 4: *puesta real*.
    Real,
    /// The declarer gave up and nobody took over.
    Surrendered,
}

/// How a hand ended (section 7), from the point of view of the final declarer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase", tag = "result"))]
// Read through `OutcomeFields`: serde's internally tagged enums let unknown keys
// pass beside a unit variant (`{"result": "sacado", "x": 1}`), which the records'
// format refuses in every object (docs/RECORDS.md).
#[cfg_attr(feature = "serde", serde(try_from = "OutcomeFields"))]
pub enum Outcome {
    /// Nobody played (all passed and the espada was in the heap).
    Cancelled,
    /// *Sacado*: the declarer won.
    Sacado,
    /// *Puesta*: drawn, paid as a loss.
    Puesta {
        /// Which kind of draw.
        kind: PuestaKind,
    },
    /// *Codillo*: an opponent won.
    Codillo {
        /// The opponent with the most tricks.
        winner: Seat,
    },
}

/// An [`Outcome`] as written, every key it may have and no other.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomeFields {
    result: String,
    kind: Option<PuestaKind>,
    winner: Option<Seat>,
}

/// Why a record's outcome fields are not an [`Outcome`].
#[cfg(feature = "serde")]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutcomeError {
    /// A `puesta` without its `kind`.
    #[error("an outcome `puesta` needs its `kind`")]
    NoKind,
    /// A `codillo` without its `winner`.
    #[error("an outcome `codillo` needs its `winner`")]
    NoWinner,
    /// A field the outcome does not have (`kind` or `winner`).
    #[error("an outcome `{result}` has no `{key}`")]
    Extra {
        /// The outcome.
        result: String,
        /// The field.
        key: &'static str,
    },
    /// An outcome of no known name.
    #[error("unknown outcome `{0}`, expected one of `cancelled`, `sacado`, `puesta`, `codillo`")]
    Unknown(String),
}

#[cfg(feature = "serde")]
impl TryFrom<OutcomeFields> for Outcome {
    type Error = OutcomeError;

    fn try_from(f: OutcomeFields) -> Result<Outcome, OutcomeError> {
        let extra = |key: &'static str| OutcomeError::Extra { result: f.result.clone(), key };
        match (f.result.as_str(), f.kind, f.winner) {
            ("cancelled", None, None) => Ok(Outcome::Cancelled),
            ("sacado", None, None) => Ok(Outcome::Sacado),
            ("puesta", Some(kind), None) => Ok(Outcome::Puesta { kind }),
            ("codillo", None, Some(winner)) => Ok(Outcome::Codillo { winner }),
            ("puesta", None, _) => Err(OutcomeError::NoKind),
            ("codillo", _, None) => Err(OutcomeError::NoWinner),
            ("cancelled" | "sacado" | "codillo", Some(_), _) => Err(extra("kind")),
            ("cancelled" | "sacado" | "puesta", _, Some(_)) => Err(extra("winner")),
            (other, _, _) => Err(OutcomeError::Unknown(other.to_string())),
        }
    }
}

impl Outcome {
    /// Classifies trick counts (section 7): `declarer` and the `opponents`.
    #[must_use]
    pub fn from_tricks(declarer: u8, opponents: &[(Seat, u8)]) -> Outcome {
        if opponents.iter().all(|&(_, t)| declarer > t) {
            return Outcome::Sacado;
        }
        for &(s, t) in opponents {
            if t > declarer && opponents.iter().all(|&(o, u)| o == s || t > u) {
                return Outcome::Codillo { winner: s };
            }
        }
        let kind = if declarer == 3 && opponents.iter().all(|&(_, t)| t == 3) {
            PuestaKind::Sabia
        } else if declarer == 1 && opponents.len() == 2 && opponents.iter().all(|&(_, t)| t == 4) {
            PuestaKind::Real
        } else {
            PuestaKind::Plain
        };
        Outcome::Puesta { kind }
    }

    /// `sacado`, `puesta`, `codillo` or `cancelled`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Cancelled => "cancelled",
            Outcome::Sacado => "sacado",
            Outcome::Puesta { .. } => "puesta",
            Outcome::Codillo { .. } => "codillo",
        }
    }

    /// Whether the declarer won.
    #[must_use]
    pub const fn is_won(self) -> bool {
        matches!(self, Outcome::Sacado)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Puesta { kind: PuestaKind::Sabia } => f.write_str("puesta (sabia)"),
            Outcome::Puesta { kind: PuestaKind::Real } => f.write_str("puesta (real)"),
            Outcome::Puesta { kind: PuestaKind::Surrendered } => f.write_str("puesta (given up)"),
            Outcome::Codillo { winner } => write!(f, "codillo (seat {winner} wins)"),
            o => f.write_str(o.name()),
        }
    }
}

/// A call of the auction with its seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct BidEntry {
    /// Who spoke.
    pub seat: Seat,
    /// What they said.
    pub bid: Bid,
}

/// A statement of the first-opponent conversation with its seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct WordEntry {
    /// Who spoke.
    pub seat: Seat,
    /// What they said.
    pub word: Word,
}
