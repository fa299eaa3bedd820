//! Rule sets and their options (RULES.md section 12) as one value, [`Rules`], and
//! the table each rule set is: a [`RuleSpec`] that the state machine, the views
//! and the ledger consult instead of testing the rule set's name.
//!
//! Everything a rule set changes lives in its `RuleSpec` constant below (one place
//! per rule set); everything an option changes lives in the methods of [`Rules`].
//!
//! ```
//! use tresillo_core::{Contract, RuleSet, Rules, Suit};
//!
//! let rules = Rules::parse("tresillo", &[("palo_de_favor", "oros")])?;
//! assert_eq!(rules.set, RuleSet::TRESILLO);
//! assert_eq!(rules.max_level(), 5);
//! assert_eq!(rules.contract_level(Contract::Entrada, Some(Suit::Oros)), 2);
//! assert_eq!(rules.to_string(), "tresillo palo_de_favor=oros");
//!
//! // An option of another rule set, or an unknown one, is refused.
//! assert!(Rules::parse("tresillo", &[("show_heap", "true")]).is_err());
//! # Ok::<(), tresillo_core::RulesError>(())
//! ```
//!
//! `RuleSet::spec` is the one place that goes from a rule set to its module's table;
//! `Rules`' methods (`max_level`, `contract_level`, `declare_error`, `outcome`,
//! `scoring`, ...) call the rule set's `Mechanics`, and a `Rules` serializes as its
//! bare name when it has no options, or as a table. The registry of rule sets added at
//! run time (`register_rule_set`) is process-wide (ARCHITECTURE.md, "Global state").

use crate::card::{Seat, Suit};
use crate::cardset::CardSet;
use crate::game::{Bid, Contract, Outcome, PuestaKind};
use crate::rulesets::BUILT_IN_LIST;
// The table vocabulary, at its old paths (`crate::rules::RuleSpec`, ...).
pub use crate::spec::*;
use std::fmt;
use std::sync::{OnceLock, RwLock};

impl RuleSet {
    /// Modern Spanish Tresillo, the default.
    pub const TRESILLO: RuleSet = RuleSet::of(&crate::rulesets::spanish::TRESILLO);
    /// A club's house rules (section 12.1).
    pub const TRESILLO_HOUSE: RuleSet = RuleSet::of(&crate::rulesets::spanish::TRESILLO_HOUSE);
    /// The classic game, English rules (section 12.3).
    pub const HOMBRE: RuleSet = RuleSet::of(&crate::rulesets::hombre::HOMBRE);
    /// Danish L'Hombre (section 12.4).
    pub const LHOMBRE: RuleSet = RuleSet::of(&crate::rulesets::lhombre::SPEC);

    /// The built-in rule sets, in their documented order: a new one is its module
    /// under `rulesets/` plus its line in `rulesets/mod.rs` (the test suite then
    /// names what it still lacks, such as a hand perft table).
    pub const BUILT_IN: [RuleSet; BUILT_IN_LIST.len()] = {
        let mut all = [RuleSet::TRESILLO; BUILT_IN_LIST.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = BUILT_IN_LIST[i];
            i += 1;
        }
        all
    };

    /// Every rule set known: the built-in ones, then the registered ones in the
    /// order of registration.
    pub fn all() -> impl Iterator<Item = RuleSet> {
        let extra: Vec<RuleSet> = registered().read().map(|v| v.clone()).unwrap_or_default();
        RuleSet::BUILT_IN.into_iter().chain(extra)
    }

    /// The rule set called `name`, built-in or registered.
    #[must_use]
    pub fn by_name(name: &str) -> Option<RuleSet> {
        RuleSet::all().find(|r| r.name() == name)
    }
}

/// What an unknown rule set's error adds: how a set defined in a file becomes
/// known.
const FILE_HINT: &str = "; a rule set defined in a file is known once registered: `--rule-set FILE`, in Python `tresillo.register_rule_set(path)`";

fn registered() -> &'static RwLock<Vec<RuleSet>> {
    static REGISTERED: OnceLock<RwLock<Vec<RuleSet>>> = OnceLock::new();
    REGISTERED.get_or_init(|| RwLock::new(Vec::new()))
}

