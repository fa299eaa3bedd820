//! What a [`PlayerView`] lets a player infer about the other hands (RULES.md
//! section 10), computed without allocating: shared by the rule agent and the
//! sampler.

use tresillo_core::tables::{TRUMP_SUIT, table};
use tresillo_core::{BySeat, Card, CardSet, PlayerView, Seat, Table};

/// The facts of the play so far, seen from one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inference {
    /// Every card played so far (the trick in progress included).
    pub played: CardSet,
    /// The cards each seat has played.
    pub played_by: BySeat<CardSet>,
    /// For each seat, cards its hand cannot hold now: every card of a plain suit it
    /// did not follow, and every trump that a trump lead it did not answer with a
    /// trump could force (it may still hold estuche cards the lead could not force).
    ///
    /// Cards only leave a hand during play, so what a hand lacked at some trick it
    /// still lacks. The sets say nothing about discards or the heap.
    pub excluded: BySeat<CardSet>,
}

impl Inference {
    /// Reads the play history of `view`. Cheap: one pass over at most 27 plays (36
    /// under `penetro_all_play`).
    #[must_use]
    pub fn from_view(view: &PlayerView) -> Inference {
        let p = view.public();
        if p.table != Table::THREE {
            return Inference::from_view_four(view);
        }
        let mut inf =
            Inference { played: CardSet::EMPTY, played_by: BySeat::default(), excluded: BySeat::default() };
        let plays = p.plays();
        if plays.is_empty() {
            return inf;
        }
        let t = table(p.trump);
        let leaders = p.trick_leaders();
        let mut led = plays[0];
        for (i, &c) in plays.iter().enumerate() {
            let k = i % 3;
            let seat = leaders[i / 3].plus(k as u8, p.players);
            inf.played.insert(c);
            inf.played_by[seat].insert(c);
            if k == 0 {
                led = c;
                continue;
            }
            let ls = t.eff_suit[led.bit() as usize];
            let cs = t.eff_suit[c.bit() as usize];
            if cs != ls {
                inf.excluded[seat] |=
                    if ls == TRUMP_SUIT { t.force[led.bit() as usize] } else { t.follow[led.bit() as usize] };
            }
        }
        inf
    }

    /// [`Inference::from_view`] at a table of four (RULES.md section 12.2): the
    /// seats that play are asked of the public state, tricks have three or four
    /// cards. Kept apart so that the three-player loop stays as tight as before.
    #[inline(never)]
    fn from_view_four(view: &PlayerView) -> Inference {
        let p = view.public();
        let mut inf =
            Inference { played: CardSet::EMPTY, played_by: BySeat::default(), excluded: BySeat::default() };
        let plays = p.plays();
        let Some(&first) = plays.first() else { return inf };
        let t = table(p.trump);
        let size = p.trick_size() as usize;
        let mut led = first;
        for (i, &c) in plays.iter().enumerate() {
            let seat = p.play_seat(i);
            inf.played.insert(c);
            inf.played_by[seat].insert(c);
            if i % size == 0 {
                led = c;
                continue;
            }
            let ls = t.eff_suit[led.bit() as usize];
            let cs = t.eff_suit[c.bit() as usize];
            if cs != ls {
                inf.excluded[seat] |=
                    if ls == TRUMP_SUIT { t.force[led.bit() as usize] } else { t.follow[led.bit() as usize] };
            }
        }
        inf
    }

    /// How many cards `seat` holds now: nine (the most tricks,
    /// [`MAX_TRICKS`](tresillo_core::MAX_TRICKS), which every rule set plays) less
    /// the cards it has played (an exchange keeps a hand at nine).
    #[must_use]
    pub fn hand_size(&self, seat: Seat) -> u32 {
        u32::from(tresillo_core::MAX_TRICKS) - self.played_by[seat].len()
    }
}

/// Where the turned vuelta card is, if it is neither played nor in the viewer's
/// own hand: in the heap before the declarer exchanges, then in the (original)
/// declarer's hand until played (RULES.md section 10).
#[must_use]
pub(crate) fn turned_location(view: &PlayerView, played: CardSet) -> Option<(Card, Option<Seat>)> {
    let p = view.public();
    let c = p.turned?;
    if played.contains(c) || view.hand().contains(c) {
        return None;
    }
    let d = p.original_declarer?;
    if p.exchanged[d].is_some() { Some((c, Some(d))) } else { Some((c, None)) }
}
