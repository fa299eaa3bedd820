//! The puesta system of RULES.md section 8, rule by rule, with numbers computed by
//! hand; then properties over random sessions.

use proptest::prelude::*;
use tresillo_core::{
    AipCase, BySeat, Contract, Debt, HandResult, HandScore, Ledger, LedgerConfig, Outcome, PuestaKind,
    Scorer, ScoringError, ScoringMode, Seat, SurrenderRecord, cancelled_result, outcome_of, score_deal,
    table_result,
};

use Contract::{Entrada, Solo, Vuelta};

fn ledger(n: u8) -> Ledger {
    Ledger::new(LedgerConfig::new(n)).unwrap()
}

/// `declarer` plays `contract`, `dealer` dealing, with these tricks.
fn hand(n: u8, dealer: u8, declarer: u8, contract: Contract, tricks: &[u8]) -> HandResult {
    table_result(n, Seat(dealer), Seat(declarer), contract, tricks)
}

/// The declarer gives up; `took_over` takes over (or nobody) and the tricks are as given.
fn surrender(mut r: HandResult, took_over: Option<u8>) -> HandResult {
    let by = r.declarer.unwrap();
    r.surrender = Some(SurrenderRecord { by, took_over: took_over.map(Seat) });
    r.outcome = match took_over {
        None => Outcome::Puesta { kind: PuestaKind::Surrendered },
        Some(o) => outcome_of(r.table(), r.dealer, Seat(o), false, &r.tricks),
    };
    r
}

fn apply(l: &mut Ledger, r: &HandResult) -> HandScore {
    let before = l.tokens();
    let s = l.apply(r).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    assert_eq!(l.tokens(), before, "tokens are conserved");
    s
}

fn seats<T: Copy>(v: BySeat<T>, n: usize) -> Vec<T> {
    v.0[..n].to_vec()
}

fn debt(owner: u8, amount: i64, hand: u32) -> Debt {
    Debt { owner: Seat(owner), amount, hand }
}

// ---------------------------------------------------------------- the session

#[test]
fn a_new_ledger_puts_one_pajarito_of_each_bowl_in_the_dish() {
    let l = ledger(3);
    assert_eq!(l.bowls(), &[155, 155, 155]);
    assert_eq!((l.plato(), l.plato_has_failure(), l.pajaritos()), (0, false, 15));
    assert!(l.paper().is_empty());
    assert_eq!(l.tokens(), 480);
    assert_eq!((l.next_case(), l.next_aip()), (AipCase::FirstPuesta, 5 + 1 + 3));

    let l = ledger(4);
    assert_eq!(l.bowls(), &[155, 155, 155, 155]);
    assert_eq!((l.pajaritos(), l.tokens(), l.next_aip()), (20, 640, 5 + 1 + 4));
}

#[test]
fn only_three_or_four_players() {
    assert_eq!(Ledger::new(LedgerConfig::new(2)), Err(ScoringError::Players(2)));
    assert_eq!(Ledger::new(LedgerConfig::new(5)).unwrap_err(), ScoringError::Players(5));
    let cfg = LedgerConfig { start_bowl: 100, pajarito: 10, ..LedgerConfig::new(3) };
    let l = Ledger::new(cfg).unwrap();
    assert_eq!((l.bowls(), l.pajaritos()), (&[90, 90, 90][..], 30));
}

#[test]
fn before_the_deal_a_pajarito_goes_to_an_empty_plato_then_the_dealers_tanto() {
    let mut l = ledger(3);
    let s = apply(&mut l, &cancelled_result(3, Seat(0)));
    assert_eq!((l.plato(), l.pajaritos(), l.bowls()), (6, 10, &[154, 155, 155][..]));
    assert_eq!(seats(s.pool, 3), [-1, 0, 0]);
    assert_eq!((s.case, s.aip), (AipCase::FirstPuesta, 9));
    assert!(!l.plato_has_failure(), "the dealers' tantos are no failure payment");
    // The plato is not empty: no pajarito, only the tanto.
    let s = apply(&mut l, &cancelled_result(3, Seat(1)));
    assert_eq!((l.plato(), l.pajaritos(), l.bowls()), (7, 10, &[154, 154, 155][..]));
    assert_eq!(s.aip, 10);
}

#[test]
fn the_dish_is_refilled_at_once_by_every_player() {
    let mut l = ledger(3);
    apply(&mut l, &hand(3, 0, 1, Entrada, &[2, 5, 2]));
    assert_eq!(l.pajaritos(), 10);
    apply(&mut l, &hand(3, 1, 2, Entrada, &[2, 2, 5]));
    assert_eq!(l.pajaritos(), 5);
    // The third pajarito empties the dish: everyone puts in 5 at once.
    let s = apply(&mut l, &hand(3, 2, 0, Entrada, &[5, 2, 2]));
    assert_eq!(l.pajaritos(), 15);
    assert_eq!(seats(s.pool, 3), [-5 + 6 + 2, -5 - 1, -5 - 1 - 1]);

    // Four players: four pajaritos, and the inactive fourth refills too.
    let mut l = ledger(4);
    for d in 0..3 {
        apply(&mut l, &hand(4, d, (d + 1) % 4, Entrada, &[]).with_tricks(d));
    }
    assert_eq!(l.pajaritos(), 5);
    let s = apply(&mut l, &hand(4, 3, 0, Entrada, &[5, 2, 2, 0]));
    assert_eq!(l.pajaritos(), 20);
    assert_eq!(s.pool.0[3], -5 - 1 - 1);
}

/// Tricks for a four-player sacado by the seat after `dealer`.
trait WithTricks {
    fn with_tricks(self, dealer: u8) -> HandResult;
}

impl WithTricks for HandResult {
    fn with_tricks(mut self, dealer: u8) -> HandResult {
        let d = self.declarer.unwrap();
        for s in 0..4u8 {
            self.tricks.0[s as usize] = if s == dealer {
                0
            } else if Seat(s) == d {
                5
            } else {
                2
            };
        }
        self.outcome = Outcome::Sacado;
        self
    }
}

// ---------------------------------------------------------------- case 1

#[test]
fn first_puesta_sacado_takes_the_plato_and_one_from_each() {
    let mut l = ledger(3);
    let s = apply(&mut l, &hand(3, 0, 1, Entrada, &[2, 5, 2]));
    assert_eq!((s.case, s.aip), (AipCase::FirstPuesta, 9));
    assert_eq!(seats(s.pool, 3), [-1 - 1, 6 + 2, -1]);
    assert_eq!(seats(s.condiciones, 3), [0, 0, 0], "entrada: 0");
    assert_eq!(l.bowls(), &[153, 163, 154]);
    assert_eq!((l.plato(), l.plato_has_failure(), l.pajaritos()), (0, false, 10));
    assert_eq!(l.next_aip(), 9);

    // Four players: n = 4, and the inactive dealer pays the sacado tanto too.
    let mut l = ledger(4);
    let s = apply(&mut l, &hand(4, 0, 2, Entrada, &[0, 2, 5, 2]));
    assert_eq!(s.aip, 10);
    assert_eq!(seats(s.pool, 4), [-2, -1, 6 + 3, -1]);
}

