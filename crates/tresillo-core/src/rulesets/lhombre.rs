//! Danish L'Hombre (RULES.md section 12.4): the contract table with ranks and
//! payments, the auction's order of speaking, what the declarer may name, the
//! minimum exchanges, the outcome, and the international card names.
//!
//! How the engine's vocabulary carries the nine contracts:
//!
//! | contract | [`Contract`] | trump | rank |
//! | --- | --- | --- | --- |
//! | game | `Entrada` | named, not spades | 1 |
//! | spades game | `Entrada` | spades | 2 |
//! | tourné | `Vuelta` | turned | 3 |
//! | nolo | `Nolo` | none | 3 |
//! | grand tourné | `GrandTourne` | turned | 4 |
//! | solo | `Solo` | named, not spades | 5 |
//! | spades solo | `Solo` | spades | 6 |
//! | pure nolo | `PureNolo` | none | 6 |
//! | nolo ouvert | `NoloOuvert` | none | 7 |
//!
//! Engine choices where the rules are silent:
//! - **Bids are ranks.** A bid is a rank 1..=7 (the two contracts of ranks 3 and
//!   6 are told apart only when the declarer names the contract). An equal bid by
//!   a player with priority is *self*. Grand tourné (rank 4) may be bid only by a
//!   player dealt both spadille and basta.
//! - **Naming the contract.** A winner at rank 1 (*game*) names game or raises to
//!   spades game, tourné, nolo or grand tourné (born contracts are out of reach); a
//!   winner at rank 5 (*solo*) names solo or raises to spades solo; any other winner
//!   names a contract of exactly the rank won. A game or solo named with spades as
//!   trumps *is* the spades game or spades solo.
//! - **All pass.** The forced player (section 12.4) names game in any suit or
//!   tourné; the hand scores as game whatever was named.
//! - **Outcome.** Win, draw and loss are reported as [`Outcome::Sacado`],
//!   [`Outcome::Puesta`] and [`Outcome::Codillo`]; the codillo's `winner` is the
//!   defender with most tricks (the first after the declarer on a tie) and plays no
//!   part in the payments.
//! - **Tout** uses the bola decision of section 6: stopping after five straight
//!   tricks is recorded as primeras (worth nothing here), leading to the sixth as
//!   a bola attempt (the tout). Nolo contracts have no tout. There is no surrender.

use crate::card::{Card, Seat, Suit};
use crate::cardset::CardSet;
use crate::game::BidEntry;
use crate::game::{Bid, Contract, Outcome, PuestaKind};
use crate::rulesets::spanish;
use crate::spec::Help;
use crate::spec::{
    Condiciones, Mechanics, Names, OpponentsOrder, REDEAL_ALL_PASS, RuleSpec, Rules, ScoringSystem, Table,
    Words,
};

