//! Danish L'Hombre (RULES.md section 12.4): one test per rule, named after it,
//! with payments computed by hand from the table of section 12.4.
//!
//! `perft_lhombre.rs` holds its perft data, with trumps and without (nolo).

use crate::common;
use tresillo_core::Question;

use common::*;
use tresillo_core::rulesets::lhombre;
use tresillo_core::*;

use Contract::{Entrada, GrandTourne, Nolo, NoloOuvert, PureNolo, Solo, Vuelta};

const L: RuleSet = RuleSet::LHOMBRE;

/// Seat 1 holds spadille, manille (2E), basta and the top spades; seat 0 clubs,
/// seat 2 hearts; the heap starts with the diamonds.
const STRONG_DEAL: &str = STRONG;
/// Seat 0 holds the spadille; the basta is in the heap.
const SPADILLE_0: &str = MIXED;
/// Spadille and basta in the heap.
const BOTH_IN_HEAP: &str = "3E 5E 7E 12E 6B 7B 1C 4C 4O / 2E 6E 10E 4B 2C 3C 7C 1O 2O / 3B 5B 10B 11B 6C 10C 11C 3O 11O / 12C 12O 6O 12B 11E 5O 1B 5C 7O 4E 10O 1E 2B";

fn lh(deal: &str, dealer: u8) -> Hand {
    Hand::with_rules(Rules::from(L), 3, Deal::parse(deal).unwrap(), Seat(dealer)).unwrap()
}

fn bid(h: &mut Hand, l: u8) {
    ok(h, Decision::Bid(Bid::Level(l)));
}

fn pass(h: &mut Hand) {
    ok(h, Decision::Bid(Bid::Paso));
}

fn speaker(h: &Hand) -> Seat {
    h.request().seat().unwrap()
}

fn min_level(h: &Hand) -> u8 {
    match h.request() {
        Request::Bid { min_level, .. } => min_level,
        r => panic!("not a bid: {r:?}"),
    }
}

/// Seat `mano` wins the auction at `level` (the others pass), dealer seat 0.
fn won_by_mano(deal: &str, level: u8) -> Hand {
    let mut h = lh(deal, 0);
    bid(&mut h, level);
    pass(&mut h);
    pass(&mut h);
    assert_eq!(h.phase(), Phase::Declare);
    h
}

// ------------------------------------------------------------ the auction

#[test]
fn forehand_and_middlehand_bid_first_forehand_says_self_then_the_dealer() {
    let mut h = lh(SPADILLE_0, 0);
    assert_eq!(speaker(&h), Seat(1), "forehand first");
    bid(&mut h, 1);
    assert_eq!(speaker(&h), Seat(2), "middlehand answers forehand");
    assert_eq!(min_level(&h), 2, "middlehand must bid higher");
    bid(&mut h, 2);
    assert_eq!(speaker(&h), Seat(1), "back to forehand, not the dealer");
    assert_eq!(min_level(&h), 2, "forehand may say self");
    bid(&mut h, 2);
    assert_eq!(min_level(&h), 3);
    pass(&mut h);
    assert_eq!(speaker(&h), Seat(0), "the dealer against the survivor");
    assert_eq!(min_level(&h), 3, "the dealer equals nobody");
    bid(&mut h, 3);
    assert_eq!(speaker(&h), Seat(1));
    assert_eq!(min_level(&h), 3, "the survivor may say self to the dealer");
    pass(&mut h);
    assert_eq!(h.public().declarer, Some(Seat(0)));
    assert_eq!(h.public().level, 3);
}

#[test]
fn middlehand_may_say_self_to_the_dealer() {
    let mut h = lh(SPADILLE_0, 0);
    pass(&mut h);
    assert_eq!(speaker(&h), Seat(2), "forehand passed at once: middlehand speaks");
    bid(&mut h, 1);
    assert_eq!(speaker(&h), Seat(0));
    bid(&mut h, 5);
    assert_eq!(speaker(&h), Seat(2));
    assert_eq!(min_level(&h), 5);
    bid(&mut h, 5);
    assert_eq!(speaker(&h), Seat(0));
    assert_eq!(min_level(&h), 6);
    pass(&mut h);
    assert_eq!((h.public().declarer, h.public().level), (Some(Seat(2)), 5));
}

