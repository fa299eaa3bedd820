//! One test per rule of RULES.md sections 1 and 3-7, named after the rule.

use crate::common;
use common::*;
use tresillo_core::Question;
use tresillo_core::*;

const E: Option<Suit> = Some(Suit::Espadas);
const B: Option<Suit> = Some(Suit::Bastos);
const C: Option<Suit> = Some(Suit::Copas);
const O: Option<Suit> = Some(Suit::Oros);

fn legal(hand: &str, trump: Option<Suit>, led: &str) -> String {
    legal_moves(cs(hand), trump, Some(card(led))).to_string()
}

fn winner(cards: &str, trump: Option<Suit>) -> usize {
    let v: Vec<Card> = cards.split_whitespace().map(card).collect();
    let fast = trick_winner(&v, trump);
    assert_eq!(fast, tables::reference::trick_winner(&v, trump), "fast and reference disagree on {cards}");
    fast
}

// ---- Section 1: card orders -------------------------------------------------

#[test]
fn long_trump_order_is_espada_mala_basto_then_king_down_to_three() {
    let t = tables::table(E);
    let order: Vec<String> = t.trump_order[..t.num_trumps as usize].iter().map(|c| c.to_string()).collect();
    assert_eq!(order.join(" "), "1E 2E 1B 12E 11E 10E 7E 6E 5E 4E 3E");
    let t = tables::table(B);
    let order: Vec<String> = t.trump_order[..t.num_trumps as usize].iter().map(|c| c.to_string()).collect();
    assert_eq!(order.join(" "), "1E 2B 1B 12B 11B 10B 7B 6B 5B 4B 3B");
}

#[test]
fn round_trump_order_has_the_punto_fourth() {
    let t = tables::table(O);
    let order: Vec<String> = t.trump_order[..t.num_trumps as usize].iter().map(|c| c.to_string()).collect();
    assert_eq!(order.join(" "), "1E 7O 1B 1O 12O 11O 10O 2O 3O 4O 5O 6O");
    // The punto beats the king of trumps, and the 2 beats the 3 in a round trump.
    assert_eq!(winner("12C 1C 5O", C), 1);
    assert_eq!(winner("3C 2C 5O", C), 1);
}

#[test]
fn estuche_is_espada_mala_basto() {
    assert_eq!(tables::table(E).estuche, cs("1E 2E 1B"));
    assert_eq!(tables::table(C).estuche, cs("1E 7C 1B"));
    assert_eq!(tables::table(O).estuche, cs("1E 7O 1B"));
}

#[test]
fn long_plain_suit_runs_king_down_to_two() {
    // Oros trumps: batons are a plain long suit, 7 beats 2, the king beats all.
    assert_eq!(winner("2B 7B 12B", O), 2);
    assert_eq!(winner("7B 2B 3B", O), 0);
}

#[test]
fn round_plain_suit_runs_king_ace_two_down_to_seven() {
    // Espadas trumps: copas plain; the ace beats the 2, the 2 beats the 7.
    assert_eq!(winner("7C 2C 1C", E), 2);
    assert_eq!(winner("10C 1C 11C", E), 2);
    assert_eq!(winner("7C 6C 5C", E), 2);
}

#[test]
fn permanent_trumps_belong_to_every_trump_suit() {
    for t in [E, B, C, O] {
        let ts = tables::table(t).trumps;
        assert!(ts.contains(Card::ESPADA) && ts.contains(Card::BASTO));
    }
    // Copas trumps: the basto beats the king of copas.
    assert_eq!(winner("12C 1B 3B", C), 1);
}

#[test]
fn no_trump_orders_for_nolo() {
    assert_eq!(winner("2E 1E 7E", None), 2);
    assert_eq!(winner("1E 2E 3E", None), 2);
    assert_eq!(winner("7O 1O 2O", None), 1);
}

// ---- Section 5: following and winning --------------------------------------

#[test]
fn must_follow_the_plain_suit_led() {
    assert_eq!(legal("3C 5C 12O 1E", O, "4C"), "3C 5C");
}