/// L'Hombre's sentences and labels (its names are [`Names::International`]).
pub const WORDS: Words = Words {
    forced_exchange: None,
    forced_question: "everybody passed and you hold the spadille (or deal): you must play game or tourn\u{e9}, scored \
                      as game",
    declare_question: "you won the auction: name the contract (a winner at game may raise to spades game, tourn\u{e9}, \
                       nolo or grand tourn\u{e9}; one at solo to spades solo)",
    bola_question: "you won the first five tricks: stop, or lead to the sixth for tout",
    bola_choices: ["stop: the game is won", "lead to the sixth trick: tout (all nine)"],
    bola_narration: ["stops after five tricks", "leads to the sixth trick: tout"],
    bola: "tout",
    primeras: "stopped after five",
    cancelled: "all passed",
    cancelled_outcome: "outcome: all passed, a new deal",
    contracts_by_name: true,
    forced_name: "forced game",
    forced_label: "all passed, must play; scores as game",
    entrada_name: None,
    all_passed: "Everybody passes: a new deal.",
    gloss: false,
    help: Help::Text(
        "L'Hombre (RULES.md section 12.4). Contracts by rank: 1 game, 2 spades game, 3 tourn\u{e9} or nolo, \
           4 grand tourn\u{e9} (only with spadille and basta dealt), 5 solo, 6 spades solo or pure nolo, 7 nolo \
           ouvert. Forehand and middlehand bid first, then the dealer against the survivor; an earlier player \
           may say self to equal. Solo, spades solo, pure nolo and nolo ouvert must be bid outright; a winner \
           with game may raise to spades game, nolo, tourn\u{e9} or grand tourn\u{e9}. The declarer exchanges \
           first (game and nolo at least 1, tourn\u{e9} at least 2), then the defenders; nolo: only the \
           declarer. Nolo has no trumps (kings high, black aces lowest) and the declarer must take no trick. \
           Win: more tricks than each defender. Type cards in the notation 1E (spadille), 1B (basta), 12C (K \
           of hearts). Legal now: {legal}.",
    ),
    columns: &[
        ("entrada", "game, spades game, nolo"),
        ("vuelta", "tourn\u{e9}, grand tourn\u{e9}"),
        ("solo", "solo, spades solo, pure nolo, nolo ouvert"),
    ],
    outcomes_note: Some(
        " In lhombre (RULES.md section 12.4) sacado is a win, puesta a draw and codillo a loss, each paid \
                    per defender; in the nolo contracts the declarer wins with no trick.",
    ),
    ledger_note: Some("paid per defender (RULES.md section 12.4): no plato, pajaritos or paper"),
    questions: spanish::QUESTIONS,
    labels: spanish::LABELS,
};

/// The highest rank of the auction (nolo ouvert).
pub const MAX_RANK: u8 = 7;

/// The contracts `lhombre` plays, low to high.
pub const CONTRACTS: [Contract; 7] = [
    Contract::Entrada,
    Contract::Vuelta,
    Contract::Nolo,
    Contract::GrandTourne,
    Contract::Solo,
    Contract::PureNolo,
    Contract::NoloOuvert,
];

/// The rule set's table.
pub const SPEC: RuleSpec = RuleSpec {
    name: "lhombre",
    section: "12.4",
    summary: "Danish L'Hombre: nine contracts, self bids, tourné, nolo, tout, payments per defender",
    tricks: 9,
    tables: &[Table::THREE],
    options: &[REDEAL_ALL_PASS],
    forced_exchange_first: false,
    forced_min_discard: 0,
    forced_max_discard: 9,
    always_played: false,
    forced_holds_espada: false,
    takeover_in: &[],
    aip_plus_n: false,
    sacado_tanto: false,
    condiciones: Condiciones::NONE,
    takeover_condiciones: false,
    contracts: &CONTRACTS,
    opponents_order: OpponentsOrder::FromDeclarer,
    first_opponent_max: 9,
    accept_in: &[],
    declared_vole: false,
    surrender: false,
    scoring: ScoringSystem::PerDefender,
    names: Names::International,
    words: &WORDS,
    mechanics: &MECHANICS,
};

/// L'Hombre's mechanics: the auction in duels with ranks for levels, what the
/// declarer may name, the minimum exchanges, the outcome and the forced game of
/// the spadille's holder (else the dealer; with `redeal_all_pass` a new deal).
pub const MECHANICS: Mechanics = Mechanics {
    next_bidder,
    max_level: |_| MAX_RANK,
    contract_level: |_, c, trump| rank(c, trump),
    may_bid,
    bid_refusal: MAY_BID_RULE,
    bid_words,
    declare_error,
    min_discard: |c| c.map_or(0, min_discard),
    outcome,
    scoring: spanish::table_scoring,
    all_pass_declarer,
};

/// A bid in L'Hombre's words: `pass`, or the contracts of its rank.
fn bid_words(b: Bid) -> String {
    match b {
        Bid::Paso => "pass".into(),
        Bid::Level(l) => bid_name(l).into(),
    }
}