/// Makes the rule set `spec` known by its name to [`RuleSet::all`], name lookup
/// and deserialization, for the rest of the process. The list only grows.
/// Registering the same spec (same name, same address) twice is accepted; a
/// name already taken by another spec is an error naming it.
pub fn register_rule_set(spec: &'static RuleSpec) -> Result<RuleSet, RuleSetError> {
    let mut list = registered().write().map_err(|_| RuleSetError::Poisoned)?;
    let set = RuleSet::of(spec);
    if spec.options.len() > MAX_OPTIONS {
        return Err(RuleSetError::TooManyOptions {
            name: spec.name.to_string(),
            options: spec.options.len(),
        });
    }
    if let Some(old) = RuleSet::BUILT_IN.iter().chain(list.iter()).find(|r| r.name() == spec.name) {
        if std::ptr::eq(old.spec(), spec) {
            return Ok(set);
        }
        return Err(RuleSetError::Taken(spec.name.to_string()));
    }
    list.push(set);
    Ok(set)
}

impl std::str::FromStr for RuleSet {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, RulesError> {
        RuleSet::by_name(s).ok_or_else(|| {
            let names: Vec<_> = RuleSet::all().map(|r| r.name()).collect();
            RulesError::UnknownRuleSet { name: s.to_string(), known: names.join(", ") }
        })
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for RuleSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for RuleSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RuleSet, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        RuleSet::by_name(&s).ok_or_else(|| {
            // serde's own words for an unknown variant, as the derived enum said.
            let names: Vec<String> = RuleSet::all().map(|r| format!("`{}`", r.name())).collect();
            let expected = match names.len() {
                0 => "there are no variants".to_string(),
                1 => names[0].clone(),
                2 => format!("{} or {}", names[0], names[1]),
                _ => format!("one of {}", names.join(", ")),
            };
            serde::de::Error::custom(format_args!("unknown variant `{s}`, expected {expected}{FILE_HINT}"))
        })
    }
}

impl RuleSet {
    /// The table of `players` of this rule set ([`Rules::table`]).
    #[must_use]
    pub fn table(self, players: u8) -> Table {
        let found = self.spec().tables.iter().find(|t| t.players == players);
        found.copied().unwrap_or(Table::every_seat(players))
    }
}

impl RuleOptions {
    /// Whether every option has its default.
    #[must_use]
    pub fn is_default(&self) -> bool {
        self.entries().next().is_none()
    }

    /// Every option that differs from its default, as `(key, value)` as typed,
    /// in the order of the rule set's option list.
    #[must_use]
    pub fn set_options(&self) -> Vec<(&'static str, String)> {
        self.entries().map(|(o, c)| (o.name, o.kind.text(c))).collect()
    }
}

/// Why a rule set could not be registered ([`register_rule_set`]) or defined from
/// a file ([`crate::define_rule_set`], [`crate::rule_spec_from_toml`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleSetError {
    /// The registry's lock was poisoned by a panic.
    #[error("the rule-set registry is poisoned")]
    Poisoned,
    /// More options than a rule set may have.
    #[error("rule set `{name}` lists {options} options, more than {MAX_OPTIONS}")]
    TooManyOptions {
        /// The rule set.
        name: String,
        /// Its options.
        options: usize,
    },
    /// A name another rule set has.
    #[error("rule set `{0}` is already registered")]
    Taken(String),
    /// A rule-set file that could not be registered (`origin`: the file).
    #[error("{origin}: {error}")]
    File {
        /// The file, as the caller names it.
        origin: String,
        /// Why (in the message, not a source).
        error: Box<RuleSetError>,
    },
    /// A rule-set file that is not TOML, or not a rule set (`place`: `FILE:LINE`,
    /// or the file).
    #[error("{place}: {message}")]
    Toml {
        /// Where.
        place: String,
        /// The parser's words.
        message: String,
    },
    /// A key of a rule-set file whose value is refused (`place`: `FILE:LINE`).
    #[error("{place}: `{key}`: {message}")]
    Key {
        /// Where.
        place: String,
        /// The key.
        key: &'static str,
        /// Why.
        message: String,
    },
}

