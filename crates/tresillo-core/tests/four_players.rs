//! Four-player `tresillo` (RULES.md section 12.2, with sections 2 and 8 for n = 4):
//! one test per rule, named after it, with payments computed by hand; then
//! property tests over random four-player hands.

use crate::common;
use tresillo_core::Question;

use common::{card, cs, ok, rejected};
use proptest::prelude::*;
use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_pcg::Pcg64Mcg;
use tresillo_core::*;

/// Seat 0 deals and sits out; seat 1 (mano) holds every sword but the espada, seat 2
/// the bastos with the basto, seat 3 copas; the espada is the heap's top card.
const PENETRO: &str = "- / 2E 3E 4E 5E 6E 7E 10E 11E 12E / 1B 2B 3B 4B 5B 6B 7B 10B 11B / 12B 1C 2C 3C 4C 5C 6C 7C 10C / 1E 11C 12C 1O 2O 3O 4O 5O 6O 7O 10O 11O 12O";

/// The same hands with the espada dealt to seat 3 (and 12B in the heap).
const FORZADA: &str = "- / 2E 3E 4E 5E 6E 7E 10E 11E 12E / 1B 2B 3B 4B 5B 6B 7B 10B 11B / 1E 1C 2C 3C 4C 5C 6C 7C 10C / 12B 11C 12C 1O 2O 3O 4O 5O 6O 7O 10O 11O 12O";

fn four(deal: &str, dealer: u8, rules: Rules) -> Hand {
    Hand::with_rules(rules, 4, Deal::parse(deal).unwrap(), Seat(dealer)).unwrap()
}

fn all_play() -> Rules {
    Rules::parse("tresillo", &[("penetro_all_play", "true")]).unwrap()
}

/// All three active players pass.
fn all_pass(h: &mut Hand) {
    for _ in 0..3 {
        ok(h, Decision::Bid(Bid::Paso));
    }
}

/// The dealer of [`PENETRO`] penetra: top ten, oros trumps, discards 11C.
fn penetro_in_oros(h: &mut Hand) {
    all_pass(h);
    ok(h, Decision::Penetro(HeapEnd::Top));
    ok(h, Decision::Answer(Question::SURRENDER, false));
    ok(h, Decision::Declare(Contract::Entrada, Some(Suit::Oros)));
    ok(h, Decision::Discard(cs("11C")));
}

fn play(h: &mut Hand, cards: &str) {
    for c in cards.split_whitespace() {
        ok(h, Decision::Play(card(c)));
    }
}

fn score4(rules: Rules, r: &HandResult) -> HandScore {
    let mut l = Ledger::new(LedgerConfig::with_rules(rules, 4)).unwrap();
    let before = l.tokens();
    let s = l.apply(r).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    assert_eq!(l.tokens(), before, "tokens are conserved");
    s
}

fn seats4(v: BySeat<i64>) -> [i64; 4] {
    v.0
}

// ---------------------------------------------------------------- deal and auction

#[test]
fn the_dealer_sits_out_holding_no_cards_and_the_deal_says_so() {
    let h = four(PENETRO, 0, Rules::default());
    assert_eq!(h.hand_of(Seat(0)), CardSet::EMPTY);
    assert_eq!(h.view(Seat(0)).hand(), CardSet::EMPTY);
    for s in 1..4 {
        assert_eq!(h.hand_of(Seat(s)).len(), 9);
    }
    // The deal prints with the dealer's hand as `-` and reads back.
    assert_eq!(h.deal().to_string(), PENETRO);
    // A dealer holding cards, or an active player without, is refused.
    let bad = Deal::parse(PENETRO).unwrap();
    assert!(matches!(Hand::new(RuleSet::TRESILLO, 4, bad, Seat(1)), Err(HandError::InvalidDeal(_))));
    // Seating a three-hand deal at four leaves the dealer's seat empty.
    let three = Deal::parse(common::MIXED).unwrap();
    let seated = three.seated(tresillo_core::Table::FOUR_WITH_PENETRO, Seat(1));
    assert_eq!(seated.hands.0[1], CardSet::EMPTY);
    assert_eq!(seated.hands.0[0], three.hands.0[0]);
    assert_eq!(seated.hands.0[2], three.hands.0[1]);
    assert_eq!(seated.hands.0[3], three.hands.0[2]);
    assert!(Hand::new(RuleSet::TRESILLO, 4, seated, Seat(1)).is_ok());
}

