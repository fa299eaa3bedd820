//! The solver against a slow, plain minimax written here from the rules (it shares
//! no search code with the solver: only `PlayState`'s play/undo and legal moves,
//! and `Outcome::from_tricks` for the class of final counts).

use proptest::prelude::*;
use tresillo_agents::{Class, Position, SolverContext, below, rng_from_seed, shuffled_pack};
use tresillo_core::tables::table;
use tresillo_core::{Card, CardSet, Outcome, PlayState, Seat, Suit};

/// The class of finished play, read from `Outcome::from_tricks`.
fn class_of(p: &PlayState, d: Seat) -> Class {
    let (a, b) = (d.next(3), d.plus(2, 3));
    let o = Outcome::from_tricks(p.tricks[d.index()], &[(a, p.tricks[a.index()]), (b, p.tricks[b.index()])]);
    match o {
        Outcome::Sacado => Class::Sacado,
        Outcome::Codillo { .. } => Class::Codillo,
        _ => Class::Puesta,
    }
}

/// Plain minimax: the declarer maximizes the class, the opponents minimize it.
fn minimax(p: &mut PlayState, d: Seat) -> Class {
    if p.is_over() {
        return class_of(p, d);
    }
    let maximize = p.to_move == d;
    let mut best = if maximize { Class::Codillo } else { Class::Sacado };
    for c in p.legal_moves() {
        let u = p.play_unchecked(c);
        let v = minimax(p, d);
        p.undo(u);
        best = if maximize { best.max(v) } else { best.min(v) };
    }
    best
}

/// Plain minimax on the declarer's final trick count.
fn max_tricks(p: &mut PlayState, d: Seat) -> u8 {
    if p.is_over() {
        return p.tricks[d.index()];
    }
    let maximize = p.to_move == d;
    let mut best = if maximize { 0 } else { u8::MAX };
    for c in p.legal_moves() {
        let u = p.play_unchecked(c);
        let v = max_tricks(p, d);
        p.undo(u);
        best = if maximize { best.max(v) } else { best.min(v) };
    }
    best
}

/// A random position with `n` tricks left (1..=5): `n` cards per hand from a
/// shuffled pack, random trump, declarer and leader, 0 to 2 random legal cards of
/// the trick in progress, and the other tricks split at random.
fn random_position(seed: u64, n: usize) -> (PlayState, Seat) {
    let mut rng = rng_from_seed(seed);
    let pack = shuffled_pack(seed ^ 0x5EED);
    let hands = [0, 1, 2].map(|i| pack[i * n..(i + 1) * n].iter().copied().collect::<CardSet>());
    let trump = Suit::ALL[below(&mut rng, 4) as usize];
    let leader = Seat(below(&mut rng, 3) as u8);
    let declarer = Seat(below(&mut rng, 3) as u8);
    let mut p = PlayState::new(hands, Some(trump), leader);
    let mut left = 9 - n as u32;
    for s in 0..2 {
        let k = below(&mut rng, left + 1);
        p.tricks[s] = k as u8;
        left -= k;
    }
    p.tricks[2] = left as u8;
    for _ in 0..below(&mut rng, 3) {
        let l = p.legal_moves();
        let c = l.nth(below(&mut rng, l.len())).unwrap();
        p.play_unchecked(c);
    }
    (p, declarer)
}

fn check(seed: u64, n: usize, ctx: &mut SolverContext) {
    let (mut p, d) = random_position(seed, n);
    let pos = Position::from_play_state(&p, d).unwrap();
    let sol = ctx.solve(&pos);
    let want = minimax(&mut p, d);
    assert_eq!(sol.value, want, "seed {seed} n {n}: {pos:?}");
    assert_eq!(ctx.value(&pos), want, "seed {seed} n {n}");
    let legal = p.legal_moves();
    assert_eq!(sol.cards().len() as u32, legal.len());
    let (value, found) = ctx.value_and_card(&pos);
    assert_eq!(value, want, "seed {seed} n {n} value_and_card");
    let mut reps = [Card::ESPADA; 10];
    assert_eq!(ctx.representatives(&pos, &mut reps) as u32, legal.len());
    // Bounds from the value's searches, the root trying a seed-chosen card first.
    let k = legal.len() as usize;
    let (mut lo, mut hi) = ([Class::Codillo; 10], [Class::Sacado; 10]);
    let first = reps[seed as usize % k];
    let v = ctx.value_bounds(&pos, Some(first), &reps[..k], &mut lo[..k], &mut hi[..k]);
    assert_eq!(v, want, "seed {seed} n {n} value_bounds");
    for (i, c) in legal.iter().enumerate() {
        let u = p.play_unchecked(c);
        let v = minimax(&mut p, d);
        p.undo(u);
        assert_eq!(sol.class_of(c), Some(v), "seed {seed} n {n} card {c}: {pos:?}");
        if found == Some(c) {
            assert_eq!(v, want, "seed {seed} n {n}: the card found has the value's class");
        }
        assert!(legal.contains(reps[i]), "seed {seed} n {n}: a representative is legal");
        assert_eq!(sol.class_of(reps[i]), Some(v), "seed {seed} n {n}: {c} and {}", reps[i]);
        assert!(
            lo[i] <= v && v <= hi[i],
            "seed {seed} n {n}: bounds {:?}..{:?} of {} ({v})",
            lo[i],
            hi[i],
            reps[i]
        );
        for t in Class::ALL {
            assert_eq!(ctx.card_at_least(&pos, c, t), v >= t, "seed {seed} n {n} card {c} at least {t}");
        }
    }
    if let Some(c) = found {
        assert!(legal.contains(c), "seed {seed} n {n}: the card found is legal");
    }
    let best = max_tricks(&mut p, d);
    let all = p.tricks[d.index()] + n as u8;
    assert_eq!(ctx.can_take_all(&pos), best == all, "seed {seed} n {n} bola");
    for k in 0..=9 {
        assert_eq!(ctx.can_reach(&pos, k), best >= k, "seed {seed} n {n} k {k}");
    }
    for c in Class::ALL {
        assert_eq!(ctx.at_least(&pos, c), want >= c, "seed {seed} n {n} at least {c}");
    }
}