#[test]
fn the_dealer_bids_alone_when_forehand_and_middlehand_pass() {
    let mut h = lh(SPADILLE_0, 0);
    pass(&mut h);
    pass(&mut h);
    assert_eq!((speaker(&h), min_level(&h)), (Seat(0), 1));
    bid(&mut h, 1);
    assert_eq!((h.phase(), h.public().declarer), (Phase::Declare, Some(Seat(0))));
}

#[test]
fn grand_tourne_may_be_bid_only_with_spadille_and_basta_dealt() {
    let mut h = lh(SPADILLE_0, 0);
    // Seat 1 lacks both.
    let e = rejected(&mut h, Decision::Bid(Bid::Level(4)));
    assert!(matches!(e, HandError::IllegalBid { .. }));
    // The message lists what this player may bid (not the refused grand tourné),
    // in L'Hombre's words.
    assert_eq!(
        e.to_string(),
        "illegal bid grand tourné: this player may say game, spades game, tourné or nolo, solo, \
         spades solo or pure nolo, nolo ouvert or pass (grand tourné is open only to a player dealt \
         both spadille and basta)"
    );
    assert!(
        !h.request()
            .legal_decisions_in(&Rules::from(L), h.hand_of(Seat(1)))
            .contains(&Decision::Bid(Bid::Level(4)))
    );
    let mut h = lh(STRONG_DEAL, 0);
    bid(&mut h, 4);
    pass(&mut h);
    pass(&mut h);
    ok(&mut h, Decision::Declare(GrandTourne, None));
    let turned = card("1O");
    assert_eq!((h.public().turned, h.public().trump), (Some(turned), Some(Suit::Oros)));
}

#[test]
fn born_contracts_must_be_bid_outright_and_game_raises() {
    // Won with game: game, spades game, tourné, nolo; never a born contract.
    let mut h = won_by_mano(SPADILLE_0, 1);
    for d in [
        Decision::Declare(Solo, Some(Suit::Oros)),
        Decision::Declare(Solo, Some(Suit::Espadas)),
        Decision::Declare(PureNolo, None),
        Decision::Declare(NoloOuvert, None),
        Decision::Declare(GrandTourne, None), // and seat 1 lacks the black aces
    ] {
        assert!(matches!(rejected(&mut h, d), HandError::IllegalContract(_)), "{d:?}");
    }
    let legal = h.request().legal_decisions_in(&Rules::from(L), h.hand_of(Seat(1)));
    assert_eq!(legal.len(), 4 + 2, "game in four suits, tourné, nolo: {legal:?}");
    for c in [Vuelta, Nolo] {
        let mut k = h;
        ok(&mut k, Decision::Declare(c, None));
    }
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Espadas)));
    assert_eq!(lhombre::row_of(Entrada, Some(Suit::Espadas)).name, "spades game");
    // Won with solo: solo or spades solo.
    let mut h = won_by_mano(SPADILLE_0, 5);
    rejected(&mut h, Decision::Declare(PureNolo, None));
    rejected(&mut h, Decision::Declare(Entrada, Some(Suit::Oros)));
    let legal = h.request().legal_decisions_in(&Rules::from(L), h.hand_of(Seat(1)));
    assert_eq!(legal.len(), 4, "{legal:?}");
    // Won at rank 6: spades solo or pure nolo, not a plain solo.
    let mut h = won_by_mano(SPADILLE_0, 6);
    rejected(&mut h, Decision::Declare(Solo, Some(Suit::Oros)));
    let legal = h.request().legal_decisions_in(&Rules::from(L), h.hand_of(Seat(1)));
    assert_eq!(legal, vec![Decision::Declare(Solo, Some(Suit::Espadas)), Decision::Declare(PureNolo, None)]);
    // Won with spades game: nothing else.
    let h = won_by_mano(SPADILLE_0, 2);
    let legal = h.request().legal_decisions_in(&Rules::from(L), h.hand_of(Seat(1)));
    assert_eq!(legal, vec![Decision::Declare(Entrada, Some(Suit::Espadas))]);
}