#[test]
fn mano_is_the_player_after_the_dealer_and_only_the_three_active_players_bid() {
    let mut h = four(PENETRO, 0, Rules::default());
    let mut speakers = Vec::new();
    while let Request::Bid { seat, .. } = h.request() {
        speakers.push(seat.0);
        ok(&mut h, Decision::Bid(Bid::Paso));
    }
    assert_eq!(speakers, [1, 2, 3]);
    assert_eq!(h.public().mano(), Seat(1));
}

#[test]
fn the_dealer_rotates_over_four_seats() {
    // Seat 3 deals: seat 0 is mano.
    let deal = Deal::parse(common::MIXED).unwrap().seated(tresillo_core::Table::FOUR_WITH_PENETRO, Seat(3));
    let h = Hand::new(RuleSet::TRESILLO, 4, deal, Seat(3)).unwrap();
    assert_eq!(h.request(), Request::Bid { seat: Seat(0), min_level: 1, max_level: 3 });
}

#[test]
fn a_bid_against_two_is_played_by_three_and_the_dealer_takes_no_trick() {
    let mut h = four(PENETRO, 0, Rules::default());
    ok(&mut h, Decision::Bid(Bid::Level(3)));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Bid(Bid::Paso));
    ok(&mut h, Decision::Declare(Contract::Solo, Some(Suit::Espadas)));
    assert_eq!(h.public().opponents(), Some([Seat(2), Seat(3)]));
    // The opponents' conversation, then their exchange.
    ok(&mut h, Decision::Word(Word::Vienen));
    ok(&mut h, Decision::Word(Word::Van));
    assert_eq!(h.public().first_opponent, Some(Seat(2)));
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    common::auto_until(&mut h, |_| false);
    let r = h.result().unwrap();
    assert!(!r.penetro);
    assert_eq!(r.tricks[Seat(0)], 0);
    // Nine tricks, or five when the declarer stopped with primeras.
    let n = if r.primeras { 5 } else { 9 };
    assert_eq!(r.trick_winners.len(), n);
    assert_eq!(r.tricks.0.iter().sum::<u8>() as usize, n);
    score4(Rules::default(), &r);
}

#[test]
fn espada_forzada_at_four_when_an_active_player_holds_the_espada() {
    let mut h = four(FORZADA, 0, Rules::default());
    all_pass(&mut h);
    assert_eq!(h.request(), Request::Declare { seat: Seat(3), min_level: 1, forced: true });
    assert!(!h.public().penetro.active);
}

// ---------------------------------------------------------------- the penetro

#[test]
fn all_pass_with_the_espada_in_the_heap_the_dealer_penetra() {
    let mut h = four(PENETRO, 0, Rules::default());
    all_pass(&mut h);
    assert_eq!(h.request(), Request::Penetro { seat: Seat(0) });
    assert!(h.public().penetro.active);
    assert_eq!(h.public().declarer, Some(Seat(0)));
}

#[test]
fn penetro_takes_the_top_or_the_bottom_ten_and_leaves_three_for_the_exchange() {
    let mut h = four(PENETRO, 0, Rules::default());
    all_pass(&mut h);
    let mut top = h;
    ok(&mut top, Decision::Penetro(HeapEnd::Top));
    assert_eq!(top.hand_of(Seat(0)), cs("1E 11C 12C 1O 2O 3O 4O 5O 6O 7O"));
    assert_eq!(top.heap_remaining(), cs("10O 11O 12O"));
    assert_eq!(top.public().heap_left, 3);
    ok(&mut h, Decision::Penetro(HeapEnd::Bottom));
    assert_eq!(h.hand_of(Seat(0)), cs("1O 2O 3O 4O 5O 6O 7O 10O 11O 12O"));
    assert_eq!(h.heap_remaining(), cs("1E 11C 12C"));
    // The choice is public; the cards are not.
    for s in 1..4 {
        let v = h.view(Seat(s));
        assert_eq!(v.public().penetro.heap_end, Some(HeapEnd::Bottom));
        assert!(v.known_cards().is_disjoint(h.hand_of(Seat(0)) | h.heap_remaining()));
    }
    // The dealer is asked whether to give up at once.
    assert_eq!(h.request(), Request::Ask { seat: Seat(0), question: Question::SURRENDER });
}

