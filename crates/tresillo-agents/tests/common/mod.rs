//! Helpers shared by the integration tests.
#![allow(dead_code)]

use tresillo_agents::{Agent, AgentRng, World};
use tresillo_core::{BySeat, Card, CardSet, Deal, Hand, PlayerView, RuleSet, Seat};

/// A deal from a seeded Fisher-Yates shuffle (the same recipe as `tresillo-sim`).
pub fn deal(seed: u64) -> Deal {
    tresillo_agents::deal_for_seed(seed)
}

/// A new hand of the deal of `seed`, dealer rotating with the seed.
pub fn hand(seed: u64) -> Hand {
    Hand::new(RuleSet::Tresillo, 3, deal(seed), Seat((seed % 3) as u8)).expect("a full deal")
}

/// Plays `hand` with `agents` for at most `steps` decisions; returns it.
pub fn advance(hand: &mut Hand, agents: &mut [Box<dyn Agent>], rngs: &mut [AgentRng], steps: usize) {
    for _ in 0..steps {
        let Some(seat) = hand.request().seat() else { return };
        let v = hand.view(seat);
        let d = agents[seat.index()].decide(&v, &mut rngs[seat.index()]);
        hand.apply(d).expect("legal");
    }
}

/// Checks that `w` is a world consistent with `view` the slow, obvious way: the
/// cards partition the pack, the viewer's own cards are right, and replaying every
/// public decision from the world's deal reproduces exactly the same view.
pub fn check_world(view: &PlayerView, w: &World) -> Result<(), String> {
    let p = view.public();
    let mut all = p.played();
    let mut n = all.len();
    for s in 0..3 {
        for set in [w.hands.0[s], w.discards.0[s]] {
            all |= set;
            n += set.len();
        }
    }
    all |= w.heap;
    n += w.heap.len();
    if all != CardSet::FULL || n != 40 {
        return Err(format!("the world does not partition the pack: {w:?}"));
    }
    if w.hands[view.seat()] != view.hand() || w.discards[view.seat()] != view.discards() {
        return Err("the viewer's own cards differ".into());
    }
    if w.heap.len() != u32::from(p.heap_left) {
        return Err("heap size differs".into());
    }
    let h = w.replay(view).map_err(|e| e.to_string())?;
    let v2 = h.view(view.seat());
    if v2 != *view {
        return Err("the replayed view differs".into());
    }
    for s in 0..3 {
        if h.hand_of(Seat(s)) != w.hands.0[s as usize] || h.discards_of(Seat(s)) != w.discards.0[s as usize] {
            return Err(format!("the replayed hand of seat {s} differs"));
        }
    }
    if h.heap_remaining() != w.heap {
        return Err("the replayed heap differs".into());
    }
    Ok(())
}

/// Every world consistent with `view`, by brute force: every assignment of the
/// unseen cards to the hidden places (the two other hands, their discards, the
/// heap) with the right sizes, kept when [`check_world`] accepts it. Also returns
/// how many raw assignments were tried.
pub fn brute_force(view: &PlayerView) -> (Vec<World>, u64) {
    let p = view.public();
    let me = view.seat();
    let others = [me.next(3), me.plus(2, 3)];
    let played = p.played();
    let mut played_by = BySeat::<u32>::default();
    for (i, _) in p.plays().iter().enumerate() {
        let s = p.trick_leaders()[i / 3].plus((i % 3) as u8, 3);
        played_by[s] += 1;
    }
    let mut base = World::default();
    base.hands[me] = view.hand();
    base.discards[me] = view.discards();
    // A heap shown under `hombre`'s show_heap is known and stays in the heap.
    base.heap = p.shown_heap;
    // Places: 0 hand A, 1 hand B, 2 discards A, 3 discards B, 4 heap.
    let mut room = [
        9 - played_by[others[0]],
        9 - played_by[others[1]],
        u32::from(p.exchanged[others[0]].unwrap_or(0)),
        u32::from(p.exchanged[others[1]].unwrap_or(0)),
        u32::from(p.heap_left) - p.shown_heap.len(),
    ];
    // The turned card is visible but its place is not: try every hidden place
    // (the replay rejects the wrong ones).
    let turned = p.turned.filter(|c| !played.contains(*c) && !view.hand().contains(*c));
    let cards: Vec<Card> = view.unseen_cards().iter().collect();
    let mut out = Vec::new();
    let mut tried = 0u64;
    let mut places = Vec::new();
    if let Some(t) = turned {
        for (place, r) in room.iter().enumerate() {
            if *r > 0 {
                places.push((t, place));
            }
        }
    } else {
        places.push((Card::ESPADA, usize::MAX));
    }
    for (t, place) in places {
        let mut w0 = base;
        if place != usize::MAX {
            room[place] -= 1;
            put(&mut w0, others, place, t);
        }
        assign(&cards, 0, &mut room, &mut w0, others, &mut |w| {
            tried += 1;
            if check_world(view, w).is_ok() {
                out.push(*w);
            }
        });
        if place != usize::MAX {
            room[place] += 1;
        }
    }
    (out, tried)
}

fn put(w: &mut World, others: [Seat; 2], place: usize, c: Card) {
    match place {
        0 => w.hands[others[0]].insert(c),
        1 => w.hands[others[1]].insert(c),
        2 => w.discards[others[0]].insert(c),
        3 => w.discards[others[1]].insert(c),
        _ => w.heap.insert(c),
    };
}

fn assign(
    cards: &[Card],
    i: usize,
    room: &mut [u32; 5],
    w: &mut World,
    others: [Seat; 2],
    f: &mut impl FnMut(&World),
) {
    if i == cards.len() {
        f(w);
        return;
    }
    for place in 0..5 {
        if room[place] == 0 {
            continue;
        }
        room[place] -= 1;
        let saved = *w;
        put(w, others, place, cards[i]);
        assign(cards, i + 1, room, w, others, f);
        *w = saved;
        room[place] += 1;
    }
}

/// Multinomial count of raw assignments for `view` (to skip positions too big for
/// brute force).
pub fn raw_assignments(view: &PlayerView) -> u128 {
    let p = view.public();
    let me = view.seat();
    let others = [me.next(3), me.plus(2, 3)];
    let mut played_by = BySeat::<u32>::default();
    for (i, _) in p.plays().iter().enumerate() {
        let s = p.trick_leaders()[i / 3].plus((i % 3) as u8, 3);
        played_by[s] += 1;
    }
    let sizes = [
        9 - played_by[others[0]],
        9 - played_by[others[1]],
        u32::from(p.exchanged[others[0]].unwrap_or(0)),
        u32::from(p.exchanged[others[1]].unwrap_or(0)),
        u32::from(p.heap_left) - p.shown_heap.len(),
    ];
    let n: u32 = view.unseen_cards().len()
        + u32::from(p.turned.is_some_and(|c| !p.played().contains(c) && !view.hand().contains(c)));
    let mut r: u128 = 1;
    let mut left = n;
    for k in sizes {
        r = r.saturating_mul(binom(left, k));
        left = left.saturating_sub(k);
    }
    r
}

fn binom(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
    }
    r
}