/// A bad rule set, option or table size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// No rule set of that name.
    #[error("unknown rule set `{name}` (known: {known}{FILE_HINT})")]
    UnknownRuleSet {
        /// The name given.
        name: String,
        /// The known names.
        known: String,
    },
    /// An option the rule set does not have.
    #[error("unknown rule option `{option}` (options of {rules}: {known})")]
    UnknownOption {
        /// The key given.
        option: String,
        /// The rule set.
        rules: RuleSet,
        /// The rule set's options.
        known: String,
    },
    /// A value the option does not take.
    #[error("bad value `{value}` for rule option `{option}` (expected one of: {expected})")]
    BadValue {
        /// The key.
        option: &'static str,
        /// The value given.
        value: String,
        /// What it accepts.
        expected: &'static str,
    },
    /// A malformed `key=value`.
    #[error("bad rule option `{0}`: expected key=value, for example palo_de_favor=oros")]
    Malformed(String),
    /// The same option twice.
    #[error("rule option `{0}` given twice")]
    Duplicate(String),
    /// An option that applies only together with another.
    #[error("rule option `{option}` applies only with `{needs}`")]
    Requires {
        /// The option given.
        option: &'static str,
        /// The option it needs.
        needs: &'static str,
    },
    /// An option of another table size (`penetro_all_play` at three).
    #[error("rule option `{option}` is for a table of four (--players 4), not {players} players")]
    OptionPlayers {
        /// The option.
        option: &'static str,
        /// The table size asked for.
        players: u8,
    },
    /// A table size the rule set is not played at.
    #[error("rule set {rules} is played by {allowed} players, not {players}")]
    Players {
        /// The rule set.
        rules: RuleSet,
        /// The size asked for.
        players: u8,
        /// The sizes it supports.
        allowed: String,
    },
}

impl From<RuleSet> for Rules {
    fn from(set: RuleSet) -> Rules {
        Rules { set, options: RuleOptions::default() }
    }
}

fn option_names(set: RuleSet) -> String {
    let o: Vec<&str> = set.spec().options.iter().map(|o| o.name).collect();
    if o.is_empty() { "none".into() } else { o.join(", ") }
}

impl Rules {
    /// The rule set `name` with `options` as `(key, value)` pairs. Unknown rule sets
    /// and options, options of other rule sets, bad values and repeated keys are
    /// errors.
    pub fn parse(name: &str, options: &[(&str, &str)]) -> Result<Rules, RulesError> {
        let set: RuleSet = name.parse().map_err(|_| RulesError::UnknownRuleSet {
            name: name.to_string(),
            known: RuleSet::all().map(|r| r.name()).collect::<Vec<_>>().join(", "),
        })?;
        let mut rules = Rules::from(set);
        let mut seen: Vec<&str> = Vec::new();
        for &(k, v) in options {
            if seen.contains(&k) {
                return Err(RulesError::Duplicate(k.to_string()));
            }
            seen.push(k);
            rules.set_option(k, v)?;
        }
        for (info, _) in rules.options.entries() {
            if let Some(needs) = info.requires
                && !rules.options.entries().any(|(o, _)| o.name == needs)
            {
                return Err(RulesError::Requires { option: info.name, needs });
            }
        }
        Ok(rules)
    }

