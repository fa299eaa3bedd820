//! The Spanish rule sets' tables: `tresillo` (RULES.md sections 1-8, at four
//! players 12.2) and `tresillo-house` (12.1), with their words, and the Spanish
//! mechanics (the auction round the table, its levels and declarations, the
//! outcome of section 7) that `hombre` shares.

use crate::card::{Card, Seat, Suit};
use crate::cardset::CardSet;
use crate::game::{Bid, BidEntry, Contract, Outcome};
use crate::spec::Help;
use crate::spec::{
    CODILLO_OLD, Condiciones, Labels, Mechanics, Names, OpponentsOrder, PALO_DE_FAVOR, PENETRO_ALL_PLAY,
    Questions, RuleSpec, Rules, ScoringSystem, Table, Words,
};

/// The seat among `hands` that holds `c`, if any.
#[must_use]
pub fn holder(hands: &[CardSet], c: Card) -> Option<Seat> {
    hands.iter().position(|h| h.contains(c)).map(|i| Seat(i as u8))
}

/// The auction of section 3: round the table from `seat`, skipping those who
/// passed.
fn round_the_table(_bids: &[BidEntry], passed: u8, seat: Seat, _dealer: Seat, players: u8) -> Seat {
    let mut next = seat.next(players);
    while passed & (1 << next.0) != 0 {
        next = next.next(players);
    }
    next
}

/// The highest bid level: 3, plus 2 with a favoured suit (`palo_de_favor`,
/// `favorito`), plus 1 with `contrabola`.
fn max_level(rules: &Rules) -> u8 {
    3 + 2 * rules.favoured_suit().is_some() as u8 + rules.has_contract(Contract::Contrabola) as u8
}

/// The level a contract fulfils (see [`Rules::contract_level`]).
fn contract_level(rules: &Rules, c: Contract, trump: Option<Suit>) -> u8 {
    let f = rules.favoured_suit();
    let favoured = matches!((f, trump), (Some(f), Some(t)) if t as u8 == f as u8) as u8;
    let fav = f.is_some() as u8;
    let cb = rules.has_contract(Contract::Contrabola) as u8;
    match c {
        Contract::Entrada => 1 + favoured,
        Contract::Vuelta => 2 + fav,
        Contract::Contrabola => 3 + fav,
        Contract::Solo => 3 + fav + cb + favoured,
        _ => c.level(),
    }
}

/// Every open level may be bid.
fn may_bid(_level: u8, _hand: CardSet) -> bool {
    true
}

/// `juego`, `juego más (2)`, `paso`.
fn bid_words(b: Bid) -> String {
    b.to_string()
}

/// The Spanish declaration: a forced declarer plays an entrada, contrabola only
/// with its option and in a suit held, at least the level won, trumps named
/// except in vuelta.
fn declare_error(
    rules: &Rules,
    contract: Contract,
    trump: Option<Suit>,
    level: u8,
    forced: bool,
    hand: CardSet,
) -> Option<String> {
    if forced && contract != Contract::Entrada {
        return Some(format!("espada forzada must be an entrada, not {contract}"));
    }
    if !rules.has_contract(contract) {
        return Some(format!("{contract} needs its rule option"));
    }
    if let (Contract::Contrabola, Some(s)) = (contract, trump)
        && (hand & CardSet::suit(s)).is_empty()
    {
        return Some(format!("contrabola needs trumps of a suit the declarer holds, not {s}"));
    }
    if rules.contract_level(contract, trump) < level {
        return Some(format!("{contract} is below the level won ({level})"));
    }
    match (contract.names_trump(), trump) {
        (true, None) => Some(format!("{contract} needs a trump suit")),
        (false, Some(_)) => Some("in vuelta the turned card sets trumps; name no suit".into()),
        _ => None,
    }
}

/// Vuelta: at least one card; otherwise none.
fn min_discard(contract: Option<Contract>) -> u8 {
    u8::from(contract == Some(Contract::Vuelta))
}

/// Section 7's outcome.
fn outcome(_contract: Option<Contract>, declarer: u8, opponents: &[(Seat, u8)]) -> Outcome {
    Outcome::from_tricks(declarer, opponents)
}

