//! The world a sampler draws, the error when there is none, and the heap order
//! that rebuilds a world's deal (`draw`, `heap_rest`): shared by the three-player
//! sampler (sampler.rs) and the four-player one (four.rs).

use tresillo_core::{BySeat, Card, CardSet, Contract, PlayState, PlayerView, Seat};

/// A complete deal state as one seat might imagine it: every hand, every discard
/// pile and the heap remainder. Together with the cards played they hold the 40
/// cards once each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct World {
    /// Each seat's hand now.
    pub hands: BySeat<CardSet>,
    /// Each seat's discards.
    pub discards: BySeat<CardSet>,
    /// The cards left in the heap (the turned vuelta card included while it is
    /// still there). Its order is unknown to every player; any order is as likely.
    pub heap: CardSet,
}

impl World {
    /// The position of the play phase in this world: the hands, the trick in
    /// progress, the tricks won. `None` before play begins.
    #[must_use]
    pub fn play_state(&self, view: &PlayerView) -> Option<PlayState> {
        view.public().play_state(self.hands)
    }

    /// Every card the world places (hands, discards, heap).
    #[must_use]
    pub fn placed(&self) -> CardSet {
        let mut s = self.heap;
        for i in 0..4 {
            s |= self.hands.0[i] | self.discards.0[i];
        }
        s
    }
}

/// No world is consistent with the view (a view no real hand produces).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no world is consistent with the view: {0}")]
pub struct NoWorld(pub String);

/// What the three- and four-player samplers read first from a view: the world
/// of what is known (the player's own hand and discards, the heap's shown cards,
/// the turned card where it lies), the cards unseen, the inference from the
/// play, and the hidden cards left in the heap.
pub(super) struct Known {
    pub(super) base: World,
    pub(super) unseen: CardSet,
    pub(super) inf: crate::sampling::infer::Inference,
    pub(super) heap: u32,
}

impl Known {
    /// The known world of `view`, its turned card not yet placed.
    pub(super) fn new(view: &PlayerView) -> Known {
        let p = view.public();
        let me = view.seat();
        let inf = crate::sampling::infer::Inference::from_view(view);
        let mut base = World::default();
        base.hands[me] = view.hand();
        base.discards[me] = view.discards();
        // A heap shown under `show_heap` is known: it stays in the heap.
        let heap = u32::from(p.heap_left) - p.shown_heap.len();
        base.heap |= p.shown_heap;
        Known { base, unseen: view.unseen_cards(), inf, heap }
    }

    /// Places the turned card (a vuelta's) where it lies: in its holder's hand,
    /// taking one of the hand's `room` (indexed by seat), or in the heap.
    pub(super) fn place_turned(&mut self, view: &PlayerView, room: &mut [u32; 4]) -> Result<(), NoWorld> {
        match crate::sampling::infer::turned_location(view, self.inf.played) {
            Some((c, Some(d))) if d != view.seat() => {
                if room[d.index()] == 0 {
                    return Err(NoWorld("the turned card's holder has no card left".into()));
                }
                room[d.index()] -= 1;
                self.base.hands[d].insert(c);
            }
            Some((c, None)) => {
                if self.heap == 0 {
                    return Err(NoWorld("the turned card should be in an empty heap".into()));
                }
                self.heap -= 1;
                self.base.heap.insert(c);
            }
            _ => {}
        }
        Ok(())
    }
}

/// Appends to the heap order `seq` (filled up to `n`) the `k` cards seat `s` drew
/// from its hand at play `rest`: for the declarer of a vuelta the turned card
/// first, then the cards of `first`, then the others in the engine's order.
/// Returns the cards drawn.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw(
    p: &tresillo_core::PublicState,
    s: Seat,
    is_decl: bool,
    mut rest: CardSet,
    first: CardSet,
    k: usize,
    seq: &mut [Card; 13],
    n: &mut usize,
) -> Result<CardSet, NoWorld> {
    let mut drawn = CardSet::EMPTY;
    if is_decl && p.contract.is_some_and(Contract::turns_card) {
        let t = p.turned.ok_or_else(|| NoWorld("a vuelta without a turned card".into()))?;
        if !rest.take(t) {
            return Err(NoWorld(format!("the turned card {t} is not in the declarer's hand")));
        }
        seq[*n] = t;
        *n += 1;
        drawn.insert(t);
    }
    for c in first.iter().chain((rest - first).iter()) {
        if drawn.len() as usize == k {
            break;
        }
        if *n == 13 {
            return Err(NoWorld("more cards drawn than the heap holds".into()));
        }
        seq[*n] = c;
        *n += 1;
        drawn.insert(c);
    }
    if drawn.len() as usize != k {
        return Err(NoWorld(format!("seat {s} cannot have drawn {k} cards")));
    }
    Ok(drawn)
}

/// Appends to the heap order `seq` the cards `left` in the heap after the
/// exchanges, a turned vuelta card still there first.
pub(super) fn heap_rest(
    p: &tresillo_core::PublicState,
    mut left: CardSet,
    seq: &mut [Card; 13],
    n: &mut usize,
) -> Result<(), NoWorld> {
    if let Some(t) = p.turned.filter(|t| left.contains(*t)) {
        left.take(t);
        seq[*n] = t;
        *n += 1;
    }
    for c in left {
        if *n == 13 {
            return Err(NoWorld("the heap holds more than 13 cards".into()));
        }
        seq[*n] = c;
        *n += 1;
    }
    Ok(())
}
