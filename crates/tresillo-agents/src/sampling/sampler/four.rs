//! The sampler at a table of four (RULES.md section 12.2): up to three hidden
//! hands with constraints, dead hands, and the penetro's espada.
//!
//! # What a world must respect at four
//!
//! The hidden places are the other seats' hands (nine less the cards played; the
//! inactive dealer's is empty; a penetrating dealer holds the ten cards taken,
//! nine after the discard), their discard piles and the heap. A player who
//! dropped out of a penetro keeps the nine cards dealt, never played: dead cards,
//! as unconstrained as the heap. Beyond section 10's inferences per seat:
//!
//! - after espada forzada the espada is with the forced declarer, as at three;
//! - in a penetro the espada was in the heap when the cards were dealt (nobody
//!   held it): it is in the dealer's ten (hand or the one discard), in the heap
//!   left for the exchange, or drawn by an opponent who exchanged at least one
//!   card - never in a hand that exchanged nothing (the dropped-out hand
//!   included) nor among the opponents' discards (they came from dealt hands).
//!   Which end of the heap the dealer took (public) constrains nothing: the heap's
//!   order is unknown, so any ten of its cards are as likely to be at either end.
//!
//! # Method (exact)
//!
//! A hidden hand whose exclusions touch no unseen card is no different from a
//! discard pile: it joins the *pool* of unconstrained places. The others (at most
//! three) are *constrained hands*; their cards fall into classes by the set of
//! constrained hands they are allowed in (eight masks). For each place of the
//! espada (a *case*), the number of worlds is the multinomial of the pool times
//! the number of ways to fill the constrained hands exactly, which a dynamic
//! programme over the classes counts with the remaining room of each constrained
//! hand as its state (at most 10 x 10 x 10 states). A sample draws the case, then
//! class by class how many of its cards go to each constrained hand with
//! probability proportional to the worlds left, deals each class by uniform
//! subsets and splits the rest uniformly among the pool places: every consistent
//! world has the same probability.

use super::subsets::{below_u128, binom, for_each_subset, random_subset, subset_by_draws};
use super::world::{Known, NoWorld, World};
use crate::rng::{AgentRng, Draws};
use crate::sampling::infer::Inference;
use tresillo_core::{BySeat, Card, CardSet, Deal, Heap, HeapEnd, PlayerView, Seat};

/// An unconstrained hidden place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Hand(Seat),
    Discards(Seat),
    Heap,
}

/// Where the constrained espada goes in one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    /// In constrained hand `i`.
    Hand(usize),
    /// In pool place `i`.
    Pool(usize),
}

const MAX_POOL: usize = 8;
const MAX_CASES: usize = 12;

/// The room of one case: constrained hands and pool places.
#[derive(Clone, Copy, Debug)]
struct FourCase {
    special: Option<Spot>,
    caps: [u8; 3],
    sizes: [u8; MAX_POOL],
    /// Cumulative count of worlds up to and including this case.
    cum: u128,
}

/// How many cards of each class go to each constrained hand, and the case.
#[derive(Clone, Copy, Debug)]
struct Choice {
    case: usize,
    t: [[u8; 3]; 8],
}

/// The sampler of a four-player view (see the module docs).
#[derive(Clone, Debug)]
pub(super) struct Four {
    base: World,
    /// Every hidden seat holding cards, in turn order after the viewer.
    hidden: [Seat; 3],
    nhidden: usize,
    /// The constrained hands.
    hands: [Seat; 3],
    nh: usize,
    /// Unseen cards (the espada of a case aside) by the mask of constrained hands
    /// that may hold them; `classes[0]` goes to the pool.
    classes: [CardSet; 8],
    /// Masks of the non-empty classes with a hand, in DP order.
    order: [u8; 7],
    nord: usize,
    pool: [Place; MAX_POOL],
    npool: usize,
    special: Option<Card>,
    cases: [FourCase; MAX_CASES],
    ncases: usize,
    /// Room dimensions of the DP state (largest room + 1 per constrained hand).
    dims: [usize; 3],
    nstates: usize,
    /// `g[i * nstates + state]`: the ways to fill the constrained hands exactly
    /// from classes `order[i..]` with room `state`.
    g: Vec<u128>,
    total: u128,
}

