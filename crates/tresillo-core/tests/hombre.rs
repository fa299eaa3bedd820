//! The `hombre` rule set (RULES.md section 12.3): one test per rule, named after
//! it, with hand-computed points and chips; then properties over random hands of
//! every option.
//!
//! It also runs perft from an obligation.

use crate::common;
use tresillo_core::Question;

use common::*;
use proptest::prelude::*;
use tresillo_core::*;

use Contract::{Contrabola, Entrada, Solo, Vuelta};

const HOMBRE: RuleSet = RuleSet::HOMBRE;

fn rules(opts: &[(&str, &str)]) -> Rules {
    Rules::parse("hombre", opts).unwrap()
}

fn hand_of(r: Rules, deal: &str, dealer: u8) -> Hand {
    Hand::with_rules(r, 3, Deal::parse(deal).unwrap(), Seat(dealer)).unwrap()
}

fn all_pass(h: &mut Hand) {
    for _ in 0..3 {
        ok(h, Decision::Bid(Bid::Paso));
    }
}

/// Seat 1 (mano, seat 0 deals) wins the auction at `level`.
fn seat1_wins(h: &mut Hand, level: u8) {
    ok(h, Decision::Bid(Bid::Level(level)));
    ok(h, Decision::Bid(Bid::Paso));
    ok(h, Decision::Bid(Bid::Paso));
}

/// The espada and the basto in the heap.
const ESPADA_IN_HEAP: &str = "3E 5E 7E 12E 6B 7B 1C 4C 4O / 2E 6E 10E 4B 2C 3C 7C 1O 2O / 3B 5B 10B 11B 6C 10C 11C 3O 11O / 12C 12O 6O 12B 11E 5O 1B 5C 7O 4E 10O 1E 2B";

// ------------------------------------------------------------ the rule set and its options

#[test]
fn hombre_is_a_rule_set_with_its_own_options_refused_elsewhere() {
    let r = rules(&[("show_heap", "true"), ("hombre-chips", "true"), ("ante", "3"), ("favorito", "true")]);
    assert_eq!(
        Rules::parse("hombre", &[("ante", "3")]).unwrap_err().to_string(),
        "rule option `ante` applies only with `hombre-chips`"
    );
    assert_eq!(r.set, HOMBRE);
    assert_eq!(r.to_string(), "hombre show_heap=true hombre-chips=true ante=3 favorito=true");
    assert_eq!(r.ante(), 3);
    assert_eq!(rules(&[]).ante(), 5);
    assert_eq!(rules(&[("hombre-chips", "true"), ("ante", "5")]), rules(&[("hombre-chips", "true")]));
    for (k, v) in [("show_heap", "true"), ("contrabola", "true"), ("gascarille", "true"), ("ante", "2")] {
        let e = Rules::parse("tresillo", &[(k, v)]).unwrap_err();
        assert!(matches!(e, RulesError::UnknownOption { .. }), "{e}");
    }
    let e = Rules::parse("hombre", &[("palo_de_favor", "oros")]).unwrap_err();
    assert!(e.to_string().contains("options of hombre: show_heap, hombre-chips, ante, favorito"), "{e}");
    for bad in ["-1", "1001", "x"] {
        let e = Rules::parse("hombre", &[("hombre-chips", "true"), ("ante", bad)]).unwrap_err();
        assert!(matches!(e, RulesError::BadValue { option: "ante", .. }), "{e}");
    }
    assert!(rules(&[]).check_players(4).is_err());
}

#[test]
fn hombre_auction_is_that_of_section_3_with_levels_simple_vuelta_solo() {
    let mut h = hand_of(HOMBRE.into(), MIXED, 0);
    assert_eq!(h.request(), Request::Bid { seat: Seat(1), min_level: 1, max_level: 3 });
    ok(&mut h, Decision::Bid(Bid::Level(1)));
    // A later player must bid higher; an earlier one may hold.
    assert_eq!(h.request(), Request::Bid { seat: Seat(2), min_level: 2, max_level: 3 });
    ok(&mut h, Decision::Bid(Bid::Level(2)));
    assert_eq!(h.request(), Request::Bid { seat: Seat(0), min_level: 3, max_level: 3 });
    ok(&mut h, Decision::Bid(Bid::Paso));
    assert_eq!(h.request(), Request::Bid { seat: Seat(1), min_level: 2, max_level: 3 });
}

// ------------------------------------------------------------ obligation

#[test]
fn hombre_all_pass_obligation_by_the_espada_holder_discards_all_but_one_draws_eight_then_names_trumps() {
    let mut h = hand_of(HOMBRE.into(), MIXED, 0); // the espada is with seat 0
    all_pass(&mut h);
    assert!(h.public().forced);
    assert_eq!(h.request(), Request::Discard { seat: Seat(0), min: 8, max: 8 });
    let nine = h.hand_of(Seat(0));
    assert!(matches!(rejected(&mut h, Decision::Discard(nine)), HandError::IllegalDiscard(_)));
    assert!(matches!(rejected(&mut h, Decision::Discard(cs("5E 7E"))), HandError::IllegalDiscard(_)));
    ok(&mut h, Decision::Discard(nine - cs("1E")));
    assert_eq!(h.hand_of(Seat(0)).len(), 9);
    assert_eq!(h.public().heap_left, 5);
    assert_eq!(h.request(), Request::Declare { seat: Seat(0), min_level: 1, forced: true });
    rejected(&mut h, Decision::Declare(Solo, Some(Suit::Oros)));
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Oros)));
    // Then the declarer's next opponent has the right to exchange first.
    assert_eq!(h.request(), Request::Ask { seat: Seat(1), question: Question::EXCHANGE_FIRST });
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert!(r.forced && !r.gascarille);
    assert_eq!(r.exchanged[Seat(0)], 8);
}

#[test]
fn hombre_all_pass_obligation_by_mano_when_the_espada_is_in_the_heap() {
    let mut h = hand_of(HOMBRE.into(), ESPADA_IN_HEAP, 1); // mano is seat 2
    all_pass(&mut h);
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 8, max: 8 });
    assert_eq!(h.public().declarer, Some(Seat(2)));
}