    /// Sets one option from its key and value as typed; an option the rule set
    /// does not have is refused.
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let spec = self.set.spec();
        let Some(info) = spec.options.iter().find(|o| o.name == key) else {
            return Err(RulesError::UnknownOption {
                option: key.to_string(),
                rules: self.set,
                known: option_names(self.set),
            });
        };
        let code = info.kind.parse(value).ok_or_else(|| RulesError::BadValue {
            option: info.name,
            value: value.to_string(),
            expected: info.values,
        })?;
        self.options.set_code(spec.options, info, code);
        Ok(())
    }

    /// The value of the flag option `info` (`false` when the rule set does not
    /// have it).
    #[must_use]
    pub fn flag(&self, info: &OptionInfo) -> bool {
        debug_assert_eq!(info.kind, OptionKind::Flag, "{}", info.name);
        self.options.code(info) != 0
    }

    /// The value of the suit option `info` (`None`: none, or the rule set does not
    /// have it).
    #[must_use]
    pub fn suit(&self, info: &OptionInfo) -> Option<Suit> {
        debug_assert_eq!(info.kind, OptionKind::Suit, "{}", info.name);
        crate::spec::suit_of(self.options.code(info))
    }

    /// The value of the count option `info` (its default when the rule set does
    /// not have it).
    #[must_use]
    pub fn count(&self, info: &OptionInfo) -> u16 {
        debug_assert!(matches!(info.kind, OptionKind::Count { .. }), "{}", info.name);
        self.options.code(info)
    }

    /// Checks that every option set (not at its default) is one of the rule set's:
    /// for a `Rules` built field by field rather than by [`Rules::parse`].
    pub fn check_options(&self) -> Result<(), RulesError> {
        for (k, _) in self.options.set_options() {
            if !self.spec().options.iter().any(|o| o.name == k) {
                return Err(RulesError::UnknownOption {
                    option: k.to_string(),
                    rules: self.set,
                    known: option_names(self.set),
                });
            }
        }
        Ok(())
    }

    /// Parses `key=value`.
    pub fn split_option(s: &str) -> Result<(&str, &str), RulesError> {
        match s.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() && !v.trim().is_empty() => Ok((k.trim(), v.trim())),
            _ => Err(RulesError::Malformed(s.to_string())),
        }
    }

    /// The rule set's table.
    #[must_use]
    pub const fn spec(&self) -> &'static RuleSpec {
        self.set.spec()
    }

    /// Checks that the rule set is played at a table of `players` (and that
    /// `penetro_all_play` is asked for only at a table with a penetro).
    pub fn check_players(&self, players: u8) -> Result<(), RulesError> {
        if let Some((info, _)) = self.options.entries().find(|(o, _)| o.penetro_only)
            && !self.table(players).penetro
        {
            return Err(RulesError::OptionPlayers { option: info.name, players });
        }
        let tables = self.spec().tables;
        if tables.iter().any(|t| t.players == players) {
            return Ok(());
        }
        Err(RulesError::Players {
            rules: self.set,
            players,
            allowed: tables.iter().map(|t| t.players.to_string()).collect::<Vec<_>>().join(" or "),
        })
    }

    /// The table of `players` this rule set declares: who sits out, whether a
    /// penetro is played. A size it is not played at (refused by
    /// [`Rules::check_players`]) is a table where every seat plays.
    #[must_use]
    pub fn table(&self, players: u8) -> Table {
        self.set.table(players)
    }

    /// The favoured suit: that of `palo_de_favor`, or coins under `favorito`.
    #[must_use]
    pub fn favoured_suit(&self) -> Option<Suit> {
        match self.suit(&PALO_DE_FAVOR) {
            Some(s) => Some(s),
            None if self.flag(&FAVORITO) => Some(Suit::Oros),
            None => None,
        }
    }

    /// The highest bid level: 3, plus 2 with a favoured suit (`palo_de_favor`,
    /// `favorito`), plus 1 with `contrabola`; in `lhombre` the highest rank, 7
    /// (the rule set's [`Mechanics::max_level`]).
    #[must_use]
    pub fn max_level(&self) -> u8 {
        (self.spec().mechanics.max_level)(self)
    }

    /// The bid level a contract with these trumps fulfils (`None` for a vuelta,
    /// whose suit is turned later). Without options: entrada 1, vuelta 2, solo 3.
    /// With a favoured suit (`palo_de_favor`, `favorito`): entrada 1, entrada a
    /// favor 2, vuelta 3, solo 4, solo a favor 5. `contrabola` ranks just below
    /// solo and pushes solo up one level (entrada 1, vuelta 2, contrabola 3, solo
    /// 4). In `lhombre` the rank of section 12.4
    /// ([`rulesets::lhombre::rank`](crate::rulesets::lhombre::rank)). The rule
    /// set's [`Mechanics::contract_level`].
    #[must_use]
    pub fn contract_level(&self, c: Contract, trump: Option<Suit>) -> u8 {
        (self.spec().mechanics.contract_level)(self, c, trump)
    }

    /// Whether `contract` exists under these options: one of the rule set's
    /// contracts (contrabola only with its option).
    #[must_use]
    pub fn has_contract(&self, c: Contract) -> bool {
        self.spec().contracts.contains(&c) && (!matches!(c, Contract::Contrabola) || self.flag(&CONTRABOLA))
    }

    /// Whether `trump` is the favoured suit (doubled payments).
    #[must_use]
    pub fn favoured(&self, trump: Option<Suit>) -> bool {
        self.favoured_suit().is_some() && self.favoured_suit() == trump
    }

    /// `codillo_old`: a codillo is paid to the winner only (nothing to the plato
    /// or the paper).
    #[must_use]
    pub fn codillo_old(&self) -> bool {
        self.flag(&CODILLO_OLD)
    }

    /// `redeal_all_pass`: when all pass, a new deal instead of the forced game.
    #[must_use]
    pub fn redeal_all_pass(&self) -> bool {
        self.flag(&REDEAL_ALL_PASS)
    }

    /// `penetro_all_play`: in a penetro nobody drops out and the dealer plays
    /// against the three others.
    #[must_use]
    pub fn penetro_all_play(&self) -> bool {
        self.flag(&PENETRO_ALL_PLAY)
    }

    /// `show_heap`: after the exchange the cards left in the heap are public.
    #[must_use]
    pub fn shows_heap(&self) -> bool {
        self.flag(&SHOW_HEAP)
    }

    /// `gascarille`: after all pass the others may make the holder of the espada
    /// play a gascarille.
    #[must_use]
    pub fn gascarille(&self) -> bool {
        self.flag(&GASCARILLE)
    }

    /// Whether any option differs from its default.
    #[must_use]
    pub fn has_options(&self) -> bool {
        !self.options.is_default()
    }

    /// Every option that differs from its default, as `(key, value)`, in the order
    /// of the rule set's option list ([`RuleOptions::set_options`]).
    #[must_use]
    pub fn set_options(&self) -> Vec<(&'static str, String)> {
        self.options.set_options()
    }

    /// The chips of `ante` (default 5).
    #[must_use]
    pub fn ante(&self) -> i64 {
        i64::from(self.count(&ANTE))
    }

    /// What the dealer pays before the deal whatever happens, by the scoring
    /// system in use ([`Rules::scoring`]): the puesta system's tanto (1, into the
    /// plato), the chips' `ante` (into the pool); nothing under points or payments
    /// per defender. The ledgers charge the dealer this amount, and a search
    /// leaves it out of a dealing declarer's value.
    #[must_use]
    pub fn dealer_stake(&self) -> i64 {
        match self.scoring() {
            ScoringSystem::Puesta => 1,
            ScoringSystem::Chips => self.ante(),
            ScoringSystem::Points | ScoringSystem::PerDefender => 0,
        }
    }

    /// Whether an opponent may take over a surrendered `contract`.
    #[must_use]
    pub fn takeover_allowed(&self, contract: Contract) -> bool {
        self.spec().takeover_in.contains(&contract)
    }

    /// Who must play when every player passed, with these dealt `hands` and `mano`;
    /// `None` when the hand is cancelled (the rule set's
    /// [`Mechanics::all_pass_declarer`]).
    #[must_use]
    pub fn all_pass_declarer(&self, hands: &[CardSet], mano: Seat) -> Option<Seat> {
        (self.spec().mechanics.all_pass_declarer)(self, hands, mano)
    }

    /// Whether a player holding `hand` may bid `level` (in `lhombre` grand tourné,
    /// rank 4, only with both spadille and basta).
    #[must_use]
    pub fn may_bid(&self, level: u8, hand: CardSet) -> bool {
        (self.spec().mechanics.may_bid)(level, hand)
    }

    /// A bid in the rule set's own words: `juego`, `juego más (2)`, `paso` in
    /// the Spanish and English rule sets (as their narratives say it), the
    /// contract names of section 12.4 and `pass` in `lhombre`.
    #[must_use]
    pub fn bid_words(&self, bid: Bid) -> String {
        (self.spec().mechanics.bid_words)(bid)
    }

    /// What a player holding `hand` may bid when the levels `min_level..=max_level`
    /// are open, in the rule set's words: every bid it may make, passing last, and
    /// why an open level is not among them (`lhombre`'s grand tourné).
    #[must_use]
    pub fn legal_bids_text(&self, min_level: u8, max_level: u8, hand: CardSet) -> String {
        let mut bids: Vec<String> = (min_level..=max_level)
            .filter(|&l| self.may_bid(l, hand))
            .map(|l| self.bid_words(Bid::Level(l)))
            .collect();
        bids.push(self.bid_words(Bid::Paso));
        let list = match bids.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => bids.join(""),
        };
        let mut text = format!("this player may say {list}");
        if let Some(refused) = (min_level..=max_level).find(|&l| !self.may_bid(l, hand)) {
            let why = self.spec().mechanics.bid_refusal;
            text.push_str(&format!(" ({} {why})", self.bid_words(Bid::Level(refused))));
        }
        text
    }

    /// Why the declarer may not name `contract` with `trump` after winning the
    /// auction at `level` (`forced`: all passed), holding `hand`; `None` when legal.
    #[must_use]
    pub fn declare_error(
        &self,
        contract: Contract,
        trump: Option<Suit>,
        level: u8,
        forced: bool,
        hand: CardSet,
    ) -> Option<String> {
        if !self.spec().contracts.contains(&contract) {
            return Some(format!("{contract} is not a contract of {}", self.set));
        }
        (self.spec().mechanics.declare_error)(self, contract, trump, level, forced, hand)
    }

    /// The fewest cards the declarer of `contract` discards (vuelta 1; in
    /// `lhombre` game and nolo 1, tourné 2).
    #[must_use]
    pub fn declarer_min_discard(&self, contract: Option<Contract>) -> u8 {
        (self.spec().mechanics.min_discard)(contract)
    }

    /// The scoring system in use: the table's, or under an option that changes it
    /// the option's (`hombre-chips`: chips).
    #[must_use]
    pub fn scoring(&self) -> ScoringSystem {
        (self.spec().mechanics.scoring)(self)
    }

    /// Whether the declarer of `contract` may give up after the third trick.
    #[must_use]
    pub fn may_surrender(&self, contract: Contract) -> bool {
        self.spec().surrender && contract.may_surrender()
    }

    /// Whether a declarer who won the first five tricks of `contract` decides on
    /// bola (tout in `lhombre`): never in a nolo contract or a contrabola.
    #[must_use]
    pub fn bola_allowed(&self, contract: Contract) -> bool {
        !contract.is_nolo() && contract != Contract::Contrabola
    }

    /// The outcome of a played hand of `contract`: the declarer's tricks and each
    /// opponent's (section 7; in `lhombre` section 12.4, see
    /// [`rulesets::lhombre::outcome`](crate::rulesets::lhombre::outcome)). A
    /// contrabola (`hombre`, section 12.3) is won with no trick (scored as a won
    /// simple game) and a puesta otherwise, whatever the opponents took.
    #[must_use]
    pub fn outcome(&self, contract: Option<Contract>, declarer: u8, opponents: &[(Seat, u8)]) -> Outcome {
        if contract == Some(Contract::Contrabola) {
            return if declarer == 0 { Outcome::Sacado } else { Outcome::Puesta { kind: PuestaKind::Plain } };
        }
        (self.spec().mechanics.outcome)(contract, declarer, opponents)
    }
}