#[test]
fn first_puesta_puesta_pays_the_aip_into_the_plato() {
    let mut l = ledger(3);
    let r = hand(3, 0, 1, Entrada, &[4, 1, 4]);
    assert_eq!(r.outcome, Outcome::Puesta { kind: PuestaKind::Real });
    let s = apply(&mut l, &r);
    assert_eq!(seats(s.pool, 3), [-1, -9, 0]);
    assert_eq!((l.plato(), l.plato_has_failure()), (15, true));
    assert!(l.paper().is_empty());
    assert_eq!((l.next_case(), l.next_aip()), (AipCase::PuestaInPlato, 15 + 1 + 3));

    let mut l = ledger(4);
    let s = apply(&mut l, &hand(4, 0, 1, Vuelta, &[0, 4, 4, 1]));
    assert_eq!(seats(s.pool, 4), [-1, -10, 0, 0]);
    assert_eq!(seats(s.condiciones, 4), [1, -3, 1, 1], "vuelta: 1 to each, the dealer too");
    assert_eq!((l.plato(), l.plato_has_failure()), (16, true));
}

#[test]
fn first_puesta_codillo_pays_the_plato_and_the_winner() {
    let mut l = ledger(3);
    let r = hand(3, 0, 1, Entrada, &[5, 3, 1]);
    assert_eq!(r.outcome, Outcome::Codillo { winner: Seat(0) });
    let s = apply(&mut l, &r);
    assert_eq!(seats(s.pool, 3), [-1 + 9, -18, 0]);
    assert_eq!((l.plato(), l.plato_has_failure()), (15, true));

    let mut l = ledger(4);
    let s = apply(&mut l, &hand(4, 2, 0, Solo, &[2, 1, 0, 6]));
    assert_eq!(seats(s.pool, 4), [-20, 0, -1, 10]);
    assert_eq!(seats(s.condiciones, 4), [-6, 2, 2, 2]);
    assert_eq!(l.plato(), 16);
}

// ---------------------------------------------------------------- case 2

/// Hand 1: seat 1 is puesta in case 1; the plato holds 15 with a failure payment.
fn after_first_puesta() -> Ledger {
    let mut l = ledger(3);
    apply(&mut l, &hand(3, 0, 1, Entrada, &[4, 1, 4]));
    l
}

#[test]
fn puesta_in_the_plato_puesta_is_written_on_the_paper() {
    let mut l = after_first_puesta();
    let s = apply(&mut l, &hand(3, 1, 2, Entrada, &[4, 4, 1]));
    assert_eq!((s.case, s.aip), (AipCase::PuestaInPlato, 16 + 3));
    assert_eq!(seats(s.pool, 3), [0, -1, 0]);
    assert_eq!(seats(s.debts, 3), [0, 0, 19]);
    assert_eq!(l.paper(), &[debt(2, 19, 2)]);
    assert_eq!((l.plato(), l.plato_has_failure()), (16, true));
    // The failure is still in the plato: case 2 again.
    assert_eq!((l.next_case(), l.next_aip()), (AipCase::PuestaInPlato, 17 + 3));
}

#[test]
fn puesta_in_the_plato_codillo_is_written_and_paid_to_the_winner() {
    let mut l = after_first_puesta();
    let s = apply(&mut l, &hand(3, 1, 2, Entrada, &[5, 2, 2]));
    assert_eq!(seats(s.pool, 3), [19, -1, -19]);
    assert_eq!(l.paper(), &[debt(2, 19, 2)]);
    assert_eq!(l.plato(), 16);
}

#[test]
fn puesta_in_the_plato_sacado_takes_the_plato_and_one_from_each() {
    let mut l = after_first_puesta();
    let s = apply(&mut l, &hand(3, 1, 2, Solo, &[2, 2, 5]));
    assert_eq!(seats(s.pool, 3), [-1, -2, 16 + 2]);
    assert_eq!(seats(s.condiciones, 3), [-2, -2, 4]);
    assert_eq!((l.plato(), l.plato_has_failure()), (0, false));
    assert_eq!(l.next_case(), AipCase::FirstPuesta);
}

// ---------------------------------------------------------------- case 3

/// Then seat 2 is puesta in case 2 (19 on the paper) and seat 0 wins the plato:
/// the paper holds 19 against seat 2 and the plato is empty.
fn with_reserved_puesta() -> Ledger {
    let mut l = after_first_puesta();
    apply(&mut l, &hand(3, 1, 2, Entrada, &[4, 4, 1]));
    let s = apply(&mut l, &hand(3, 2, 0, Entrada, &[5, 2, 2]));
    assert_eq!(seats(s.pool, 3), [17 + 2, -1, -2]);
    assert_eq!((l.plato(), l.plato_has_failure(), l.pajaritos()), (0, false, 10));
    assert_eq!(l.bowls(), &[154 + 19, 146 - 1 - 1, 155 - 2]);
    assert_eq!((l.next_case(), l.next_aip()), (AipCase::Reserved, 19 + 1));
    l
}

#[test]
fn reserved_puesta_sacado_is_paid_by_the_owner_of_the_debt() {
    let mut l = with_reserved_puesta();
    // No pajarito: the paper is not empty.
    let s = apply(&mut l, &hand(3, 0, 1, Entrada, &[2, 5, 2]));
    assert_eq!((s.case, s.aip, s.played_for), (AipCase::Reserved, 20, Some(debt(2, 19, 2))));
    assert_eq!(seats(s.pool, 3), [-1, 1 + 19, -19]);
    assert_eq!(seats(s.debts, 3), [0, 0, -19]);
    assert_eq!(s.crossed_out, Some(debt(2, 19, 2)));
    assert!(l.paper().is_empty());
    assert_eq!((l.plato(), l.pajaritos()), (0, 10));
    assert_eq!((l.next_case(), l.next_aip()), (AipCase::FirstPuesta, 9));
}

#[test]
fn reserved_puesta_won_by_its_owner_is_just_crossed_out() {
    let mut l = with_reserved_puesta();
    let s = apply(&mut l, &hand(3, 0, 2, Entrada, &[2, 2, 5]));
    assert_eq!(seats(s.pool, 3), [-1, 0, 1]);
    assert_eq!(seats(s.debts, 3), [0, 0, -19]);
    assert!(l.paper().is_empty());
}