/// The spadille's holder, else the dealer (the player before mano); `None`
/// (a new deal) under `redeal_all_pass`.
fn all_pass_declarer(rules: &Rules, hands: &[CardSet], mano: Seat) -> Option<Seat> {
    if rules.redeal_all_pass() {
        return None;
    }
    let n = hands.len() as u8;
    spanish::holder(hands, Card::ESPADA).or(Some(mano.plus(n - 1, n)))
}

/// One row of the table of section 12.4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    /// Its name.
    pub name: &'static str,
    /// Its rank in the auction.
    pub rank: u8,
    /// Paid by each defender on a win, to each on a draw.
    pub win: i64,
    /// Paid to each defender on a loss.
    pub loss: i64,
    /// Born: must be bid outright (no raise from game reaches it).
    pub born: bool,
}

const fn row(name: &'static str, rank: u8, win: i64, loss: i64, born: bool) -> Row {
    Row { name, rank, win, loss, born }
}

/// The tout: made, 1 from each defender; failed, 1 to each.
pub const TOUT: i64 = 1;

/// The row of `contract` with `trump` (spades makes a game or solo the spades
/// game or spades solo).
#[must_use]
pub const fn row_of(contract: Contract, trump: Option<Suit>) -> Row {
    let spades = matches!(trump, Some(Suit::Espadas));
    match contract {
        Contract::Entrada if spades => row("spades game", 2, 1, 2, false),
        Contract::Entrada => row("game", 1, 1, 2, false),
        Contract::Vuelta => row("tourné", 3, 2, 3, false),
        Contract::Nolo => row("nolo", 3, 2, 3, false),
        Contract::GrandTourne => row("grand tourné", 4, 3, 4, false),
        Contract::Solo if spades => row("spades solo", 6, 4, 5, true),
        Contract::Solo => row("solo", 5, 3, 4, true),
        Contract::PureNolo => row("pure nolo", 6, 4, 5, true),
        Contract::NoloOuvert => row("nolo ouvert", 7, 6, 7, true),
        // Not a contract of lhombre (`hombre`'s option): rank 0 fulfils no bid.
        Contract::Contrabola => row("contrabola", 0, 0, 0, true),
    }
}

/// The rank of `contract` with `trump` in the auction.
#[must_use]
pub const fn rank(contract: Contract, trump: Option<Suit>) -> u8 {
    row_of(contract, trump).rank
}

/// The name of a bid of `level` in the auction.
#[must_use]
pub const fn bid_name(level: u8) -> &'static str {
    match level {
        1 => "game",
        2 => "spades game",
        3 => "tourné or nolo",
        4 => "grand tourné",
        5 => "solo",
        6 => "spades solo or pure nolo",
        7 => "nolo ouvert",
        _ => "?",
    }
}

/// The rule [`may_bid`] keeps, as a refusal message says it after the bid's name.
pub const MAY_BID_RULE: &str = "is open only to a player dealt both spadille and basta";

/// Whether a player holding `hand` may bid `level`: grand tourné needs both
/// spadille and basta.
#[must_use]
pub fn may_bid(level: u8, hand: CardSet) -> bool {
    level != 4 || dealt_both_black_aces(hand)
}

fn dealt_both_black_aces(hand: CardSet) -> bool {
    hand.contains(Card::ESPADA) && hand.contains(Card::BASTO)
}

/// Why `contract` with `trump` may not be named after winning at `level`
/// (`forced`: all passed) holding `hand`; `None` when it may (no option of the
/// rule set changes it).
#[must_use]
pub fn declare_error(
    _rules: &Rules,
    contract: Contract,
    trump: Option<Suit>,
    level: u8,
    forced: bool,
    hand: CardSet,
) -> Option<String> {
    let r = row_of(contract, trump);
    match (contract.names_trump(), trump) {
        (true, None) => return Some(format!("{} needs a trump suit", r.name)),
        (false, Some(_)) => return Some(format!("{} takes no named trump suit", r.name)),
        _ => {}
    }
    if forced {
        return match contract {
            Contract::Entrada | Contract::Vuelta => None,
            _ => Some(format!("after all passed the forced player names trumps or turns, not {}", r.name)),
        };
    }
    if contract == Contract::GrandTourne && !dealt_both_black_aces(hand) {
        return Some("grand tourné needs both spadille and basta dealt".into());
    }
    let ok = r.rank == level
        || (level == 1 && r.rank <= 4 && !r.born)
        || (level == 5 && contract == Contract::Solo);
    if ok {
        None
    } else {
        Some(format!("{} (rank {}) does not fulfil a bid of {}", r.name, r.rank, bid_name(level)))
    }
}

