//! `hombre` (RULES.md section 12.3): its table and words. The steps only it has
//! are in `hand/hombre.rs`, its points and chips in `scoring/`.

use crate::card::{Card, Seat};
use crate::cardset::CardSet;
use crate::game::Contract;
use crate::rulesets::spanish::{self, TRESILLO_WORDS};
use crate::spec::Help;
use crate::spec::{
    ANTE, CONTRABOLA, Condiciones, FAVORITO, GASCARILLE, HOMBRE_CHIPS, Mechanics, Names, OpponentsOrder,
    RuleSpec, Rules, SHOW_HEAP, ScoringSystem, Table, Words,
};

/// The obligation: the holder of the espada, else mano.
fn obligation(_rules: &Rules, hands: &[CardSet], mano: Seat) -> Option<Seat> {
    spanish::holder(hands, Card::ESPADA).or(Some(mano))
}

/// Points, or chips with the option `hombre-chips`.
fn scoring(rules: &Rules) -> ScoringSystem {
    if rules.flag(&crate::spec::HOMBRE_CHIPS) { ScoringSystem::Chips } else { ScoringSystem::Points }
}

/// `hombre`'s mechanics: the Spanish ones (its options' levels included) with
/// the obligation and its scoring option.
pub const MECHANICS: Mechanics = Mechanics { all_pass_declarer: obligation, scoring, ..spanish::MECHANICS };

/// What happens when all pass in `hombre`, whatever the table.
const OBLIGATION: &str = "if all pass the holder of the espada (else mano) has the obligation: discard all but one, \
                          draw eight, name trumps (RULES.md section 12.3); with the gascarille option the others \
                          may first make the espada's holder play a gascarille";

/// `hombre`'s words (section 12.3).
pub const HOMBRE_WORDS: Words = Words {
    forced_exchange: Some(" (the obligation)"),
    forced_question: "everybody passed: the obligation is yours (you hold the espada, or are mano): name trumps",
    help: Help::Sections {
        forced: "; the obligation or gascarille: trumps only, scored as such",
        all_pass: OBLIGATION,
        all_pass_penetro: OBLIGATION,
    },
    forced_name: "obligation",
    forced_label: "obligation",
    entrada_name: Some("simple game"),
    columns: &[("entrada", "simple game (entrada)")],
    ..TRESILLO_WORDS
};

/// `hombre` (RULES.md section 12.3): obligation when all pass, the exchange right
/// of the declarer's next opponent, the accepted surrender of a vuelta, the
/// declared vole and points scoring. The condiciones of the puesta system do not
/// apply (points and chips are in [`crate::PointsLedger`] and
/// [`crate::ChipsLedger`]).
pub const HOMBRE: RuleSpec = RuleSpec {
    name: "hombre",
    section: "12.3",
    summary: "the classic game: obligation, exchange right, points (or chips with hombre-chips)",
    tricks: 9,
    tables: &[Table::THREE],
    options: &[SHOW_HEAP, HOMBRE_CHIPS, ANTE, FAVORITO, GASCARILLE, CONTRABOLA],
    forced_exchange_first: true,
    forced_min_discard: 8,
    forced_max_discard: 8,
    always_played: true,
    forced_holds_espada: false,
    takeover_in: &[Contract::Entrada],
    aip_plus_n: false,
    sacado_tanto: false,
    condiciones: Condiciones::NONE,
    takeover_condiciones: false,
    contracts: &Contract::EVERY,
    opponents_order: OpponentsOrder::RightOfNext,
    first_opponent_max: 8,
    accept_in: &[Contract::Vuelta],
    declared_vole: true,
    surrender: true,
    scoring: ScoringSystem::Points,
    names: Names::Spanish,
    words: &HOMBRE_WORDS,
    mechanics: &MECHANICS,
};
