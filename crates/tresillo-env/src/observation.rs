//! The observation tensor of a seat: built from its [`PlayerView`] alone, so it
//! holds nothing the seat may not know (RULES.md section 9). Seats are relative
//! to the observer (0 itself, 1 the next in turn order, ...); cards use the dense
//! [`Card::index`](tresillo_core::Card::index) (0..40). docs/PYTHON.md tables the layout.

use tresillo_core::action::CONTRACTS;
use tresillo_core::{CardSet, PlayerView, Request, Seat};

/// Offsets of the parts of the tensor.
const HAND: usize = 0;
const DISCARDS: usize = 40;
const BUILDING: usize = 80;
const PLAYED: usize = 120; // 4 relative seats x 40
const TRICK: usize = 280;
const SEEN: usize = 320; // cards shown: turned card, exposed hand, heap shown
const TRUMP: usize = 360; // none + 4 suits
const CONTRACT: usize = 365; // 8 contracts
const DECLARER: usize = 373; // 4 relative seats
const DEALER: usize = 377; // 4 relative seats
const TRICKS: usize = 381; // tricks won per relative seat, / 9
const REQUEST: usize = 385; // 15 request kinds
const LEVEL: usize = 400; // standing bid level 1..=8
const TO_MOVE: usize = 408; // 4 relative seats
const EXCHANGED: usize = 412; // cards exchanged per relative seat, / 9
/// The tensor's length.
pub const SIZE: usize = 416;
/// The actions since the deal that the information-state tensor holds (the
/// longest hand in 12,000 played by `random` and `rule` across the rule sets
/// took 56; later actions are left out).
pub const INFO_STEPS: usize = 100;
/// One action of the information-state tensor: the mover's relative seat (4),
/// then the action (the 153 ids, and "another seat's discarded card").
pub const INFO_STEP: usize = 4 + tresillo_core::action::NUM_ACTIONS + 1;
/// The information-state tensor's length: the observation, then
/// [`INFO_STEPS`] actions.
pub const INFO_SIZE: usize = SIZE + INFO_STEPS * INFO_STEP;

fn cards(t: &mut [f32], at: usize, s: CardSet) {
    for c in s {
        t[at + c.index()] = 1.0;
    }
}

/// The index of a request's kind in the tensor's request one-hot (0..15).
#[must_use]
pub fn request_index(r: Request) -> usize {
    match r {
        Request::Bid { .. } => 0,
        Request::Declare { .. } => 1,
        Request::Discard { .. } => 2,
        Request::Word { .. } => 3,
        Request::Play { .. } => 4,
        // The first seven questions in their own slots; one added later shares
        // slot 14 with `Done`, which a deciding seat never sees (the size is
        // fixed by the trained models).
        Request::Ask { question, .. } if question.id() < 7 => 5 + usize::from(question.id()),
        Request::Ask { .. } => 14,
        Request::Penetro { .. } => 12,
        Request::DropOut { .. } => 13,
        Request::Done => 14,
    }
}

/// The tensor of `view`; `building`: the discard its seat is building.
#[must_use]
pub fn tensor(view: &PlayerView, building: CardSet) -> Vec<f32> {
    let mut t = vec![0.0f32; SIZE];
    write(view, building, &mut t);
    t
}

/// [`tensor`] written into `t` ([`SIZE`] values, every one set), allocating
/// nothing: what a vectorized environment fills its rows with.
///
/// # Panics
/// If `t` is not [`SIZE`] long.
pub fn write(view: &PlayerView, building: CardSet, t: &mut [f32]) {
    assert_eq!(t.len(), SIZE, "an observation is {SIZE} values");
    t.fill(0.0);
    let p = view.public();
    let n = p.players;
    let me = view.seat();
    let rel = |s: Seat| usize::from((s.0 + n - me.0) % n);
    cards(t, HAND, view.hand());
    cards(t, DISCARDS, view.discards());
    cards(t, BUILDING, building);
    for (i, c) in p.plays().iter().enumerate() {
        t[PLAYED + 40 * rel(p.play_seat(i)) + c.index()] = 1.0;
    }
    cards(t, TRICK, p.current_trick().iter().copied().collect());
    let mut seen = p.shown_heap;
    if let Some(c) = p.turned {
        seen.insert(c);
    }
    if let Some(e) = p.exposed {
        seen |= e;
    }
    cards(t, SEEN, seen);
    t[TRUMP + p.trump.map_or(0, |s| 1 + s.index())] = 1.0;
    if let Some(c) = p.contract {
        t[CONTRACT + CONTRACTS.iter().position(|x| *x == c).expect("every contract is listed")] = 1.0;
    }
    if let Some(d) = p.declarer {
        t[DECLARER + rel(d)] = 1.0;
    }
    t[DEALER + rel(p.dealer)] = 1.0;
    for s in 0..n {
        t[TRICKS + rel(Seat(s))] = f32::from(p.tricks.0[usize::from(s)]) / 9.0;
        t[EXCHANGED + rel(Seat(s))] = f32::from(p.exchanged.0[usize::from(s)].unwrap_or(0)) / 9.0;
    }
    t[REQUEST + request_index(view.request())] = 1.0;
    if let Some((level, _)) = p.standing
        && (1..=8).contains(&level)
    {
        t[LEVEL + usize::from(level) - 1] = 1.0;
    }
    if let Some(s) = view.request().seat() {
        t[TO_MOVE + rel(s)] = 1.0;
    }
}
