//! Property tests: the invariants of cards, legal moves, hands and views.
//!
//! Among them: the legal cards are a subset of the hand, the fast forms equal the
//! reference forms, cards are conserved, views hide the other seats' cards, a hand
//! plays its tricks, `undo` undoes.

use proptest::prelude::*;
use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_pcg::Pcg64Mcg;
use tresillo_core::*;

fn any_trump() -> impl Strategy<Value = Option<Suit>> {
    prop_oneof![Just(None), (0usize..4).prop_map(Suit::try_index)]
}

fn shuffled(seed: u64) -> [Card; 40] {
    let mut v: Vec<Card> = Card::all().collect();
    v.shuffle(&mut Pcg64Mcg::seed_from_u64(seed));
    v.try_into().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn legal_set_is_a_nonempty_subset_and_matches_the_reference(
        seed in any::<u64>(), size in 1usize..=9, trump in any_trump(), leads in any::<bool>()
    ) {
        let pack = shuffled(seed);
        let hand: CardSet = pack[..size].iter().copied().collect();
        let led = if leads { Some(pack[39]) } else { None };
        let fast = legal_moves(hand, trump, led);
        prop_assert!(!fast.is_empty());
        prop_assert!(hand.is_superset(fast));
        let v: Vec<Card> = hand.iter().collect();
        let slow: CardSet = tables::reference::legal(&v, trump, led).into_iter().collect();
        prop_assert_eq!(fast, slow);
    }

    #[test]
    fn trick_winner_matches_the_reference(seed in any::<u64>(), trump in any_trump()) {
        let pack = shuffled(seed);
        let cards = &pack[..3];
        prop_assert_eq!(trick_winner(cards, trump), tables::reference::trick_winner(cards, trump));
    }

    #[test]
    fn play_then_undo_restores_the_position(seed in any::<u64>(), trump in 0usize..5, plies in 0usize..27) {
        let pack = shuffled(seed);
        let hands = [0, 1, 2].map(|s| pack[s * 9..s * 9 + 9].iter().copied().collect::<CardSet>());
        let mut p = PlayState::new(hands, Suit::try_index(trump), Seat((seed % 3) as u8));
        let start = p;
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut undos = Vec::new();
        let mut states = Vec::new();
        for _ in 0..plies {
            let l = p.legal_moves();
            let c = l.nth(rng.random_range(0..l.len())).unwrap();
            states.push(p);
            undos.push(p.play_unchecked(c));
        }
        // Every intermediate position comes back, trick in progress included.
        while let Some(u) = undos.pop() {
            p.undo(u);
            let s = states.pop().unwrap();
            prop_assert_eq!(p, s);
            prop_assert_eq!(p.led(), s.led());
        }
        prop_assert_eq!(p, start);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The register-based playout equals the card-by-card reference for the same
    /// choices, from any point of the play (mid-trick included).
    #[test]
    fn fast_playouts_equal_the_reference(seed in any::<u64>(), trump in 0usize..5, plies in 0usize..27) {
        let pack = shuffled(seed);
        let hands = [0, 1, 2].map(|s| pack[s * 9..s * 9 + 9].iter().copied().collect::<CardSet>());
        let mut p = PlayState::new(hands, Suit::try_index(trump), Seat((seed % 3) as u8));
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for _ in 0..plies {
            let l = p.legal_moves();
            p.play_unchecked(l.nth(rng.random_range(0..l.len())).unwrap());
        }
        let (mut fast, mut slow) = (p, p);
        let (mut r1, mut r2) = (Pcg64Mcg::seed_from_u64(!seed), Pcg64Mcg::seed_from_u64(!seed));
        fast.playout(|n| r1.random_range(0..n));
        slow.playout_reference(|n| r2.random_range(0..n));
        prop_assert_eq!(fast, slow);
        prop_assert!(fast.is_over());
        prop_assert_eq!(fast.tricks.iter().map(|t| u32::from(*t)).sum::<u32>(), 9);
    }
}

/// Plays a random hand, checking the invariants at every step.
fn check_random_hand(seed: u64) -> Result<(), TestCaseError> {
    check_random_hand_of(Rules::default(), seed)
}

/// [`check_random_hand`] under `rules`.
fn check_random_hand_of(rules: Rules, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let deal = Deal::from_pack(&shuffled(seed)).unwrap();
    let mut h = Hand::with_rules(rules, 3, deal, Seat(rng.random_range(0..3))).unwrap();
    let mut steps = 0;
    while let Some(seat) = h.request().seat() {
        steps += 1;
        prop_assert!(steps < 200);
        // Cards are conserved: hands, discards, heap and played cards partition the pack.
        let parts = [
            h.hand_of(Seat(0)),
            h.hand_of(Seat(1)),
            h.hand_of(Seat(2)),
            h.discards_of(Seat(0)) | h.discards_of(Seat(1)) | h.discards_of(Seat(2)),
            h.heap_remaining(),
            h.public().played(),
        ];
        let mut all = CardSet::EMPTY;
        for p in parts {
            prop_assert!(all.is_disjoint(p));
            all |= p;
        }
        prop_assert_eq!(all, CardSet::FULL);
        prop_assert_eq!(h.heap_remaining().len(), u32::from(h.public().heap_left));
        // A view never holds hidden cards.
        for s in 0..3 {
            let v = h.view(Seat(s));
            prop_assert_eq!(v.hand(), h.hand_of(Seat(s)));
            prop_assert_eq!(v.discards(), h.discards_of(Seat(s)));
            let mut hidden = h.heap_remaining();
            for o in (0..3).filter(|o| *o != s) {
                hidden |= h.hand_of(Seat(o)) | h.discards_of(Seat(o));
            }
            if let Some(t) = h.public().turned {
                hidden = hidden.remove(t); // turned face up: public
            }
            if let Some(e) = h.public().exposed {
                // Nolo ouvert: laid face up by the declarer, public.
                prop_assert_eq!(h.public().declarer.map(|d| h.hand_of(d) - e), Some(CardSet::EMPTY));
                hidden = hidden - e;
            }
            prop_assert!(v.known_cards().is_disjoint(hidden));
            prop_assert_eq!(v.request().seat().is_some(), Seat(s) == seat);
        }
        // A random decision: legal ones apply; a random illegal card is rejected.
        let req = h.request();
        if let Request::Play { legal, .. } = req {
            prop_assert!(!legal.is_empty() && h.hand_of(seat).is_superset(legal));
            let illegal = CardSet::FULL - legal;
            let bad = illegal.nth(rng.random_range(0..illegal.len())).unwrap();
            let before = h;
            prop_assert!(h.apply(Decision::Play(bad)).is_err());
            prop_assert_eq!(h, before);
        }
        let d = match req {
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
    let played = r.trick_winners.len();
    prop_assert_eq!(r.tricks.0.iter().map(|t| *t as usize).sum::<usize>(), played);
    let cut_short =
        r.primeras || r.is_cancelled() || r.outcome == Outcome::Puesta { kind: PuestaKind::Surrendered };
    if cut_short {
        prop_assert!(played < 9);
    } else {
        prop_assert_eq!(played, 9);
    }
    if r.primeras {
        prop_assert_eq!(played, 5);
        prop_assert_eq!(r.outcome, Outcome::Sacado);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn random_hands_conserve_cards_hide_cards_and_play_nine_tricks(seed in any::<u64>()) {
        check_random_hand(seed)?;
    }

    /// The same for `lhombre`, nolo contracts (no trump, nolo ouvert's hand laid
    /// face up) included.
    #[test]
    fn lhombre_random_hands_conserve_cards_hide_cards_and_play_nine_tricks(seed in any::<u64>()) {
        check_random_hand_of(Rules::from(RuleSet::LHOMBRE), seed)?;
    }
}