#[test]
fn contracts_rank_as_the_table_of_section_12_4() {
    let r = Rules::from(L);
    let ranks = [
        (Entrada, Some(Suit::Oros), 1),
        (Entrada, Some(Suit::Espadas), 2),
        (Vuelta, None, 3),
        (Nolo, None, 3),
        (GrandTourne, None, 4),
        (Solo, Some(Suit::Copas), 5),
        (Solo, Some(Suit::Espadas), 6),
        (PureNolo, None, 6),
        (NoloOuvert, None, 7),
    ];
    for (c, t, k) in ranks {
        assert_eq!(r.contract_level(c, t), k, "{c:?} {t:?}");
    }
    assert_eq!(r.max_level(), 7);
}

// ------------------------------------------------------------ the exchange

#[test]
fn game_declarer_exchanges_at_least_one_then_defenders_from_the_one_after_the_declarer() {
    let mut h = won_by_mano(SPADILLE_0, 1);
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Oros)));
    assert_eq!(h.request(), Request::Discard { seat: Seat(1), min: 1, max: 9 });
    rejected(&mut h, Decision::Discard(CardSet::EMPTY));
    ok(&mut h, Decision::Discard(cs("2C 3C")));
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 0, max: 9 }, "no conversation");
    ok(&mut h, Decision::Discard(cs("3B 5B 10B 6C 10C 11C 3O 11O 11B")));
    assert_eq!(h.request(), Request::Discard { seat: Seat(0), min: 0, max: 2 });
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    assert_eq!(h.phase(), Phase::Play);
    assert!(h.public().words().is_empty());
}

#[test]
fn tourne_turns_the_top_card_and_the_declarer_discards_at_least_two_drawing_it_first() {
    let mut h = won_by_mano(SPADILLE_0, 3);
    ok(&mut h, Decision::Declare(Vuelta, None));
    let top = card("12C");
    assert_eq!((h.public().turned, h.public().trump), (Some(top), Some(Suit::Copas)));
    assert_eq!(h.request(), Request::Discard { seat: Seat(1), min: 2, max: 9 });
    rejected(&mut h, Decision::Discard(cs("2C")));
    ok(&mut h, Decision::Discard(cs("2C 3C")));
    assert!(h.hand_of(Seat(1)).contains(top), "the turned card is drawn first");
    assert!(h.hand_of(Seat(1)).contains(card("12O")));
}

#[test]
fn nolo_has_no_trumps_and_only_the_declarer_exchanges() {
    let mut h = won_by_mano(SPADILLE_0, 3);
    ok(&mut h, Decision::Declare(Nolo, None));
    assert_eq!(h.public().trump, None);
    assert_eq!(h.request(), Request::Discard { seat: Seat(1), min: 1, max: 9 });
    ok(&mut h, Decision::Discard(cs("2E")));
    assert_eq!(h.phase(), Phase::Play, "the defenders do not exchange");
    assert_eq!(h.public().exchanged.0[..3], [None, Some(1), None]);
}

#[test]
fn solo_declarer_keeps_the_hand_and_the_defenders_exchange() {
    let mut h = won_by_mano(SPADILLE_0, 5);
    ok(&mut h, Decision::Declare(Solo, Some(Suit::Oros)));
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 0, max: 9 });
}