/// Cards a seat holds now, from public facts: the dealt nine (none for the
/// inactive dealer, ten taken in a penetro) less discards not replaced (the
/// penetrating dealer's one) and the cards played.
fn hand_size(p: &tresillo_core::PublicState, inf: &Inference, s: Seat) -> u32 {
    let played = inf.played_by[s].len();
    if s == p.dealer {
        if p.penetro.heap_end.is_none() {
            return 0;
        }
        return 10 - u32::from(p.exchanged[s].unwrap_or(0)) - played;
    }
    u32::from(p.game_rules().spec().tricks) - played
}

/// The espada's places at a table of four, when the auction constrains it (all
/// passed): in a penetro, the dealer's hand or discards, the heap, or the hand of
/// an opponent who exchanged; after an espada forzada, the forced declarer's hand
/// or discards.
fn espada_spots(view: &PlayerView, unseen: CardSet) -> ([Option<SpotAt>; 6], usize) {
    let p = view.public();
    let me = view.seat();
    let all_passed = p.passed == (1 << p.players) - 1 && p.bids().len() >= 3;
    let mut spots: [Option<SpotAt>; 6] = [None; 6];
    let mut nspots = 0;
    if all_passed && unseen.contains(Card::ESPADA) {
        if p.penetro.active {
            let d = p.dealer;
            if d != me && p.penetro.heap_end.is_some() {
                spots[nspots] = Some(SpotAt::Hand(d));
                nspots += 1;
                if p.exchanged[d].is_some_and(|k| k > 0) {
                    spots[nspots] = Some(SpotAt::Discards(d));
                    nspots += 1;
                }
            }
            spots[nspots] = Some(SpotAt::Heap);
            nspots += 1;
            for k in 1..4u8 {
                let s = me.plus(k, 4);
                if s != d && p.exchanged[s].is_some_and(|k| k > 0) && p.penetro.dropped != Some(s) {
                    spots[nspots] = Some(SpotAt::Hand(s));
                    nspots += 1;
                }
            }
        } else if let Some(d) = p.original_declarer.filter(|_| p.forced)
            && d != me
        {
            if p.exchanged[d] != Some(9) {
                spots[nspots] = Some(SpotAt::Hand(d));
                nspots += 1;
            }
            spots[nspots] = Some(SpotAt::Discards(d));
            nspots += 1;
        }
    }
    (spots, nspots)
}

/// The hidden places at a table of four: the constrained hands (whose exclusions
/// touch an unseen card) with their room and exclusions, and the pool of the
/// others (unconstrained hands, discards, the heap) with theirs.
struct Places {
    hands: [Seat; 3],
    nh: usize,
    caps: [u8; 3],
    ex: [CardSet; 3],
    pool: [Place; MAX_POOL],
    npool: usize,
    sizes: [u8; MAX_POOL],
}

impl Places {
    fn new(view: &PlayerView, known: &Known, hidden: &[Seat], room: &[u32; 4]) -> Places {
        let p = view.public();
        let me = view.seat();
        let mut pl = Places {
            hands: [me; 3],
            nh: 0,
            caps: [0; 3],
            ex: [CardSet::EMPTY; 3],
            pool: [Place::Heap; MAX_POOL],
            npool: 0,
            sizes: [0; MAX_POOL],
        };
        for &s in hidden {
            let e = known.inf.excluded[s] & known.unseen;
            if e.is_empty() {
                pl.pool[pl.npool] = Place::Hand(s);
                pl.sizes[pl.npool] = room[s.index()] as u8;
                pl.npool += 1;
            } else {
                pl.hands[pl.nh] = s;
                pl.caps[pl.nh] = room[s.index()] as u8;
                pl.ex[pl.nh] = known.inf.excluded[s];
                pl.nh += 1;
            }
        }
        for k in 1..4u8 {
            let s = me.plus(k, 4);
            let x = p.exchanged[s].unwrap_or(0);
            if x > 0 {
                pl.pool[pl.npool] = Place::Discards(s);
                pl.sizes[pl.npool] = x;
                pl.npool += 1;
            }
        }
        pl.pool[pl.npool] = Place::Heap;
        pl.sizes[pl.npool] = known.heap as u8;
        pl.npool += 1;
        pl
    }

