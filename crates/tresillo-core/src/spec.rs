//! The vocabulary of a rule set's table: [`RuleSpec`], the enums its fields take
//! (what happens when all pass, the opponents' order, the scoring system, the
//! condiciones), its [`Mechanics`] (the functions a rule set owns), each option's
//! [`OptionInfo`], and the value [`Rules`] (a rule set with its [`RuleOptions`])
//! that the mechanics are called with. The tables themselves are in `rulesets/`
//! (one module per rule set), which imports this and not rules.rs; the methods of
//! `Rules` are in rules.rs.

use crate::card::{Seat, Suit};
use crate::cardset::CardSet;
use crate::game::{Bid, BidEntry, Contract, Outcome};
pub use crate::table::Table;
use std::fmt;

/// How the opponents settle who exchanges first (RULES.md sections 4, 12.3 and
/// 12.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpponentsOrder {
    /// The *vienen / como quiera / van* conversation of section 4.
    Conversation,
    /// `hombre`: the declarer's next opponent exchanges first or passes that right
    /// to the other ([`Request::ExchangeRight`](crate::Request::ExchangeRight)).
    RightOfNext,
    /// `lhombre` (section 12.4): from the opponent after the declarer, no
    /// conversation.
    FromDeclarer,
}

/// How hands are scored (RULES.md sections 8, 12.3 and 12.4): which ledger keeps
/// a session. A scoring system is a mechanic any rule set may take; what the tools
/// need to know of one is in the methods below (one place), and the ledger it
/// selects in [`Scorer`](crate::Scorer). A rule set's table names its system
/// without options; [`Rules::scoring`](crate::Rules::scoring) gives the one in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoringSystem {
    /// The puesta system of section 8 ([`Ledger`](crate::Ledger)): `tresillo`,
    /// `tresillo-house`.
    Puesta,
    /// Points ([`PointsLedger`](crate::PointsLedger)): `hombre`.
    Points,
    /// Chips with a pool ([`ChipsLedger`](crate::ChipsLedger)): `hombre` with the
    /// option `hombre-chips`.
    Chips,
    /// `lhombre`'s payments from or to each defender (section 12.4), straight
    /// between the players' bowls ([`Ledger`](crate::Ledger)): no plato, paper or
    /// pajaritos.
    PerDefender,
}

impl ScoringSystem {
    /// What results are counted in: `tantos`, `points` or `chips`.
    #[must_use]
    pub const fn unit(self) -> &'static str {
        match self {
            ScoringSystem::Puesta | ScoringSystem::PerDefender => "tantos",
            ScoringSystem::Points => "points",
            ScoringSystem::Chips => "chips",
        }
    }

    /// Whether hands are paid through the puesta system's plato, pajaritos dish
    /// and paper of debts, with an amount in play and its cases (section 8).
    #[must_use]
    pub const fn puesta_accounts(self) -> bool {
        matches!(self, ScoringSystem::Puesta)
    }

    /// Whether [`Ledger`](crate::Ledger) keeps it (the puesta system, and
    /// payments per defender between the bowls); the others have their ledgers.
    #[must_use]
    pub const fn kept_by_ledger(self) -> bool {
        matches!(self, ScoringSystem::Puesta | ScoringSystem::PerDefender)
    }

    /// The size of a common hand's stakes in this system's unit, for a search
    /// that turns a value into a reward (ISMCTS's `0.5 + u / scale`): chosen so
    /// that a common won game is worth about 0.15 above even, as a won entrada is
    /// under the puesta system (60). Points 24, chips 120, per defender 44.
    #[must_use]
    pub const fn reward_scale(self) -> f64 {
        match self {
            ScoringSystem::Puesta => 60.0,
            ScoringSystem::Points => 24.0,
            ScoringSystem::Chips => 120.0,
            ScoringSystem::PerDefender => 44.0,
        }
    }
}