/// Espada forzada: the holder of the espada; with the espada in the heap nobody
/// (cancelled, at four players the dealer's penetro).
fn espada_forzada(_rules: &Rules, hands: &[CardSet], _mano: Seat) -> Option<Seat> {
    holder(hands, Card::ESPADA)
}

/// The house's forced entrada: the holder of the espada, else of the basto, else
/// mano.
fn forced_entrada(_rules: &Rules, hands: &[CardSet], mano: Seat) -> Option<Seat> {
    holder(hands, Card::ESPADA).or_else(|| holder(hands, Card::BASTO)).or(Some(mano))
}

/// `tresillo`'s mechanics, the Spanish ones that `tresillo-house` and `hombre`
/// take with their own all-pass rule.
pub const MECHANICS: Mechanics = Mechanics {
    next_bidder: round_the_table,
    max_level,
    contract_level,
    may_bid,
    bid_refusal: "",
    bid_words,
    declare_error,
    min_discard,
    outcome,
    scoring: table_scoring,
    all_pass_declarer: espada_forzada,
};

/// The table's scoring system, whatever the options.
pub fn table_scoring(rules: &Rules) -> ScoringSystem {
    rules.spec().scoring
}

/// `tresillo-house`'s mechanics: the Spanish ones with the forced entrada.
pub const HOUSE_MECHANICS: Mechanics = Mechanics { all_pass_declarer: forced_entrada, ..MECHANICS };

/// The espada forzada of section 3, and at four players the penetro (12.2).
const ESPADA_FORZADA: &str = "if all pass the holder of the espada must play an entrada (espada forzada)";

/// `tresillo`'s words (sections 1-8, 12.2).
pub const TRESILLO_WORDS: Words = Words {
    forced_exchange: None,
    forced_question: "everybody passed and you hold the espada: you must play an entrada (espada forzada)",
    declare_question: "you won the auction: name the contract",
    bola_question: "you won the first five tricks",
    bola_choices: ["stop with primeras", "play on for bola"],
    bola_narration: ["stops with primeras", "plays on for bola"],
    bola: "bola",
    primeras: "primeras",
    cancelled: "all passed, the espada in the heap",
    cancelled_outcome: "outcome: cancelled (all passed, the espada is in the heap)",
    contracts_by_name: false,
    help: Help::Sections {
        forced: "; espada forzada: entrada only",
        all_pass: ESPADA_FORZADA,
        all_pass_penetro: "if all pass the holder of the espada must play an entrada (espada forzada); with the \
                           espada in the heap the dealer, who sits out, penetra (RULES.md section 12.2)",
    },
    forced_name: "espada forzada",
    forced_label: "espada forzada",
    entrada_name: None,
    all_passed: "Everybody passes and the espada is in the heap: cancelled.",
    gloss: true,
    columns: &[],
    outcomes_note: None,
    ledger_note: None,
    questions: QUESTIONS,
    labels: LABELS,
};

/// The questions of every built-in rule set.
pub const QUESTIONS: Questions = Questions {
    bid: "your call in the auction",
    word: "who goes first among the opponents?",
    play: "your card",
    surrender: "three tricks played: give up or play on?",
    take_over: "the declarer gives up: take over?",
    gascarille: "everybody passed: make the holder of the espada play a gascarille?",
    gascarille_declare: "the others make you play a gascarille (worth 3): name trumps",
    exchange_right: "exchange first, or pass that right to the other opponent?",
    accept_surrender: "the declarer gives up the vuelta: accept?",
    declare_vole: "declare the vole (all nine tricks) before the first trick?",
    penetro: "all passed and the espada is in the heap: you penetra, take ten cards from the top or the bottom",
    penetro_declare: "you penetra: name trumps (an entrada), then discard one card",
    penetro_give_up: "you took ten cards: give up at once (a puesta, and the penetro condici\u{f3}n) or play on",
    drop_out: "the dealer penetra: one of you {hands} drops out; your word",
    exchange: "exchange{why}: discard {min} to {max} cards and draw as many from the heap",
    gascarille_exchange: " (the gascarille)",
    penetro_exchange: "penetro: discard exactly one card (you draw nothing)",
};