#[test]
fn penetro_given_up_at_once_is_paid_as_a_puesta_plus_the_penetro_condicion() {
    let mut h = four(PENETRO, 0, Rules::default());
    all_pass(&mut h);
    ok(&mut h, Decision::Penetro(HeapEnd::Top));
    ok(&mut h, Decision::Answer(Question::SURRENDER, true));
    assert!(h.is_done());
    let r = h.result().unwrap();
    assert!(r.penetro);
    assert_eq!(r.contract, None);
    assert_eq!(r.outcome, Outcome::Puesta { kind: PuestaKind::Surrendered });
    assert_eq!(r.surrender, Some(SurrenderRecord { by: Seat(0), took_over: None }));
    assert_eq!(r.tricks.0, [0; 4]);
    // Plato: a pajarito (5) and the dealer's tanto (1); AIP = 6 + n = 10, paid into
    // the plato by the dealer, who also pays the penetro's 1 to each of the three.
    let s = score4(Rules::default(), &r);
    assert_eq!((s.case, s.aip), (AipCase::FirstPuesta, 10));
    assert_eq!(seats4(s.pool), [-1 - 10, 0, 0, 0]);
    assert_eq!(seats4(s.condiciones), [-3, 1, 1, 1]);
}

#[test]
fn penetro_names_trumps_as_an_entrada_and_discards_exactly_one_card_drawing_none() {
    let mut h = four(PENETRO, 0, Rules::default());
    all_pass(&mut h);
    ok(&mut h, Decision::Penetro(HeapEnd::Top));
    ok(&mut h, Decision::Answer(Question::SURRENDER, false));
    assert_eq!(h.request(), Request::Declare { seat: Seat(0), min_level: 1, forced: true });
    let e = rejected(&mut h, Decision::Declare(Contract::Solo, Some(Suit::Oros)));
    assert!(matches!(e, HandError::IllegalContract(_)));
    ok(&mut h, Decision::Declare(Contract::Entrada, Some(Suit::Oros)));
    assert_eq!(h.request(), Request::Discard { seat: Seat(0), min: 1, max: 1 });
    rejected(&mut h, Decision::Discard(cs("11C 12C")));
    rejected(&mut h, Decision::Discard(CardSet::EMPTY));
    ok(&mut h, Decision::Discard(cs("11C")));
    assert_eq!(h.hand_of(Seat(0)).len(), 9);
    assert_eq!(h.discards_of(Seat(0)), cs("11C"));
    assert_eq!(h.heap_remaining(), cs("10O 11O 12O"));
    assert_eq!(h.request(), Request::DropOut { seat: Seat(1) });
}

#[test]
fn drop_out_the_first_me_voy_drops_out() {
    let mut h = four(PENETRO, 0, Rules::default());
    penetro_in_oros(&mut h);
    ok(&mut h, Decision::DropOut(DropWord::MeQuedo));
    ok(&mut h, Decision::DropOut(DropWord::MeVoy));
    assert_eq!(h.public().penetro.dropped, Some(Seat(2)));
    assert_eq!(h.public().opponents(), Some([Seat(1), Seat(3)]));
    // Then the first-opponent conversation of the two left, the first after the dealer first.
    assert_eq!(h.request(), Request::Word { seat: Seat(1) });
}

#[test]
fn drop_out_after_a_round_the_last_puedo_irme_else_the_last_speaker() {
    let mut h = four(PENETRO, 0, Rules::default());
    penetro_in_oros(&mut h);
    let mut g = h;
    for w in [DropWord::PuedoIrme, DropWord::PuedoIrme, DropWord::PuedoQuedarme] {
        ok(&mut h, Decision::DropOut(w));
    }
    assert_eq!(h.public().penetro.dropped, Some(Seat(2)));
    for w in [DropWord::MeQuedo, DropWord::PuedoQuedarme, DropWord::MeQuedo] {
        ok(&mut g, Decision::DropOut(w));
    }
    assert_eq!(g.public().penetro.dropped, Some(Seat(3)));
    // Everyone sees the conversation.
    assert_eq!(g.view(Seat(0)).public().penetro.words().len(), 3);
}

