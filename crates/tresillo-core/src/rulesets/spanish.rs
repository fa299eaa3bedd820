//! The Spanish rule sets' tables: `tresillo` (RULES.md sections 1-8, at four
//! players 12.2) and `tresillo-house` (12.1), with their words.

use crate::game::{Contract, RuleSet};
use crate::spec::{
    AllPass, AuctionOrder, CODILLO_OLD, Condiciones, Names, OpponentsOrder, PALO_DE_FAVOR, PENETRO_ALL_PLAY,
    RuleSpec, ScoringSystem, Words,
};

/// The espada forzada of section 3, and at four players the penetro (12.2).
const ESPADA_FORZADA: &str = "if all pass the holder of the espada must play an entrada (espada forzada)";

/// `tresillo`'s words (sections 1-8, 12.2).
pub const TRESILLO_WORDS: Words = Words {
    forced_exchange: "",
    forced_question: "everybody passed and you hold the espada: you must play an entrada (espada forzada)",
    forced_help: "; espada forzada: entrada only",
    all_pass_help: ESPADA_FORZADA,
    all_pass_help_four: "if all pass the holder of the espada must play an entrada (espada forzada); with the espada \
                         in the heap the dealer, who sits out, penetra (RULES.md section 12.2)",
    forced_name: "espada forzada",
    entrada_name: "",
    all_passed: "Everybody passes and the espada is in the heap: cancelled.",
    gloss: true,
    help: "",
    columns: &[],
    outcomes_note: "",
};

/// `tresillo-house`'s words (section 12.1).
pub const HOUSE_WORDS: Words = Words {
    forced_exchange: " (the forced entrada)",
    forced_question: "everybody passed: the forced entrada is yours (espada, else basto, else mano): name trumps",
    forced_help: "; the forced entrada: trumps only",
    all_pass_help: "if all pass the holder of the espada, else of the basto, else mano plays a forced entrada \
                    (RULES.md section 12.1)",
    all_pass_help_four: "if all pass the holder of the espada, else of the basto, else mano plays a forced entrada \
                         (RULES.md section 12.1)",
    forced_name: "forced entrada",
    ..TRESILLO_WORDS
};

/// `tresillo` (RULES.md sections 1-8).
pub const TRESILLO: RuleSpec = RuleSpec {
    set: RuleSet::Tresillo,
    section: "1-8",
    summary: "modern Spanish Tresillo, the puesta system; at 4 players the dealer sits out and penetra (12.2)",
    players: &[3, 4],
    options: &[PALO_DE_FAVOR, CODILLO_OLD, PENETRO_ALL_PLAY],
    all_pass: AllPass::EspadaForzada,
    forced_max_discard: 9,
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
    auction: AuctionOrder::RoundTheTable,
    opponents_order: OpponentsOrder::Conversation,
    first_opponent_max: 9,
    accept_in: &[],
    declared_vole: false,
    scoring: ScoringSystem::Puesta,
    names: Names::Spanish,
    words: &TRESILLO_WORDS,
};

/// `tresillo-house` (RULES.md section 12.1).
pub const TRESILLO_HOUSE: RuleSpec = RuleSpec {
    set: RuleSet::TresilloHouse,
    section: "12.1",
    summary: "a club's house rules: forced entrada, plato-only amounts, larger condiciones",
    players: &[3],
    options: &[PALO_DE_FAVOR, CODILLO_OLD],
    all_pass: AllPass::ForcedEntrada,
    forced_max_discard: 8,
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
    auction: AuctionOrder::RoundTheTable,
    opponents_order: OpponentsOrder::Conversation,
    first_opponent_max: 9,
    accept_in: &[],
    declared_vole: false,
    scoring: ScoringSystem::Puesta,
    names: Names::Spanish,
    words: &HOUSE_WORDS,
};
