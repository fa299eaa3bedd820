//! The sampler against brute force: on small constructed positions every
//! consistent world is found, counted and drawn equally often (chi-square), and
//! every world drawn anywhere is consistent and reproduces the viewer's view.

use crate::common;
use tresillo_core::Question;

use common::{advance, brute_force, check_world, hand, raw_assignments};
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};
use tresillo_agents::{Agent, RandomAgent, RuleAgent, Sampler, World, below, rng_from_seed, seat_rngs};
use tresillo_core::{
    Bid, Card, CardSet, Contract, Decision, Hand, Phase, PlayerView, Request, Rules, Seat, Suit, Word,
};

/// How a constructed hand goes: the contract (`None`: everyone passes, espada
/// forzada), the cards the declarer and the first opponent exchange, and how many
/// cards are played (randomly, legally) before the view is taken.
struct Script {
    seed: u64,
    contract: Option<(Contract, Option<Suit>)>,
    declarer_discards: u8,
    first_discards: u8,
    plies: usize,
}

/// Plays the script; `None` if the deal does not fit it (espada in the heap when
/// everyone passes, or the hand ends too early).
fn scripted(s: &Script) -> Option<Hand> {
    let mut h = hand(s.seed);
    let mut rng = rng_from_seed(s.seed ^ 0x5EED);
    let mut plies = 0;
    loop {
        let d = match h.request() {
            Request::Bid { seat, .. } => {
                let mano = h.public().mano();
                Decision::Bid(if s.contract.is_some() && seat == mano { Bid::Level(1) } else { Bid::Paso })
            }
            Request::Declare { .. } => match s.contract {
                Some((c, t)) => Decision::Declare(c, t),
                None => Decision::Declare(Contract::Entrada, Some(Suit::Oros)),
            },
            Request::Discard { seat, min, max } => {
                let k = if Some(seat) == h.public().declarer {
                    s.declarer_discards
                } else if h.public().phase == Phase::FirstOpponentExchange {
                    s.first_discards
                } else {
                    0
                };
                let k = k.clamp(min, max);
                // The first k cards in sort order (the espada first, if held).
                let mut set = CardSet::EMPTY;
                for c in h.hand_of(seat).iter().take(k as usize) {
                    set.insert(c);
                }
                Decision::Discard(set)
            }
            Request::Word { .. } => {
                Decision::Word(if h.public().words().is_empty() { Word::Vienen } else { Word::Van })
            }
            Request::Play { legal, .. } => {
                if plies == s.plies {
                    return Some(h);
                }
                plies += 1;
                Decision::Play(legal.nth(below(&mut rng, legal.len())).expect("a card"))
            }
            Request::Ask { question: Question::SURRENDER, .. } => {
                Decision::Answer(Question::SURRENDER, false)
            }
            Request::Ask { question: Question::TAKE_OVER, .. } => {
                Decision::Answer(Question::TAKE_OVER, false)
            }
            Request::Ask { question: Question::BOLA, .. } => Decision::Answer(Question::BOLA, true),
            // The script plays `tresillo`: hombre's decisions never come.
            r @ Request::Ask { .. } => r.legal_decisions(CardSet::EMPTY)[0],
            // Three-player scripts: a penetro (four players) does not fit.
            Request::Penetro { .. } | Request::DropOut { .. } | Request::Done => return None,
        };
        h.apply(d).expect("the script is legal");
    }
}

/// Wilson-Hilferty: the standard normal deviate of a chi-square statistic.
fn chi_square_z(stat: f64, df: f64) -> f64 {
    let m = 1.0 - 2.0 / (9.0 * df);
    ((stat / df).powf(1.0 / 3.0) - m) / (2.0 / (9.0 * df)).sqrt()
}