impl fmt::Display for Rules {
    /// The name, then each option that is not at its default as `key=value`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.set.name())?;
        for (k, v) in self.options.set_options() {
            write!(f, " {k}={v}")?;
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
mod rules_serde {
    //! In files a [`Rules`] without options is its name (`rules = "tresillo"`), so
    //! that existing manifests and experiment files keep their form; with options
    //! it is a table `{ name = "...", key = value, ... }`.
    use super::{OptionInfo, OptionKind, RuleSet, Rules};
    use serde::de::Error as _;
    use serde::ser::SerializeMap;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::fmt;

    impl Serialize for Rules {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let opts = self.options.set_options();
            if opts.is_empty() {
                return s.serialize_str(self.set.name());
            }
            let mut m = s.serialize_map(Some(opts.len() + 1))?;
            m.serialize_entry("name", self.set.name())?;
            for (k, v) in opts {
                if v == "true" {
                    m.serialize_entry(k, &true)?;
                } else {
                    m.serialize_entry(k, &v)?;
                }
            }
            m.end()
        }
    }

    impl Serialize for super::RuleOptions {
        /// The options not at their default, `key: value` in the set's order: a
        /// flag as `true`, a suit as its name, a count as a number.
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(None)?;
            for (o, c) in self.entries() {
                match o.kind {
                    OptionKind::Flag => m.serialize_entry(o.key, &(c != 0))?,
                    OptionKind::Suit => m.serialize_entry(o.key, &o.kind.text(c))?,
                    OptionKind::Count { .. } => m.serialize_entry(o.key, &c)?,
                }
            }
            m.end()
        }
    }