#[test]
fn pure_nolo_and_nolo_ouvert_have_no_exchange() {
    for (level, c) in [(6, PureNolo), (7, NoloOuvert)] {
        let mut h = won_by_mano(SPADILLE_0, level);
        ok(&mut h, Decision::Declare(c, None));
        assert_eq!(h.phase(), Phase::Play, "{c:?}");
    }
}

// ------------------------------------------------------------ play

#[test]
fn nolo_plays_the_no_trump_order_without_matador_privilege() {
    // The black aces are the lowest of their suits, the red ones between J and 2.
    assert_eq!(trick_winner(&[card("2E"), card("1E"), card("3E")], None), 2);
    assert_eq!(trick_winner(&[card("1B"), card("2B"), card("4C")], None), 1);
    assert_eq!(trick_winner(&[card("2C"), card("1C"), card("10C")], None), 2);
    assert_eq!(trick_winner(&[card("7O"), card("1O"), card("6O")], None), 1);
    // The spadille led forces the spades; it is no trump.
    let hand = cs("2E 5B 12C");
    assert_eq!(legal_moves(hand, None, Some(card("1E"))), cs("2E"));
    assert_eq!(legal_moves(cs("5B 12C"), None, Some(card("1E"))), cs("5B 12C"));
}

#[test]
fn nolo_ouvert_hand_is_public_in_every_view_just_before_the_declarers_first_card() {
    let mut h = lh(SPADILLE_0, 0);
    pass(&mut h); // forehand
    bid(&mut h, 7); // middlehand, seat 2
    pass(&mut h);
    ok(&mut h, Decision::Declare(NoloOuvert, None));
    let laid = h.hand_of(Seat(2));
    for s in 0..3 {
        assert_eq!(h.view(Seat(s)).public().exposed, None, "not before forehand's lead");
    }
    let lead = h.request().legal_decisions(h.hand_of(Seat(1)))[0];
    ok(&mut h, lead);
    for s in 0..3 {
        let v = h.view(Seat(s));
        assert_eq!(v.public().exposed, Some(laid), "seat {s}");
        assert!(v.known_cards().is_superset(laid));
        assert_eq!(v.exposed_hand(), Some(laid));
    }
    auto_until(&mut h, |h| h.public().tricks_done == 1);
    let v = h.view(Seat(0));
    assert_eq!(v.exposed_hand().unwrap().len(), 8, "the played card left the exposed hand");
}

/// Seat 1 plays spades solo (or nolo) on the strong deal and leads its spades:
/// the others hold none.
fn strong(level: u8, c: Contract, t: Option<Suit>) -> Hand {
    let mut h = won_by_mano(STRONG_DEAL, level);
    ok(&mut h, Decision::Declare(c, t));
    while h.phase() != Phase::Play {
        let Request::Discard { min, .. } = h.request() else { panic!() };
        let seat = speaker(&h);
        let d: CardSet =
            h.hand_of(seat).iter().filter(|c| c.suit() != Suit::Espadas).take(min as usize).collect();
        ok(&mut h, Decision::Discard(d));
    }
    h
}

fn lead_spades(h: &mut Hand, tricks: u8) {
    while h.public().tricks_done < tricks && h.phase() == Phase::Play {
        let seat = speaker(h);
        let Request::Play { legal, .. } = h.request() else { panic!() };
        let c = if seat == Seat(1) {
            legal.iter().find(|c| c.suit() == Suit::Espadas).unwrap_or(legal.first().unwrap())
        } else {
            legal.first().unwrap()
        };
        ok(h, Decision::Play(c));
    }
}

#[test]
fn tout_after_five_straight_tricks_leading_to_the_sixth_commits() {
    let mut h = strong(6, Solo, Some(Suit::Espadas));
    lead_spades(&mut h, 5);
    assert_eq!(h.request(), Request::Ask { seat: Seat(1), question: Question::BOLA });
    ok(&mut h, Decision::Answer(Question::BOLA, true));
    lead_spades(&mut h, 9);
    let r = h.result().unwrap();
    assert!(r.bola_attempted && r.bola_made);
    assert_eq!(r.outcome, Outcome::Sacado);
    // Spades solo 4 from each defender, the tout 1 from each, paid separately.
    let s = score_deal(LedgerConfig::with_rules(Rules::from(L), 3), &r).unwrap();
    assert_eq!(s.pool.0[..3], [-4, 8, -4]);
    assert_eq!(s.condiciones.0[..3], [-1, 2, -1]);
}