/// Brute force vs sampler on one view: same set, same count, uniform frequencies.
fn compare(view: &PlayerView, label: &str, seed: u64) {
    let (worlds, tried) = brute_force(view);
    let set: HashSet<World> = worlds.iter().copied().collect();
    assert_eq!(set.len(), worlds.len(), "{label}: brute force found duplicates");
    let s = Sampler::new(view).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(s.count(), worlds.len() as u128, "{label}: count vs brute force ({tried} assignments tried)");
    let mut visited = HashSet::new();
    s.for_each_world(|w| {
        assert!(set.contains(w), "{label}: enumerated an inconsistent world {w:?}");
        assert!(visited.insert(*w), "{label}: enumerated a world twice");
    });
    assert_eq!(visited.len(), set.len(), "{label}: enumeration missed worlds");
    let k = set.len();
    if k < 2 {
        return;
    }
    let per = 30usize;
    let n = (per * k).max(30_000);
    // Both ways of drawing: `sample` and `sample_fast` (the same distribution).
    for fast in [false, true] {
        let mut freq: HashMap<World, u64> = HashMap::with_capacity(k);
        let mut rng = rng_from_seed(seed);
        for _ in 0..n {
            let w = if fast { s.sample_fast(&mut rng) } else { s.sample(&mut rng) };
            assert!(set.contains(&w), "{label}: sampled an inconsistent world {w:?} (fast: {fast})");
            *freq.entry(w).or_default() += 1;
        }
        let e = n as f64 / k as f64;
        let stat: f64 = set.iter().map(|w| (*freq.get(w).unwrap_or(&0) as f64 - e).powi(2) / e).sum();
        let z = chi_square_z(stat, (k - 1) as f64);
        assert!(
            z < 4.5,
            "{label}: chi-square {stat:.1} with {} degrees of freedom (z = {z:.2}, fast: {fast})",
            k - 1
        );
        eprintln!(
            "{label}: {k} worlds of {tried} assignments, {n} samples, chi-square {stat:.1} / df {} (z {z:.2}, fast: {fast})",
            k - 1
        );
    }
}

/// Views of every seat at a scripted position.
fn views(h: &Hand) -> [PlayerView; 3] {
    [h.view(Seat(0)), h.view(Seat(1)), h.view(Seat(2))]
}

#[test]
fn uniform_over_consistent_worlds_on_small_positions() {
    let mut checked = 0;
    let scripts = [
        // Entrada, the heap emptied by the exchange; late in the hand.
        (Some((Contract::Entrada, Some(Suit::Copas))), 8, 5, 18),
        (Some((Contract::Entrada, Some(Suit::Espadas))), 8, 5, 19),
        (Some((Contract::Entrada, Some(Suit::Oros))), 8, 5, 20),
        (Some((Contract::Entrada, Some(Suit::Bastos))), 8, 5, 21),
        (Some((Contract::Entrada, Some(Suit::Copas))), 9, 4, 22),
        // Vuelta: the turned card sits in the declarer's hand until played.
        (Some((Contract::Vuelta, None)), 8, 5, 21),
        (Some((Contract::Vuelta, None)), 9, 4, 19),
        // Espada forzada: the declarer was dealt the espada (the script discards
        // the lowest cards first, so the espada may be among the discards).
        (None, 8, 5, 21),
        (None, 4, 9, 20),
        (None, 9, 4, 22),
    ];
    for (i, &(contract, dk, fk, plies)) in scripts.iter().enumerate() {
        let mut found = 0;
        for seed in 0..40u64 {
            let s = Script {
                seed: seed * 31 + i as u64,
                contract,
                declarer_discards: dk,
                first_discards: fk,
                plies,
            };
            let Some(h) = scripted(&s) else { continue };
            for v in views(&h) {
                let raw = raw_assignments(&v);
                if !(3..=40_000).contains(&raw) {
                    continue;
                }
                compare(&v, &format!("script {i} seed {} seat {}", s.seed, v.seat()), seed);
                found += 1;
                checked += 1;
            }
            if found >= 2 {
                break;
            }
        }
        assert!(found > 0, "script {i}: no position small enough");
    }
    assert!(checked >= 10);
}

/// A hand played by random and rule agents to decision `steps`.
fn random_position(seed: u64, steps: usize, rule_mask: u8) -> Hand {
    let mut h = hand(seed);
    let mut agents: Vec<Box<dyn Agent>> = (0..3)
        .map(|i| {
            if rule_mask >> i & 1 == 1 {
                Box::new(RuleAgent::default()) as Box<dyn Agent>
            } else {
                Box::new(RandomAgent)
            }
        })
        .collect();
    let mut rngs = seat_rngs(seed);
    advance(&mut h, &mut agents, &mut rngs, steps);
    h
}