#[test]
fn reserved_puesta_puesta_writes_the_aip() {
    let mut l = with_reserved_puesta();
    let s = apply(&mut l, &hand(3, 0, 1, Entrada, &[4, 1, 4]));
    assert_eq!(seats(s.pool, 3), [-1, 0, 0]);
    assert_eq!(l.paper(), &[debt(2, 19, 2), debt(1, 20, 4)]);
    assert_eq!((l.next_case(), l.next_aip()), (AipCase::Reserved, 20 + 2));
}

#[test]
fn reserved_puesta_codillo_writes_and_pays_the_winner() {
    let mut l = with_reserved_puesta();
    let s = apply(&mut l, &hand(3, 0, 1, Entrada, &[5, 3, 1]));
    assert_eq!(seats(s.pool, 3), [-1 + 20, -20, 0]);
    assert_eq!(l.paper(), &[debt(2, 19, 2), debt(1, 20, 4)]);
}

#[test]
fn equal_debts_the_last_written_is_played_first() {
    let mut l = after_first_puesta();
    // Twin puestas in case 2: two debts of 19, seat 2's (who gave up) first.
    let r = surrender(hand(3, 1, 2, Entrada, &[4, 4, 1]), Some(0));
    assert_eq!(r.outcome, Outcome::Puesta { kind: PuestaKind::Plain });
    let s = apply(&mut l, &r);
    assert_eq!(s.written().collect::<Vec<_>>(), [debt(2, 19, 2), debt(0, 19, 2)]);
    assert_eq!(l.paper(), &[debt(2, 19, 2), debt(0, 19, 2)]);
    apply(&mut l, &hand(3, 2, 1, Entrada, &[2, 5, 2]));
    assert_eq!(l.largest_debt(), Some(1));
    let s = apply(&mut l, &hand(3, 0, 1, Entrada, &[2, 5, 2]));
    assert_eq!(s.played_for, Some(debt(0, 19, 2)));
    assert_eq!(seats(s.pool, 3), [-1 - 19, 1 + 19, 0]);
    assert_eq!(l.paper(), &[debt(2, 19, 2)]);
    let s = apply(&mut l, &hand(3, 1, 0, Entrada, &[5, 2, 2]));
    assert_eq!((s.aip, s.played_for), (19 + 1, Some(debt(2, 19, 2))));
}

#[test]
fn four_players_through_the_three_cases_and_the_settlement() {
    let mut l = ledger(4);
    // Case 1, puesta: 10 into the plato.
    let s = apply(&mut l, &hand(4, 0, 1, Entrada, &[0, 4, 4, 1]));
    assert_eq!((s.case, s.aip, seats(s.pool, 4)), (AipCase::FirstPuesta, 10, vec![-1, -10, 0, 0]));
    // Case 2, puesta: written; the solo is paid to the inactive dealer too.
    let s = apply(&mut l, &hand(4, 1, 2, Solo, &[4, 0, 1, 4]));
    assert_eq!((s.case, s.aip), (AipCase::PuestaInPlato, 17 + 4));
    assert_eq!(seats(s.condiciones, 4), [2, 2, -6, 2]);
    // Case 2, codillo: written and paid to the winner.
    let s = apply(&mut l, &hand(4, 2, 3, Vuelta, &[5, 1, 0, 3]));
    assert_eq!((s.aip, seats(s.pool, 4)), (22, vec![22, 0, -1, -22]));
    assert_eq!(l.paper(), &[debt(2, 21, 2), debt(3, 22, 3)]);
    // Case 2, sacado: the plato and 1 from each of three, the inactive dealer too.
    let s = apply(&mut l, &hand(4, 3, 0, Entrada, &[5, 2, 2, 0]));
    assert_eq!(seats(s.pool, 4), [19 + 3, -1, -1, -1 - 1]);
    assert_eq!((l.plato(), l.plato_has_failure()), (0, false));
    // Case 3: for the largest debt (seat 3's 22) plus the plato.
    let s = apply(&mut l, &hand(4, 0, 2, Entrada, &[0, 2, 5, 2]));
    assert_eq!((s.case, s.aip, s.crossed_out), (AipCase::Reserved, 23, Some(debt(3, 22, 3))));
    assert_eq!(seats(s.pool, 4), [-1, 0, 1 + 22, -22]);
    // Case 3, given up without takeover: written.
    let s = apply(&mut l, &surrender(hand(4, 1, 3, Entrada, &[1, 0, 1, 1]), None));
    assert_eq!((s.aip, seats(s.pool, 4)), (21 + 1, vec![0, -1, 0, 0]));
    assert_eq!(l.paper(), &[debt(2, 21, 2), debt(3, 22, 6)]);
    assert_eq!((l.bowls(), l.plato(), l.pajaritos()), (&[200, 145, 171, 108][..], 1, 15));
    let st = l.settle();
    assert_eq!((st.fund, st.share), (1 + 15 + 43, 14));
    assert_eq!(seats(st.remainder, 4), [false, true, true, true]);
    assert_eq!(seats(st.final_bowls, 4), [214, 160, 165, 101]);
    assert_eq!(seats(st.results, 4), [54, 0, 5, -59]);
}

#[test]
fn four_players_twin_puestas_and_the_tie_rule() {
    let mut l = ledger(4);
    apply(&mut l, &hand(4, 0, 1, Entrada, &[0, 4, 4, 1]));
    let s = apply(&mut l, &surrender(hand(4, 1, 2, Vuelta, &[4, 0, 1, 4]), Some(3)));
    assert_eq!(s.written().collect::<Vec<_>>(), [debt(2, 21, 2), debt(3, 21, 2)]);
    assert_eq!(seats(s.condiciones, 4), [1, 1, -3, 1]);
    apply(&mut l, &hand(4, 2, 3, Entrada, &[2, 2, 0, 5]));
    let s = apply(&mut l, &hand(4, 3, 1, Entrada, &[2, 5, 2, 0]));
    assert_eq!((s.aip, s.played_for), (22, Some(debt(3, 21, 2))));
    assert_eq!(seats(s.pool, 4), [0, 22, 0, -1 - 21]);
}

// ---------------------------------------------------------------- condiciones

fn condiciones(r: &HandResult) -> Vec<i64> {
    let n = r.players;
    seats(score_deal(LedgerConfig::new(n), r).unwrap().condiciones, n as usize)
}