#[test]
fn stopping_after_five_straight_tricks_wins_without_tout() {
    let mut h = strong(6, Solo, Some(Suit::Espadas));
    lead_spades(&mut h, 5);
    ok(&mut h, Decision::Answer(Question::BOLA, false));
    let r = h.result().unwrap();
    assert!(r.primeras && !r.bola_attempted);
    let s = score_deal(LedgerConfig::with_rules(Rules::from(L), 3), &r).unwrap();
    assert_eq!(s.totals().0[..3], [-4, 8, -4]);
}

#[test]
fn nolo_has_no_tout_and_taking_tricks_loses() {
    let mut h = strong(3, Nolo, None);
    lead_spades(&mut h, 9);
    assert_eq!(h.public().bola, None, "never asked");
    let r = h.result().unwrap();
    assert!(r.tricks[Seat(1)] >= 2);
    assert!(matches!(r.outcome, Outcome::Codillo { .. }), "{:?}", r.outcome);
    let s = score_deal(LedgerConfig::with_rules(Rules::from(L), 3), &r).unwrap();
    assert_eq!(s.totals().0[..3], [3, -6, 3], "nolo lost: 3 to each defender");
}

#[test]
fn there_is_no_surrender_in_lhombre() {
    let mut h = won_by_mano(SPADILLE_0, 1);
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Oros)));
    auto_until(&mut h, |h| h.public().tricks_done == 4);
    assert_eq!(h.public().surrendered, None);
}

// ------------------------------------------------------------ all pass

#[test]
fn all_pass_the_holder_of_the_spadille_must_play_game_or_tourne() {
    let mut h = lh(SPADILLE_0, 1); // seat 0 holds the spadille and is middlehand
    for _ in 0..3 {
        pass(&mut h);
    }
    assert_eq!(h.request(), Request::Declare { seat: Seat(0), min_level: 1, forced: true });
    let legal = h.request().legal_decisions_in(&Rules::from(L), h.hand_of(Seat(0)));
    assert_eq!(legal.len(), 5, "game in any suit or tourné: {legal:?}");
    rejected(&mut h, Decision::Declare(Solo, Some(Suit::Oros)));
    rejected(&mut h, Decision::Declare(Nolo, None));
    ok(&mut h, Decision::Declare(Vuelta, None));
    assert_eq!(h.request(), Request::Discard { seat: Seat(0), min: 2, max: 9 });
}

#[test]
fn all_pass_with_the_spadille_in_the_talon_the_dealer_must_play() {
    for dealer in 0..3 {
        let mut h = lh(BOTH_IN_HEAP, dealer);
        for _ in 0..3 {
            pass(&mut h);
        }
        assert_eq!(h.public().declarer, Some(Seat(dealer)));
        assert!(h.public().forced);
    }
}

#[test]
fn forced_tourne_scores_as_game() {
    let mut h = lh(SPADILLE_0, 1);
    for _ in 0..3 {
        pass(&mut h);
    }
    ok(&mut h, Decision::Declare(Vuelta, None));
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    let s = score_deal(LedgerConfig::with_rules(Rules::from(L), 3), &r).unwrap();
    let per = match r.outcome {
        Outcome::Sacado => 1,
        Outcome::Puesta { .. } => -1,
        Outcome::Codillo { .. } => -2,
        Outcome::Cancelled => unreachable!(),
    };
    assert_eq!(s.totals()[Seat(0)], 2 * per, "{:?}", r.outcome);
}