    /// The cases: where the espada goes (one plain case when it is unconstrained).
    fn cases(
        &self,
        spots: &[Option<SpotAt>],
        special: bool,
        inf: &Inference,
    ) -> ([FourCase; MAX_CASES], usize) {
        let plain = FourCase { special: None, caps: self.caps, sizes: self.sizes, cum: 0 };
        let pool = &self.pool[..self.npool];
        let mut cases = [plain; MAX_CASES];
        let mut ncases = usize::from(!special);
        for &at in spots.iter().flatten() {
            let mut k = plain;
            let spot = match at {
                SpotAt::Hand(s) => match self.hands[..self.nh].iter().position(|&h| h == s) {
                    Some(i) if !self.ex[i].contains(Card::ESPADA) && k.caps[i] > 0 => {
                        k.caps[i] -= 1;
                        Some(Spot::Hand(i))
                    }
                    Some(_) => None,
                    None if inf.excluded[s].contains(Card::ESPADA) => None,
                    None => pool_spot(pool, Place::Hand(s), &mut k),
                },
                SpotAt::Discards(s) => pool_spot(pool, Place::Discards(s), &mut k),
                SpotAt::Heap => pool_spot(pool, Place::Heap, &mut k),
            };
            if let Some(spot) = spot {
                k.special = Some(spot);
                cases[ncases] = k;
                ncases += 1;
            }
        }
        (cases, ncases)
    }
}

impl Four {
    pub(super) fn new(view: &PlayerView) -> Result<Four, NoWorld> {
        let p = view.public();
        let me = view.seat();
        let mut known = Known::new(view);

        // Room per hidden seat's hand and discards.
        let mut hidden = [me; 3];
        let mut nhidden = 0;
        let mut room = [0u32; 4];
        for k in 1..4u8 {
            let s = me.plus(k, 4);
            room[s.index()] = hand_size(p, &known.inf, s);
            if room[s.index()] > 0 {
                hidden[nhidden] = s;
                nhidden += 1;
            }
        }
        known.place_turned(view, &mut room)?;

        let (spots, nspots) = espada_spots(view, known.unseen);
        let special = if nspots > 0 { Some(Card::ESPADA) } else { None };
        if special.is_some() {
            known.unseen.take(Card::ESPADA);
        }
        let places = Places::new(view, &known, &hidden[..nhidden], &room);
        let Places { hands, nh, caps, ex, pool, npool, sizes } = places;

        let placed: u32 = caps.iter().chain(&sizes).map(|&x| u32::from(x)).sum();
        let want = known.unseen.len() + u32::from(special.is_some());
        if placed != want {
            return Err(NoWorld(format!("{want} unseen cards for {placed} hidden places")));
        }

        let mut classes = [CardSet::EMPTY; 8];
        for c in known.unseen {
            let m =
                ex[..nh].iter().enumerate().filter(|(_, e)| !e.contains(c)).fold(0, |m, (i, _)| m | 1 << i);
            classes[m].insert(c);
        }
        // DP order: the largest class last (its fill is then forced).
        let mut order = [0u8; 7];
        let mut nord = 0;
        for m in 1..(1u8 << nh) {
            if !classes[m as usize].is_empty() {
                order[nord] = m;
                nord += 1;
            }
        }
        order[..nord].sort_by_key(|&m| classes[m as usize].len());
        let (cases, ncases) = places.cases(&spots, special.is_some(), &known.inf);

        let mut dims = [1usize; 3];
        for i in 0..nh {
            dims[i] = usize::from(caps[i]) + 1;
        }
        let nstates = dims[0] * dims[1] * dims[2];
        let mut f = Four {
            base: known.base,
            hidden,
            nhidden,
            hands,
            nh,
            classes,
            order,
            nord,
            pool,
            npool,
            special,
            cases,
            ncases,
            dims,
            nstates,
            g: vec![0; (nord + 1) * nstates],
            total: 0,
        };
        f.count_fills();
        for ci in 0..f.ncases {
            let k = f.cases[ci];
            let w = f.g[f.state(k.caps)] * f.pool_ways(&k.sizes);
            f.total += w;
            f.cases[ci].cum = f.total;
        }
        if f.total == 0 {
            return Err(NoWorld("the constraints leave no world".into()));
        }
        Ok(f)
    }