#[test]
fn condiciones_of_the_contract_entrada_0_vuelta_1_solo_2() {
    assert_eq!(condiciones(&hand(3, 0, 1, Entrada, &[2, 5, 2])), [0, 0, 0]);
    assert_eq!(condiciones(&hand(3, 0, 1, Vuelta, &[2, 5, 2])), [-1, 2, -1]);
    assert_eq!(condiciones(&hand(3, 0, 1, Solo, &[2, 5, 2])), [-2, 4, -2]);
    // Lost (puesta or codillo): the declarer pays each.
    assert_eq!(condiciones(&hand(3, 0, 1, Vuelta, &[4, 1, 4])), [1, -2, 1]);
    assert_eq!(condiciones(&hand(3, 0, 1, Solo, &[6, 2, 1])), [2, -4, 2]);
    // Four players: the inactive dealer pays and receives too.
    assert_eq!(condiciones(&hand(4, 0, 2, Solo, &[0, 2, 5, 2])), [-2, -2, 6, -2]);
    assert_eq!(condiciones(&hand(4, 3, 2, Vuelta, &[4, 1, 4, 0])), [1, 1, -3, 1]);
}

#[test]
fn condiciones_estuche_only_on_a_win() {
    let mut r = hand(3, 0, 1, Entrada, &[2, 5, 2]);
    r.estuche = true;
    assert_eq!(condiciones(&r), [-1, 2, -1]);
    let mut r = hand(3, 0, 1, Vuelta, &[4, 1, 4]);
    r.estuche = true;
    assert_eq!(condiciones(&r), [1, -2, 1]);
    let mut r = hand(4, 1, 2, Solo, &[2, 0, 5, 2]);
    r.estuche = true;
    assert_eq!(condiciones(&r), [-3, -3, 9, -3]);
}

#[test]
fn condiciones_primeras_when_stopping_after_five() {
    let mut r = hand(3, 0, 1, Vuelta, &[0, 5, 0]);
    r.primeras = true;
    assert_eq!(condiciones(&r), [-2, 4, -2]);
    let s = score_deal(LedgerConfig::new(3), &r).unwrap();
    assert_eq!(seats(s.pool, 3), [-2, 8, -1], "the contract is won as a sacado");
}

#[test]
fn condiciones_bola_made_and_failed() {
    let mut r = hand(3, 0, 1, Solo, &[0, 9, 0]);
    (r.bola_attempted, r.bola_made, r.estuche) = (true, true, true);
    assert_eq!(condiciones(&r), [-11, 22, -11]);
    // Failed: the contract is still won, and the bola's 8 goes to each.
    let mut r = hand(3, 0, 1, Vuelta, &[1, 7, 1]);
    r.bola_attempted = true;
    assert_eq!(r.outcome, Outcome::Sacado);
    assert_eq!(condiciones(&r), [-1 + 8, 2 - 16, -1 + 8]);
    let s = score_deal(LedgerConfig::new(3), &r).unwrap();
    assert_eq!(seats(s.pool, 3), [-2, 8, -1]);
    let mut r = hand(4, 2, 3, Entrada, &[1, 0, 0, 8]);
    r.bola_attempted = true;
    assert_eq!(condiciones(&r), [8, 8, 8, -24]);
}

// ---------------------------------------------------------------- penetro

fn penetro(dealer: u8, tricks: &[u8]) -> HandResult {
    let mut r = hand(4, dealer, dealer, Entrada, tricks);
    r.penetro = true;
    r.outcome =
        outcome_of(tresillo_core::Table::FOUR_WITH_PENETRO, Seat(dealer), Seat(dealer), true, &r.tricks);
    r
}

#[test]
fn penetro_won_is_paid_one_condicion_by_everyone() {
    let mut l = ledger(4);
    // Seat 3 dropped out (no tricks); it pays the sacado tanto and the condición too.
    let s = apply(&mut l, &penetro(0, &[5, 2, 2, 0]));
    assert_eq!((s.case, s.aip), (AipCase::FirstPuesta, 10));
    assert_eq!(seats(s.pool, 4), [-1 + 6 + 3, -1, -1, -1]);
    assert_eq!(seats(s.condiciones, 4), [3, -1, -1, -1]);
}

#[test]
fn penetro_lost_pays_as_a_puesta_or_codillo() {
    let r = penetro(1, &[4, 1, 0, 4]);
    assert_eq!(r.outcome, Outcome::Puesta { kind: PuestaKind::Real });
    let s = score_deal(LedgerConfig::new(4), &r).unwrap();
    assert_eq!(seats(s.pool, 4), [0, -11, 0, 0]);
    assert_eq!(seats(s.condiciones, 4), [1, -3, 1, 1]);

    let r = penetro(1, &[0, 3, 5, 1]);
    assert_eq!(r.outcome, Outcome::Codillo { winner: Seat(2) });
    let s = score_deal(LedgerConfig::new(4), &r).unwrap();
    assert_eq!(seats(s.pool, 4), [0, -21, 10, 0]);
}

#[test]
fn penetro_given_up_at_once_is_a_puesta_plus_the_penetro() {
    let mut l = ledger(4);
    let mut r = penetro(2, &[]);
    r.contract = None;
    let r = surrender(r, None);
    let s = apply(&mut l, &r);
    assert_eq!(seats(s.pool, 4), [0, 0, -11, 0]);
    assert_eq!(seats(s.condiciones, 4), [1, 1, -3, 1]);
    assert_eq!((l.plato(), l.plato_has_failure()), (16, true));
    // Given up in case 2: written on the paper.
    let mut r = penetro(3, &[]);
    r.contract = Some(Entrada);
    let s = apply(&mut l, &surrender(r, None));
    assert_eq!(s.aip, 17 + 4);
    assert_eq!(l.paper(), &[debt(3, 21, 2)]);
}

// ---------------------------------------------------------------- surrender

#[test]
fn surrender_without_takeover_is_the_declarers_puesta() {
    let mut l = ledger(3);
    let s = apply(&mut l, &surrender(hand(3, 0, 1, Vuelta, &[1, 1, 1]), None));
    assert_eq!(seats(s.pool, 3), [-1, -9, 0]);
    assert_eq!(seats(s.condiciones, 3), [1, -2, 1]);
    assert_eq!((l.plato(), l.plato_has_failure()), (15, true));
    // In case 2 it is written.
    let s = apply(&mut l, &surrender(hand(3, 1, 0, Entrada, &[2, 0, 1]), None));
    assert_eq!(seats(s.debts, 3), [19, 0, 0]);
}