/// The words a rule set shows players (cards, suits, bids, contracts,
/// outcomes): the methods are in `words.rs`; files keep the notation of RULES.md
/// section 13 whatever the rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Names {
    /// Section 13 notation and Spanish words.
    Spanish,
    /// Spades, clubs, hearts, diamonds; J Q K; the L'Hombre contract names
    /// (section 12.4).
    International,
}

/// The help a rule set gives a person at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Help {
    /// The help of RULES.md sections 3 to 6, written for each request by the
    /// tool, with the rule set's sentences on its forced game.
    Sections {
        /// The contract help's note on a forced declaration (`; espada forzada:
        /// ...`).
        forced: &'static str,
        /// The auction help's sentence on what happens when all pass.
        all_pass: &'static str,
        /// The same at a table with a penetro (four players).
        all_pass_penetro: &'static str,
    },
    /// One text for every request, with `{legal}` standing for the legal cards.
    Text(&'static str),
}

/// The sentences and labels a rule set shows players beyond the names of
/// [`Names`]: what its forced game after all pass is called at each place the
/// tools mention it, its bola, and its own help. Defined beside each rule set's
/// table (`rulesets/`), so a new rule set writes its words in its own module;
/// every text is given (none falls back to another rule set's words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Words {
    /// The exchange prompt's note on a forced game (` (the obligation)`), if any.
    pub forced_exchange: Option<&'static str>,
    /// The question asked of the player forced to declare after all pass.
    pub forced_question: &'static str,
    /// The question asked of the player who won the auction.
    pub declare_question: &'static str,
    /// The question asked of a declarer who won the first five tricks.
    pub bola_question: &'static str,
    /// The choices of that question: stop, go on (`stop with primeras`, `play on
    /// for bola`).
    pub bola_choices: [&'static str; 2],
    /// The narrative's sentences for that decision, after the seat (`stops with
    /// primeras`, `plays on for bola`).
    pub bola_narration: [&'static str; 2],
    /// The attempt at every trick (`bola`, `tout`).
    pub bola: &'static str,
    /// Stopping after five tricks, as the narrative says it (`primeras`).
    pub primeras: &'static str,
    /// Why a hand nobody played was not played (`all passed, the espada in the
    /// heap`).
    pub cancelled: &'static str,
    /// The narrative's last line for such a hand.
    pub cancelled_outcome: &'static str,
    /// The report and the session log name every contract by
    /// [`Names::contract`], forced games included (L'Hombre's table names);
    /// `false`: the gascarille, the penetro and the forced game by their own names.
    pub contracts_by_name: bool,
    /// The help given at the table.
    pub help: Help,
    /// The report's and the session log's name for the forced game (`espada
    /// forzada`, `obligation`).
    pub forced_name: &'static str,
    /// The narrative's label for the forced game (`espada forzada`, `all passed,
    /// must play; scores as game`).
    pub forced_label: &'static str,
    /// The report's name for an unforced entrada, when the rule set has its own
    /// (`simple game` in hombre); `None` for the contract's name.
    pub entrada_name: Option<&'static str>,
    /// A session log's line when everybody passed and the hand is not played.
    pub all_passed: &'static str,
    /// Whether the human table glosses the Spanish words of each decision.
    pub gloss: bool,
    /// The report's legends of the summary's contract columns (`entrada`,
    /// `vuelta`, `solo`) where the rule set counts other contracts in them.
    pub columns: &'static [(&'static str, &'static str)],
    /// The report's note on the outcome classes in this rule set, if any.
    pub outcomes_note: Option<&'static str>,
    /// The score log's line on the ledger when its payments have no plato,
    /// pajaritos or paper, if any.
    pub ledger_note: Option<&'static str>,
    /// The questions of the requests whose words the fields above do not give
    /// (asked by [`question`](crate::question)).
    pub questions: Questions,
    /// The decisions' labels (given by [`label`](crate::label)).
    pub labels: Labels,
}

/// The questions a rule set asks a person, each a text in lower case that a
/// surface may capitalise (the play page) or end with a colon (the terminal); a
/// yes-or-no question ends with `?`. The forced game's, the declarer's and the
/// bola's questions are [`Words::forced_question`], [`Words::declare_question`]
/// and [`Words::bola_question`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Questions {
    /// The auction.
    pub bid: &'static str,
    /// The first opponent's word: who goes first (section 5).
    pub word: &'static str,
    /// A card to play.
    pub play: &'static str,
    /// The declarer's surrender after three tricks.
    pub surrender: &'static str,
    /// An opponent's take-over of a surrendered hand (*yo sigo*).
    pub take_over: &'static str,
    /// The offer of a gascarille when all pass.
    pub gascarille: &'static str,
    /// The forced declaration of the player made to play a gascarille.
    pub gascarille_declare: &'static str,
    /// The first opponent's right to exchange first.
    pub exchange_right: &'static str,
    /// The acceptance of a surrendered vuelta.
    pub accept_surrender: &'static str,
    /// The declaration of the vole.
    pub declare_vole: &'static str,
    /// The dealer's penetro when all pass: which ten cards of the heap.
    pub penetro: &'static str,
    /// The penetrating dealer's declaration.
    pub penetro_declare: &'static str,
    /// The penetrating dealer's surrender at once.
    pub penetro_give_up: &'static str,
    /// The word of the seats when the dealer penetra, one of `{hands}` (a number
    /// in words) to drop out.
    pub drop_out: &'static str,
    /// An exchange: `{why}` the forced game's note, `{min}` and `{max}` the
    /// discards allowed.
    pub exchange: &'static str,
    /// The forced game's note of an exchange in a gascarille.
    pub gascarille_exchange: &'static str,
    /// The penetrating dealer's discard of one card.
    pub penetro_exchange: &'static str,
}