// ------------------------------------------------------------ exchange

#[test]
fn hombre_exchange_the_declarers_next_opponent_exchanges_first_up_to_eight() {
    let mut h = hand_of(HOMBRE.into(), MIXED, 0);
    seat1_wins(&mut h, 1);
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Copas)));
    assert_eq!(h.request(), Request::Discard { seat: Seat(1), min: 0, max: 9 });
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    assert_eq!(h.request(), Request::Ask { seat: Seat(2), question: Question::EXCHANGE_FIRST });
    ok(&mut h, Decision::Answer(Question::EXCHANGE_FIRST, true));
    assert_eq!((h.public().first_opponent, h.public().exchange_first), (Some(Seat(2)), Some(true)));
    // The first opponent: up to 8 although 13 are left.
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 0, max: 8 });
    let nine = h.hand_of(Seat(2));
    rejected(&mut h, Decision::Discard(nine));
    ok(&mut h, Decision::Discard(cs("3B 5B 10B 11B 6C 10C 11C 3O")));
    // The other: up to what is left.
    assert_eq!(h.request(), Request::Discard { seat: Seat(0), min: 0, max: 5 });
}

#[test]
fn hombre_exchange_right_passed_to_the_other_opponent_in_solo() {
    let mut h = hand_of(HOMBRE.into(), MIXED, 0);
    seat1_wins(&mut h, 3);
    ok(&mut h, Decision::Declare(Solo, Some(Suit::Copas)));
    // No exchange for the declarer of a solo.
    assert_eq!(h.request(), Request::Ask { seat: Seat(2), question: Question::EXCHANGE_FIRST });
    ok(&mut h, Decision::Answer(Question::EXCHANGE_FIRST, false));
    assert_eq!(h.public().first_opponent, Some(Seat(0)));
    assert_eq!(h.request(), Request::Discard { seat: Seat(0), min: 0, max: 8 });
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 0, max: 9 });
    // The decision is public: every view shows it.
    for s in 0..3 {
        assert_eq!(h.view(Seat(s)).public().exchange_first, Some(false));
    }
}

fn played_to_the_first_card(r: Rules) -> Hand {
    let mut h = hand_of(r, MIXED, 0);
    seat1_wins(&mut h, 1);
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Copas)));
    ok(&mut h, Decision::Discard(cs("2E 6E")));
    ok(&mut h, Decision::Answer(Question::EXCHANGE_FIRST, true));
    ok(&mut h, Decision::Discard(cs("3B 5B 10B")));
    ok(&mut h, Decision::Discard(cs("5E")));
    h
}

#[test]
fn hombre_show_heap_turns_the_rest_of_the_heap_face_up_in_every_view() {
    let mut h = played_to_the_first_card(rules(&[("show_heap", "true")]));
    let rest = h.heap_remaining();
    assert_eq!(rest.len(), 7);
    assert_eq!(h.public().shown_heap, rest);
    for s in 0..3 {
        assert!(h.view(Seat(s)).known_cards().is_superset(rest));
    }
    ok(&mut h, Decision::Answer(Question::DECLARE_VOLE, false));
    assert_eq!(h.view(Seat(2)).public().shown_heap, rest);
    // By default the heap stays hidden.
    let h = played_to_the_first_card(rules(&[]));
    assert_eq!(h.public().shown_heap, CardSet::EMPTY);
    assert!((h.view(Seat(2)).known_cards() & h.heap_remaining()).is_empty());
}

// ------------------------------------------------------------ surrender

/// Seat 1 declares `c` in copas (or vuelta), everybody exchanges nothing, the vole
/// is not declared, and three tricks are played by the lowest legal cards.
fn to_surrender(r: Rules, c: Contract) -> Hand {
    let mut h = hand_of(r, MIXED, 0);
    seat1_wins(&mut h, r.contract_level(c, Some(Suit::Copas)));
    ok(&mut h, Decision::Declare(c, if c == Vuelta { None } else { Some(Suit::Copas) }));
    auto_until(&mut h, |h| h.public().tricks_done == 3 || matches!(h.request(), Request::Discard { .. }));
    if c == Vuelta {
        let one = h.hand_of(Seat(1)).iter().take(1).collect();
        ok(&mut h, Decision::Discard(one));
    }
    auto_until(&mut h, |h| h.public().tricks_done == 3);
    h
}

#[test]
fn hombre_surrender_in_a_simple_game_either_opponent_in_turn_order_may_take_over() {
    let mut h = to_surrender(HOMBRE.into(), Entrada);
    assert_eq!(h.request(), Request::Ask { seat: Seat(1), question: Question::SURRENDER });
    ok(&mut h, Decision::Answer(Question::SURRENDER, true));
    assert_eq!(h.request(), Request::Ask { seat: Seat(2), question: Question::TAKE_OVER });
    ok(&mut h, Decision::Answer(Question::TAKE_OVER, false));
    assert_eq!(h.request(), Request::Ask { seat: Seat(0), question: Question::TAKE_OVER });
    ok(&mut h, Decision::Answer(Question::TAKE_OVER, true));
    assert_eq!(h.public().declarer, Some(Seat(0)));
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert_eq!(r.surrender, Some(SurrenderRecord { by: Seat(1), took_over: Some(Seat(0)) }));
}

#[test]
fn hombre_surrender_in_vuelta_needs_both_opponents_to_accept() {
    let mut h = to_surrender(HOMBRE.into(), Vuelta);
    ok(&mut h, Decision::Answer(Question::SURRENDER, true));
    assert_eq!(h.request(), Request::Ask { seat: Seat(2), question: Question::ACCEPT_SURRENDER });
    ok(&mut h, Decision::Answer(Question::ACCEPT_SURRENDER, true));
    assert_eq!(h.request(), Request::Ask { seat: Seat(0), question: Question::ACCEPT_SURRENDER });
    ok(&mut h, Decision::Answer(Question::ACCEPT_SURRENDER, true));
    let r = h.result().unwrap();
    assert_eq!(r.outcome, Outcome::Puesta { kind: PuestaKind::Surrendered });
    assert_eq!(r.surrender, Some(SurrenderRecord { by: Seat(1), took_over: None }));
}