#[test]
fn takeover_won_the_giver_pays_the_aip_to_the_taker() {
    let mut l = ledger(3);
    let r = surrender(hand(3, 0, 1, Vuelta, &[2, 2, 5]), Some(2));
    assert_eq!(r.outcome, Outcome::Sacado);
    let s = apply(&mut l, &r);
    assert_eq!(seats(s.pool, 3), [-1, -9, 9]);
    // The one who gave up pays the vuelta; the one who took over gets nothing.
    assert_eq!(seats(s.condiciones, 3), [1, -2, 1]);
    assert_eq!((l.plato(), l.plato_has_failure()), (6, false), "the plato is unchanged");

    // Four players, case 3: plato and paper unchanged.
    let mut l = ledger(4);
    apply(&mut l, &hand(4, 0, 1, Entrada, &[0, 4, 4, 1]));
    apply(&mut l, &hand(4, 1, 2, Entrada, &[4, 0, 1, 4]));
    apply(&mut l, &hand(4, 2, 3, Entrada, &[2, 2, 0, 5]));
    assert_eq!((l.plato(), l.paper()), (0, &[debt(2, 16 + 1 + 4, 2)][..]));
    let mut r = surrender(hand(4, 3, 0, Entrada, &[2, 5, 2, 0]), Some(1));
    r.estuche = true;
    let s = apply(&mut l, &r);
    assert_eq!((s.case, s.aip), (AipCase::Reserved, 21 + 1));
    assert_eq!(seats(s.pool, 4), [-22, 22, 0, -1]);
    assert_eq!(seats(s.condiciones, 4), [0, 0, 0, 0]);
    assert_eq!((l.plato(), l.paper()), (1, &[debt(2, 21, 2)][..]));
}

#[test]
fn takeover_puesta_twin_puestas_in_case_1_both_pay_into_the_plato() {
    let mut l = ledger(3);
    let r = surrender(hand(3, 0, 1, Vuelta, &[4, 1, 4]), Some(2));
    let s = apply(&mut l, &r);
    assert_eq!(seats(s.pool, 3), [-1, -9, -9]);
    assert_eq!(seats(s.condiciones, 3), [1, -2, 1]);
    assert_eq!((l.plato(), l.plato_has_failure()), (24, true));

    let mut l = ledger(4);
    let s = apply(&mut l, &surrender(hand(4, 0, 1, Entrada, &[0, 1, 4, 4]), Some(3)));
    assert_eq!(seats(s.pool, 4), [-1, -10, 0, -10]);
    assert_eq!(l.plato(), 26);
}

#[test]
fn takeover_puesta_twin_puestas_later_write_two_debts() {
    let mut l = with_reserved_puesta();
    let s = apply(&mut l, &surrender(hand(3, 0, 1, Entrada, &[4, 1, 4]), Some(0)));
    assert_eq!(seats(s.debts, 3), [20, 20, 0]);
    assert_eq!(l.paper(), &[debt(2, 19, 2), debt(1, 20, 4), debt(0, 20, 4)]);
}

#[test]
fn takeover_codillo_twin_puestas_and_the_taker_pays_the_winner() {
    let mut l = ledger(3);
    let r = surrender(hand(3, 0, 1, Entrada, &[5, 1, 3]), Some(2));
    assert_eq!(r.outcome, Outcome::Codillo { winner: Seat(0) });
    let s = apply(&mut l, &r);
    assert_eq!(seats(s.pool, 3), [-1 + 9, -9, -18]);
    assert_eq!(l.plato(), 24);

    // The winner may be the player who gave up.
    let mut l = ledger(3);
    let r = surrender(hand(3, 0, 1, Vuelta, &[2, 5, 2]), Some(2));
    assert_eq!(r.outcome, Outcome::Codillo { winner: Seat(1) });
    let s = apply(&mut l, &r);
    assert_eq!(seats(s.pool, 3), [-1, -9 + 9, -18]);
    assert_eq!(seats(s.condiciones, 3), [1, -2, 1]);

    // Case 3: two debts, and the winner is paid.
    let mut l = with_reserved_puesta();
    let s = apply(&mut l, &surrender(hand(3, 0, 1, Entrada, &[5, 3, 1]), Some(2)));
    assert_eq!(seats(s.pool, 3), [-1 + 20, 0, -20]);
    assert_eq!(l.paper(), &[debt(2, 19, 2), debt(1, 20, 4), debt(2, 20, 4)]);
}

#[test]
fn the_taker_neither_pays_nor_receives_condiciones() {
    let mut r = surrender(hand(3, 0, 1, Vuelta, &[0, 4, 5]), Some(2));
    (r.primeras, r.estuche, r.final_estuche) = (true, true, true);
    r.tricks = BySeat([0, 0, 5, 0]);
    assert_eq!(condiciones(&r), [1, -2, 1]);
}

// ---------------------------------------------------------------- cancelled hands

#[test]
fn a_cancelled_hand_moves_only_the_dealers_tokens() {
    let mut l = after_first_puesta();
    let s = apply(&mut l, &cancelled_result(3, Seat(1)));
    assert_eq!(seats(s.totals(), 3), [0, -1, 0]);
    assert_eq!((l.plato(), l.plato_has_failure(), l.pajaritos()), (16, true, 10));
    assert_eq!(l.next_dealer(), Some(Seat(2)));
    let err = l.apply(&cancelled_result(4, Seat(2))).unwrap_err();
    assert_eq!(err, ScoringError::WrongTable { expected: 3, got: 4 });
    let err = ledger(4).apply(&cancelled_result(4, Seat(2))).unwrap_err();
    assert!(matches!(err, ScoringError::Inconsistent(m) if m.contains("penetra")), "{err}");
}

// ---------------------------------------------------------------- settlement

#[test]
fn settlement_of_a_fresh_ledger_gives_everyone_back_their_bowl() {
    let st = ledger(3).settle();
    assert_eq!((st.fund, st.share), (15, 5));
    assert_eq!(seats(st.final_bowls, 3), [160, 160, 160]);
    assert_eq!(seats(st.results, 3), [0, 0, 0]);
    let st = ledger(4).settle();
    assert_eq!(seats(st.results, 4), [0, 0, 0, 0]);
}

#[test]
fn settlement_shares_plato_dish_and_debts_equally() {
    let mut l = after_first_puesta();
    apply(&mut l, &hand(3, 1, 2, Entrada, &[4, 4, 1]));
    assert_eq!((l.bowls(), l.plato(), l.pajaritos()), (&[154, 145, 155][..], 16, 10));
    let st = l.settle();
    assert_eq!(seats(st.debts_paid, 3), [0, 0, 19]);
    assert_eq!((st.fund, st.share), (16 + 10 + 19, 15));
    assert_eq!(seats(st.remainder, 3), [false, false, false]);
    assert_eq!(seats(st.final_bowls, 3), [169, 160, 151]);
    assert_eq!(seats(st.results, 3), [9, 0, -9]);
    assert_eq!(l.hands(), 2, "settling does not change the ledger");
}