/// The true hidden state of a hand as a world.
fn true_world(h: &Hand) -> World {
    let mut w = World::default();
    for s in 0..h.public().players {
        w.hands[Seat(s)] = h.hand_of(Seat(s));
        w.discards[Seat(s)] = h.discards_of(Seat(s));
    }
    w.heap = h.heap_remaining();
    w
}

#[test]
fn late_random_positions_match_brute_force() {
    // Positions reached by agents (rather than a script), small enough to enumerate.
    let mut done = 0;
    for seed in 0..400u64 {
        let h = random_position(seed, 60, (seed % 8) as u8);
        for v in views(&h) {
            let raw = raw_assignments(&v);
            if (3..=20_000).contains(&raw) {
                compare(&v, &format!("random seed {seed} seat {}", v.seat()), seed);
                done += 1;
            }
        }
        if done >= 6 {
            break;
        }
    }
    assert!(done > 0, "no small position found");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// Any view, at any point of any hand: the true world is consistent (a check of
    /// the checker), the sampler accepts the view, and every world it draws is
    /// consistent and reproduces the viewer's view exactly when replayed.
    #[test]
    fn sampled_worlds_reproduce_the_view(seed in any::<u64>(), steps in 0usize..50, seat in 0u8..3, mask in 0u8..8) {
        let h = random_position(seed, steps, mask);
        let view = h.view(Seat(seat));
        let truth = true_world(&h);
        prop_assert_eq!(check_world(&view, &truth), Ok(()));
        prop_assert_eq!(truth.play_state(&view), h.play_state());
        let s = Sampler::new(&view).expect("a real view has worlds");
        prop_assert!(s.count() >= 1);
        let mut rng = rng_from_seed(seed ^ 1);
        for i in 0..6 {
            let w = if i % 2 == 0 { s.sample(&mut rng) } else { s.sample_fast(&mut rng) };
            prop_assert_eq!(check_world(&view, &w), Ok(()));
            if let (Some(a), Some(b)) = (w.play_state(&view), h.play_state()) {
                prop_assert_eq!(a.hands[seat as usize], b.hands[seat as usize]);
                prop_assert_eq!((a.to_move, a.trick_len, a.tricks, a.tricks_done), (b.to_move, b.trick_len, b.tricks, b.tricks_done));
                prop_assert_eq!(a.legal_moves().is_empty(), b.legal_moves().is_empty());
            }
        }
    }
}

#[test]
fn turned_card_and_forced_espada_are_placed() {
    // Vuelta before the declarer exchanges: the turned card is the heap's top.
    for seed in 0..30u64 {
        let s = Script {
            seed,
            contract: Some((Contract::Vuelta, None)),
            declarer_discards: 3,
            first_discards: 2,
            plies: 4,
        };
        let Some(h) = scripted(&s) else { continue };
        let p = *h.public();
        let turned: Card = p.turned.expect("vuelta");
        let d = p.declarer.expect("declarer");
        for v in views(&h) {
            let sm = Sampler::new(&v).expect("worlds");
            let mut rng = rng_from_seed(seed);
            for _ in 0..20 {
                let w = sm.sample(&mut rng);
                if !p.played().contains(turned) {
                    assert!(w.hands[d].contains(turned));
                }
            }
        }
    }
    for seed in 0..60u64 {
        let s = Script { seed, contract: None, declarer_discards: 2, first_discards: 2, plies: 0 };
        let Some(h) = scripted(&s) else { continue };
        let d = h.public().declarer.expect("declarer");
        for v in views(&h) {
            if v.seat() == d {
                continue;
            }
            let sm = Sampler::new(&v).expect("worlds");
            let mut rng = rng_from_seed(seed);
            for _ in 0..20 {
                let w = sm.sample(&mut rng);
                assert!((w.hands[d] | w.discards[d]).contains(Card::ESPADA));
            }
        }
    }
}