#[test]
fn hombre_surrender_in_vuelta_refused_by_either_opponent_the_declarer_plays_on() {
    let mut h = to_surrender(HOMBRE.into(), Vuelta);
    ok(&mut h, Decision::Answer(Question::SURRENDER, true));
    ok(&mut h, Decision::Answer(Question::ACCEPT_SURRENDER, true));
    ok(&mut h, Decision::Answer(Question::ACCEPT_SURRENDER, false));
    assert_eq!(h.public().refused, Some(Seat(0)));
    assert!(matches!(h.request(), Request::Play { seat: Seat(_), .. }));
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert_eq!(r.surrender, None);
    assert_eq!(r.tricks.0.iter().sum::<u8>(), 9);
}

#[test]
fn hombre_surrender_never_in_solo() {
    let mut h = to_surrender(HOMBRE.into(), Solo);
    assert!(matches!(h.request(), Request::Play { .. }));
    assert_eq!(h.public().surrendered, None);
    auto_until(&mut h, |_| false);
}

// ------------------------------------------------------------ the vole

#[test]
fn hombre_declared_vole_is_asked_before_the_first_trick_and_commits_to_all_nine() {
    let mut h = played_to_the_first_card(HOMBRE.into());
    assert_eq!(h.request(), Request::Ask { seat: Seat(1), question: Question::DECLARE_VOLE });
    ok(&mut h, Decision::Answer(Question::DECLARE_VOLE, true));
    assert_eq!(h.public().bola, Some(true));
    // No surrender after the third trick, no question after five: nine tricks.
    auto_until(&mut h, |h| {
        matches!(
            h.request(),
            Request::Ask { question: Question::SURRENDER, .. }
                | Request::Ask { question: Question::BOLA, .. }
        )
    });
    assert!(h.is_done());
    let r = h.result().unwrap();
    assert!(r.vole_declared && r.bola_attempted);
    assert_eq!(r.tricks.0.iter().sum::<u8>(), 9);
}

#[test]
fn hombre_five_and_the_vole_as_section_6_the_declarer_decides_after_five_straight_tricks() {
    let mut h = hand_of(HOMBRE.into(), STRONG, 2); // seat 0 is mano
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Level(3)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Declare(Solo, Some(Suit::Espadas)));
    auto_until(&mut h, |h| matches!(h.request(), Request::Ask { question: Question::DECLARE_VOLE, .. }));
    ok(&mut h, Decision::Answer(Question::DECLARE_VOLE, false));
    auto_until(&mut h, |h| matches!(h.request(), Request::Ask { question: Question::BOLA, .. }));
    assert_eq!(h.request(), Request::Ask { seat: Seat(1), question: Question::BOLA });
    ok(&mut h, Decision::Answer(Question::BOLA, false));
    let r = h.result().unwrap();
    assert!(r.primeras && !r.vole_declared);
}

// ------------------------------------------------------------ options of play

#[test]
fn gascarille_the_others_may_make_the_espada_holder_play_it_after_all_pass() {
    let r = rules(&[("gascarille", "true")]);
    let mut h = hand_of(r, MIXED, 0); // seat 0 holds the espada
    all_pass(&mut h);
    assert_eq!(h.request(), Request::Ask { seat: Seat(1), question: Question::GASCARILLE });
    ok(&mut h, Decision::Answer(Question::GASCARILLE, false));
    assert_eq!(h.request(), Request::Ask { seat: Seat(2), question: Question::GASCARILLE });
    ok(&mut h, Decision::Answer(Question::GASCARILLE, true));
    assert_eq!(h.request(), Request::Discard { seat: Seat(0), min: 8, max: 8 });
    auto_until(&mut h, |_| false);
    let res = h.result().unwrap();
    assert!(res.gascarille && res.forced);
    // Nobody demands it: an obligation.
    let mut h = hand_of(r, MIXED, 0);
    all_pass(&mut h);
    ok(&mut h, Decision::Answer(Question::GASCARILLE, false));
    ok(&mut h, Decision::Answer(Question::GASCARILLE, false));
    auto_until(&mut h, |_| false);
    assert!(!h.result().unwrap().gascarille);
    // Not asked when mano must play because the espada is in the heap.
    let mut h = hand_of(r, ESPADA_IN_HEAP, 1);
    all_pass(&mut h);
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 8, max: 8 });
}

#[test]
fn favorito_coins_outrank_the_same_bid_in_another_suit() {
    let r = rules(&[("favorito", "true")]);
    assert_eq!(r.max_level(), 5);
    assert_eq!(r.contract_level(Entrada, Some(Suit::Copas)), 1);
    assert_eq!(r.contract_level(Entrada, Some(Suit::Oros)), 2);
    assert_eq!(r.contract_level(Vuelta, None), 3);
    assert_eq!(r.contract_level(Solo, Some(Suit::Espadas)), 4);
    assert_eq!(r.contract_level(Solo, Some(Suit::Oros)), 5);
    assert!(r.favoured(Some(Suit::Oros)) && !r.favoured(Some(Suit::Copas)));
    let mut h = hand_of(r, MIXED, 0);
    seat1_wins(&mut h, 2);
    rejected(&mut h, Decision::Declare(Entrada, Some(Suit::Copas)));
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Oros)));
}