/// The labels of decisions; a pair is `[no, yes]` (indexed by the decision's
/// `bool`). Bids, contracts, cards and suits are [`Names`]'; the bola's choices
/// are [`Words::bola_choices`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Labels {
    /// Before the trumps of a declaration (`entrada, trumps oros`).
    pub trumps: &'static str,
    /// Before the cards of a discard.
    pub discard: &'static str,
    /// A discard of no card.
    pub discard_nothing: &'static str,
    /// Before the card played.
    pub play: &'static str,
    /// Playing on, giving up.
    pub surrender: [&'static str; 2],
    /// Not taking over, taking over.
    pub take_over: [&'static str; 2],
    /// No gascarille, a gascarille.
    pub gascarille: [&'static str; 2],
    /// Passing the right to exchange first, exchanging first.
    pub exchange_first: [&'static str; 2],
    /// Refusing a surrender, accepting it.
    pub accept_surrender: [&'static str; 2],
    /// Not declaring the vole, declaring it.
    pub declare_vole: [&'static str; 2],
    /// The penetro's ten from the top, from the bottom of the heap.
    pub penetro: [&'static str; 2],
}

/// Condiciones in tantos, from or to each other player (RULES.md sections 8 and
/// 12.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Condiciones {
    /// An entrada.
    pub entrada: i64,
    /// A vuelta.
    pub vuelta: i64,
    /// A solo.
    pub solo: i64,
    /// A four-player penetro, on top of its contract.
    pub penetro: i64,
    /// The declarer held espada, mala and basto when play began, and won.
    pub estuche: i64,
    /// The declarer held none of espada, mala and basto when play began, and won
    /// (0: the rule set has no contra-estuche).
    pub contra_estuche: i64,
    /// The declarer won the first five tricks and stopped.
    pub primeras: i64,
    /// Bola made (from each) or failed (to each).
    pub bola: i64,
}

impl Condiciones {
    /// No condiciones at all: rule sets that score otherwise (points, chips, per
    /// defender).
    pub const NONE: Condiciones = Condiciones {
        entrada: 0,
        vuelta: 0,
        solo: 0,
        penetro: 0,
        estuche: 0,
        contra_estuche: 0,
        primeras: 0,
        bola: 0,
    };

    /// The condición of a contract.
    #[must_use]
    pub const fn contract(&self, c: Contract) -> i64 {
        match c {
            Contract::Entrada => self.entrada,
            Contract::Vuelta => self.vuelta,
            Contract::Solo => self.solo,
            _ => 0,
        }
    }
}

/// The kind of value a rule-set option takes, which says how it is typed, stored
/// in [`RuleOptions`] and read ([`Rules::flag`](crate::Rules::flag),
/// [`Rules::suit`](crate::Rules::suit), [`Rules::count`](crate::Rules::count)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionKind {
    /// `true` or `false`; the default is `false`. Serialized as a boolean.
    Flag,
    /// `none` or a suit's name; the default is `none`. Serialized as the suit's
    /// name.
    Suit,
    /// A whole number in `min..=max`. Serialized as a number.
    Count {
        /// The least value.
        min: u16,
        /// The greatest value.
        max: u16,
        /// The default.
        default: u16,
    },
}

impl OptionKind {
    /// The stored code of the default value.
    #[must_use]
    pub const fn default_code(self) -> u16 {
        match self {
            OptionKind::Flag | OptionKind::Suit => 0,
            OptionKind::Count { default, .. } => default,
        }
    }

    /// The stored code of `value` as typed (`true`, `oros`, `7`), if valid.
    #[must_use]
    pub fn parse(self, value: &str) -> Option<u16> {
        match self {
            OptionKind::Flag => match value {
                "true" => Some(1),
                "false" => Some(0),
                _ => None,
            },
            OptionKind::Suit if value == "none" => Some(0),
            OptionKind::Suit => Suit::ALL.iter().position(|s| s.name() == value).map(|i| i as u16 + 1),
            OptionKind::Count { min, max, .. } => value.parse().ok().filter(|v| (min..=max).contains(v)),
        }
    }

    /// A stored code as typed: the inverse of [`OptionKind::parse`].
    #[must_use]
    pub fn text(self, code: u16) -> String {
        match self {
            OptionKind::Flag => (code != 0).to_string(),
            OptionKind::Suit => suit_of(code).map_or("none", Suit::name).to_string(),
            OptionKind::Count { .. } => code.to_string(),
        }
    }
}

/// The suit of a [`OptionKind::Suit`] code (0: none).
pub(crate) fn suit_of(code: u16) -> Option<Suit> {
    code.checked_sub(1).and_then(|i| Suit::ALL.get(usize::from(i)).copied())
}

/// A rule-set option: its name in flags and files, the kind of value it takes,
/// its default, the values it takes and the section of RULES.md it implements.
/// A rule set lists its options in [`RuleSpec::options`]; an option is defined
/// as a const beside the rule set that reads it (any file: a rule set
/// registered from outside core defines its own), and read through
/// [`Rules::flag`](crate::Rules::flag), [`Rules::suit`](crate::Rules::suit) or
/// [`Rules::count`](crate::Rules::count) keyed by this value (by its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OptionInfo {
    /// The key of `--rule-option key=value` and of a rules table in files.
    pub name: &'static str,
    /// Its key in a serialized [`RuleOptions`] (a hand result's or a ledger's
    /// `options`): the name, except `hombre-chips`' (`chips`).
    pub key: &'static str,
    /// The kind of value.
    pub kind: OptionKind,
    /// The default value, as typed.
    pub default: &'static str,
    /// The values it accepts.
    pub values: &'static str,
    /// The section of RULES.md.
    pub section: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The option (its name) without which it may not be given (`ante` needs
    /// `hombre-chips`).
    pub requires: Option<&'static str>,
    /// It applies only at a table with a penetro (`penetro_all_play`).
    pub penetro_only: bool,
}

impl OptionInfo {
    /// A flag option called `name`, default `false`: the base of a flag's const
    /// (`OptionInfo { section, help, ..OptionInfo::flag("name") }`).
    #[must_use]
    pub const fn flag(name: &'static str) -> OptionInfo {
        OptionInfo {
            name,
            key: name,
            kind: OptionKind::Flag,
            default: "false",
            values: "true, false",
            section: "",
            help: "",
            requires: None,
            penetro_only: false,
        }
    }
}

/// `palo_de_favor` (RULES.md section 12.5).
pub const PALO_DE_FAVOR: OptionInfo = OptionInfo {
    kind: OptionKind::Suit,
    default: "none",
    values: "none, espadas, bastos, copas, oros",
    section: "12.5",
    help: "a favoured suit: levels entrada, entrada a favor, vuelta, solo, solo a favor; doubled payments in it",
    ..OptionInfo::flag("palo_de_favor")
};

/// `codillo_old` (RULES.md section 12.5).
pub const CODILLO_OLD: OptionInfo = OptionInfo {
    section: "12.5",
    help: "a codillo is paid to the winner only (nothing to the plato or the paper)",
    ..OptionInfo::flag("codillo_old")
};

/// `redeal_all_pass` (RULES.md section 12.4).
pub const REDEAL_ALL_PASS: OptionInfo = OptionInfo {
    section: "12.4",
    help: "when all pass, a new deal instead of the spadille holder's forced game (the association's tournament rule)",
    ..OptionInfo::flag("redeal_all_pass")
};

/// `show_heap` (RULES.md section 12.3).
pub const SHOW_HEAP: OptionInfo = OptionInfo {
    section: "12.3",
    help: "after the exchange the cards left in the heap are turned face up",
    ..OptionInfo::flag("show_heap")
};

/// `hombre-chips` (RULES.md section 12.3).
pub const HOMBRE_CHIPS: OptionInfo = OptionInfo {
    key: "chips",
    section: "12.3",
    help: "chip payments with a pool instead of points",
    ..OptionInfo::flag("hombre-chips")
};

/// `ante` (RULES.md section 12.3).
pub const ANTE: OptionInfo = OptionInfo {
    kind: OptionKind::Count { min: 0, max: 1000, default: 5 },
    default: "5",
    values: "0 to 1000",
    section: "12.3",
    help: "chips the dealer puts into the pool before every deal (with hombre-chips)",
    requires: Some("hombre-chips"),
    ..OptionInfo::flag("ante")
};

/// `favorito` (RULES.md section 12.3).
pub const FAVORITO: OptionInfo = OptionInfo {
    section: "12.3",
    help: "coins as trumps outrank the same bid in another suit and score double",
    ..OptionInfo::flag("favorito")
};

/// `gascarille` (RULES.md section 12.3).
pub const GASCARILLE: OptionInfo = OptionInfo {
    section: "12.3",
    help: "after all pass the others may make the holder of the espada play a gascarille (worth 3)",
    ..OptionInfo::flag("gascarille")
};

/// `contrabola` (RULES.md section 12.3).
pub const CONTRABOLA: OptionInfo = OptionInfo {
    section: "12.3",
    help: "a contract just below solo: nobody exchanges, the declarer must lose every trick",
    ..OptionInfo::flag("contrabola")
};

/// `penetro_all_play` (RULES.md section 12.2; four players only).
pub const PENETRO_ALL_PLAY: OptionInfo = OptionInfo {
    section: "12.2",
    help: "four players: in a penetro nobody drops out and the dealer plays against the three others",
    penetro_only: true,
    ..OptionInfo::flag("penetro_all_play")
};

/// Everything a rule set fixes, as data (RULES.md section 12): the table the state
/// machine, the views and the ledger consult.
#[derive(Clone, Copy, Debug)]
pub struct RuleSpec {
    /// The rule set's name in files and flags (unique among known sets).
    pub name: &'static str,
    /// The section of RULES.md it implements.
    pub section: &'static str,
    /// One line describing it.
    pub summary: &'static str,
    /// Tricks in a hand, and cards in each active player's hand after the
    /// exchange (at most [`MAX_TRICKS`](crate::MAX_TRICKS)).
    pub tricks: u8,
    /// The tables it is played at, one per size: who sits out and whether a
    /// penetro is played (four in `tresillo`: an inactive dealer and the penetro
    /// of section 12.2).
    pub tables: &'static [Table],
    /// Its options.
    pub options: &'static [OptionInfo],
    /// When all pass, whoever [`Mechanics::all_pass_declarer`] names plays a
    /// forced game; this says its shape. `true`: the forced declarer discards
    /// (between [`RuleSpec::forced_min_discard`] and
    /// [`RuleSpec::forced_max_discard`] cards), draws and only then names trumps
    /// (`tresillo-house`'s forced entrada, `hombre`'s obligation, which with the
    /// option `gascarille` the others may first turn into a gascarille); `false`:
    /// the contract is named first and exchanged as usual (`tresillo`'s espada
    /// forzada, `lhombre`'s forced game).
    pub forced_exchange_first: bool,
    /// The fewest cards the forced declarer discards before naming trumps (`hombre`:
    /// all but one).
    pub forced_min_discard: u8,
    /// The most cards the forced declarer discards before naming trumps.
    pub forced_max_discard: u8,
    /// When all pass somebody always plays: the hand is never cancelled
    /// (`tresillo-house`, `hombre`).
    pub always_played: bool,
    /// When all pass the forced declarer is always the holder of the espada (else
    /// the hand is cancelled: `tresillo`'s espada forzada), which the sampler
    /// places directly; otherwise it keeps the deals for which
    /// [`Mechanics::all_pass_declarer`] names the declarer (by rejection).
    pub forced_holds_espada: bool,
    /// The contracts in which an opponent may take over after a surrender; in the
    /// others a surrender ends the hand as a puesta.
    pub takeover_in: &'static [Contract],
    /// In the first-puesta and puesta-in-the-plato cases the amount in play is the
    /// plato plus n (`true`) or the plato alone.
    pub aip_plus_n: bool,
    /// Outside reserved puestas, a sacado takes 1 tanto from every other player as
    /// well as the plato (`true`) or the plato alone.
    pub sacado_tanto: bool,
    /// The condiciones.
    pub condiciones: Condiciones,
    /// After a takeover the new declarer is paid estuche, contra-estuche, primeras
    /// and a successful bola by each of their opponents (`false`: they neither pay
    /// nor receive any condición).
    pub takeover_condiciones: bool,
    /// The contracts it plays, low to high.
    pub contracts: &'static [Contract],
    /// How the opponents settle who exchanges first.
    pub opponents_order: OpponentsOrder,
    /// The most cards the first opponent may exchange (the heap permitting).
    pub first_opponent_max: u8,
    /// The contracts whose surrender both opponents must accept (if either
    /// refuses, the declarer plays on).
    pub accept_in: &'static [Contract],
    /// The declarer may declare the vole (*bola*) before the first trick.
    pub declared_vole: bool,
    /// The declarer may give up after the third trick (section 6; not in
    /// `lhombre`).
    pub surrender: bool,
    /// How hands are scored without options ([`Rules::scoring`](crate::Rules::scoring)
    /// under them).
    pub scoring: ScoringSystem,
    /// The words it shows players.
    pub names: Names,
    /// Its sentences and labels.
    pub words: &'static Words,
    /// The functions that decide what its table cannot say as data.
    pub mechanics: &'static Mechanics,
}

/// [`Mechanics::declare_error`]: the rules, the contract and trump named, the
/// level won, whether all passed, the declarer's hand.
pub type DeclareError = fn(&Rules, Contract, Option<Suit>, u8, bool, CardSet) -> Option<String>;

/// [`Mechanics::outcome`]: the contract, the declarer's tricks, each opponent's.
pub type OutcomeOf = fn(Option<Contract>, u8, &[(Seat, u8)]) -> Outcome;

/// The mechanics a rule set owns beyond the data of its [`RuleSpec`]: functions
/// set in the rule set's module (`rulesets/NAME.rs`), called through
/// [`Rules`](crate::Rules) and the hand machine instead of a branch on the rule
/// set. Rule sets that share a mechanic share the function (the Spanish auction is
/// `rulesets::spanish`'s, used by `tresillo`, `tresillo-house` and `hombre`).
/// Functions have no meaningful equality, so neither this nor [`RuleSpec`]
/// compares: compare the rule sets ([`RuleSpec::set`]).
#[derive(Clone, Copy, Debug)]
pub struct Mechanics {
    /// Who speaks after `seat` in the auction, with the bids spoken so far (the
    /// last being `seat`'s), the mask of seats that passed, the dealer and the
    /// table size; called while more than one player is still in.
    pub next_bidder: fn(bids: &[BidEntry], passed: u8, seat: Seat, dealer: Seat, players: u8) -> Seat,
    /// The highest bid level under these options ([`Rules::max_level`](crate::Rules::max_level)).
    pub max_level: fn(&Rules) -> u8,
    /// The bid level a contract with these trumps fulfils
    /// ([`Rules::contract_level`](crate::Rules::contract_level)).
    pub contract_level: fn(&Rules, Contract, Option<Suit>) -> u8,
    /// Whether a player dealt `hand` may bid `level` (open levels permitting).
    pub may_bid: fn(level: u8, hand: CardSet) -> bool,
    /// The rule [`Mechanics::may_bid`] keeps, as a refusal says it after the bid's
    /// name (empty when every open level may be bid).
    pub bid_refusal: &'static str,
    /// A bid in the rule set's own words.
    pub bid_words: fn(Bid) -> String,
    /// Why the declarer may not name a contract with a trump after winning at a
    /// level (`forced`: all passed) holding a hand; `None` when legal. Called
    /// after the check that the rule set plays the contract at all.
    pub declare_error: DeclareError,
    /// The fewest cards the declarer of a contract discards.
    pub min_discard: fn(Option<Contract>) -> u8,
    /// The outcome of a played hand from the declarer's tricks and each
    /// opponent's (a contrabola is [`Rules::outcome`](crate::Rules::outcome)'s).
    pub outcome: OutcomeOf,
    /// The scoring system in use under these options (the table's
    /// [`RuleSpec::scoring`] unless an option changes it).
    pub scoring: fn(&Rules) -> ScoringSystem,
    /// Who must play when every player passed, from the dealt hands and mano;
    /// `None` when the hand is cancelled (at four players: the dealer penetra).
    /// [`RuleSpec`]'s `forced_*` fields and `always_played` describe the game.
    pub all_pass_declarer: fn(&Rules, &[CardSet], Seat) -> Option<Seat>,
}

/// The most options a rule set may list.
pub const MAX_OPTIONS: usize = 8;

/// The options of a rule set (RULES.md section 12): a value for each option of
/// the set's list ([`RuleSpec::options`]), fixed-size and `Copy`, no allocation.
/// The default is no option (every option at its default). Set through
/// [`Rules::parse`](crate::Rules::parse) and
/// [`Rules::set_option`](crate::Rules::set_option); read through the typed
/// accessors of [`Rules`](crate::Rules) keyed by an [`OptionInfo`]. Two values
/// are equal when every option has the same value in both; serialized as a map
/// from each option that is not at its default ([`OptionInfo::key`]) to its
/// value, in the set's order.
#[derive(Clone, Copy)]
pub struct RuleOptions {
    /// The options these values are of (a rule set's list; empty: none set).
    list: &'static [OptionInfo],
    /// The stored code of each option of `list`, in its order.
    codes: [u16; MAX_OPTIONS],
}

impl RuleOptions {
    /// No option: every option at its default.
    pub const NONE: RuleOptions = RuleOptions { list: &[], codes: [0; MAX_OPTIONS] };

    /// The stored code of `info` (its default when not set).
    #[must_use]
    pub fn code(&self, info: &OptionInfo) -> u16 {
        match self.list.iter().position(|o| o.name == info.name) {
            Some(i) => self.codes[i],
            None => info.kind.default_code(),
        }
    }

    /// Sets `info` (an option of `list`, the rule set's options) to `code`.
    pub(crate) fn set_code(&mut self, list: &'static [OptionInfo], info: &OptionInfo, code: u16) {
        if !std::ptr::eq(self.list, list) {
            let old = *self;
            self.list = list;
            for (i, o) in list.iter().enumerate().take(MAX_OPTIONS) {
                self.codes[i] = old.code(o);
            }
        }
        if let Some(i) = list.iter().position(|o| o.name == info.name).filter(|&i| i < MAX_OPTIONS) {
            self.codes[i] = code;
        }
    }

    /// Every option not at its default, with its stored code, in the list's
    /// order.
    pub fn entries(&self) -> impl Iterator<Item = (&'static OptionInfo, u16)> + '_ {
        let list: &'static [OptionInfo] = self.list;
        list.iter().zip(self.codes).filter(|(o, c)| *c != o.kind.default_code())
    }
}

impl Default for RuleOptions {
    fn default() -> RuleOptions {
        RuleOptions::NONE
    }
}

impl PartialEq for RuleOptions {
    fn eq(&self, other: &RuleOptions) -> bool {
        self.entries().all(|(o, c)| other.code(o) == c) && other.entries().all(|(o, c)| self.code(o) == c)
    }
}

impl Eq for RuleOptions {}

impl std::hash::Hash for RuleOptions {
    /// By the options not at their default, whatever the list's order.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let mut sum = 0u64;
        for (o, c) in self.entries() {
            // FNV-1a of the name and the code: order-free once summed.
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            for b in o.name.bytes().chain(c.to_le_bytes()) {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
            sum = sum.wrapping_add(h);
        }
        state.write_u64(sum);
    }
}

impl fmt::Debug for RuleOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = f.debug_map();
        for (o, c) in self.entries() {
            m.entry(&o.name, &o.kind.text(c));
        }
        m.finish()
    }
}

/// A named rule set (RULES.md section 12): a handle on its table, the
/// [`RuleSpec`] that owns every capability of the set. With its options it is a
/// [`Rules`](crate::Rules).
///
/// The built-in sets are the associated consts (`RuleSet::TRESILLO`, ...);
/// another set is a `static RuleSpec` of its own given to [`register_rule_set`](crate::register_rule_set),
/// after which `RuleSet::all`, name lookup (`FromStr`, `Rules::parse`) and
/// deserialization know it. Equality, hashing, order and `Display` go by the
/// spec's name; the serialized form is the name string.
#[derive(Clone, Copy)]
pub struct RuleSet(&'static RuleSpec);

impl RuleSet {
    /// The handle of `spec` (not registered: see
    /// [`register_rule_set`](crate::register_rule_set) for name lookup).
    #[must_use]
    pub const fn of(spec: &'static RuleSpec) -> RuleSet {
        RuleSet(spec)
    }

    /// The rule set's table.
    #[must_use]
    pub const fn spec(self) -> &'static RuleSpec {
        self.0
    }

    /// The rule set's name in files and flags.
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.0.name
    }
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::TRESILLO
    }
}

impl PartialEq for RuleSet {
    fn eq(&self, other: &RuleSet) -> bool {
        self.name() == other.name()
    }
}

impl Eq for RuleSet {}

impl std::hash::Hash for RuleSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl PartialOrd for RuleSet {
    fn partial_cmp(&self, other: &RuleSet) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RuleSet {
    fn cmp(&self, other: &RuleSet) -> std::cmp::Ordering {
        self.name().cmp(other.name())
    }
}

impl fmt::Debug for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RuleSet({:?})", self.name())
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule set with its options: one value that says which game is played.
///
/// `Rules::default()` is `tresillo` without options; `Rules::from(RuleSet)` is that
/// rule set without options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// The rule set.
    pub set: RuleSet,
    /// Its options.
    pub options: RuleOptions,
}