/// The dealer of [`PENETRO`] in oros; seat 1 drops out; seats 2 and 3 keep their
/// cards. Seat 2 leads (mano dropped out), then seat 3, then the dealer.
fn penetro_seat_1_out() -> Hand {
    let mut h = four(PENETRO, 0, Rules::default());
    penetro_in_oros(&mut h);
    ok(&mut h, Decision::DropOut(DropWord::MeVoy));
    ok(&mut h, Decision::Word(Word::Vienen));
    ok(&mut h, Decision::Word(Word::Van));
    assert_eq!(h.public().first_opponent, Some(Seat(2)));
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    h
}

#[test]
fn penetro_mano_leads_or_the_next_active_player_if_mano_dropped_out() {
    let h = penetro_seat_1_out();
    assert!(matches!(h.request(), Request::Play { seat: Seat(2), .. }));
    // Seat 3 drops out instead: mano leads.
    let mut g = four(PENETRO, 0, Rules::default());
    penetro_in_oros(&mut g);
    for w in [DropWord::MeQuedo, DropWord::MeQuedo, DropWord::MeVoy] {
        ok(&mut g, Decision::DropOut(w));
    }
    ok(&mut g, Decision::Word(Word::Vienen));
    ok(&mut g, Decision::Word(Word::Van));
    ok(&mut g, Decision::Discard(CardSet::EMPTY));
    ok(&mut g, Decision::Discard(CardSet::EMPTY));
    assert!(matches!(g.request(), Request::Play { seat: Seat(1), .. }));
}

#[test]
fn penetro_cannot_be_surrendered_after_play_starts_and_a_won_penetro_is_paid_the_penetro_and_primeras() {
    let mut h = penetro_seat_1_out();
    // Seat 2 leads a baton, seat 3 follows with 12B, the dealer trumps.
    play(&mut h, "2B 12B 2O");
    // The espada forces the basto.
    assert!(matches!(h.request(), Request::Play { seat: Seat(0), .. }));
    play(&mut h, "1E");
    assert_eq!(h.request(), Request::Play { seat: Seat(2), legal: cs("1B") });
    play(&mut h, "1B 1C");
    play(&mut h, "7O 3B 2C");
    // After the third trick: no surrender question in a penetro.
    assert!(matches!(h.request(), Request::Play { seat: Seat(0), .. }));
    play(&mut h, "1O 4B 3C");
    play(&mut h, "3O 5B 4C");
    assert_eq!(h.request(), Request::Ask { seat: Seat(0), question: Question::BOLA });
    let mut bola = h;
    ok(&mut h, Decision::Answer(Question::BOLA, false));
    let r = h.result().unwrap();
    assert!(r.penetro && r.primeras);
    assert_eq!(r.outcome, Outcome::Sacado);
    assert_eq!(r.tricks.0, [5, 0, 0, 0]);
    // The dealer pays the tanto, takes the plato (6) and 1 from each of the three;
    // condiciones: penetro 1 + entrada 0 + primeras 1 from each of the three (the
    // player who dropped out included). No estuche: the basto was not the dealer's.
    let s = score4(Rules::default(), &r);
    assert_eq!((s.case, s.aip), (AipCase::FirstPuesta, 10));
    assert_eq!(seats4(s.pool), [-1 + 6 + 3, -1, -1, -1]);
    assert_eq!(seats4(s.condiciones), [6, -2, -2, -2]);

    // Playing on: bola made is 8 from each, on top of the penetro's 1.
    ok(&mut bola, Decision::Answer(Question::BOLA, true));
    play(&mut bola, "4O 6B 5C 5O 7B 6C 6O 10B 7C 12C 11B 10C");
    let r = bola.result().unwrap();
    assert!(r.bola_made);
    assert_eq!(r.tricks.0, [9, 0, 0, 0]);
    let s = score4(Rules::default(), &r);
    assert_eq!(seats4(s.condiciones), [27, -9, -9, -9]);
}

#[test]
fn penetro_outcome_counts_only_the_two_who_stayed() {
    // Seat 1 drops out; the dealer takes 4, seat 2 four, seat 3 one: a puesta
    // (4-4-1), paid as a puesta of the first-puesta case.
    let mut h = penetro_seat_1_out();
    let mut steps = 0;
    while !h.is_done() {
        steps += 1;
        assert!(steps < 100);
        let req = h.request();
        let seat = req.seat().unwrap();
        let d = req.legal_decisions(h.hand_of(seat))[0];
        ok(&mut h, d);
    }
    let r = h.result().unwrap();
    assert_eq!(r.tricks[Seat(1)], 0);
    let stayed = [(Seat(2), r.tricks[Seat(2)]), (Seat(3), r.tricks[Seat(3)])];
    assert_eq!(r.outcome, Outcome::from_tricks(r.tricks[Seat(0)], &stayed));
    score4(Rules::default(), &r);
}