#[test]
fn contrabola_ranks_just_below_solo_nobody_exchanges_and_the_declarer_must_lose_every_trick() {
    let r = rules(&[("contrabola", "true")]);
    assert_eq!(r.max_level(), 4);
    assert_eq!(r.contract_level(Contrabola, Some(Suit::Copas)), 3);
    assert_eq!(r.contract_level(Solo, Some(Suit::Copas)), 4);
    assert!(!Rules::from(HOMBRE).has_contract(Contrabola));
    let mut h = hand_of(r, MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Level(3)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    // Seat 2 holds no sword: it cannot name swords; nor a contract below the level.
    rejected(&mut h, Decision::Declare(Contrabola, Some(Suit::Espadas)));
    rejected(&mut h, Decision::Declare(Vuelta, None));
    let legal = h.request().legal_decisions_in(&r, h.hand_of(Seat(2)));
    assert!(!legal.contains(&Decision::Declare(Contrabola, Some(Suit::Espadas))));
    assert!(legal.contains(&Decision::Declare(Contrabola, Some(Suit::Bastos))));
    ok(&mut h, Decision::Declare(Contrabola, Some(Suit::Bastos)));
    // Nobody exchanges, no vole: straight to the first card.
    assert!(matches!(h.request(), Request::Play { seat: Seat(1), .. }));
    auto_until(&mut h, |_| false);
    let res = h.result().unwrap();
    assert_eq!(res.exchanged, BySeat::default());
    let expected =
        if res.tricks[Seat(2)] == 0 { Outcome::Sacado } else { Outcome::Puesta { kind: PuestaKind::Plain } };
    assert_eq!(res.outcome, expected);
    assert_eq!(res.tricks.0.iter().sum::<u8>(), 9);
    // The same auction without the option: no contrabola.
    let mut h = hand_of(HOMBRE.into(), MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Level(1)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    rejected(&mut h, Decision::Declare(Contrabola, Some(Suit::Bastos)));
}

// ------------------------------------------------------------ points

/// A result of `hombre` with `opts`: `declarer` played `contract` (dealt by
/// `dealer`) with these tricks.
fn hr(opts: &[(&str, &str)], dealer: u8, declarer: u8, c: Contract, tricks: &[u8]) -> HandResult {
    let mut r = table_result(3, Seat(dealer), Seat(declarer), c, tricks);
    let rules = rules(opts);
    r.rules = rules.set;
    r.options = rules.options;
    r.trump = Some(Suit::Copas);
    r
}

fn points(deals: u32) -> PointsLedger {
    let mut c = LedgerConfig::with_rules(HOMBRE.into(), 3);
    c.deals = deals;
    PointsLedger::new(c).unwrap()
}

/// Each seat's change of points.
fn pts(l: &mut PointsLedger, r: &HandResult) -> [i64; 3] {
    let s = l.apply(r).unwrap();
    std::array::from_fn(|i| s.total(Seat(i as u8)))
}

#[test]
fn points_base_values_obligation_1_simple_2_vuelta_3_solo_5() {
    let mut l = points(0);
    assert_eq!(pts(&mut l, &hr(&[], 0, 1, Entrada, &[2, 5, 2])), [0, 2, 0]);
    assert_eq!(pts(&mut l, &hr(&[], 1, 0, Vuelta, &[5, 2, 2])), [3, 0, 0]);
    assert_eq!(pts(&mut l, &hr(&[], 2, 2, Solo, &[2, 2, 5])), [0, 0, 5]);
    let mut ob = hr(&[], 0, 1, Entrada, &[2, 5, 2]);
    ob.forced = true;
    assert_eq!(pts(&mut l, &ob), [0, 1, 0]);
    assert_eq!(l.scores(), &[3, 3, 5]);
    assert_eq!(hombre_base(&ob), 1);
}

#[test]
fn points_cuatro_won_4_3_2_doubles() {
    let mut l = points(0);
    assert_eq!(pts(&mut l, &hr(&[], 0, 1, Entrada, &[3, 4, 2])), [0, 4, 0]);
    assert_eq!(pts(&mut l, &hr(&[], 1, 1, Vuelta, &[2, 4, 3])), [0, 6, 0]);
    // 4-4-1 is no win; 5-2-2 no cuatro.
    assert_eq!(pts(&mut l, &hr(&[], 2, 1, Entrada, &[2, 5, 2])), [0, 2, 0]);
}

#[test]
fn points_primeras_doubles_vole_x4_declared_vole_x8() {
    let mut l = points(0);
    let mut r = hr(&[], 0, 1, Entrada, &[0, 5, 0]);
    r.primeras = true;
    assert_eq!(pts(&mut l, &r), [0, 4, 0]);
    let mut r = hr(&[], 1, 1, Entrada, &[0, 9, 0]);
    r.bola_attempted = true;
    r.bola_made = true;
    assert_eq!(pts(&mut l, &r), [0, 8, 0]);
    let mut r = hr(&[], 2, 1, Vuelta, &[0, 9, 0]);
    (r.bola_attempted, r.bola_made, r.vole_declared) = (true, true, true);
    assert_eq!(pts(&mut l, &r), [0, 24, 0]);
}

#[test]
fn points_failed_vole_undeclared_is_won_then_loses_base_x4_declared_loses_base_x8() {
    let mut l = points(0);
    let mut r = hr(&[], 0, 1, Vuelta, &[1, 7, 1]);
    r.bola_attempted = true;
    assert_eq!(pts(&mut l, &r), [0, 3 - 12, 0]);
    assert_eq!(l.pot(), 0);
    let mut r = hr(&[], 1, 1, Entrada, &[1, 7, 1]);
    (r.bola_attempted, r.vole_declared) = (true, true);
    assert_eq!(pts(&mut l, &r), [0, -16, 0]);
    assert_eq!(l.pot(), 0, "no pot entry without a puesta");
    // A declared vole that ends in a puesta puts its x8 in the pot.
    let mut r = hr(&[], 2, 1, Entrada, &[3, 3, 3]);
    (r.bola_attempted, r.vole_declared) = (true, true);
    assert_eq!(pts(&mut l, &r), [0, -16, 0]);
    assert_eq!(l.pot(), 16);
}

#[test]
fn points_a_puesta_goes_to_the_pot_a_codillo_to_the_winner() {
    let mut l = points(0);
    assert_eq!(pts(&mut l, &hr(&[], 0, 1, Vuelta, &[3, 3, 3])), [0, -3, 0]);
    assert_eq!(l.pot(), 3);
    assert_eq!(pts(&mut l, &hr(&[], 1, 1, Entrada, &[5, 2, 2])), [2, -2, 0]);
    assert_eq!(l.pot(), 3);
}

#[test]
fn points_the_pot_goes_to_the_next_winner_of_a_solo_or_the_vole() {
    let mut l = points(0);
    pts(&mut l, &hr(&[], 0, 1, Entrada, &[4, 4, 1]));
    assert_eq!(l.pot(), 2);
    // A simple game or a vuelta won does not take it.
    assert_eq!(pts(&mut l, &hr(&[], 1, 2, Vuelta, &[2, 2, 5])), [0, 0, 3]);
    assert_eq!(l.pot(), 2);
    // A solo does.
    assert_eq!(pts(&mut l, &hr(&[], 2, 0, Solo, &[5, 2, 2])), [7, 0, 0]);
    assert_eq!(l.pot(), 0);
    // So does the vole in a simple game.
    pts(&mut l, &hr(&[], 0, 1, Entrada, &[3, 3, 3]));
    let mut r = hr(&[], 1, 2, Entrada, &[0, 0, 9]);
    (r.bola_attempted, r.bola_made) = (true, true);
    assert_eq!(pts(&mut l, &r), [0, 0, 8 + 2]);
}

#[test]
fn points_end_of_session_the_pot_goes_to_the_last_winner_or_is_shared_by_the_puestas_opponents() {
    // The last hand won: its declarer takes the pot.
    let mut l = points(2);
    pts(&mut l, &hr(&[], 0, 1, Vuelta, &[3, 3, 3]));
    assert_eq!(pts(&mut l, &hr(&[], 1, 0, Entrada, &[5, 2, 2])), [2 + 3, 0, 0]);
    assert!(l.is_over());
    assert!(matches!(l.apply(&hr(&[], 2, 0, Entrada, &[5, 2, 2])), Err(ScoringError::SessionOver(2))));
    // Lost by codillo: the winner takes it.
    let mut l = points(2);
    pts(&mut l, &hr(&[], 0, 1, Vuelta, &[3, 3, 3]));
    assert_eq!(pts(&mut l, &hr(&[], 1, 0, Entrada, &[2, 5, 2])), [-2, 2 + 3, 0]);
    // A puesta: shared by its two opponents, the odd point to the earlier in turn
    // order from mano. Pot 2 + 3 = 5; seat 1 deals, mano is seat 2 (the
    // declarer), then seat 0: seat 0 gets 3, seat 1 gets 2.
    let mut l = points(2);
    pts(&mut l, &hr(&[], 0, 1, Entrada, &[3, 3, 3]));
    assert_eq!(pts(&mut l, &hr(&[], 1, 2, Vuelta, &[4, 4, 1])), [3, 2, -3]);
    assert_eq!(l.scores(), &[3, 0, -3]);
    assert_eq!(l.pot(), 0);
}

#[test]
fn points_takeover_is_scored_for_the_new_declarer_and_the_original_loses_the_base() {
    let mut l = points(0);
    let mut r = hr(&[], 0, 1, Entrada, &[2, 2, 5]);
    r.surrender = Some(SurrenderRecord { by: Seat(1), took_over: Some(Seat(2)) });
    r.outcome = Outcome::Sacado; // for seat 2, the new declarer
    assert_eq!(pts(&mut l, &r), [0, -2, 2]);
    assert_eq!(l.pot(), 2);
    // Surrender without takeover: a puesta.
    let mut r = hr(&[], 1, 1, Entrada, &[1, 1, 1]);
    r.surrender = Some(SurrenderRecord { by: Seat(1), took_over: None });
    r.outcome = Outcome::Puesta { kind: PuestaKind::Surrendered };
    assert_eq!(pts(&mut l, &r), [0, -2, 0]);
    assert_eq!(l.pot(), 4);
}

#[test]
fn points_favorito_coins_score_double() {
    let o = [("favorito", "true")];
    let mut l = PointsLedger::new(LedgerConfig::with_rules(rules(&o), 3)).unwrap();
    let mut r = hr(&o, 0, 1, Entrada, &[2, 5, 2]);
    r.trump = Some(Suit::Oros);
    assert_eq!(pts(&mut l, &r), [0, 4, 0]);
    assert_eq!(pts(&mut l, &hr(&o, 1, 1, Entrada, &[2, 5, 2])), [0, 2, 0]);
    let mut r = hr(&o, 2, 1, Solo, &[3, 3, 3]);
    r.trump = Some(Suit::Oros);
    assert_eq!(pts(&mut l, &r), [0, -10, 0]);
    assert_eq!(l.pot(), 10);
}

#[test]
fn points_gascarille_is_worth_3_and_contrabola_as_a_simple_game() {
    let o = [("gascarille", "true"), ("contrabola", "true")];
    let mut l = PointsLedger::new(LedgerConfig::with_rules(rules(&o), 3)).unwrap();
    let mut r = hr(&o, 0, 1, Entrada, &[2, 5, 2]);
    (r.forced, r.gascarille) = (true, true);
    assert_eq!(pts(&mut l, &r), [0, 3, 0]);
    let mut r = hr(&o, 1, 1, Contrabola, &[4, 0, 5]);
    r.outcome = Outcome::Sacado;
    assert_eq!(pts(&mut l, &r), [0, 2, 0]);
    let mut r = hr(&o, 2, 1, Contrabola, &[4, 1, 4]);
    r.outcome = Outcome::Puesta { kind: PuestaKind::Plain };
    assert_eq!(pts(&mut l, &r), [0, -2, 0]);
    assert_eq!(l.pot(), 2);
    // A contrabola's outcome follows its own rule, not section 7.
    let mut r = hr(&o, 0, 1, Contrabola, &[4, 0, 5]);
    r.outcome = Outcome::Codillo { winner: Seat(2) };
    assert!(matches!(l.apply(&r), Err(ScoringError::OutcomeMismatch { .. })));
}

#[test]
fn points_and_puesta_ledgers_refuse_each_others_rule_sets() {
    assert!(matches!(
        Ledger::new(LedgerConfig::with_rules(HOMBRE.into(), 3)),
        Err(ScoringError::System { .. })
    ));
    assert!(PointsLedger::new(LedgerConfig::default()).is_err());
    assert!(ChipsLedger::new(LedgerConfig::with_rules(HOMBRE.into(), 3)).is_err());
    let chips = LedgerConfig::with_rules(rules(&[("hombre-chips", "true")]), 3);
    assert!(Scorer::new(ScoringMode::Session, chips).unwrap().chips().is_some());
    let pts = LedgerConfig::with_rules(HOMBRE.into(), 3);
    let s = Scorer::new(ScoringMode::Deal, pts).unwrap();
    assert!(s.points().is_some() && s.ledger().is_none() && s.settle().is_none());
}

// ------------------------------------------------------------ chips

const CHIPS: [(&str, &str); 1] = [("hombre-chips", "true")];

fn chips(opts: &[(&str, &str)]) -> ChipsLedger {
    ChipsLedger::new(LedgerConfig::with_rules(rules(opts), 3)).unwrap()
}

fn ch(l: &mut ChipsLedger, r: &HandResult) -> [i64; 3] {
    let before = l.tokens();
    let s = l.apply(r).unwrap();
    assert_eq!(l.tokens(), before, "chips are conserved");
    std::array::from_fn(|i| s.total(Seat(i as u8)))
}

#[test]
fn chips_won_game_takes_the_pool_and_each_opponent_pays_the_contract() {
    let mut l = chips(&CHIPS);
    // Dealer 0 antes 5; seat 1 wins a simple game: the pool and 5 from each.
    assert_eq!(ch(&mut l, &hr(&CHIPS, 0, 1, Entrada, &[2, 5, 2])), [-10, 15, -5]);
    assert_eq!(l.pool(), 0);
    assert_eq!(ch(&mut l, &hr(&CHIPS, 1, 0, Vuelta, &[5, 2, 2])), [5 + 14, -5 - 7, -7]);
    assert_eq!(ch(&mut l, &hr(&CHIPS, 2, 0, Solo, &[5, 2, 2])), [5 + 30, -15, -5 - 15]);
    let mut ob = hr(&CHIPS, 0, 1, Entrada, &[2, 5, 2]);
    ob.forced = true;
    assert_eq!(ch(&mut l, &ob), [-10, 15, -5]);
    let mut r = hr(&CHIPS, 1, 1, Entrada, &[0, 5, 0]);
    r.primeras = true;
    assert_eq!(ch(&mut l, &r), [-6, 12, -6]); // the dealer antes 5 and takes it back with the pool
    let mut r = hr(&CHIPS, 2, 1, Entrada, &[0, 9, 0]);
    (r.bola_attempted, r.bola_made) = (true, true);
    assert_eq!(ch(&mut l, &r), [-30, 5 + 60, -5 - 30]);
}

#[test]
fn chips_gascarille_pays_3() {
    let o = [("hombre-chips", "true"), ("gascarille", "true")];
    let mut l = chips(&o);
    let mut r = hr(&o, 0, 1, Entrada, &[2, 5, 2]);
    (r.forced, r.gascarille) = (true, true);
    assert_eq!(ch(&mut l, &r), [-8, 11, -3]);
}

#[test]
fn chips_puesta_pays_the_pool_plus_5_each_into_the_pool_codillo_to_the_winner() {
    let mut l = chips(&CHIPS);
    assert_eq!(ch(&mut l, &hr(&CHIPS, 0, 1, Entrada, &[3, 3, 3])), [-5, -15, 0]);
    assert_eq!(l.pool(), 20);
    // Pool 20 + 5 ante = 25; codillo: 25 + 10 to the winner, the pool stays.
    assert_eq!(ch(&mut l, &hr(&CHIPS, 1, 1, Vuelta, &[5, 2, 2])), [35, -5 - 35, 0]);
    assert_eq!(l.pool(), 25);
}

#[test]
fn chips_estuches_count_the_declarers_unbroken_top_trumps() {
    let mut l = chips(&CHIPS);
    let mut r = hr(&CHIPS, 0, 1, Solo, &[2, 5, 2]);
    r.trump = Some(Suit::Espadas);
    // Espadas trumps: espada, mala (2E), basto, 12E, 11E...; the declarer holds the
    // first four, not 11E: 4 estuches.
    r.hands_at_play = Some(BySeat([
        cs("11E 3E 4E 5E 6E 7E 10E 1C 2C"),
        cs("1E 2E 1B 12E 3C 4C 5C 6C 7C"),
        cs("2B 3B 4B 5B 6B 7B 10B 11B 12B"),
        CardSet::EMPTY,
    ]));
    assert_eq!(estuches(&r, Seat(1)), 4);
    assert_eq!(ch(&mut l, &r), [-5 - 19, 5 + 38, -19]);
    // A puesta: the declarer also pays each opponent the estuches.
    let mut p = r.clone();
    p.dealer = Seat(1);
    p.tricks = BySeat([3, 3, 3, 0]);
    p.outcome = Outcome::Puesta { kind: PuestaKind::Sabia };
    assert_eq!(ch(&mut l, &p), [4, -5 - 15 - 8, 4]);
}

#[test]
fn chips_estuches_of_the_opponents_when_the_declarer_held_none() {
    let mut r = hr(&CHIPS, 0, 1, Entrada, &[2, 5, 2]);
    r.trump = Some(Suit::Espadas);
    r.hands_at_play = Some(BySeat([
        cs("1E 1B 3E 4E 5E 6E 7E 1C 2C"),
        cs("10E 11E 3C 4C 5C 6C 7C 1O 2O"),
        cs("2E 12E 2B 3B 4B 5B 6B 7B 12B"),
        CardSet::EMPTY,
    ]));
    // The opponents hold espada, mala, basto, 12E together, and not 11E: 4.
    assert_eq!(estuches(&r, Seat(1)), 4);
    // Fewer than three in sequence count nothing.
    r.hands_at_play.as_mut().unwrap().0[0] = cs("1E 11B 3E 4E 5E 6E 7E 1C 2C");
    r.hands_at_play.as_mut().unwrap().0[2] = cs("2E 12E 2B 3B 4B 5B 6B 7B 1B");
    r.hands_at_play.as_mut().unwrap().0[1] = cs("10E 11E 3C 4C 5C 6C 7C 1O 12B");
    assert_eq!(estuches(&r, Seat(1)), 4);
    r.hands_at_play.as_mut().unwrap().0[1] = cs("10E 12E 3C 4C 5C 6C 7C 1O 12B");
    r.hands_at_play.as_mut().unwrap().0[2] = cs("2E 11E 2B 3B 4B 5B 6B 7B 1B");
    assert_eq!(estuches(&r, Seat(0)), 0, "seat 0 holds the espada but not the mala");
}

#[test]
fn chips_primeras_of_the_opponents_is_paid_on_a_puesta() {
    let mut l = chips(&CHIPS);
    let mut r = hr(&CHIPS, 0, 1, Entrada, &[4, 1, 4]);
    r.trick_winners = [0, 2, 0, 2, 0, 1, 0, 2, 2].into_iter().map(Seat).collect();
    assert_eq!(ch(&mut l, &r), [-5 + 1, -15 - 2, 1]);
}

#[test]
fn chips_failed_vole_is_paid_as_won_then_30_less_2_in_vuelta_less_estuches_to_each() {
    let mut l = chips(&CHIPS);
    let mut r = hr(&CHIPS, 0, 1, Vuelta, &[1, 7, 1]);
    r.bola_attempted = true;
    assert_eq!(ch(&mut l, &r), [-5 - 7 + 28, 5 + 14 - 56, -7 + 28]);
    let mut r = hr(&CHIPS, 1, 1, Solo, &[1, 7, 1]);
    r.bola_attempted = true;
    assert_eq!(ch(&mut l, &r), [-15 + 20, 5 + 30 - 40 - 5, -15 + 20]);
}

#[test]
fn chips_surrender_is_a_puesta_with_the_estuches_and_a_takeover_pays_both() {
    let mut l = chips(&CHIPS);
    let mut r = hr(&CHIPS, 0, 1, Entrada, &[1, 1, 1]);
    r.surrender = Some(SurrenderRecord { by: Seat(1), took_over: None });
    r.outcome = Outcome::Puesta { kind: PuestaKind::Surrendered };
    r.trump = Some(Suit::Espadas);
    r.hands_at_play = Some(BySeat([
        cs("11E 3E 4E 5E 6E 7E 10E 1C 2C"),
        cs("1E 2E 1B 3C 4C 5C 6C 7C 1O"),
        cs("2B 3B 4B 5B 6B 7B 10B 11B 12B"),
        CardSet::EMPTY,
    ]));
    // Pool 5 + 10 into the pool; espada, mala, basto: 3 to each.
    assert_eq!(ch(&mut l, &r), [-5 + 3, -15 - 6, 3]);
    assert_eq!(l.pool(), 20);
    // Seat 0 gives up, seat 1 takes over and wins: seat 1 takes the pool (20 + 5)
    // and 5 from each, then seat 0 pays the pool (0) + 10 into it.
    let mut r = hr(&CHIPS, 1, 0, Entrada, &[2, 5, 2]);
    r.surrender = Some(SurrenderRecord { by: Seat(0), took_over: Some(Seat(1)) });
    r.outcome = Outcome::Sacado;
    assert_eq!(ch(&mut l, &r), [-5 - 10, -5 + 25 + 10, -5]);
    assert_eq!(l.pool(), 10);
}

#[test]
fn chips_ante_is_an_option() {
    let o = [("hombre-chips", "true"), ("ante", "2")];
    let mut l = chips(&o);
    assert_eq!(ch(&mut l, &hr(&o, 0, 1, Entrada, &[3, 3, 3])), [-2, -12, 0]);
    assert_eq!(l.pool(), 14);
}

#[test]
fn chips_favorito_doubles_the_payments_in_coins() {
    let o = [("hombre-chips", "true"), ("favorito", "true")];
    let mut l = chips(&o);
    let mut r = hr(&o, 0, 1, Entrada, &[2, 5, 2]);
    r.trump = Some(Suit::Oros);
    assert_eq!(ch(&mut l, &r), [-15, 25, -10]);
}

// ------------------------------------------------------------ properties

fn every_option() -> Vec<Rules> {
    let mut v = vec![rules(&[])];
    for o in ["show_heap", "hombre-chips", "favorito", "gascarille", "contrabola"] {
        v.push(rules(&[(o, "true")]));
    }
    v.push(rules(&[
        ("hombre-chips", "true"),
        ("gascarille", "true"),
        ("contrabola", "true"),
        ("favorito", "true"),
    ]));
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random legal decisions under every option: every legal decision is
    /// accepted and legal cards are in the hand; the 40 cards are conserved (hands,
    /// discards, heap, played); views hold only the seat's own cards, plus the
    /// shown heap after the exchange; nine tricks are played unless the hand ends
    /// early by primeras or a surrender; the hand is never cancelled; and the
    /// rule set's ledger scores a session of such hands.
    #[test]
    fn hombre_hands_conserve_cards_hide_hands_and_are_scored(seed in any::<u64>(), picks in proptest::collection::vec(any::<u16>(), 120), ri in 0usize..7) {
        let r = every_option()[ri];
        let mut scorer = Scorer::new(ScoringMode::Session, LedgerConfig::with_rules(r, 3)).unwrap();
        for i in 0..3u64 {
            let mut h = Hand::with_rules(r, 3, deal_from(seed.wrapping_add(i)), Seat((i % 3) as u8)).unwrap();
            let mut k = 0;
            while !h.is_done() {
                let seat = h.request().seat().unwrap();
                let view = h.view(seat);
                prop_assert_eq!(view.hand(), h.hand_of(seat));
                if let Request::Play { legal, .. } = view.request() {
                    prop_assert!(view.hand().is_superset(legal) && !legal.is_empty());
                }
                let shown = h.public().shown_heap;
                prop_assert!(shown.is_empty() || shown == h.heap_remaining());
                prop_assert_eq!(view.known_cards(), view.hand() | view.discards() | h.public().played() | shown | h.public().turned.map_or(CardSet::EMPTY, CardSet::single));
                for o in 0..3u8 {
                    if Seat(o) != seat {
                        let turned = h.public().turned.map_or(CardSet::EMPTY, CardSet::single);
                        prop_assert!(((view.known_cards() - turned) & h.hand_of(Seat(o))).is_empty());
                    }
                }
                let mut all = h.heap_remaining() | h.public().played();
                let mut n = h.heap_remaining().len() + h.public().plays().len() as u32;
                for s in 0..3u8 {
                    all |= h.hand_of(Seat(s)) | h.discards_of(Seat(s));
                    n += h.hand_of(Seat(s)).len() + h.discards_of(Seat(s)).len();
                }
                prop_assert_eq!((all, n), (CardSet::FULL, 40));
                let legal = view.legal_decisions();
                prop_assert!(!legal.is_empty());
                let d = legal[picks[k % picks.len()] as usize % legal.len()];
                prop_assert!(h.apply(d).is_ok(), "{:?} rejected", d);
                k += 1;
            }
            let res = h.result().unwrap();
            prop_assert!(!res.is_cancelled());
            let tricks: u8 = res.tricks.0.iter().sum();
            let early = res.primeras || res.surrender.is_some_and(|s| s.took_over.is_none());
            prop_assert!(tricks == 9 || early, "{} tricks", tricks);
            let s = scorer.apply(&res);
            prop_assert!(s.is_ok(), "{}: {:?}", r, s);
            if let Some(c) = scorer.chips() {
                prop_assert_eq!(c.tokens(), 3 * 160);
            }
        }
    }
}

/// The card play of `hombre` is that of section 5: from the first trick of an
/// obligation, the fast perft equals the reference perft written from the rule
/// text.
#[test]
fn perft_from_a_hombre_obligation_matches_the_reference() {
    let mut h = hand_of(HOMBRE.into(), MIXED, 0);
    all_pass(&mut h);
    let eight = h.hand_of(Seat(0)) - cs("1E");
    ok(&mut h, Decision::Discard(eight));
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Bastos)));
    ok(&mut h, Decision::Answer(Question::EXCHANGE_FIRST, true));
    ok(&mut h, Decision::Discard(cs("2C 3C")));
    ok(&mut h, Decision::Discard(cs("6C")));
    ok(&mut h, Decision::Answer(Question::DECLARE_VOLE, false));
    let mut ps = h.play_state().unwrap();
    let p = h.public();
    let hands: [Vec<Card>; 3] = std::array::from_fn(|s| h.hand_of(Seat(s as u8)).iter().collect());
    let leader = p.current_leader().index();
    for depth in 1..=5 {
        assert_eq!(
            ps.perft(depth),
            reference_perft(hands.clone(), p.trump.unwrap(), leader, depth),
            "{depth}"
        );
    }
}