#[test]
fn settlement_remainder_to_the_lowest_bowls_ties_in_turn_order_after_the_dealer() {
    let mut l = after_first_puesta();
    let st = l.settle();
    // 15 + 10 = 25: 8 each and 1 to seat 1, the lowest (146).
    assert_eq!((st.share, seats(st.remainder, 3)), (8, vec![false, true, false]));
    assert_eq!(seats(st.results, 3), [2, -5, 3]);
    l = ledger(3);
    apply(&mut l, &hand(3, 0, 0, Entrada, &[5, 2, 2]));
    assert_eq!(l.bowls(), &[162, 154, 154]);
    let st = l.settle();
    assert_eq!((st.fund, st.share), (10, 3));
    assert_eq!(seats(st.remainder, 3), [false, true, false], "seat 1 comes first after dealer 0");
    assert_eq!(seats(st.results, 3), [5, -2, -3]);
    let mut l = ledger(3);
    apply(&mut l, &hand(3, 1, 1, Entrada, &[2, 5, 2]));
    let st = l.settle();
    assert_eq!(seats(st.remainder, 3), [false, false, true], "seat 2 comes first after dealer 1");
    assert_eq!(seats(st.results, 3), [-3, 5, -2]);
}

// ---------------------------------------------------------------- modes

#[test]
fn deal_mode_scores_every_hand_from_a_fresh_ledger() {
    let hands = [hand(3, 0, 1, Entrada, &[4, 1, 4]), hand(3, 2, 1, Entrada, &[4, 1, 4])];
    let mut deal = Scorer::new(ScoringMode::Deal, LedgerConfig::new(3)).unwrap();
    let mut session = Scorer::new(ScoringMode::Session, LedgerConfig::new(3)).unwrap();
    let d: Vec<_> = hands.iter().map(|r| deal.apply(r).unwrap()).collect();
    assert_eq!(d[0].aip, 9);
    assert_eq!(d[1].aip, 9, "no pot history, and any dealer");
    assert_eq!(d[1], score_deal(LedgerConfig::new(3), &hands[1]).unwrap());
    assert_eq!(deal.ledger().unwrap().hands(), 1);
    session.apply(&hands[0]).unwrap();
    assert_eq!(
        session.apply(&hands[1]).unwrap_err(),
        ScoringError::DealerOutOfTurn { expected: Seat(1), got: Seat(2) }
    );
    assert_eq!("session".parse::<ScoringMode>(), Ok(ScoringMode::Session));
    assert!("sesion".parse::<ScoringMode>().is_err());
}

// ---------------------------------------------------------------- bad results

fn rejects(l: &Ledger, r: &HandResult) -> ScoringError {
    let mut m = l.clone();
    let e = m.apply(r).expect_err("must be rejected");
    assert_eq!(&m, l, "a rejected result leaves the ledger unchanged");
    e
}

#[test]
fn bad_results_are_rejected_and_the_ledger_is_unchanged() {
    let l = after_first_puesta();
    let ok = hand(3, 1, 2, Entrada, &[2, 2, 5]);
    let e = |f: &dyn Fn(&mut HandResult)| {
        let mut r = ok.clone();
        f(&mut r);
        rejects(&l, &r)
    };
    assert_eq!(
        e(&|r| r.declarer = Some(Seat(3))),
        ScoringError::UnknownSeat { role: "declarer", seat: Seat(3), last: 2 }
    );
    assert_eq!(e(&|r| r.dealer = Seat(2)), ScoringError::DealerOutOfTurn { expected: Seat(1), got: Seat(2) });
    assert_eq!(e(&|r| r.tricks = BySeat([2, 2, 4, 0])), ScoringError::TrickTotal { got: 8, expected: 9 });
    assert!(matches!(e(&|r| r.tricks = BySeat([2, 2, 4, 1])), ScoringError::UnknownSeat { .. }));
    assert_eq!(
        e(&|r| r.outcome = Outcome::Puesta { kind: PuestaKind::Plain }),
        ScoringError::OutcomeMismatch {
            given: Outcome::Puesta { kind: PuestaKind::Plain },
            expected: Outcome::Sacado
        }
    );
    assert!(matches!(
        e(&|r| r.outcome = Outcome::Codillo { winner: Seat(7) }),
        ScoringError::UnknownSeat { role: "codillo winner", .. }
    ));
    assert_eq!(e(&|r| r.players = 4), ScoringError::WrongTable { expected: 3, got: 4 });
    assert!(matches!(e(&|r| r.outcome = Outcome::Cancelled), ScoringError::Inconsistent(_)));
    assert!(matches!(e(&|r| r.contract = None), ScoringError::Inconsistent(_)));
    assert!(matches!(e(&|r| r.primeras = true), ScoringError::TrickTotal { got: 9, expected: 5 }));
    assert!(matches!(e(&|r| r.bola_made = true), ScoringError::Inconsistent(_)));
    let no_five = |r: &mut HandResult| {
        r.bola_attempted = true;
        r.tricks = BySeat([3, 2, 4, 0]);
    };
    assert!(matches!(e(&no_five), ScoringError::Inconsistent(_)));
    // Five tricks and then none: a failed bola, which is fine.
    let mut r = ok.clone();
    r.bola_attempted = true;
    l.clone().apply(&r).unwrap();
    assert!(matches!(e(&|r| r.penetro = true), ScoringError::Inconsistent(_)));
    assert!(matches!(e(&|r| r.trick_winners = vec![Seat(0); 9]), ScoringError::Inconsistent(_)));
    let solo = surrender(hand(3, 1, 2, Solo, &[1, 1, 1]), None);
    assert!(matches!(rejects(&l, &solo), ScoringError::Inconsistent(m) if m.contains("solo")));
    let given_up = surrender(hand(3, 1, 2, Entrada, &[1, 1, 1]), None);
    let mut r = given_up.clone();
    r.tricks = BySeat([2, 2, 5, 0]);
    assert_eq!(rejects(&l, &r), ScoringError::TrickTotal { got: 9, expected: 3 });
    let mut r = given_up.clone();
    r.outcome = Outcome::Puesta { kind: PuestaKind::Plain };
    assert!(matches!(rejects(&l, &r), ScoringError::OutcomeMismatch { .. }));
    let mut r = given_up.clone();
    r.surrender = Some(SurrenderRecord { by: Seat(0), took_over: None });
    assert!(matches!(rejects(&l, &r), ScoringError::Inconsistent(_)));
    let mut r = given_up;
    r.surrender = Some(SurrenderRecord { by: Seat(2), took_over: Some(Seat(2)) });
    assert!(matches!(rejects(&l, &r), ScoringError::Inconsistent(_)));
}