// ---------------------------------------------------------------- penetro_all_play

#[test]
fn penetro_all_play_nobody_drops_out_the_three_exchange_in_turn_order_and_tricks_have_four_cards() {
    let rules = all_play();
    let mut h = four(PENETRO, 0, rules);
    penetro_in_oros(&mut h);
    assert_eq!(h.request(), Request::Discard { seat: Seat(1), min: 0, max: 3 });
    ok(&mut h, Decision::Discard(cs("2E")));
    assert_eq!(h.hand_of(Seat(1)).len(), 9);
    assert_eq!(h.request(), Request::Discard { seat: Seat(2), min: 0, max: 2 });
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    assert_eq!(h.request(), Request::Discard { seat: Seat(3), min: 0, max: 2 });
    ok(&mut h, Decision::Discard(CardSet::EMPTY));
    // Mano leads; the dealer plays fourth.
    assert!(matches!(h.request(), Request::Play { seat: Seat(1), .. }));
    assert_eq!(h.public().trick_size(), 4);
    // Seat 1 drew 10O: it leads 3E, the others void in swords.
    play(&mut h, "3E 2B 1C 2O");
    assert_eq!(h.public().trick(0).len(), 4);
    assert_eq!(h.public().trick_winners(), &[Seat(0)]);
    play(&mut h, "1E");
    // The espada forces seat 1's 10O and seat 2's basto.
    assert!(matches!(h.request(), Request::Play { seat: Seat(1), legal } if legal == cs("10O")));
    play(&mut h, "10O 1B 2C");
    play(&mut h, "7O 4E 3B 3C 1O 5E 4B 4C 3O 6E 5B 5C");
    ok(&mut h, Decision::Answer(Question::BOLA, false));
    let r = h.result().unwrap();
    assert_eq!(r.outcome, Outcome::Sacado);
    assert_eq!(r.trick_winners.len(), 5);
    let s = score4(rules, &r);
    assert_eq!(seats4(s.pool), [8, -1, -1, -1]);
    assert_eq!(seats4(s.condiciones), [6, -2, -2, -2]);
}

#[test]
fn penetro_all_play_outcomes_follow_section_7_with_three_opponents() {
    let t = |d: u8, o: [u8; 3]| Outcome::from_tricks(d, &[(Seat(1), o[0]), (Seat(2), o[1]), (Seat(3), o[2])]);
    assert_eq!(t(3, [2, 2, 2]), Outcome::Sacado);
    assert_eq!(t(2, [3, 2, 2]), Outcome::Codillo { winner: Seat(1) });
    assert_eq!(t(3, [3, 2, 1]), Outcome::Puesta { kind: PuestaKind::Plain });
    assert_eq!(t(2, [3, 3, 1]), Outcome::Puesta { kind: PuestaKind::Plain });
}

#[test]
fn penetro_all_play_is_refused_at_a_table_of_three() {
    let rules = all_play();
    assert!(rules.check_players(3).is_err());
    assert!(rules.check_players(4).is_ok());
    let deal = Deal::parse(common::MIXED).unwrap();
    assert!(matches!(Hand::with_rules(rules, 3, deal, Seat(0)), Err(HandError::Unsupported { .. })));
    // And a three-player rule set is refused at four.
    assert!(
        Hand::new(
            RuleSet::TRESILLO_HOUSE,
            4,
            deal.seated(tresillo_core::Table::FOUR_WITH_PENETRO, Seat(0)),
            Seat(0)
        )
        .is_err()
    );
}

#[test]
fn four_hand_deals_parse_and_print() {
    let d = Deal::parse(PENETRO).unwrap();
    assert_eq!(d.hands.0[0], CardSet::EMPTY);
    assert_eq!(d.to_string(), PENETRO);
    assert!(Deal::parse("- / - / 1E / 2E / 3E").is_err());
}

// ---------------------------------------------------------------- properties