/// A four-player hand (RULES.md section 12.2) of the deal of `seed`, played by
/// random (`rule_mask` bit clear) and rule agents until `plies` cards have been
/// played. With `penetro` every active player passes (a penetro when the espada is
/// in the heap, espada forzada otherwise) and the dealer never gives up at once.
/// `None` when the hand ends first.
fn four_position(seed: u64, all_play: bool, penetro: bool, plies: usize, rule_mask: u8) -> Option<Hand> {
    let rules =
        Rules::parse("tresillo", &[("penetro_all_play", if all_play { "true" } else { "false" })]).unwrap();
    let dealer = Seat((seed % 4) as u8);
    let deal = common::deal(seed).seated(tresillo_core::Table::FOUR_WITH_PENETRO, dealer);
    let mut h = Hand::with_rules(rules, 4, deal, dealer).expect("a four-player deal");
    let mut agents: Vec<Box<dyn Agent>> = (0..4)
        .map(|i| {
            if rule_mask >> i & 1 == 1 {
                Box::new(RuleAgent::default()) as Box<dyn Agent>
            } else {
                Box::new(RandomAgent)
            }
        })
        .collect();
    let mut rngs = seat_rngs(seed);
    let mut played = 0;
    loop {
        let req = h.request();
        let seat = req.seat()?;
        let d = match req {
            Request::Bid { .. } if penetro => Decision::Bid(Bid::Paso),
            Request::Ask { question: Question::SURRENDER, .. }
                if h.public().phase == Phase::PenetroGiveUp =>
            {
                Decision::Answer(Question::SURRENDER, false)
            }
            Request::Play { .. } if played == plies => return Some(h),
            _ => agents[seat.index()].decide(&h.view(seat), &mut rngs[seat.index()]).unwrap(),
        };
        if matches!(d, Decision::Play(_)) {
            played += 1;
        }
        h.apply(d).expect("legal");
    }
}

/// Every seat's view of a four-player hand (the inactive dealer's included).
fn views_four(h: &Hand) -> [PlayerView; 4] {
    [h.view(Seat(0)), h.view(Seat(1)), h.view(Seat(2)), h.view(Seat(3))]
}

#[test]
fn four_players_uniform_over_consistent_worlds() {
    // (penetro_all_play, everyone passes, cards played): an ordinary hand with
    // the dealer sitting out, a penetro with one player dropped out (dead cards),
    // and a penetro where all four play (three hidden hands).
    let kinds =
        [(false, false, 21), (false, true, 24), (false, true, 23), (true, true, 28), (true, true, 30)];
    let mut three_hidden = 0;
    let mut penetros = 0;
    for (i, &(all_play, pass, plies)) in kinds.iter().enumerate() {
        let mut found = 0;
        for seed in 0..300u64 {
            let Some(h) = four_position(seed * 7 + i as u64, all_play, pass, plies, (seed % 16) as u8) else {
                continue;
            };
            if pass && !h.public().penetro.active {
                continue;
            }
            for v in views_four(&h) {
                let raw = raw_assignments(&v);
                if !(3..=30_000).contains(&raw) {
                    continue;
                }
                let s = Sampler::new(&v).expect("a real view");
                three_hidden += usize::from(s.hidden_seats().len() == 3);
                penetros += usize::from(pass);
                compare(&v, &format!("four {i} seed {seed} seat {}", v.seat()), seed);
                found += 1;
            }
            if found >= 3 {
                break;
            }
        }
        assert!(found > 0, "kind {i}: no position small enough");
    }
    assert!(three_hidden >= 2, "positions with three hidden hands: {three_hidden}");
    assert!(penetros >= 3);
}