#[test]
fn void_in_the_suit_led_may_play_anything() {
    assert_eq!(legal("12O 1E 3B", O, "4C"), "1E 3B 12O");
}

#[test]
fn espada_is_a_trump_not_a_sword_for_following() {
    // Copas trumps, a sword led: the espada does not count as a sword.
    assert_eq!(legal("1E 4C 12O", C, "5E"), "1E 4C 12O");
    assert_eq!(legal("1E 3E 4C", C, "5E"), "3E");
    // Bastos trumps, a baton led is a trump lead: the basto must answer it.
    assert_eq!(legal("1B 12O", B, "5B"), "1B 12O");
    assert_eq!(legal("1B 3B 12O", B, "5B"), "1B 3B");
}

#[test]
fn lower_trump_led_does_not_force_estuche() {
    assert_eq!(legal("1E 7O 12C", O, "5O"), "1E 12C 7O");
}

#[test]
fn lower_trump_led_forces_a_common_trump() {
    assert_eq!(legal("1E 3O 12C", O, "5O"), "1E 3O");
}

#[test]
fn higher_estuche_led_forces_lower_estuche() {
    // The espada led forces the mala and the basto.
    assert_eq!(legal("7O 12C", O, "1E"), "7O");
    assert_eq!(legal("1B 12C", O, "1E"), "1B");
    // The mala led forces the basto but not the espada.
    assert_eq!(legal("1B 12C", O, "7O"), "1B");
    assert_eq!(legal("1E 12C", O, "7O"), "1E 12C");
    // The basto led forces nothing above it.
    assert_eq!(legal("1E 7O 12C", O, "1B"), "1E 12C 7O");
}

#[test]
fn espada_played_second_forces_nobody() {
    // 5O led, the espada played second; the third player holds only the basto as
    // trump: only the card led forces, so any card may be played.
    let mut p = PlayState::new([cs("5O 2C"), cs("1E 3C"), cs("1B 12C")], O, Seat(0));
    p.play_unchecked(card("5O"));
    p.play_unchecked(card("1E"));
    assert_eq!(p.legal_moves(), cs("1B 12C"));
}

#[test]
fn only_estuche_trumps_left_may_play_any_card() {
    assert_eq!(legal("1E 1B 12C", E, "4E"), "1E 1B 12C");
    // ... but a common trump among them obliges a trump.
    assert_eq!(legal("1E 1B 12C 3E", E, "4E"), "1E 3E 1B");
    assert_eq!(legal("1E 2E 1B 12C", E, "4E"), "1E 2E 1B 12C");
}

#[test]
fn punto_is_a_forceable_trump_in_a_round_suit() {
    // The punto (ace of the round trump) is the fourth trump, not estuche: forced.
    assert_eq!(legal("1O 12C", O, "6O"), "1O");
}

#[test]
fn higher_estuche_may_be_played_voluntarily_when_a_trump_is_required() {
    assert_eq!(legal("1E 7O 3O 12C", O, "5O"), "1E 3O 7O");
}

#[test]
fn privilege_exists_only_in_trump_contracts() {
    // No trump: the espada is a sword like any other and must follow swords.
    assert_eq!(legal("1E 12C", None, "5E"), "1E");
}

#[test]
fn highest_trump_wins_else_highest_of_suit_led() {
    assert_eq!(winner("12C 3O 11C", O), 1);
    assert_eq!(winner("5C 12E 11C", O), 2); // the king of swords is off-suit
    assert_eq!(winner("3O 1E 7O", O), 1);
    assert_eq!(winner("7O 1B 1O", O), 0);
}

#[test]
fn mano_leads_the_first_trick_and_the_winner_leads_the_next() {
    let mut h = hand(STRONG, 0);
    auto_until(&mut h, |h| h.phase() == Phase::Play);
    assert_eq!(h.request().seat(), Some(Seat(1)));
    // Seat 1 leads trumps and wins; it must lead again.
    auto_until(&mut h, |h| h.public().tricks_done == 1);
    assert_eq!(h.public().trick_winners(), &[Seat(1)]);
    assert_eq!(h.request().seat(), Some(Seat(1)));
}