#[test]
fn redeal_all_pass_makes_a_new_deal() {
    let r = Rules::parse("lhombre", &[("redeal_all_pass", "true")]).unwrap();
    let mut h = Hand::with_rules(r, 3, Deal::parse(SPADILLE_0).unwrap(), Seat(0)).unwrap();
    for _ in 0..3 {
        pass(&mut h);
    }
    let res = h.result().unwrap();
    assert_eq!(res.outcome, Outcome::Cancelled);
    let s = score_deal(LedgerConfig::with_rules(r, 3), &res).unwrap();
    assert_eq!(s.totals().0, [0; 4]);
    // Without the option a cancelled lhombre hand is refused.
    let mut c = res.clone();
    c.options = RuleOptions::default();
    assert!(score_deal(LedgerConfig::with_rules(Rules::from(L), 3), &c).is_err());
}

#[test]
fn options_of_other_rule_sets_are_refused_and_redeal_belongs_to_lhombre() {
    assert!(Rules::parse("lhombre", &[("palo_de_favor", "oros")]).is_err());
    assert!(Rules::parse("lhombre", &[("codillo_old", "true")]).is_err());
    assert!(Rules::parse("tresillo", &[("redeal_all_pass", "true")]).is_err());
    assert_eq!(
        Rules::parse("lhombre", &[("redeal_all_pass", "true")]).unwrap().to_string(),
        "lhombre redeal_all_pass=true"
    );
}

// ------------------------------------------------------------ the ledger

/// A result of `contract` with `trump` by seat 1 (seat 0 deals) with `tricks`.
fn result(contract: Contract, trump: Option<Suit>, tricks: [u8; 3]) -> HandResult {
    let mut r = table_result(3, Seat(0), Seat(1), contract, &tricks);
    r.rules = L;
    r.trump = trump;
    let opp = [(Seat(2), tricks[2]), (Seat(0), tricks[0])];
    r.outcome = Rules::from(L).outcome(Some(contract), tricks[1], &opp);
    r
}

fn paid(r: &HandResult) -> [i64; 3] {
    let s = score_deal(LedgerConfig::with_rules(Rules::from(L), 3), r).unwrap();
    [s.totals()[Seat(0)], s.totals()[Seat(1)], s.totals()[Seat(2)]]
}

#[test]
fn win_each_defender_pays_the_declarer() {
    assert_eq!(paid(&result(Entrada, Some(Suit::Oros), [2, 5, 2])), [-1, 2, -1]);
    assert_eq!(paid(&result(Entrada, Some(Suit::Espadas), [2, 5, 2])), [-1, 2, -1]);
    assert_eq!(paid(&result(Vuelta, Some(Suit::Copas), [3, 4, 2])), [-2, 4, -2]);
    assert_eq!(paid(&result(GrandTourne, Some(Suit::Copas), [3, 4, 2])), [-3, 6, -3]);
    assert_eq!(paid(&result(Solo, Some(Suit::Bastos), [2, 5, 2])), [-3, 6, -3]);
    assert_eq!(paid(&result(Solo, Some(Suit::Espadas), [2, 5, 2])), [-4, 8, -4]);
}

#[test]
fn draw_the_declarer_pays_each_defender_the_win_amount() {
    assert_eq!(paid(&result(Entrada, Some(Suit::Oros), [4, 4, 1])), [1, -2, 1]);
    assert_eq!(paid(&result(Entrada, Some(Suit::Oros), [3, 3, 3])), [1, -2, 1], "3-3-3 is a draw");
    assert_eq!(paid(&result(Solo, Some(Suit::Espadas), [1, 4, 4])), [4, -8, 4]);
}

#[test]
fn loss_the_declarer_pays_each_defender_the_loss_amount() {
    assert_eq!(paid(&result(Entrada, Some(Suit::Oros), [4, 3, 2])), [2, -4, 2]);
    assert_eq!(paid(&result(Entrada, Some(Suit::Oros), [4, 1, 4])), [2, -4, 2], "1-4-4 is a loss");
    assert_eq!(paid(&result(Vuelta, Some(Suit::Oros), [5, 2, 2])), [3, -6, 3]);
    assert_eq!(paid(&result(Solo, Some(Suit::Espadas), [5, 2, 2])), [5, -10, 5]);
}