#[test]
fn solver_equals_minimax_with_one_to_four_tricks_left() {
    let mut ctx = SolverContext::with_table_bits(12);
    for seed in 0..3000u64 {
        check(seed, 1 + (seed % 4) as usize, &mut ctx);
    }
}

#[test]
fn solver_equals_minimax_with_five_tricks_left() {
    let mut ctx = SolverContext::new();
    for seed in 0..300u64 {
        check(seed + 1_000_000, 5, &mut ctx);
    }
}

/// Maps every card still out to another card so that each effective suit keeps its
/// cards' order and the estuche cards stay estuche cards: an order-preserving
/// random injection per effective suit (and per estuche / other trumps). Played
/// cards leave gaps, so this moves cards across them.
fn relabel(p: &PlayState, seed: u64) -> PlayState {
    let t = table(p.trump);
    let mut rng = rng_from_seed(seed);
    let mut out_cards = CardSet::EMPTY;
    for s in 0..3 {
        out_cards |= p.hands[s];
    }
    for c in &p.trick[..p.trick_len as usize] {
        out_cards.insert(*c);
    }
    let mut map = [None::<Card>; 64];
    let mut groups: Vec<Vec<Card>> = Vec::new();
    for s in 0..4 {
        let mut g: Vec<Card> = t.suit_mask[s].iter().collect();
        g.sort_by_key(|c| t.power[c.bit() as usize]);
        groups.push(g);
    }
    let trumps: Vec<Card> = t.trump_order[..t.num_trumps as usize].iter().rev().copied().collect();
    let (low, est) = trumps.split_at(trumps.len() - 3);
    groups.push(low.to_vec());
    groups.push(est.to_vec());
    for g in groups {
        let mine: Vec<Card> = g.iter().copied().filter(|c| out_cards.contains(*c)).collect();
        // Choose mine.len() positions of g at random, in order.
        let mut pos: Vec<usize> = (0..g.len()).collect();
        for i in (1..pos.len()).rev() {
            pos.swap(i, below(&mut rng, i as u32 + 1) as usize);
        }
        let mut chosen: Vec<usize> = pos[..mine.len()].to_vec();
        chosen.sort_unstable();
        for (c, i) in mine.iter().zip(chosen) {
            map[c.bit() as usize] = Some(g[i]);
        }
    }
    let m = |c: Card| map[c.bit() as usize].unwrap();
    let mut q = *p;
    for s in 0..3 {
        q.hands[s] = p.hands[s].iter().map(m).collect();
    }
    for i in 0..p.trick_len as usize {
        q.trick[i] = m(p.trick[i]);
    }
    q
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Moving the cards still out across the gaps the played cards left (keeping
    /// every order) changes no class.
    #[test]
    fn classes_are_invariant_under_equivalent_relabeling(seed in any::<u64>(), n in 1usize..=5) {
        let (p, d) = random_position(seed, n);
        let q = relabel(&p, seed.rotate_left(17));
        let mut ctx = SolverContext::with_table_bits(12);
        let a = ctx.solve(&Position::from_play_state(&p, d).unwrap());
        let mut fresh = SolverContext::with_table_bits(12);
        let b = fresh.solve(&Position::from_play_state(&q, d).unwrap());
        prop_assert_eq!(a.value, b.value);
        let mut va: Vec<Class> = a.cards().iter().map(|x| x.1).collect();
        let mut vb: Vec<Class> = b.cards().iter().map(|x| x.1).collect();
        va.sort();
        vb.sort();
        prop_assert_eq!(va, vb);
    }

    /// A table full of other positions' entries, or a cleared one, gives the same
    /// answers.
    #[test]
    fn answers_do_not_depend_on_the_table(seeds in proptest::collection::vec(any::<u64>(), 1..8), n in 1usize..=5) {
        let mut shared = SolverContext::with_table_bits(10);
        let mut answers = Vec::new();
        for &s in &seeds {
            let (p, d) = random_position(s, n);
            let pos = Position::from_play_state(&p, d).unwrap();
            answers.push((shared.solve(&pos), shared.can_take_all(&pos)));
        }
        shared.clear();
        for (&s, want) in seeds.iter().zip(&answers).rev() {
            let (p, d) = random_position(s, n);
            let pos = Position::from_play_state(&p, d).unwrap();
            prop_assert_eq!(&(shared.solve(&pos), shared.can_take_all(&pos)), want);
            let mut fresh = SolverContext::with_table_bits(8);
            prop_assert_eq!(&(fresh.solve(&pos), fresh.can_take_all(&pos)), want);
        }
    }
}