// ---- Section 3: auction -----------------------------------------------------

#[test]
fn auction_starts_with_mano_and_goes_in_turn_order() {
    let mut h = hand(MIXED, 2);
    assert_eq!(h.request().seat(), Some(Seat(0)));
    ok(&mut h, Decision::Bid(Bid::Level(1)));
    assert_eq!(h.request().seat(), Some(Seat(1)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    assert_eq!(h.request().seat(), Some(Seat(2)));
}

#[test]
fn a_bid_must_be_higher_except_a_player_with_priority_may_equal() {
    let mut h = hand(MIXED, 0); // mano 1, medio 2, postre 0
    ok(&mut h, Decision::Bid(Bid::Level(1)));
    assert!(matches!(h.request(), Request::Bid { seat: Seat(2), min_level: 2, .. }));
    let e = rejected(&mut h, Decision::Bid(Bid::Level(1)));
    assert!(matches!(e, HandError::IllegalBid { .. }));
    assert_eq!(e.to_string(), "illegal bid juego: this player may say juego más (2), juego más (3) or paso");
    ok(&mut h, Decision::Bid(Bid::Level(2)));
    assert!(matches!(h.request(), Request::Bid { seat: Seat(0), min_level: 3, .. }));
    ok(&mut h, Decision::Bid(Bid::Paso));
    // Mano may equal medio's 2.
    assert!(matches!(h.request(), Request::Bid { seat: Seat(1), min_level: 2, .. }));
    ok(&mut h, Decision::Bid(Bid::Level(2)));
    assert!(matches!(h.request(), Request::Bid { seat: Seat(2), min_level: 3, .. }));
    ok(&mut h, Decision::Bid(Bid::Level(3)));
    ok(&mut h, Decision::Bid(Bid::Level(3)));
    // Medio cannot outbid mano's solo: only paso is legal.
    assert!(matches!(h.request(), Request::Bid { seat: Seat(2), min_level: 4, max_level: 3 }));
    assert_eq!(h.request().legal_decisions(CardSet::EMPTY), vec![Decision::Bid(Bid::Paso)]);
    rejected(&mut h, Decision::Bid(Bid::Level(3)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    assert_eq!(h.phase(), Phase::Declare);
    assert_eq!(h.public().declarer, Some(Seat(1)));
    assert_eq!(h.public().level, 3);
}

#[test]
fn a_pass_is_final() {
    let mut h = hand(MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Paso)); // mano out
    ok(&mut h, Decision::Bid(Bid::Level(1))); // medio
    ok(&mut h, Decision::Bid(Bid::Level(2))); // postre
    // Mano has passed: medio speaks next, not mano.
    assert_eq!(h.request().seat(), Some(Seat(2)));
    ok(&mut h, Decision::Bid(Bid::Level(3)));
    assert_eq!(h.request().seat(), Some(Seat(0)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    assert_eq!(h.public().declarer, Some(Seat(2)));
    assert!(h.public().bids().iter().filter(|b| b.seat == Seat(1)).count() == 1);
}

#[test]
fn the_auction_ends_when_one_bidder_is_left() {
    let mut h = hand(MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Level(1)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Paso));
    assert_eq!(h.phase(), Phase::Declare);
    assert_eq!(h.public().declarer, Some(Seat(1)));
    assert_eq!(h.public().bids().len(), 3);
}

#[test]
fn the_last_player_still_speaks_after_two_passes() {
    let mut h = hand(MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Paso));
    assert_eq!(h.phase(), Phase::Auction);
    assert_eq!(h.request().seat(), Some(Seat(0)));
}

#[test]
fn declarer_names_a_contract_at_least_as_high_as_the_level_won() {
    let mut h = hand(MIXED, 0);
    ok(&mut h, Decision::Bid(Bid::Level(2)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Paso));
    rejected(&mut h, Decision::Declare(Contract::Entrada, O));
    rejected(&mut h, Decision::Declare(Contract::Vuelta, O)); // vuelta names no suit
    rejected(&mut h, Decision::Declare(Contract::Solo, None)); // solo names a suit
    ok(&mut h, Decision::Declare(Contract::Solo, O));
    assert_eq!(h.public().contract, Some(Contract::Solo));
    assert_eq!(h.public().trump, O);
}

#[test]
fn espada_forzada_when_all_pass() {
    let mut h = hand(MIXED, 0); // the espada is in seat 0
    for _ in 0..3 {
        ok(&mut h, Decision::Bid(Bid::Paso));
    }
    assert_eq!(h.request(), Request::Declare { seat: Seat(0), min_level: 1, forced: true });
    rejected(&mut h, Decision::Declare(Contract::Solo, O));
    rejected(&mut h, Decision::Declare(Contract::Vuelta, None));
    ok(&mut h, Decision::Declare(Contract::Entrada, Some(Suit::Copas)));
    assert!(h.public().forced);
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert!(r.forced);
    assert_eq!(r.declarer, Some(Seat(0)));
}

#[test]
fn all_pass_with_the_espada_in_the_heap_cancels_the_hand() {
    let d = "3E 5E 7E 12E 6B 7B 1C 4C 4O / 2E 6E 10E 4B 2C 3C 7C 1O 2O / 3B 5B 10B 11B 6C 10C 11C 3O 11O / 12C 12O 6O 12B 11E 5O 1B 5C 7O 4E 10O 1E 2B";
    let mut h = hand(d, 0);
    for _ in 0..3 {
        ok(&mut h, Decision::Bid(Bid::Paso));
    }
    assert!(h.is_done());
    let r = h.result().unwrap();
    assert_eq!(r.outcome, Outcome::Cancelled);
    assert_eq!(r.declarer, None);
    rejected(&mut h, Decision::Bid(Bid::Paso));
}

#[test]
fn a_decision_of_the_wrong_kind_is_rejected() {
    let mut h = hand(MIXED, 0);
    let e = rejected(&mut h, Decision::Play(card("1E")));
    assert_eq!(e, HandError::WrongKind { expected: DecisionKind::Bid, got: DecisionKind::Play });
}

// ---- Section 4: exchange ------------------------------------------------------

fn win_auction(h: &mut Hand, contract: Contract, trump: Option<Suit>) {
    ok(h, Decision::Bid(Bid::Level(contract.level())));
    while h.phase() == Phase::Auction {
        ok(h, Decision::Bid(Bid::Paso));
    }
    ok(h, Decision::Declare(contract, trump));
}

#[test]
fn declarer_discards_and_draws_from_the_top_of_the_heap() {
    let mut h = hand(MIXED, 0);
    win_auction(&mut h, Contract::Entrada, O);
    assert_eq!(h.request(), Request::Discard { seat: Seat(1), min: 0, max: 9 });
    ok(&mut h, Decision::Discard(cs("6E 10E 4B")));
    assert_eq!(h.hand_of(Seat(1)), cs("2E 2C 3C 7C 1O 2O 12C 12O 6O"));
    assert_eq!(h.discards_of(Seat(1)), cs("6E 10E 4B"));
    assert_eq!(h.public().exchanged[Seat(1)], Some(3));
    assert_eq!(h.public().heap_left, 10);
}

#[test]
fn discards_must_come_from_the_hand() {
    let mut h = hand(MIXED, 0);
    win_auction(&mut h, Contract::Entrada, O);
    assert!(matches!(rejected(&mut h, Decision::Discard(cs("1E"))), HandError::IllegalDiscard(_)));
}

#[test]
fn vuelta_turns_the_top_card_for_trumps_and_draws_it_first() {
    let mut h = hand(MIXED, 0);
    win_auction(&mut h, Contract::Vuelta, None);
    assert_eq!(h.public().turned, Some(card("12C")));
    assert_eq!(h.public().trump, Some(Suit::Copas));
    // At least one card must be exchanged in vuelta.
    assert_eq!(h.request(), Request::Discard { seat: Seat(1), min: 1, max: 9 });
    rejected(&mut h, Decision::Discard(CardSet::EMPTY));
    ok(&mut h, Decision::Discard(cs("4B")));
    assert!(h.hand_of(Seat(1)).contains(card("12C")));
}

#[test]
fn solo_declarer_does_not_exchange() {
    let mut h = hand(MIXED, 0);
    win_auction(&mut h, Contract::Solo, O);
    assert_eq!(h.request(), Request::Word { seat: Seat(2) });
    assert_eq!(h.public().exchanged[Seat(1)], None);
}

fn conversation(words: &[Word]) -> Hand {
    let mut h = hand(MIXED, 0);
    win_auction(&mut h, Contract::Solo, O);
    for w in words {
        assert_eq!(h.phase(), Phase::Conversation);
        ok(&mut h, Decision::Word(*w));
    }
    h
}

#[test]
fn conversation_starts_with_the_opponent_after_the_declarer_and_alternates() {
    let mut h = hand(MIXED, 0);
    win_auction(&mut h, Contract::Solo, O);
    assert_eq!(h.request().seat(), Some(Seat(2)));
    ok(&mut h, Decision::Word(Word::Vienen));
    assert_eq!(h.request().seat(), Some(Seat(0)));
}

#[test]
fn conversation_agreements_decide_the_first_opponent() {
    use Word::*;
    let fo = |w: &[Word]| conversation(w).public().first_opponent;
    assert_eq!(fo(&[Vienen, Van]), Some(Seat(2)));
    assert_eq!(fo(&[Van, Vienen]), Some(Seat(0)));
    assert_eq!(fo(&[Vienen, ComoQuiera]), Some(Seat(2)));
    assert_eq!(fo(&[ComoQuiera, Vienen]), Some(Seat(0)));
    assert_eq!(fo(&[ComoQuiera, Van]), Some(Seat(2)));
    assert_eq!(fo(&[Van, ComoQuiera]), Some(Seat(0)));
}

#[test]
fn conversation_compares_the_latest_statements() {
    use Word::*;
    // vienen/vienen disagree; then seat 2 says van: (van, vienen) -> seat 0 first.
    let h = conversation(&[Vienen, Vienen, Van]);
    assert_eq!(h.public().first_opponent, Some(Seat(0)));
    let h = conversation(&[ComoQuiera, ComoQuiera]);
    assert_eq!(h.public().first_opponent, None);
    // (van, como quiera): the one who did not ask to go second goes first.
    let h = conversation(&[ComoQuiera, ComoQuiera, Van]);
    assert_eq!(h.public().first_opponent, Some(Seat(0)));
}

#[test]
fn after_three_rounds_without_agreement_the_first_speaker_goes_first() {
    use Word::*;
    // Only repeating the other's word avoids agreement: both insist on "van".
    let h = conversation(&[Van, Van, Van, Van, Van]);
    assert_eq!(h.public().first_opponent, None);
    let h = conversation(&[Van, Van, Van, Van, Van, Van]);
    assert_eq!(h.public().first_opponent, Some(Seat(2)));
    assert_eq!(h.public().words().len(), 6);
    assert_eq!(h.phase(), Phase::FirstOpponentExchange);
}

#[test]
fn opponents_exchange_first_then_second_with_what_is_left() {
    let mut h = hand(MIXED, 0);
    win_auction(&mut h, Contract::Entrada, O);
    ok(&mut h, Decision::Discard(cs("6E 10E 4B 2C"))); // heap 13 -> 9
    ok(&mut h, Decision::Word(Word::Van));
    ok(&mut h, Decision::Word(Word::Vienen)); // seat 0 first
    assert_eq!(h.request(), Request::Discard { seat: Seat(0), min: 0, max: 9 });
    ok(&mut h, Decision::Discard(cs("5E 7E 12E 6B 7B 1C 4C")));
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 0, max: 2 });
    rejected(&mut h, Decision::Discard(cs("3B 5B 10B")));
    ok(&mut h, Decision::Discard(cs("3B 5B")));
    assert_eq!(h.public().heap_left, 0);
    assert_eq!(h.phase(), Phase::Play);
    for s in 0..3 {
        assert_eq!(h.hand_of(Seat(s)).len(), 9);
    }
}

#[test]
fn the_view_shows_exchange_counts_but_not_others_discards() {
    let mut h = hand(MIXED, 0);
    win_auction(&mut h, Contract::Entrada, O);
    ok(&mut h, Decision::Discard(cs("6E 10E 4B")));
    let v = h.view(Seat(2));
    assert_eq!(v.public().exchanged[Seat(1)], Some(3));
    assert_eq!(v.discards(), CardSet::EMPTY);
    assert!(v.known_cards().is_disjoint(h.discards_of(Seat(1))));
    assert_eq!(h.view(Seat(1)).discards(), cs("6E 10E 4B"));
}

// ---- Sections 6 and 7: surrender, primeras, bola, outcome ------------------------

fn strong_solo() -> Hand {
    let mut h = hand(STRONG, 0);
    win_auction(&mut h, Contract::Solo, E);
    auto_until(&mut h, |h| h.phase() == Phase::Ask(Question::BOLA));
    h
}

#[test]
fn five_straight_tricks_ask_primeras_or_bola() {
    let h = strong_solo();
    assert_eq!(h.request(), Request::Ask { seat: Seat(1), question: Question::BOLA });
    assert_eq!(h.public().tricks[Seat(1)], 5);
}

#[test]
fn stopping_after_five_tricks_wins_with_primeras() {
    let mut h = strong_solo();
    ok(&mut h, Decision::Answer(Question::BOLA, false));
    assert!(h.is_done());
    let r = h.result().unwrap();
    assert_eq!(r.outcome, Outcome::Sacado);
    assert!(r.primeras && !r.bola_attempted);
    assert_eq!(r.trick_winners.len(), 5);
    assert!(r.estuche);
}

#[test]
fn playing_on_for_bola_and_winning_all_nine_makes_it() {
    let mut h = strong_solo();
    ok(&mut h, Decision::Answer(Question::BOLA, true));
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert!(r.bola_attempted && r.bola_made && !r.primeras);
    assert_eq!(r.tricks[Seat(1)], 9);
}

#[test]
fn a_failed_bola_is_still_a_won_contract() {
    // Seat 1 holds eight top espadas and a plain card it must lose a trick with.
    let d = "3B 4B 5B 6B 7B 10B 11B 12B 2C / 1E 2E 1B 12E 11E 10E 7E 6E 3C / 1C 4C 5C 6C 7C 10C 11C 12C 5E / 1O 2O 3O 4O 5O 6O 7O 10O 11O 12O 4E 3E 2B";
    let mut h = hand(d, 0);
    win_auction(&mut h, Contract::Solo, E);
    auto_until(&mut h, |h| h.phase() == Phase::Ask(Question::BOLA));
    ok(&mut h, Decision::Answer(Question::BOLA, true));
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert!(r.bola_attempted && !r.bola_made);
    assert_eq!(r.outcome, Outcome::Sacado);
}

#[test]
fn solo_cannot_be_surrendered() {
    let mut h = hand(STRONG, 0);
    win_auction(&mut h, Contract::Solo, E);
    auto_until(&mut h, |h| h.public().tricks_done == 4);
    assert_eq!(h.public().surrendered, None);
}

fn entrada_to_surrender() -> Hand {
    let mut h = hand(STRONG, 0);
    win_auction(&mut h, Contract::Entrada, E);
    auto_until(&mut h, |h| h.phase() == Phase::Ask(Question::SURRENDER));
    h
}

#[test]
fn surrender_is_offered_after_the_third_trick_in_entrada() {
    let h = entrada_to_surrender();
    assert_eq!(h.public().tricks_done, 3);
    assert!(h.public().current_trick().is_empty());
    assert_eq!(h.request(), Request::Ask { seat: Seat(1), question: Question::SURRENDER });
}

#[test]
fn playing_on_after_the_surrender_offer_continues_the_hand() {
    let mut h = entrada_to_surrender();
    ok(&mut h, Decision::Answer(Question::SURRENDER, false));
    assert_eq!(h.phase(), Phase::Play);
    auto_until(&mut h, |_| false);
    assert!(h.result().unwrap().surrender.is_none());
}

#[test]
fn surrender_without_takeover_is_a_puesta() {
    let mut h = entrada_to_surrender();
    ok(&mut h, Decision::Answer(Question::SURRENDER, true));
    assert_eq!(h.request(), Request::Ask { seat: Seat(2), question: Question::TAKE_OVER });
    ok(&mut h, Decision::Answer(Question::TAKE_OVER, false));
    assert_eq!(h.request(), Request::Ask { seat: Seat(0), question: Question::TAKE_OVER });
    ok(&mut h, Decision::Answer(Question::TAKE_OVER, false));
    let r = h.result().unwrap();
    assert_eq!(r.outcome, Outcome::Puesta { kind: PuestaKind::Surrendered });
    assert_eq!(r.surrender, Some(SurrenderRecord { by: Seat(1), took_over: None }));
}

#[test]
fn yo_sigo_takes_over_with_the_same_trumps_and_tricks_stay() {
    let mut h = entrada_to_surrender();
    ok(&mut h, Decision::Answer(Question::SURRENDER, true));
    ok(&mut h, Decision::Answer(Question::TAKE_OVER, true));
    assert_eq!(h.public().declarer, Some(Seat(2)));
    assert_eq!(h.public().trump, E);
    assert_eq!(h.public().tricks[Seat(1)], 3);
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert_eq!(r.final_declarer(), Some(Seat(2)));
    assert_eq!(r.declarer, Some(Seat(1)));
    // Seat 1, holding every trump, took all nine: the new declarer is codillo'd.
    assert_eq!(r.outcome, Outcome::Codillo { winner: Seat(1) });
}

#[test]
fn outcome_sacado_codillo_and_puestas() {
    let o = |d: u8, a: u8, b: u8| Outcome::from_tricks(d, &[(Seat(1), a), (Seat(2), b)]);
    assert_eq!(o(5, 2, 2), Outcome::Sacado);
    assert_eq!(o(4, 3, 2), Outcome::Sacado);
    assert_eq!(o(3, 4, 2), Outcome::Codillo { winner: Seat(1) });
    assert_eq!(o(2, 2, 5), Outcome::Codillo { winner: Seat(2) });
    assert_eq!(o(4, 4, 1), Outcome::Puesta { kind: PuestaKind::Plain });
    assert_eq!(o(3, 3, 3), Outcome::Puesta { kind: PuestaKind::Sabia });
    assert_eq!(o(1, 4, 4), Outcome::Puesta { kind: PuestaKind::Real });
    assert_eq!(o(2, 4, 3), Outcome::Codillo { winner: Seat(1) });
    assert_eq!(o(3, 3, 2), Outcome::Puesta { kind: PuestaKind::Plain });
}

#[test]
fn the_hand_result_records_the_hand() {
    let mut h = hand(MIXED, 0);
    win_auction(&mut h, Contract::Entrada, O);
    auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert_eq!(r.dealer, Seat(0));
    assert_eq!(r.contract, Some(Contract::Entrada));
    assert_eq!(r.trump, O);
    assert_eq!(r.bids.len(), 3);
    assert_eq!(r.tricks.0.iter().sum::<u8>(), 9);
    assert_eq!(r.trick_winners.len(), 9);
    assert!(r.first_opponent.is_some());
    assert_eq!(r.deal.map(|d| d.to_string()).as_deref(), Some(MIXED));
}