#[test]
fn nolo_results_no_trick_wins_one_draws_two_lose() {
    assert_eq!(paid(&result(Nolo, None, [5, 0, 4])), [-2, 4, -2]);
    assert_eq!(paid(&result(Nolo, None, [4, 1, 4])), [2, -4, 2]);
    assert_eq!(paid(&result(Nolo, None, [5, 2, 2])), [3, -6, 3]);
    assert_eq!(paid(&result(PureNolo, None, [5, 0, 4])), [-4, 8, -4]);
    assert_eq!(paid(&result(PureNolo, None, [4, 1, 4])), [4, -8, 4]);
    assert_eq!(paid(&result(NoloOuvert, None, [5, 0, 4])), [-6, 12, -6]);
    assert_eq!(paid(&result(NoloOuvert, None, [3, 3, 3])), [7, -14, 7]);
}

#[test]
fn tout_is_paid_separately_made_or_failed() {
    let mut r = result(Entrada, Some(Suit::Oros), [0, 9, 0]);
    r.bola_attempted = true;
    r.bola_made = true;
    let s = score_deal(LedgerConfig::with_rules(Rules::from(L), 3), &r).unwrap();
    assert_eq!((s.pool[Seat(1)], s.condiciones[Seat(1)]), (2, 2));
    let mut r = result(Entrada, Some(Suit::Oros), [1, 8, 0]);
    r.bola_attempted = true;
    let s = score_deal(LedgerConfig::with_rules(Rules::from(L), 3), &r).unwrap();
    assert_eq!((s.pool[Seat(1)], s.condiciones[Seat(1)]), (2, -2), "failed tout: the game is still won");
}

#[test]
fn an_lhombre_session_keeps_the_bowls_and_conserves_tokens() {
    let mut ledger = Ledger::new(LedgerConfig::with_rules(Rules::from(L), 3)).unwrap();
    assert_eq!(ledger.bowls(), &[160, 160, 160]);
    assert_eq!(ledger.pajaritos(), 0);
    ledger.apply(&result(Solo, Some(Suit::Espadas), [2, 5, 2])).unwrap();
    let mut r = result(Nolo, None, [4, 1, 4]);
    r.dealer = Seat(1);
    ledger.apply(&r).unwrap();
    assert_eq!(ledger.bowls(), &[156 + 2, 168 - 4, 156 + 2]);
    assert_eq!(ledger.tokens(), 480);
    assert_eq!(ledger.settle().results.0[..3], [-2, 4, -2]);
    // The dealer rotates.
    let mut r = result(Nolo, None, [4, 1, 4]);
    r.dealer = Seat(0);
    assert!(matches!(ledger.apply(&r), Err(ScoringError::DealerOutOfTurn { .. })));
}

#[test]
fn an_outcome_contradicting_the_tricks_is_refused() {
    let mut r = result(Nolo, None, [4, 1, 4]);
    r.outcome = Outcome::Sacado;
    assert!(matches!(
        score_deal(LedgerConfig::with_rules(Rules::from(L), 3), &r),
        Err(ScoringError::OutcomeMismatch { .. })
    ));
}

// ------------------------------------------------------------ names

#[test]
fn international_card_names_keep_the_notation_in_files() {
    assert_eq!(lhombre::card_name(card("1E")), "A♠");
    assert_eq!(lhombre::card_name(card("12C")), "K♥");
    assert_eq!(lhombre::card_name(card("10O")), "J♦");
    assert_eq!(lhombre::card_name(card("11B")), "Q♣");
    assert_eq!(lhombre::suit_name(Suit::Bastos), "clubs");
    assert_eq!(card("1E").to_string(), "1E");
}