#[test]
fn the_inactive_dealer_cannot_play() {
    let l = ledger(4);
    let r = hand(4, 0, 0, Entrada, &[5, 2, 2, 0]);
    assert_eq!(rejects(&l, &r), ScoringError::InactiveDealer { seat: Seat(0), role: "declarer" });
    let r = hand(4, 0, 1, Entrada, &[1, 5, 2, 1]);
    assert_eq!(rejects(&l, &r), ScoringError::InactiveDealer { seat: Seat(0), role: "winner of a trick" });
    let mut r = hand(4, 0, 1, Entrada, &[]);
    r.outcome = Outcome::Codillo { winner: Seat(0) };
    assert_eq!(rejects(&l, &r), ScoringError::InactiveDealer { seat: Seat(0), role: "codillo winner" });
    let r = surrender(hand(4, 0, 1, Entrada, &[0, 5, 2, 2]), Some(0));
    assert_eq!(rejects(&l, &r), ScoringError::InactiveDealer { seat: Seat(0), role: "player who took over" });
    // In a penetro the dealer plays, and nobody else may be the declarer.
    let mut r = penetro(0, &[5, 2, 2, 0]);
    r.declarer = Some(Seat(1));
    assert!(matches!(rejects(&l, &r), ScoringError::Inconsistent(_)));
    let r = surrender(penetro(0, &[1, 1, 1, 0]), None);
    assert_eq!(rejects(&l, &r), ScoringError::TrickTotal { got: 3, expected: 0 });
}

#[test]
fn an_outcome_without_tricks_is_taken_at_its_word() {
    let mut l = ledger(3);
    let mut r = hand(3, 0, 1, Entrada, &[]);
    r.outcome = Outcome::Codillo { winner: Seat(2) };
    let s = apply(&mut l, &r);
    assert_eq!(seats(s.pool, 3), [-1, -18, 9]);
    let mut r = hand(3, 1, 2, Entrada, &[]);
    r.outcome = Outcome::Codillo { winner: Seat(2) };
    assert!(matches!(rejects(&l, &r), ScoringError::Inconsistent(_)));
}

// ---------------------------------------------------------------- properties

/// One random result for a table of `n`, `dealer` dealing. `kind` picks the shape
/// and `x` drives its details.
fn random_result(n: u8, dealer: u8, kind: u8, x: [u8; 6]) -> HandResult {
    let active: Vec<u8> = (0..n).filter(|&s| n == 3 || s != dealer).collect();
    let d = active[x[0] as usize % 3];
    let contract = Contract::ALL[x[1] as usize % 3];
    let deal_tricks = |lead: u8, x: &[u8]| {
        // Nine tricks among the three active seats, `lead` getting at least x[0] % 10.
        let mut t = [0u8; 4];
        let a = (x[0] % 10).min(9);
        let b = x[1] % (10 - a);
        let others: Vec<u8> = active.iter().copied().filter(|&s| s != lead).collect();
        t[lead as usize] = a;
        t[others[0] as usize] = b;
        t[others[1] as usize] = 9 - a - b;
        t
    };
    match kind % 8 {
        0 if n == 3 => cancelled_result(n, Seat(dealer)),
        1 | 2 => {
            // Surrender, with or without takeover.
            let mut r = hand(n, dealer, d, if contract == Solo { Entrada } else { contract }, &[]);
            let others: Vec<u8> = active.iter().copied().filter(|&s| s != d).collect();
            if kind % 8 == 1 {
                let a = x[2] % 4;
                let b = x[3] % (4 - a);
                r.tricks.0[d as usize] = a;
                r.tricks.0[others[0] as usize] = b;
                r.tricks.0[others[1] as usize] = 3 - a - b;
                surrender(r, None)
            } else {
                let o = others[x[2] as usize % 2];
                r.tricks = BySeat(deal_tricks(o, &x[3..]));
                // All nine tricks are a bola made (section 6), after a takeover too.
                (r.bola_attempted, r.bola_made) = (r.tricks[Seat(o)] == 9, r.tricks[Seat(o)] == 9);
                surrender(r, Some(o))
            }
        }
        3 => {
            // Primeras or bola.
            let mut r = hand(n, dealer, d, contract, &[]);
            r.estuche = matches!(x[2] % 2, 0);
            if matches!(x[3] % 3, 0) {
                r.tricks.0[d as usize] = 5;
                r.primeras = true;
            } else {
                r.tricks.0[d as usize] = 5 + x[4] % 5;
                let rest = 9 - r.tricks.0[d as usize];
                let o: Vec<u8> = active.iter().copied().filter(|&s| s != d).collect();
                r.tricks.0[o[0] as usize] = rest.min(x[5] % 5);
                r.tricks.0[o[1] as usize] = rest - r.tricks.0[o[0] as usize];
                r.bola_attempted = true;
                r.bola_made = r.tricks.0[d as usize] == 9;
            }
            r.outcome = Outcome::Sacado;
            r
        }
        4 if n == 4 => {
            let mut r = penetro(dealer, &[]);
            let stay: Vec<u8> = (0..4).filter(|&s| s != dealer).collect();
            let out = stay[x[0] as usize % 3];
            let mut t = [0u8; 4];
            let a = x[1] % 10;
            let b = x[2] % (10 - a);
            let pl: Vec<u8> = stay.iter().copied().filter(|&s| s != out).collect();
            t[dealer as usize] = a;
            t[pl[0] as usize] = b;
            t[pl[1] as usize] = 9 - a - b;
            if matches!(x[3] % 4, 0) {
                r.contract = None;
                return surrender(r, None);
            }
            r.tricks = BySeat(t);
            r.outcome = outcome_of(
                tresillo_core::Table::FOUR_WITH_PENETRO,
                Seat(dealer),
                Seat(dealer),
                true,
                &r.tricks,
            );
            (r.bola_attempted, r.bola_made) = (a == 9, a == 9);
            r
        }
        _ => {
            let mut r = hand(n, dealer, d, contract, &deal_tricks(d, &x[2..]));
            r.estuche = matches!(x[4] % 3, 0);
            (r.bola_attempted, r.bola_made) = (r.tricks[Seat(d)] == 9, r.tricks[Seat(d)] == 9);
            r.outcome = outcome_of(r.table(), Seat(dealer), Seat(d), false, &r.tricks);
            r
        }
    }
}