fn shuffled(seed: u64) -> [Card; 40] {
    let mut v: Vec<Card> = Card::all().collect();
    v.shuffle(&mut Pcg64Mcg::seed_from_u64(seed));
    v.try_into().unwrap()
}

/// A random four-player hand: bids pass with probability `pass` (so that penetros
/// come often), other decisions uniformly among the legal ones. Checks the
/// invariants at every step and scores the result in `ledger`.
fn check_random_four(
    seed: u64,
    rules: Rules,
    dealer: Seat,
    ledger: &mut Ledger,
) -> Result<HandResult, TestCaseError> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let deal =
        Deal::from_pack(&shuffled(seed)).unwrap().seated(tresillo_core::Table::FOUR_WITH_PENETRO, dealer);
    let mut h = Hand::with_rules(rules, 4, deal, dealer).unwrap();
    let mut steps = 0;
    while let Some(seat) = h.request().seat() {
        steps += 1;
        prop_assert!(steps < 200);
        let all_seats = [Seat(0), Seat(1), Seat(2), Seat(3)];
        let mut all = CardSet::EMPTY;
        for p in all_seats
            .iter()
            .flat_map(|&s| [h.hand_of(s), h.discards_of(s)])
            .chain([h.heap_remaining(), h.public().played()])
        {
            prop_assert!(all.is_disjoint(p));
            all |= p;
        }
        prop_assert_eq!(all, CardSet::FULL);
        prop_assert_eq!(h.heap_remaining().len(), u32::from(h.public().heap_left));
        // The dealer holds cards only in a penetro; a player who dropped out plays none.
        if !h.public().penetro.active {
            prop_assert!(h.hand_of(dealer).is_empty());
        }
        for s in all_seats {
            let v = h.view(s);
            prop_assert_eq!(v.hand(), h.hand_of(s));
            let mut hidden = h.heap_remaining();
            for o in all_seats.iter().filter(|o| **o != s) {
                hidden |= h.hand_of(*o) | h.discards_of(*o);
            }
            if let Some(t) = h.public().turned {
                hidden = hidden.remove(t); // turned face up: public
            }
            prop_assert!(v.known_cards().is_disjoint(hidden));
            prop_assert_eq!(v.request().seat().is_some(), s == seat);
        }
        let req = h.request();
        if let Request::Play { legal, .. } = req {
            prop_assert!(!legal.is_empty() && h.hand_of(seat).is_superset(legal));
            prop_assert!(h.public().playing() & (1 << seat.0) != 0);
        }
        let d = match req {
            Request::Bid { .. } if rng.random_bool(0.8) => Decision::Bid(Bid::Paso),
            Request::Discard { min, max, .. } => {
                let mut cards: Vec<Card> = h.hand_of(seat).iter().collect();
                cards.shuffle(&mut rng);
                let k = rng.random_range(min..=max) as usize;
                Decision::Discard(cards[..k].iter().copied().collect())
            }
            _ => {
                let all = req.legal_decisions_in(&rules, h.hand_of(seat));
                all[rng.random_range(0..all.len())]
            }
        };
        h.apply(d).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
    let r = h.result().unwrap();
    prop_assert!(!r.is_cancelled());
    let played = r.trick_winners.len();
    prop_assert_eq!(r.tricks.0.iter().map(|t| *t as usize).sum::<usize>(), played);
    let cut_short = r.primeras || r.outcome == Outcome::Puesta { kind: PuestaKind::Surrendered };
    if !cut_short {
        prop_assert_eq!(played, 9);
        prop_assert_eq!(h.public().plays().len(), 9 * h.public().trick_size() as usize);
    }
    if r.penetro && !rules.penetro_all_play() && played > 0 {
        let out = h.public().penetro.dropped.expect("someone dropped out");
        prop_assert_eq!(r.tricks[out], 0);
    }
    if !r.penetro {
        prop_assert_eq!(r.tricks[dealer], 0);
    }
    ledger.apply(&r).map_err(|e| TestCaseError::fail(format!("{e}: {r:?}")))?;
    Ok(r)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_four_player_sessions_conserve_cards_hide_cards_play_nine_tricks_and_score(
        seed in any::<u64>(),
        all_play in any::<bool>(),
    ) {
        let rules = if all_play { self::all_play() } else { Rules::default() };
        let mut ledger = Ledger::new(LedgerConfig::with_rules(rules, 4)).unwrap();
        let tokens = ledger.tokens();
        for i in 0..8u64 {
            check_random_four(seed.wrapping_add(i), rules, Seat((i % 4) as u8), &mut ledger)?;
        }
        prop_assert_eq!(ledger.tokens(), tokens);
    }
}