    /// A serialized option's value: a boolean, a string or a number.
    struct AnyValue(String);

    impl<'de> Deserialize<'de> for AnyValue {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<AnyValue, D::Error> {
            struct V;
            impl serde::de::Visitor<'_> for V {
                type Value = AnyValue;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a rule option value: true/false, a suit's name or a number")
                }
                fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<AnyValue, E> {
                    Ok(AnyValue(v.to_string()))
                }
                fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<AnyValue, E> {
                    Ok(AnyValue(v.to_string()))
                }
                fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<AnyValue, E> {
                    Ok(AnyValue(v.to_string()))
                }
                fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<AnyValue, E> {
                    Ok(AnyValue(v.to_string()))
                }
                fn visit_unit<E: serde::de::Error>(self) -> Result<AnyValue, E> {
                    Ok(AnyValue(String::new()))
                }
                fn visit_none<E: serde::de::Error>(self) -> Result<AnyValue, E> {
                    Ok(AnyValue(String::new()))
                }
            }
            d.deserialize_any(V)
        }
    }

    impl<'de> Deserialize<'de> for super::RuleOptions {
        /// The map [`Serialize`] writes, its keys those of the first known rule
        /// set that has them all; an unknown key or a bad value is an error
        /// naming it.
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<super::RuleOptions, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = super::RuleOptions;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a map of rule options")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                    let mut pairs: Vec<(String, String)> = Vec::new();
                    while let Some(k) = m.next_key::<String>()? {
                        let AnyValue(v) = m.next_value()?;
                        pairs.push((k, v));
                    }
                    let has = |list: &[OptionInfo], k: &str| list.iter().any(|o| o.key == k);
                    let Some(set) =
                        RuleSet::all().find(|r| pairs.iter().all(|(k, _)| has(r.spec().options, k)))
                    else {
                        let known: Vec<RuleSet> = RuleSet::all().collect();
                        let bad = pairs.iter().find(|(k, _)| !known.iter().any(|r| has(r.spec().options, k)));
                        let keys: Vec<&str> =
                            known.iter().flat_map(|r| r.spec().options.iter().map(|o| o.key)).collect();
                        return Err(A::Error::custom(match bad {
                            Some((k, _)) => {
                                format!("unknown field `{k}`, expected one of {}", keys.join(", "))
                            }
                            None => "rule options of more than one rule set".to_string(),
                        }));
                    };
                    let mut options = super::RuleOptions::NONE;
                    let list = set.spec().options;
                    for (k, v) in pairs {
                        let info = list.iter().find(|o| o.key == k).expect("found above");
                        let code = if v.is_empty() {
                            info.kind.default_code()
                        } else {
                            info.kind.parse(&v).ok_or_else(|| {
                                A::Error::custom(format!(
                                    "bad value `{v}` for rule option `{k}` (expected one of: {})",
                                    info.values
                                ))
                            })?
                        };
                        options.set_code(list, info, code);
                    }
                    Ok(options)
                }
            }
            d.deserialize_map(V)
        }
    }

    /// An option's value in a table: a string or a boolean.
    struct OptionValue(String);

    impl<'de> Deserialize<'de> for OptionValue {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OptionValue, D::Error> {
            struct V;
            impl serde::de::Visitor<'_> for V {
                type Value = OptionValue;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a rule option value: a string or true/false")
                }
                fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<OptionValue, E> {
                    Ok(OptionValue(v.to_string()))
                }
                fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<OptionValue, E> {
                    Ok(OptionValue(v.to_string()))
                }
            }
            d.deserialize_any(V)
        }
    }

    impl<'de> Deserialize<'de> for Rules {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
            struct V;
            impl<'de> serde::de::Visitor<'de> for V {
                type Value = Rules;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a rule set: its name, or a table { name = \"...\", option = value, ... }")
                }
                fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Rules, E> {
                    Rules::parse(v, &[]).map_err(E::custom)
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Rules, A::Error> {
                    let mut name = None;
                    let mut options: Vec<(String, String)> = Vec::new();
                    while let Some(k) = m.next_key::<String>()? {
                        let OptionValue(v) = m.next_value()?;
                        if k == "name" {
                            name = Some(v);
                        } else {
                            options.push((k, v));
                        }
                    }
                    let name =
                        name.ok_or_else(|| A::Error::custom("a rules table needs `name = \"...\"`"))?;
                    let pairs: Vec<(&str, &str)> =
                        options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                    Rules::parse(&name, &pairs).map_err(A::Error::custom)
                }
            }
            d.deserialize_any(V)
        }
    }
}