/// Three `hombre` positions at the first card, reached by fixed decisions (an
/// obligation, a solo after the exchange right was passed, a contrabola), as
/// `(hands, trump, leader)`.
fn hombre_positions() -> Vec<(BySeat<CardSet>, Suit, u8)> {
    let mut out = Vec::new();
    let mut h = hand_of(HOMBRE.into(), MIXED, 0);
    all_pass(&mut h);
    let eight = h.hand_of(Seat(0)) - cs("1E");
    ok(&mut h, Decision::Discard(eight));
    ok(&mut h, Decision::Declare(Entrada, Some(Suit::Bastos)));
    auto_until(&mut h, |h| matches!(h.request(), Request::Play { .. }));
    let mut s = hand_of(rules(&[("show_heap", "true")]), STRONG, 2);
    ok(&mut s, Decision::Bid(Bid::Paso));
    ok(&mut s, Decision::Bid(Bid::Level(3)));
    ok(&mut s, Decision::Bid(Bid::Paso));
    ok(&mut s, Decision::Declare(Solo, Some(Suit::Espadas)));
    ok(&mut s, Decision::Answer(Question::EXCHANGE_FIRST, false));
    auto_until(&mut s, |h| matches!(h.request(), Request::Play { .. }));
    let mut c = hand_of(rules(&[("contrabola", "true")]), MIXED, 0);
    ok(&mut c, Decision::Bid(Bid::Paso));
    ok(&mut c, Decision::Bid(Bid::Level(3)));
    ok(&mut c, Decision::Bid(Bid::Paso));
    ok(&mut c, Decision::Declare(Contrabola, Some(Suit::Bastos)));
    for x in [h, s, c] {
        let p = x.public();
        let hands =
            BySeat(std::array::from_fn(|i| if i < 3 { x.hand_of(Seat(i as u8)) } else { CardSet::EMPTY }));
        out.push((hands, p.trump.unwrap(), p.current_leader().0));
    }
    out
}