    fn state(&self, c: [u8; 3]) -> usize {
        usize::from(c[0]) + self.dims[0] * (usize::from(c[1]) + self.dims[1] * usize::from(c[2]))
    }

    fn decode(&self, mut st: usize) -> [u8; 3] {
        let c0 = st % self.dims[0];
        st /= self.dims[0];
        let c1 = st % self.dims[1];
        [c0 as u8, c1 as u8, (st / self.dims[1]) as u8]
    }

    /// The ways to split the pool's cards among its places of `sizes`.
    fn pool_ways(&self, sizes: &[u8; MAX_POOL]) -> u128 {
        let mut left: u32 = sizes[..self.npool].iter().map(|&x| u32::from(x)).sum();
        let mut w = 1u128;
        for &x in &sizes[..self.npool] {
            w *= binom(left, u32::from(x));
            left -= u32::from(x);
        }
        w
    }

    /// Fills the DP table `g`.
    fn count_fills(&mut self) {
        let ns = self.nstates;
        self.g[self.nord * ns] = 1;
        for i in (0..self.nord).rev() {
            let cls = self.classes[self.order[i] as usize];
            let mask = self.order[i];
            for st in 0..ns {
                let c = self.decode(st);
                if i + 1 == self.nord {
                    // The last class fills what is left exactly.
                    self.g[i * ns + st] = fill_exactly(mask, c, cls.len());
                    continue;
                }
                let mut sum = 0u128;
                for_each_split(mask, c, cls.len(), |t, w| {
                    let rest = [c[0] - t[0], c[1] - t[1], c[2] - t[2]];
                    sum += w * self.g[(i + 1) * ns + self.state(rest)];
                });
                self.g[i * ns + st] = sum;
            }
        }
    }

    pub(super) fn count(&self) -> u128 {
        self.total
    }

    pub(super) fn hidden_seats(&self) -> &[Seat] {
        &self.hidden[..self.nhidden]
    }

    /// The case and the class splits of one world, with probability proportional
    /// to their number of worlds.
    fn choose(&self, rng: &mut AgentRng) -> Choice {
        let r = below_u128(rng, self.total);
        let case = self.cases[..self.ncases].partition_point(|k| k.cum <= r);
        let mut ch = Choice { case, t: [[0; 3]; 8] };
        let ns = self.nstates;
        let mut c = self.cases[case].caps;
        for i in 0..self.nord {
            let mask = self.order[i];
            let n = self.classes[mask as usize].len();
            let mut r = below_u128(rng, self.g[i * ns + self.state(c)]);
            let mut pick = None;
            for_each_split(mask, c, n, |t, w| {
                if pick.is_some() {
                    return;
                }
                let rest = [c[0] - t[0], c[1] - t[1], c[2] - t[2]];
                let k = w * self.g[(i + 1) * ns + self.state(rest)];
                if r < k {
                    pick = Some(t);
                } else {
                    r -= k;
                }
            });
            let t = pick.expect("the counts add up");
            ch.t[i] = t;
            for j in 0..3 {
                c[j] -= t[j];
            }
        }
        ch
    }

    /// The world of `ch`, each class dealt by `subset(set, k)`.
    fn fill(&self, ch: &Choice, mut subset: impl FnMut(CardSet, u32) -> CardSet) -> World {
        let k = self.cases[ch.case];
        let mut w = self.base;
        let mut rest = self.classes[0];
        if let (Some(c), Some(Spot::Hand(i))) = (self.special, k.special) {
            w.hands[self.hands[i]].insert(c);
        }
        for i in 0..self.nord {
            let mut cls = self.classes[self.order[i] as usize];
            for j in 0..self.nh {
                let s = subset(cls, u32::from(ch.t[i][j]));
                w.hands[self.hands[j]] |= s;
                cls = cls - s;
            }
            rest |= cls;
        }
        for j in 0..self.npool {
            let mut s = subset(rest, u32::from(k.sizes[j]));
            rest = rest - s;
            if let (Some(c), Some(Spot::Pool(i))) = (self.special, k.special)
                && i == j
            {
                s.insert(c);
            }
            self.put(&mut w, j, s);
        }
        w
    }

    fn put(&self, w: &mut World, j: usize, s: CardSet) {
        match self.pool[j] {
            Place::Hand(seat) => w.hands[seat] |= s,
            Place::Discards(seat) => w.discards[seat] |= s,
            Place::Heap => w.heap |= s,
        }
    }