/// The fewest cards the declarer of `contract` discards: game and nolo 1, tourné 2.
#[must_use]
pub const fn min_discard(contract: Contract) -> u8 {
    match contract {
        Contract::Vuelta | Contract::GrandTourne => 2,
        _ => 1,
    }
}

/// Who speaks after `seat` in the auction, with `bids` spoken so far (the last
/// being `seat`'s) and the `passed` mask: forehand and middlehand against each
/// other until one is out (if forehand passes at once, middlehand still speaks),
/// then the dealer against the survivor.
#[must_use]
pub fn next_bidder(bids: &[BidEntry], passed: u8, seat: Seat, dealer: Seat, _players: u8) -> Seat {
    let mano = dealer.next(3);
    let medio = mano.next(3);
    let out = |s: Seat| passed & (1 << s.0) != 0;
    let spoke = |s: Seat| bids.iter().any(|b| b.seat == s);
    let first_over = out(medio) || (out(mano) && spoke(medio));
    if !first_over {
        return if seat == mano { medio } else { mano };
    }
    if seat != dealer {
        return dealer;
    }
    if out(mano) { medio } else { mano }
}

/// The outcome of `contract` (`None`: unknown, taken as a trump contract) with the
/// declarer's tricks and the defenders' (section 12.4): in trump contracts a win
/// with more tricks than each defender, a draw when tying the most, a loss when a
/// defender has more; in nolo a win with no trick, a draw with one, a loss with
/// two or more. See the module documentation for how they are reported.
#[must_use]
pub fn outcome(contract: Option<Contract>, declarer: u8, defenders: &[(Seat, u8)]) -> Outcome {
    let most = defenders.iter().map(|d| d.1).max().unwrap_or(0);
    let top = defenders.iter().find(|d| d.1 == most).map_or(Seat(0), |d| d.0);
    let nolo = contract.is_some_and(Contract::is_nolo);
    let result = if nolo {
        declarer.min(2)
    } else if declarer > most {
        0
    } else if declarer == most {
        1
    } else {
        2
    };
    match result {
        0 => Outcome::Sacado,
        1 => {
            let sabia = !nolo && declarer == 3 && defenders.iter().all(|d| d.1 == 3);
            Outcome::Puesta { kind: if sabia { PuestaKind::Sabia } else { PuestaKind::Plain } }
        }
        _ => Outcome::Codillo { winner: top },
    }
}

/// A suit's international name: spades, clubs, hearts, diamonds.
#[must_use]
pub const fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Espadas => "spades",
        Suit::Bastos => "clubs",
        Suit::Copas => "hearts",
        Suit::Oros => "diamonds",
    }
}

/// A card's international display name: rank (A, 2-7, J, Q, K) and suit symbol
/// (♠ ♣ ♥ ♦), for example `A♠` the spadille, `Q♥`. Files keep the notation of
/// section 13.
#[must_use]
pub fn card_name(c: Card) -> String {
    let r = match c.rank().value() {
        1 => "A".to_string(),
        10 => "J".to_string(),
        11 => "Q".to_string(),
        12 => "K".to_string(),
        v => v.to_string(),
    };
    let s = match c.suit() {
        Suit::Espadas => '♠',
        Suit::Bastos => '♣',
        Suit::Copas => '♥',
        Suit::Oros => '♦',
    };
    format!("{r}{s}")
}

/// A set of cards in international names, separated by spaces.
#[must_use]
pub fn cards_name(cs: CardSet) -> String {
    cs.iter().map(card_name).collect::<Vec<_>>().join(" ")
}