#[test]
fn four_players_penetro_espada_is_never_dealt() {
    // In a penetro nobody was dealt the espada: it is among the dealer's ten, the
    // three cards left, or drawn - never in a hand that did not exchange.
    let mut checked = 0;
    for seed in 0..80u64 {
        for all_play in [false, true] {
            let Some(h) = four_position(seed, all_play, true, 0, 0) else { continue };
            if !h.public().penetro.active {
                continue;
            }
            for v in views_four(&h) {
                let sm = Sampler::new(&v).expect("worlds");
                let mut rng = rng_from_seed(seed);
                for _ in 0..20 {
                    let w = sm.sample(&mut rng);
                    assert_eq!(check_world(&v, &w), Ok(()));
                    for s in 0..4u8 {
                        let s = Seat(s);
                        if s != h.public().dealer && h.public().exchanged[s].unwrap_or(0) == 0 {
                            assert!(!w.hands[s].contains(Card::ESPADA));
                        }
                        if s != h.public().dealer {
                            assert!(!w.discards[s].contains(Card::ESPADA));
                        }
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 8);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, .. ProptestConfig::default() })]

    /// At four players, any view at any point (ordinary hands, penetros with a
    /// player dropped out or all playing): the true world is consistent, every
    /// world drawn is consistent and replays to the same view, and its play
    /// position is the true one from the viewer's side.
    #[test]
    fn four_player_worlds_reproduce_the_view(
        seed in any::<u64>(), plies in 0usize..36, seat in 0u8..4, all_play: bool, pass: bool, mask in 0u8..16,
    ) {
        let Some(h) = four_position(seed, all_play, pass, plies, mask) else { return Ok(()) };
        let view = h.view(Seat(seat));
        let truth = true_world(&h);
        prop_assert_eq!(check_world(&view, &truth), Ok(()));
        prop_assert_eq!(truth.play_state(&view), h.play_state());
        let s = Sampler::new(&view).expect("a real view has worlds");
        prop_assert!(s.count() >= 1);
        let mut rng = rng_from_seed(seed ^ 1);
        for i in 0..6 {
            let w = if i % 2 == 0 { s.sample(&mut rng) } else { s.sample_fast(&mut rng) };
            prop_assert_eq!(check_world(&view, &w), Ok(()));
            if let (Some(a), Some(b)) = (w.play_state(&view), h.play_state()) {
                prop_assert_eq!(a.hands[seat as usize], b.hands[seat as usize]);
                prop_assert_eq!((a.to_move, a.trick_len, a.tricks, a.tricks_done, a.per_trick), (b.to_move, b.trick_len, b.tricks, b.tricks_done, b.per_trick));
                prop_assert_eq!(a.legal_moves().is_empty(), b.legal_moves().is_empty());
            }
        }
    }
}

/// `hombre` with `gascarille` after all passed (RULES.md section 12.3): the others
/// are asked to demand a gascarille exactly when the obliged declarer was dealt the
/// espada, so the sampler keeps the espada dealt to the declarer when they were
/// asked and nobody's when they were not; every world drawn replays to the view.
#[test]
fn hombre_gascarille_questions_say_who_was_dealt_the_espada() {
    let rules = Rules::parse("hombre", &[("gascarille", "true")]).unwrap();
    let (mut asked, mut not_asked) = (0, 0);
    for seed in 0..200u64 {
        let dealer = Seat((seed % 3) as u8);
        let mut h = Hand::with_rules(rules, 3, common::deal(seed), dealer).expect("a deal");
        let mut rngs = seat_rngs(seed);
        let mut plays = 0;
        while let Some(seat) = h.request().seat() {
            let d = match h.request() {
                Request::Bid { .. } => Decision::Bid(Bid::Paso),
                Request::Play { .. } if plays == 4 => break,
                _ => RandomAgent.decide(&h.view(seat), &mut rngs[seat.index()]).unwrap(),
            };
            plays += usize::from(matches!(d, Decision::Play(_)));
            h.apply(d).expect("legal");
        }
        if h.is_done() {
            continue;
        }
        let p = *h.public();
        if p.gascarille || p.gascarille_declined != 0 {
            asked += 1
        } else {
            not_asked += 1
        }
        for v in views(&h) {
            let s = Sampler::new(&v).expect("a real view");
            let mut rng = rng_from_seed(seed);
            for _ in 0..10 {
                let w = s.sample(&mut rng);
                assert_eq!(check_world(&v, &w), Ok(()), "seed {seed}, seat {}", v.seat());
            }
        }
    }
    assert!(asked > 3 && not_asked > 3, "asked {asked}, not asked {not_asked}");
}