    pub(super) fn sample(&self, rng: &mut AgentRng) -> World {
        let ch = self.choose(rng);
        self.fill(&ch, |set, k| random_subset(set, k, rng))
    }

    pub(super) fn sample_fast(&self, rng: &mut AgentRng) -> World {
        let ch = self.choose(rng);
        let mut d = Draws::new(rng);
        self.fill(&ch, |set, k| subset_by_draws(set, k, &mut d))
    }

    pub(super) fn for_each_world(&self, f: &mut dyn FnMut(&World)) {
        for ci in 0..self.ncases {
            let k = self.cases[ci];
            let mut w = self.base;
            if let (Some(c), Some(Spot::Hand(i))) = (self.special, k.special) {
                w.hands[self.hands[i]].insert(c);
            }
            self.each_class(&k, 0, k.caps, w, self.classes[0], f);
        }
    }

    fn each_class(
        &self,
        k: &FourCase,
        i: usize,
        c: [u8; 3],
        w: World,
        rest: CardSet,
        f: &mut dyn FnMut(&World),
    ) {
        if i == self.nord {
            self.each_pool(k, 0, w, rest, f);
            return;
        }
        let ns = self.nstates;
        let mask = self.order[i];
        let cls = self.classes[mask as usize];
        for_each_split(mask, c, cls.len(), |t, _| {
            let left = [c[0] - t[0], c[1] - t[1], c[2] - t[2]];
            if self.g[(i + 1) * ns + self.state(left)] == 0 {
                return;
            }
            self.each_hand(k, i, 0, &t, left, w, cls, rest, f);
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn each_hand(
        &self,
        k: &FourCase,
        i: usize,
        j: usize,
        t: &[u8; 3],
        left: [u8; 3],
        w: World,
        cls: CardSet,
        rest: CardSet,
        f: &mut dyn FnMut(&World),
    ) {
        if j == self.nh {
            self.each_class(k, i + 1, left, w, rest | cls, f);
            return;
        }
        for_each_subset(cls, u32::from(t[j]), |s| {
            let mut w2 = w;
            w2.hands[self.hands[j]] |= s;
            self.each_hand(k, i, j + 1, t, left, w2, cls - s, rest, f);
        });
    }

    fn each_pool(&self, k: &FourCase, j: usize, w: World, rest: CardSet, f: &mut dyn FnMut(&World)) {
        if j == self.npool {
            f(&w);
            return;
        }
        for_each_subset(rest, u32::from(k.sizes[j]), |s| {
            let mut w2 = w;
            let mut s2 = s;
            if let (Some(c), Some(Spot::Pool(i))) = (self.special, k.special)
                && i == j
            {
                s2.insert(c);
            }
            self.put(&mut w2, j, s2);
            self.each_pool(k, j + 1, w2, rest - s, f);
        });
    }
}

/// A named place of the espada before the places are sorted into constrained
/// hands and pool.
#[derive(Clone, Copy, Debug)]
enum SpotAt {
    Hand(Seat),
    Discards(Seat),
    Heap,
}

/// The pool place `place` as the espada's spot, its room reduced by one.
fn pool_spot(pool: &[Place], place: Place, k: &mut FourCase) -> Option<Spot> {
    let j = pool.iter().position(|&q| q == place)?;
    if k.sizes[j] == 0 {
        return None;
    }
    k.sizes[j] -= 1;
    Some(Spot::Pool(j))
}

/// Calls `f(t, ways)` for every split `t` of a class of `n` cards over the
/// constrained hands of `mask` (at most `room[j]` to hand `j`, the rest to the
/// pool), `ways` the multinomial number of ways to deal it.
#[inline]
fn for_each_split(mask: u8, room: [u8; 3], n: u32, mut f: impl FnMut([u8; 3], u128)) {
    let top = |j: usize, left: u32| if mask & (1 << j) != 0 { u32::from(room[j]).min(left) } else { 0 };
    for t0 in 0..=top(0, n) {
        let w0 = binom(n, t0);
        let n1 = n - t0;
        for t1 in 0..=top(1, n1) {
            let w1 = w0 * binom(n1, t1);
            let n2 = n1 - t1;
            for t2 in 0..=top(2, n2) {
                f([t0 as u8, t1 as u8, t2 as u8], w1 * binom(n2, t2));
            }
        }
    }
}

/// [`World::to_deal`] at a table of four: the active hands as dealt, the inactive
/// dealer's empty, and the heap ordered so that every exchange draws what the world
/// says. In a penetro the dealer's ten cards (hand, discard and cards played) sit
/// at the end of the heap the view names, and an opponent holding the espada drew
/// it (nobody was dealt it).
pub(super) fn to_deal(w: &World, view: &PlayerView) -> Result<Deal, NoWorld> {
    let p = view.public();
    let inf = Inference::from_view(view);
    let mut at_play = BySeat::<CardSet>::default();
    for s in 0..4 {
        at_play.0[s] = w.hands.0[s] | inf.played_by.0[s];
    }
    let mut hands = at_play;
    let pen = p.penetro.active;
    let d = p.original_declarer;
    // Who exchanged with the heap, in order.
    let mut order: [Option<Seat>; 4] = [None; 4];
    if let Some(fo) = p.first_opponent {
        let other = |a: Seat, b: Seat| {
            (1..4u8).map(|k| p.dealer.plus(k, 4)).find(|&s| s != a && s != b && p.penetro.dropped != Some(s))
        };
        if pen {
            order[1] = Some(fo);
            if p.game_rules().penetro_all_play() {
                order[2] = Some(fo.plus(1, 4));
                order[3] = Some(fo.plus(2, 4));
            } else {
                order[2] = other(fo, p.dealer);
            }
        } else if let Some(d) = d {
            order[0] = Some(d);
            order[1] = Some(fo);
            order[2] = other(fo, d);
        }
    } else if !pen {
        order[0] = d;
    }
    let mut seq = [Card::ESPADA; 13];
    let mut drawn_len = 0;
    for s in order.into_iter().flatten() {
        let k = p.exchanged[s].unwrap_or(0) as usize;
        if k == 0 {
            continue;
        }
        let mut rest = at_play[s];
        let is_decl = Some(s) == d;
        let mut first = CardSet::EMPTY;
        if is_decl && p.forced && !pen {
            rest.take(Card::ESPADA);
        }
        if pen {
            first = rest & CardSet::from_iter([Card::ESPADA]);
        }
        let drawn = super::world::draw(p, s, is_decl, rest, first, k, &mut seq, &mut drawn_len)?;
        hands[s] = (at_play[s] - drawn) | w.discards[s];
    }
    super::world::heap_rest(p, w.heap, &mut seq, &mut drawn_len)?;
    let mut heap = [Card::ESPADA; 13];
    let m = match p.penetro.heap_end.filter(|_| pen) {
        Some(end) => {
            let ten = at_play[p.dealer] | w.discards[p.dealer];
            hands[p.dealer] = CardSet::EMPTY;
            if ten.len() != 10 || drawn_len != 3 {
                return Err(NoWorld("a penetro needs ten cards taken and three left".into()));
            }
            let mut tens = [Card::ESPADA; 10];
            for (i, c) in ten.iter().enumerate() {
                tens[i] = c;
            }
            let three = &seq[..3];
            let (a, b): (&[Card], &[Card]) = match end {
                HeapEnd::Top => (&tens, three),
                HeapEnd::Bottom => (three, &tens),
            };
            heap[..a.len()].copy_from_slice(a);
            heap[a.len()..13].copy_from_slice(b);
            13
        }
        None => {
            heap[..drawn_len].copy_from_slice(&seq[..drawn_len]);
            drawn_len
        }
    };
    Ok(Deal { hands, heap: Heap::from_cards(&heap[..m]) })
}

/// The ways to deal a class of `n` cards so that the constrained hands of `mask`
/// receive exactly `room` (and the hands outside `mask` have no room left).
fn fill_exactly(mask: u8, room: [u8; 3], n: u32) -> u128 {
    let mut left = n;
    let mut w = 1u128;
    for (j, &r) in room.iter().enumerate() {
        let r = u32::from(r);
        if mask & (1 << j) == 0 {
            if r > 0 {
                return 0;
            }
            continue;
        }
        if r > left {
            return 0;
        }
        w *= binom(left, r);
        left -= r;
    }
    w
}
