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
    Hand::new(RuleSet::TRESILLO, 3, deal(seed), Seat((seed % 3) as u8)).expect("a full deal")
}

/// Plays `hand` with `agents` for at most `steps` decisions; returns it.
pub fn advance(hand: &mut Hand, agents: &mut [Box<dyn Agent>], rngs: &mut [AgentRng], steps: usize) {
    for _ in 0..steps {
        let Some(seat) = hand.request().seat() else { return };
        let v = hand.view(seat);
        let d = agents[seat.index()].decide(&v, &mut rngs[seat.index()]).unwrap();
        hand.apply(d).expect("legal");
    }
}

/// Checks that `w` is a world consistent with `view` the slow, obvious way: the
/// cards partition the pack, the viewer's own cards are right, and replaying every
/// public decision from the world's deal reproduces exactly the same view.
pub fn check_world(view: &PlayerView, w: &World) -> Result<(), String> {
    let p = view.public();
    let seats = usize::from(p.players);
    let mut all = p.played();
    let mut n = all.len();
    for s in 0..4 {
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
    for s in 0..seats as u8 {
        if h.hand_of(Seat(s)) != w.hands.0[s as usize] || h.discards_of(Seat(s)) != w.discards.0[s as usize] {
            return Err(format!("the replayed hand of seat {s} differs"));
        }
    }
    if h.heap_remaining() != w.heap {
        return Err("the replayed heap differs".into());
    }
    Ok(())
}

/// The hidden places of `view` and their sizes: each other seat's hand (nine less
/// the cards it played; at four the inactive dealer's is empty and a penetrating
/// dealer's holds the ten taken less its discard), each other seat's discards, and
/// the heap (less a heap shown face up).
fn hidden_places(view: &PlayerView) -> Vec<(Place, u32)> {
    let p = view.public();
    let me = view.seat();
    let mut played_by = BySeat::<u32>::default();
    for i in 0..p.plays().len() {
        played_by[p.play_seat(i)] += 1;
    }
    let mut out = Vec::new();
    for k in 1..p.players {
        let s = me.plus(k, p.players);
        let dealt = if p.players == 4 && s == p.dealer {
            if p.penetro.heap_end.is_some() { 10 - u32::from(p.exchanged[s].unwrap_or(0)) } else { 0 }
        } else {
            9
        };
        out.push((Place::Hand(s), dealt - played_by[s]));
    }
    for k in 1..p.players {
        let s = me.plus(k, p.players);
        out.push((Place::Discards(s), u32::from(p.exchanged[s].unwrap_or(0))));
    }
    out.push((Place::Heap, u32::from(p.heap_left) - p.shown_heap.len()));
    out
}

/// A hidden place of a world.
#[derive(Clone, Copy, Debug)]
enum Place {
    Hand(Seat),
    Discards(Seat),
    Heap,
}

/// Every world consistent with `view`, by brute force: every assignment of the
/// unseen cards to the hidden places (the other hands, their discards, the heap)
/// with the right sizes, kept when [`check_world`] accepts it. Also returns how
/// many raw assignments were tried.
pub fn brute_force(view: &PlayerView) -> (Vec<World>, u64) {
    let p = view.public();
    let me = view.seat();
    let played = p.played();
    let mut base = World::default();
    base.hands[me] = view.hand();
    base.discards[me] = view.discards();
    // A heap shown under `hombre`'s show_heap is known and stays in the heap.
    base.heap = p.shown_heap;
    let places = hidden_places(view);
    let mut room: Vec<u32> = places.iter().map(|&(_, r)| r).collect();
    // The turned card is visible but its place is not: try every hidden place
    // (the replay rejects the wrong ones).
    let turned = p.turned.filter(|c| !played.contains(*c) && !view.hand().contains(*c));
    let cards: Vec<Card> = view.unseen_cards().iter().collect();
    let mut out = Vec::new();
    let mut tried = 0u64;
    let mut starts = Vec::new();
    if let Some(t) = turned {
        for (i, r) in room.iter().enumerate() {
            if *r > 0 {
                starts.push((t, i));
            }
        }
    } else {
        starts.push((Card::ESPADA, usize::MAX));
    }
    for (t, i) in starts {
        let mut w0 = base;
        if i != usize::MAX {
            room[i] -= 1;
            put(&mut w0, places[i].0, t);
        }
        assign(&cards, 0, &places, &mut room, &mut w0, &mut |w| {
            tried += 1;
            if check_world(view, w).is_ok() {
                out.push(*w);
            }
        });
        if i != usize::MAX {
            room[i] += 1;
        }
    }
    (out, tried)
}

fn put(w: &mut World, place: Place, c: Card) {
    match place {
        Place::Hand(s) => w.hands[s].insert(c),
        Place::Discards(s) => w.discards[s].insert(c),
        Place::Heap => w.heap.insert(c),
    };
}

fn assign(
    cards: &[Card],
    i: usize,
    places: &[(Place, u32)],
    room: &mut [u32],
    w: &mut World,
    f: &mut impl FnMut(&World),
) {
    if i == cards.len() {
        f(w);
        return;
    }
    for j in 0..places.len() {
        if room[j] == 0 {
            continue;
        }
        room[j] -= 1;
        let saved = *w;
        put(w, places[j].0, cards[i]);
        assign(cards, i + 1, places, room, w, f);
        *w = saved;
        room[j] += 1;
    }
}

/// Multinomial count of raw assignments for `view` (to skip positions too big for
/// brute force).
pub fn raw_assignments(view: &PlayerView) -> u128 {
    let p = view.public();
    let n: u32 = view.unseen_cards().len()
        + u32::from(p.turned.is_some_and(|c| !p.played().contains(c) && !view.hand().contains(c)));
    let mut r: u128 = 1;
    let mut left = n;
    for (_, k) in hidden_places(view) {
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
