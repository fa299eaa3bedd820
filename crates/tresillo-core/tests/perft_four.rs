//! Perft regression data at a table of four (RULES.md section 12.2): a deal where
//! the dealer (seat 0) sits out and the three others play three-card tricks, and a
//! `penetro_all_play` deal where all four play four-card tricks.
//!
//! `data/perft_four.txt` holds `deal | trump | leader | depth | count` lines (the
//! deal in four-hand notation, the sitting-out seat's hand `-`), produced by the
//! slow reference perft below (written from the text of the rules, for any set of
//! seats) with `cargo test --release -p tresillo-core --test suite --
//! --ignored --nocapture perft_four::generate`. The fast perft (`PlayState::with_seats`) must
//! reproduce every count.

use tresillo_core::*;

/// Entries above this many nodes are skipped in the normal (debug) run.
const NODE_LIMIT: u64 = 3_000_000;

/// The deals of the data file: dealer 0 sits out; then four hands of nine (the
/// dealer penetra, nobody drops out).
const DEALS: [&str; 2] = [
    "- / 5E 1B 2B 11B 4C 11C 2O 5O 10O / 1E 4E 7E 10E 1C 2C 7C 10C 6O / 11E 3B 4B 5B 7B 10B 5C 11O 12O / 12E 2E 3E 6E 12B 6B 3C 6C 12C 1O 3O 4O 7O",
    "3E 12E 6B 7B 12B 2C 6C 12C 10O / 2E 4E 5E 7E 2B 3B 2O 6O 11O / 11E 10B 1C 3C 5C 10C 1O 4O 12O / 1E 6E 10E 1B 4B 5B 7C 4C 3O / 11B 11C 5O 7O",
];

struct Entry {
    deal: Deal,
    trump: Suit,
    leader: u8,
    depth: u32,
    count: u64,
}

fn entries() -> Vec<Entry> {
    include_str!("data/perft_four.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 5, "perft_four.txt: {l}");
            Entry {
                deal: Deal::parse_partial(f[0]).unwrap(),
                trump: parse_suit(f[1]).unwrap(),
                leader: f[2].parse().unwrap(),
                depth: f[3].parse().unwrap(),
                count: f[4].parse().unwrap(),
            }
        })
        .collect()
}

/// The seats holding cards.
fn active(deal: &Deal) -> u8 {
    (0..4).filter(|&s| !deal.hands.0[s].is_empty()).fold(0, |m, s| m | 1 << s)
}

fn fast(e: &Entry) -> u64 {
    PlayState::with_seats(e.deal.hands.0, Some(e.trump), Seat(e.leader), active(&e.deal)).perft(e.depth)
}

/// Slow reference perft from the text of the rules, for the seats `seats` (in turn
/// order) holding `hands`.
fn reference(hands: &mut [Vec<Card>; 4], seats: &[usize], trump: Suit, leader: usize, depth: u32) -> u64 {
    fn go(
        hands: &mut [Vec<Card>; 4],
        seats: &[usize],
        trump: Suit,
        trick: &mut Vec<(usize, Card)>,
        to_move: usize,
        depth: u32,
    ) -> u64 {
        if depth == 0 || hands[to_move].is_empty() {
            return 1;
        }
        let led = trick.first().map(|x| x.1);
        let legal = tables::reference::legal(&hands[to_move], Some(trump), led);
        let mut n = 0;
        for c in legal {
            let pos = hands[to_move].iter().position(|x| *x == c).unwrap();
            hands[to_move].remove(pos);
            trick.push((to_move, c));
            n += if trick.len() == seats.len() {
                let cards: Vec<Card> = trick.iter().map(|x| x.1).collect();
                let w = trick[tables::reference::trick_winner(&cards, Some(trump))].0;
                let saved = std::mem::take(trick);
                let r = go(hands, seats, trump, trick, w, depth - 1);
                *trick = saved;
                r
            } else {
                let k = seats.iter().position(|&s| s == to_move).unwrap();
                go(hands, seats, trump, trick, seats[(k + 1) % seats.len()], depth - 1)
            };
            trick.pop();
            hands[to_move].insert(pos, c);
        }
        n
    }
    go(hands, seats, trump, &mut Vec::new(), leader, depth)
}

fn reference_of(e: &Entry) -> u64 {
    let m = active(&e.deal);
    let seats: Vec<usize> = (0..4).filter(|s| m & 1 << s != 0).collect();
    let mut hands = e.deal.hands.0.map(|h| h.iter().collect::<Vec<_>>());
    reference(&mut hands, &seats, e.trump, e.leader as usize, e.depth)
}

#[test]
fn four_player_perft_counts_match_the_data_file() {
    let es = entries();
    assert!(es.len() >= 6, "both deals at depths 3, 6 and 9");
    assert!(es.iter().any(|e| active(&e.deal) == 0b1110), "a deal with the dealer sitting out");
    assert!(es.iter().any(|e| active(&e.deal) == 0b1111), "a penetro_all_play deal");
    let mut checked = 0;
    for e in &es {
        if e.count <= NODE_LIMIT {
            assert_eq!(fast(e), e.count, "{} {} {} {}", e.deal, e.trump, e.leader, e.depth);
            checked += 1;
        }
    }
    assert!(checked >= 4, "only {checked} entries under the node limit");
}

#[test]
fn four_player_fast_perft_matches_the_reference_on_short_depths() {
    for e in entries().iter().filter(|e| e.depth <= 6) {
        assert_eq!(fast(e), reference_of(e));
    }
}

#[test]
fn the_hand_and_play_state_agree_on_a_four_card_trick() {
    // The penetro_all_play deal: leader seat 1 (mano when seat 0 deals).
    let e = &entries().into_iter().find(|e| active(&e.deal) == 0b1111).unwrap();
    let mut p = PlayState::with_seats(e.deal.hands.0, Some(e.trump), Seat(1), 0b1111);
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push(p.to_move.0);
        let c = p.legal_moves().first().unwrap();
        p.play_unchecked(c);
    }
    assert_eq!(seen, [1, 2, 3, 0]);
    assert_eq!(p.tricks_done, 1);
    assert_eq!(p.tricks.iter().sum::<u8>(), 1);
}

/// Prints the data file from the reference perft (run in release).
#[test]
#[ignore = "generator for data/perft_four.txt"]
fn generate() {
    let suits = ["espadas", "bastos", "copas", "oros"];
    for (i, d) in DEALS.iter().enumerate() {
        let deal = Deal::parse_partial(d).unwrap();
        let trump = Suit::ALL[(i + 1) % 4];
        let leader = 1;
        for depth in [3, 6, 9] {
            let mut e = Entry { deal, trump, leader, depth, count: 0 };
            e.count = reference_of(&e);
            assert_eq!(fast(&e), e.count);
            println!("{d} | {} | {leader} | {depth} | {}", suits[(i + 1) % 4], e.count);
        }
    }
}