#[test]
fn random_four_player_hands_reach_every_penetro_path() {
    let mut seen = [false; 4]; // given up, dropped out and played, all play, ordinary
    for rules in [Rules::default(), all_play()] {
        let mut ledger = Ledger::new(LedgerConfig::with_rules(rules, 4)).unwrap();
        for i in 0..200u64 {
            let r = check_random_four(i, rules, Seat((i % 4) as u8), &mut ledger).unwrap();
            let gave_up = r.surrender.is_some() && r.penetro;
            seen[0] |= gave_up;
            seen[1] |= r.penetro && !gave_up && !rules.penetro_all_play();
            seen[2] |= r.penetro && !gave_up && rules.penetro_all_play();
            seen[3] |= !r.penetro;
        }
    }
    assert_eq!(seen, [true; 4]);
}

// The table shape (src/table.rs).
mod table {
    use tresillo_core::{RuleSet, Rules, Seat, Table};
    #[test]
    fn table_three_and_four_players() {
        let three = Rules::default().table(3);
        assert_eq!(three, Table::THREE);
        assert!(three.every_seat_plays() && !three.penetro);
        assert_eq!((three.hands(), three.active_seats(Seat(1))), (3, 0b111));
        assert!((0..3).all(|s| three.active(Seat(s), Seat(1))));
        assert_eq!(three.sits_out(Seat(1)), None);
        let four = Rules::default().table(4);
        assert!(!four.every_seat_plays() && four.penetro);
        assert_eq!((four.hands(), four.active_seats(Seat(1))), (3, 0b1101));
        assert_eq!(four.sits_out(Seat(1)), Some(Seat(1)));
        assert!(!four.active(Seat(1), Seat(1)) && four.active(Seat(3), Seat(1)));
        assert_eq!((three.players_word(), four.players_word()), ("three", "four"));
        assert_eq!(four.describe(), "4: the dealer sits out, penetro when all pass (RULES.md section 12.2)");
        // Every three-player table of every rule set: everyone plays.
        for set in RuleSet::BUILT_IN {
            assert_eq!(Rules::from(set).table(3), Table::THREE, "{set}");
        }
    }

    /// The seating, the seats that play and the outcome ask the table, not the
    /// number of players: a table of four where everyone plays (no rule set
    /// declares one today) has no seat out, and one whose dealer sits out without
    /// a penetro has none to play.
    #[test]
    fn table_of_four_where_everyone_plays_has_no_seat_out() {
        use tresillo_core::{BySeat, Deal, Outcome, PenetroState, outcome_of, playing_seats};
        let t = Table::every_seat(4);
        assert_eq!((t.hands(), t.active_seats(Seat(2)), t.sits_out(Seat(2))), (4, 0b1111, None));
        let idle = Table { penetro: false, ..Table::FOUR_WITH_PENETRO };
        assert_eq!(idle.describe(), "4: the dealer sits out");
        let deal = Deal::parse_partial("1E / 2E / 3E / 4E").unwrap();
        assert_eq!(deal.seated(t, Seat(0)), deal);
        assert_ne!(deal.seated(Table::FOUR_WITH_PENETRO, Seat(0)), deal);
        assert!(deal.seated(Table::FOUR_WITH_PENETRO, Seat(0)).hands.0[0].is_empty());
        let none = PenetroState::default();
        assert_eq!(playing_seats(t, Seat(1), &none), 0b1111);
        assert_eq!(playing_seats(Table::FOUR_WITH_PENETRO, Seat(1), &none), 0b1101);
        // Seat 0 declares with four tricks; the dealer, seat 1, took five: an
        // opponent where everyone plays (a codillo), nobody where the dealer sits out.
        let tricks = BySeat([4, 5, 0, 0]);
        assert_eq!(outcome_of(t, Seat(1), Seat(0), false, &tricks), Outcome::Codillo { winner: Seat(1) });
        assert_eq!(outcome_of(Table::FOUR_WITH_PENETRO, Seat(1), Seat(0), false, &tricks), Outcome::Sacado);
    }
}