/// The paper after `r` as section 8 says, from the paper before.
fn expected_paper(before: &[Debt], r: &HandResult, s: &HandScore) -> Vec<Debt> {
    let mut p = before.to_vec();
    let d = r.declarer;
    let takeover = r.surrender.and_then(|x| x.took_over);
    let writes = s.case != AipCase::FirstPuesta;
    let w = |owner: Seat| Debt { owner, amount: s.aip, hand: s.hand };
    match (r.outcome, takeover) {
        (Outcome::Cancelled, _) => {}
        (Outcome::Sacado, None) if s.case == AipCase::Reserved => {
            let max = before.iter().map(|d| d.amount).max().unwrap();
            let i = before.iter().rposition(|d| d.amount == max).unwrap();
            p.remove(i);
        }
        (Outcome::Sacado, _) => {}
        (_, None) if writes => p.push(w(d.unwrap())),
        (_, Some(o)) if writes => {
            p.push(w(d.unwrap()));
            p.push(w(o));
        }
        _ => {}
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_sessions_conserve_tokens_and_keep_the_paper_by_the_rules(
        four in any::<bool>(),
        first in 0u8..4,
        hands in prop::collection::vec((any::<u8>(), any::<[u8; 6]>()), 0..40),
    ) {
        let n = if four { 4 } else { 3 };
        let mut l = ledger(n);
        let tokens = l.tokens();
        let mut dealer = first % n;
        for (kind, x) in hands {
            let r = random_result(n, dealer, kind, x);
            let before = l.paper().to_vec();
            let bowls: Vec<i64> = l.bowls().to_vec();
            let s = l.apply(&r).map_err(|e| TestCaseError::fail(format!("{e}: {r:?}")))?;
            prop_assert_eq!(l.tokens(), tokens);
            prop_assert_eq!(l.paper(), &expected_paper(&before, &r, &s)[..]);
            for ((now, was), change) in l.bowls().iter().zip(&bowls).zip(s.totals().0) {
                prop_assert_eq!(now - was, change);
            }
            prop_assert_eq!(s.condiciones.0.iter().sum::<i64>(), 0);
            prop_assert!(l.pajaritos() > 0);
            prop_assert!(l.plato() > 0 || !l.plato_has_failure());
            dealer = (dealer + 1) % n;
        }
        let st = l.settle();
        let debts: i64 = l.paper().iter().map(|d| d.amount).sum();
        prop_assert_eq!(st.fund, l.plato() + l.pajaritos() + debts);
        prop_assert_eq!(st.debts_paid.0.iter().sum::<i64>(), debts);
        for x in 0..n {
            prop_assert_eq!(st.debts_paid.0[x as usize], l.owed_by(Seat(x)));
        }
        prop_assert_eq!(st.share * i64::from(n) + st.remainder.0.iter().filter(|&&b| b).count() as i64, st.fund);
        prop_assert_eq!(st.final_bowls.0.iter().sum::<i64>(), tokens);
        prop_assert_eq!(st.results.0.iter().sum::<i64>(), 0);
        let lowest_out = (0..n as usize).filter(|&x| !st.remainder.0[x]).map(|x| l.bowls()[x] - st.debts_paid.0[x]).min();
        let highest_in = (0..n as usize).filter(|&x| st.remainder.0[x]).map(|x| l.bowls()[x] - st.debts_paid.0[x]).max();
        if let (Some(out), Some(inn)) = (lowest_out, highest_in) {
            prop_assert!(inn <= out, "the remainder goes to the lowest bowls");
        }
    }

    #[test]
    fn rejected_results_leave_the_ledger_unchanged(
        kind in any::<u8>(), x in any::<[u8; 6]>(), poke in 0u8..6, v in any::<u8>(),
    ) {
        let mut l = after_first_puesta();
        let mut r = random_result(3, 1, kind, x);
        match poke {
            0 => r.tricks.0[(v % 4) as usize] = r.tricks.0[(v % 4) as usize].wrapping_add(1 + v % 3),
            1 => r.dealer = Seat(v % 6),
            2 => r.declarer = Some(Seat(v % 5)),
            3 => r.outcome = Outcome::Codillo { winner: Seat(v % 5) },
            4 => r.players = 3 + v % 3,
            _ => r.bola_made = !r.bola_made,
        }
        let before = l.clone();
        if l.apply(&r).is_err() {
            prop_assert_eq!(&l, &before);
        } else {
            prop_assert_eq!(l.tokens(), before.tokens());
        }
    }
}

/// Issue 13: results that would change the score against RULES.md sections 6, 8
/// and 12.2 are refused, and so are stakes that could overflow.
#[test]
fn bola_penetro_and_stakes_are_checked() {
    let l = after_first_puesta();
    // Nine tricks without the bola flags (section 6: that is a bola made).
    let nine = hand(3, 1, 2, Entrada, &[0, 0, 9]);
    assert!(matches!(rejects(&l, &nine), ScoringError::Inconsistent(m) if m.contains("bola")));
    let mut made = nine.clone();
    (made.bola_attempted, made.bola_made) = (true, true);
    l.clone().apply(&made).unwrap();
    // A bola (or primeras) whose trick winners give one of the first five away.
    let mut r = hand(3, 1, 2, Entrada, &[1, 0, 8]);
    r.bola_attempted = true;
    r.trick_winners = [2, 0, 2, 2, 2, 2, 2, 2, 2].map(Seat).to_vec();
    assert!(matches!(rejects(&l, &r), ScoringError::Inconsistent(m) if m.contains("first five")));
    r.trick_winners = [2, 2, 2, 2, 2, 0, 2, 2, 2].map(Seat).to_vec();
    l.clone().apply(&r).unwrap();
    // A penetro against three only when the table plays penetro_all_play.
    let mut p = hand(4, 0, 0, Entrada, &[5, 2, 1, 1]);
    p.penetro = true;
    p.outcome = Outcome::Sacado;
    assert!(
        matches!(ledger(4).apply(&p), Err(ScoringError::Inconsistent(m)) if m.contains("penetro_all_play"))
    );
    let all_play = LedgerConfig { penetro_all_play: true, ..LedgerConfig::new(4) };
    Ledger::new(all_play).unwrap().apply(&p).unwrap();
    // Stakes out of range.
    for (start_bowl, pajarito) in [(-5, 5), (i64::MAX, 5), (160, i64::MAX), (160, 0), (4, 5)] {
        let cfg = LedgerConfig { start_bowl, pajarito, ..LedgerConfig::new(3) };
        assert_eq!(Ledger::new(cfg), Err(ScoringError::Stakes { start_bowl, pajarito }));
    }
    Ledger::new(LedgerConfig { start_bowl: LedgerConfig::MAX_BOWL, ..LedgerConfig::new(3) }).unwrap();
}