/// Perft data of `hombre` positions (`data/perft_hombre.txt`, from the reference
/// perft; regenerate with `cargo test -p tresillo-core --test suite -- --ignored
/// --nocapture hombre::generate_hombre_perft`): the fast perft reproduces every count, and
/// the positions are the ones the hand reaches.
#[test]
fn perft_of_hombre_positions_matches_the_data_file() {
    let positions = hombre_positions();
    let mut n = 0;
    for line in include_str!("data/perft_hombre.txt").lines().filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let deal = Deal::parse_partial(f[0]).unwrap();
        let (trump, leader) = (parse_suit(f[1]).unwrap(), f[2].parse::<u8>().unwrap());
        let (depth, count) = (f[3].parse::<u32>().unwrap(), f[4].parse::<u64>().unwrap());
        assert!(
            positions.iter().any(|(h, t, l)| h.0[..3] == deal.hands.0[..3] && *t == trump && *l == leader),
            "{line}"
        );
        let h = deal.hands.0;
        assert_eq!(
            PlayState::new([h[0], h[1], h[2]], Some(trump), Seat(leader)).perft(depth),
            count,
            "{line}"
        );
        n += 1;
    }
    assert_eq!(n, 6);
}

#[test]
#[ignore = "generator for data/perft_hombre.txt"]
fn generate_hombre_perft() {
    println!("# deal | trump | leader | depth (plies) | legal play sequences (hombre positions)");
    for (hands, trump, leader) in hombre_positions() {
        let v: [Vec<Card>; 3] = std::array::from_fn(|s| hands.0[s].iter().collect());
        for depth in [3, 6] {
            let n = reference_perft(v.clone(), trump, leader as usize, depth);
            println!(
                "{} / {} / {} | {} | {leader} | {depth} | {n}",
                hands.0[0],
                hands.0[1],
                hands.0[2],
                trump.name()
            );
        }
    }
}
