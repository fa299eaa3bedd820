//! What a network sees of a decision: the seat's observation tensor
//! ([`tresillo_env::observation`], 416 values) followed by [`EXTRA`] values the
//! tensor lacks and a card-location model needs: the cards each other seat can
//! no longer hold (it failed to follow or to trump: [`Inference::excluded`]) and
//! what each seat said in the auction. Every value is computed from the seat's
//! [`PlayerView`] alone, so a network can learn nothing the seat may not know
//! (RULES.md section 9). Seats are relative to the viewer (0 itself, 1 the next in
//! turn order, ...), as in the observation tensor.
//!
//! The layout has a version, [`LAYOUT`], written into every model file and every
//! dataset; a model of another layout is refused.

use tresillo_agents::Inference;
use tresillo_core::{Bid, CardSet, PlayerView, Seat};
use tresillo_env::observation;

/// The version of the input layout (this module's, and the tensor's).
pub const LAYOUT: u32 = 1;
/// The observation tensor's length.
pub const OBS: usize = observation::SIZE;
/// Values after the tensor: the excluded cards of each relative seat (4 x 40),
/// then each relative seat's auction (4 x 9: passed, then its highest bid level
/// one-hot 1..=8).
pub const EXTRA: usize = 4 * 40 + 4 * 9;
/// A network's input length.
pub const INPUT: usize = OBS + EXTRA;
/// Where the auction part of the extra values starts, within them.
const BIDS: usize = 4 * 40;
/// The tensor's positions that are not 0/1: tricks won (381..385) and cards
/// exchanged (412..416) per relative seat, each a count divided by nine.
pub const COUNT_POSITIONS: [usize; 8] = [381, 382, 383, 384, 412, 413, 414, 415];

/// The seat `s` relative to `me` at a table of `n`.
fn rel(s: Seat, me: Seat, n: u8) -> usize {
    usize::from((s.0 + n - me.0) % n)
}

/// The extra values of `view` into `out` (length [`EXTRA`], zeroed first).
pub fn extra(view: &PlayerView, out: &mut [f32]) {
    out.fill(0.0);
    let p = view.public();
    let (me, n) = (view.seat(), p.players);
    let inf = Inference::from_view(view);
    for s in 0..n {
        let r = rel(Seat(s), me, n);
        for c in inf.excluded[Seat(s)] - view.known_cards() {
            out[r * 40 + c.index()] = 1.0;
        }
    }
    for b in p.bids() {
        let r = rel(b.seat, me, n);
        match b.bid {
            Bid::Paso => out[BIDS + r * 9] = 1.0,
            Bid::Level(l) if (1..=8).contains(&l) => {
                // The highest level this seat bid: a later bid replaces an earlier one.
                out[BIDS + r * 9 + 1..BIDS + r * 9 + 9].fill(0.0);
                out[BIDS + r * 9 + usize::from(l)] = 1.0;
            }
            Bid::Level(_) => {}
        }
    }
}

/// The whole input of a network for `view` ([`INPUT`] values); `building`: the
/// discard the seat is building (empty outside a discard).
#[must_use]
pub fn input(view: &PlayerView, building: CardSet) -> Vec<f32> {
    let mut v = vec![0.0; INPUT];
    observation::write(view, building, &mut v[..OBS]);
    extra(view, &mut v[OBS..]);
    v
}

/// Packs 0/1 values into bits (bit `i % 8` of byte `i / 8`); any non-zero value is a 1.
pub fn pack_bits(values: &[f32], out: &mut [u8]) {
    out.fill(0);
    // Eight values a byte, without branches (the rows' hot loop).
    let chunks = values.chunks_exact(8);
    let rest = chunks.remainder();
    for (o, c) in out.iter_mut().zip(chunks) {
        let mut b = 0u8;
        for (k, v) in c.iter().enumerate() {
            b |= u8::from(*v != 0.0) << k;
        }
        *o = b;
    }
    for (k, v) in rest.iter().enumerate() {
        out[values.len() / 8] |= u8::from(*v != 0.0) << k;
    }
}

/// Unpacks `n` bits of `bits` into `out` as 0.0 / 1.0.
pub fn unpack_bits(bits: &[u8], out: &mut [f32]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = f32::from((bits[i / 8] >> (i % 8)) & 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip() {
        let v: Vec<f32> = (0..37).map(|i| if i % 3 == 0 { 1.0 } else { 0.0 }).collect();
        let mut b = [0u8; 5];
        pack_bits(&v, &mut b);
        let mut w = vec![9.0; 37];
        unpack_bits(&b, &mut w);
        assert_eq!(v, w);
    }
}