/// The decisions' labels of every built-in rule set.
pub const LABELS: Labels = Labels {
    trumps: "trumps",
    discard: "discard",
    discard_nothing: "discard nothing",
    play: "play",
    surrender: ["play on", "give up"],
    take_over: ["do not take over", "yo sigo (take over)"],
    gascarille: ["no gascarille", "gascarille"],
    exchange_first: ["pass the right", "exchange first"],
    accept_surrender: ["refuse", "accept"],
    declare_vole: ["do not declare the vole", "declare the vole"],
    penetro: ["take the top ten", "take the bottom ten"],
};

/// `tresillo-house`'s forced entrada, whatever the table.
const FORCED_ENTRADA: &str = "if all pass the holder of the espada, else of the basto, else mano plays a forced entrada (RULES.md section 12.1)";

/// `tresillo-house`'s words (section 12.1).
pub const HOUSE_WORDS: Words = Words {
    forced_exchange: Some(" (the forced entrada)"),
    forced_question: "everybody passed: the forced entrada is yours (espada, else basto, else mano): name trumps",
    help: Help::Sections {
        forced: "; the forced entrada: trumps only",
        all_pass: FORCED_ENTRADA,
        all_pass_penetro: FORCED_ENTRADA,
    },
    forced_name: "forced entrada",
    forced_label: "forced entrada",
    ..TRESILLO_WORDS
};

/// `tresillo` (RULES.md sections 1-8).
pub const TRESILLO: RuleSpec = RuleSpec {
    name: "tresillo",
    section: "1-8",
    summary: "modern Spanish Tresillo, the puesta system; at 4 players the dealer sits out and penetra (12.2)",
    tricks: 9,
    tables: &[Table::THREE, Table::FOUR_WITH_PENETRO],
    options: &[PALO_DE_FAVOR, CODILLO_OLD, PENETRO_ALL_PLAY],
    forced_exchange_first: false,
    forced_min_discard: 0,
    forced_max_discard: 9,
    always_played: false,
    forced_holds_espada: true,
    takeover_in: &[Contract::Entrada, Contract::Vuelta],
    aip_plus_n: true,
    sacado_tanto: true,
    condiciones: Condiciones {
        entrada: 0,
        vuelta: 1,
        solo: 2,
        penetro: 1,
        estuche: 1,
        contra_estuche: 0,
        primeras: 1,
        bola: 8,
    },
    takeover_condiciones: false,
    contracts: &Contract::ALL,
    opponents_order: OpponentsOrder::Conversation,
    first_opponent_max: 9,
    accept_in: &[],
    declared_vole: false,
    surrender: true,
    scoring: ScoringSystem::Puesta,
    names: Names::Spanish,
    words: &TRESILLO_WORDS,
    mechanics: &MECHANICS,
};

/// `tresillo-house` (RULES.md section 12.1).
pub const TRESILLO_HOUSE: RuleSpec = RuleSpec {
    name: "tresillo-house",
    section: "12.1",
    summary: "a club's house rules: forced entrada, plato-only amounts, larger condiciones",
    tricks: 9,
    tables: &[Table::THREE],
    options: &[PALO_DE_FAVOR, CODILLO_OLD],
    forced_exchange_first: true,
    forced_min_discard: 0,
    forced_max_discard: 8,
    always_played: true,
    forced_holds_espada: false,
    takeover_in: &[Contract::Entrada],
    aip_plus_n: false,
    sacado_tanto: false,
    condiciones: Condiciones {
        entrada: 1,
        vuelta: 3,
        solo: 5,
        penetro: 0,
        estuche: 1,
        contra_estuche: 3,
        primeras: 1,
        bola: 10,
    },
    takeover_condiciones: true,
    contracts: &Contract::ALL,
    opponents_order: OpponentsOrder::Conversation,
    first_opponent_max: 9,
    accept_in: &[],
    declared_vole: false,
    surrender: true,
    scoring: ScoringSystem::Puesta,
    names: Names::Spanish,
    words: &HOUSE_WORDS,
    mechanics: &HOUSE_MECHANICS,
};
