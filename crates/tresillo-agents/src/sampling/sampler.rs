//! The card sampler: from a [`PlayerView`], complete worlds (the other hands, the
//! others' discards, the heap remainder) drawn exactly uniformly over every world
//! consistent with the view.
//!
//! # What a world must respect
//!
//! The unseen cards are the complement of [`PlayerView::known_cards`]. They go to
//! five places whose sizes the view shows: the two other hands (nine less the cards
//! each has played), their discard piles (the count each exchanged), and the heap
//! remainder (`heap_left`). Constraints (RULES.md section 10):
//!
//! - a hand holds no card of a plain suit its owner did not follow, and no trump
//!   that a trump lead it did not answer with a trump could force
//!   ([`Inference::excluded`]); discards and the heap are not constrained (a card
//!   discarded was not in the hand at play time);
//! - the turned vuelta card is at the top of the heap until the declarer exchanges,
//!   then in the original declarer's hand until played;
//! - after an all-pass auction the espada was dealt where the rules say: to the
//!   forced declarer (espada forzada), so an unseen espada is in the declarer's hand
//!   or discards - only in the discards when the declarer exchanged all nine cards
//!   (every card of the hand at play was drawn) - or, when the hand was cancelled,
//!   in the heap;
//! - after the forced entrada of `tresillo-house` (all passed) the declarer was
//!   dealt the espada, else the basto, else nobody was dealt either and the
//!   declarer is mano: applied by rejection (see [`Sampler::has_rejection`]).
//! - after the obligation of `hombre` (all passed) the declarer was dealt the
//!   espada unless it is mano (and nobody was dealt it): applied by the same
//!   rejection; with the option `gascarille` the others were asked to demand one
//!   exactly when the declarer was dealt it, so the asking (public) says which;
//! - a heap turned face up under `hombre`'s `show_heap` is known: it is the heap
//!   of every world.
//!
//! Bids, words and the other decisions are choices, not constraints, and are
//! ignored.
//!
//! # Method (exact)
//!
//! Cards whose allowed places are the same are interchangeable: they form a
//! *class*. With the two hidden hands `A` and `B`, the classes are: cards allowed
//! in both hands, only in `A`, only in `B`, in neither; the discard piles and the
//! heap (the *pool*) accept any card. A world is fixed by how many cards of each
//! class go to each place and then which ones. [`Sampler::new`] counts, with exact
//! integers, the worlds for each split `(a, b)` (cards of class "only A" that go to
//! `A`, of "only B" to `B`; the class "both" fills the rest) and for each place of
//! the espada when it is constrained; [`Sampler::sample`] draws a split with
//! probability proportional to its count, then deals each class uniformly (random
//! subsets of exact sizes), then splits the pool uniformly. Every world therefore
//! has the same probability. A sample costs a few random numbers per card and
//! allocates nothing.
//!
//! When [`Sampler::count`] is small, [`Sampler::for_each_world`] visits every world
//! once instead (exact expectations at the end of a hand).
//!
//! # Four players
//!
//! At a table of four (RULES.md section 12.2) there may be three hidden hands (the
//! inactive dealer's view, or a penetro under `penetro_all_play`), a penetrating
//! dealer's ten cards, a dropped-out player's dead cards and the penetro's espada,
//! which nobody was dealt. The `four` module counts and draws those worlds exactly
//! by a dynamic programme over card classes (same guarantee: every consistent world
//! equally likely); the three-player path above is unchanged.
//!
//! Its parts: this module counts by card classes, then deals uniformly (enumerating
//! when few worlds remain); `sampler/four.rs` does the same at four players (up to
//! three hidden hands, dead hands, the penetro's espada; a dynamic programme over card
//! classes); `sampler/world.rs` holds `World`, `NoWorld` and the heap order of a
//! world's deal; `sampler/subsets.rs` the exact combinatorics both samplers use.

mod four;
mod subsets;
mod world;

use subsets::{below_u128, binom, for_each_subset, random_subset, subset_by_draws};
use tresillo_core::Question;
use world::{Known, draw, heap_rest};
pub use world::{NoWorld, World};

use crate::rng::{AgentRng, Draws};
use crate::sampling::infer::Inference;
use tresillo_core::{
    BySeat, Card, CardSet, Contract, Deal, Decision, Hand, Heap, PlayerView, Request, Rules, Seat,
};

impl World {
    /// A deal that, with the public decisions of `view`, leads to this world: the
    /// hands as dealt and the heap in an order that gives every exchange the cards
    /// the world says were drawn. Which cards of a hand were drawn is not visible to
    /// anyone, so any choice does; this one draws the turned vuelta card first and
    /// never the espada of an espada forzada.
    pub fn to_deal(&self, view: &PlayerView) -> Result<Deal, NoWorld> {
        let p = view.public();
        if p.table.dealer_sits_out {
            return four::to_deal(self, view);
        }
        let inf = Inference::from_view(view);
        let mut hands = BySeat::<CardSet>::default();
        for s in 0..3 {
            hands.0[s] = self.hands.0[s] | inf.played_by.0[s];
        }
        let mut heap = [Card::ESPADA; 13];
        let mut n = 0;
        let order = match (p.original_declarer, p.first_opponent) {
            (Some(d), Some(fo)) => {
                [Some(d), Some(fo), Some(if fo == d.next(3) { d.plus(2, 3) } else { d.next(3) })]
            }
            (Some(d), None) => [Some(d), None, None],
            _ => [None, None, None],
        };
        for s in order.into_iter().flatten() {
            let k = p.exchanged[s].unwrap_or(0) as usize;
            if k == 0 {
                continue;
            }
            let at_play = hands[s];
            let mut rest = at_play;
            let is_decl = Some(s) == p.original_declarer;
            let house = p.forced && !p.game_rules().spec().forced_holds_espada;
            if is_decl && p.forced && !house {
                rest.take(Card::ESPADA);
            }
            // The forced entrada of `tresillo-house`: the declarer was dealt the
            // espada, else the basto; the others were dealt neither (they drew them).
            let mut first = CardSet::EMPTY;
            if house && is_decl && gascarille_asked(p) == Some(false) {
                // Nobody was asked for a gascarille: nobody was dealt the espada.
                first = rest & CardSet::from_iter([Card::ESPADA]);
            } else if house && is_decl {
                for c in [Card::ESPADA, Card::BASTO] {
                    if rest.contains(c) && rest.len() as usize > k {
                        rest.take(c);
                    }
                }
            } else if house {
                first = rest & CardSet::from_iter([Card::ESPADA, Card::BASTO]);
            }
            // Whoever bid or declared grand tourné was dealt spadille and basta.
            if Some(s) == grand_holder(p) {
                rest.take(Card::ESPADA);
                rest.take(Card::BASTO);
            }
            let drawn = draw(p, s, is_decl, rest, first, k, &mut heap, &mut n)?;
            hands[s] = (at_play - drawn) | self.discards[s];
        }
        heap_rest(p, self.heap, &mut heap, &mut n)?;
        Ok(Deal { hands, heap: Heap::from_cards(&heap[..n]) })
    }

    /// The world's heap in a random drawing order (the order an exchange would
    /// draw it in), with `first` on top when it is in the heap (the turned
    /// vuelta card): the cards and their count. One random number per card
    /// below the top, from `rng`.
    pub fn heap_drawing_order(&self, first: Option<Card>, rng: &mut AgentRng) -> ([Card; 40], usize) {
        let mut order = [Card::ESPADA; 40];
        let mut rest = self.heap;
        let mut len = 0;
        if let Some(t) = first
            && rest.take(t)
        {
            order[0] = t;
            len = 1;
        }
        while !rest.is_empty() {
            let c = rest.nth(crate::rng::below(rng, rest.len())).expect("a heap card");
            rest.take(c);
            order[len] = c;
            len += 1;
        }
        (order, len)
    }

    /// A [`Hand`] in this world, at the point `view` was taken: the deal of
    /// [`World::to_deal`] with every public decision of the view replayed (and the
    /// world's discards for the exchanges). The rules check every decision, so this
    /// also proves the world consistent; the hand's view of the viewer's seat equals
    /// `view`.
    pub fn replay(&self, view: &PlayerView) -> Result<Hand, NoWorld> {
        self.replay_visit(view, |_, _| {})
    }

    /// [`World::replay`], calling `visit` with the hand and the decision about
    /// to be applied before each public decision is replayed: how a model of
    /// the players scores the history in this world (the seat asked is
    /// `hand.request().seat()`, its view in the world `hand.view(seat)`).
    pub fn replay_visit(
        &self,
        view: &PlayerView,
        mut visit: impl FnMut(&Hand, Decision),
    ) -> Result<Hand, NoWorld> {
        let p = view.public();
        let deal = self.to_deal(view)?;
        let mut hand = Hand::with_rules(p.game_rules(), p.players, deal, p.dealer)
            .map_err(|e| NoWorld(e.to_string()))?;
        let (mut nb, mut nw, mut np) = (0, 0, 0);
        while hand.public() != p {
            let d = match hand.request() {
                Request::Bid { .. } => {
                    let b = p.bids().get(nb).ok_or_else(|| NoWorld("auction diverged".into()))?;
                    nb += 1;
                    Decision::Bid(b.bid)
                }
                Request::Declare { .. } => {
                    let c = p.contract.ok_or_else(|| NoWorld("no contract in the view".into()))?;
                    Decision::Declare(c, if c.names_trump() { p.trump } else { None })
                }
                Request::Discard { seat, .. } => Decision::Discard(self.discards[seat]),
                Request::Word { .. } => {
                    let w = p.words().get(nw).ok_or_else(|| NoWorld("conversation diverged".into()))?;
                    nw += 1;
                    Decision::Word(w.word)
                }
                Request::Play { .. } => {
                    let c = p.plays().get(np).ok_or_else(|| NoWorld("play diverged".into()))?;
                    np += 1;
                    Decision::Play(*c)
                }
                Request::Ask { question: Question::SURRENDER, .. } => {
                    Decision::Answer(Question::SURRENDER, p.surrendered == Some(true))
                }
                Request::Ask { seat, question: Question::TAKE_OVER } => {
                    Decision::Answer(Question::TAKE_OVER, p.took_over == Some(seat))
                }
                Request::Ask { question: Question::BOLA, .. } => {
                    Decision::Answer(Question::BOLA, p.bola == Some(true))
                }
                Request::Ask { seat, question: Question::GASCARILLE } => {
                    Decision::Answer(Question::GASCARILLE, p.gascarille_declined & (1 << seat.0) == 0)
                }
                Request::Ask { question: Question::EXCHANGE_FIRST, .. } => {
                    Decision::Answer(Question::EXCHANGE_FIRST, p.exchange_first == Some(true))
                }
                Request::Ask { seat, question: Question::ACCEPT_SURRENDER } => {
                    Decision::Answer(Question::ACCEPT_SURRENDER, p.accepted & (1 << seat.0) != 0)
                }
                Request::Ask { question: Question::DECLARE_VOLE, .. } => {
                    Decision::Answer(Question::DECLARE_VOLE, p.vole_declared == Some(true))
                }
                // A question asked once a hand: its latest answer is the one given.
                Request::Ask { question, .. } => {
                    Decision::Answer(question, p.answers.get(question) == Some(true))
                }
                Request::Penetro { .. } => Decision::Penetro(
                    p.penetro.heap_end.ok_or_else(|| NoWorld("no heap end in the view".into()))?,
                ),
                Request::DropOut { .. } => {
                    let n = hand.public().penetro.words().len();
                    let w =
                        p.penetro.words().get(n).ok_or_else(|| NoWorld("drop-out talk diverged".into()))?;
                    Decision::DropOut(w.word)
                }
                Request::Done => return Err(NoWorld("the replayed hand ended early".into())),
            };
            visit(&hand, d);
            hand.apply(d).map_err(|e| NoWorld(format!("replaying {d:?}: {e}")))?;
        }
        Ok(hand)
    }
}

/// Where the constrained espada goes in one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpecialIn {
    /// No constrained card.
    Nowhere,
    /// In the hand of hidden seat 0 or 1.
    Hand(usize),
    /// In the discards of hidden seat 0 or 1.
    Discards(usize),
    /// In the heap.
    Heap,
}

/// Sizes of the hidden places in one case.
#[derive(Clone, Copy, Debug)]
struct Case {
    special: SpecialIn,
    /// Hidden room in hands A and B.
    h: [u8; 2],
    /// Hidden room in discards A and B.
    x: [u8; 2],
    /// Hidden room in the heap.
    heap: u8,
}

/// One split with the cumulative count of worlds up to and including it.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    cum: u128,
    case: u8,
    a: u8,
    b: u8,
}

const MAX_CELLS: usize = 2 * 10 * 10;

/// Draws worlds consistent with one view, exactly uniformly. Build it once per
/// decision ([`Sampler::new`], a few microseconds), then draw as many worlds as
/// needed ([`Sampler::sample`], a fraction of a microsecond, no allocation).
///
/// **Constraints** (RULES.md section 10): the unseen cards fill the two other
/// hands (nine less the cards each has played), their discard piles (the counts
/// exchanged) and the heap remainder. A hand holds no card of a plain suit its owner
/// failed to follow and no trump that a trump lead it did not answer with a trump
/// could force ([`Inference::excluded`](crate::Inference)); discards and the heap are
/// unconstrained. The turned vuelta card is at the top of the heap until the
/// declarer exchanges, then in the original declarer's hand until played. After an
/// all-pass auction the espada is with the forced declarer (hand or discards; only
/// the discards if all nine cards were exchanged) or, for a cancelled hand, in the
/// heap. Bids, words and other choices are not constraints.
///
/// **Method** (exact): cards with the same allowed places form a class (allowed in
/// both other hands, in one only, in neither); the discards and the heap take any
/// card. For each split - how many cards of each one-hand class go to that hand,
/// and where a constrained espada goes - the number of worlds is a product of
/// binomials, counted in `u128`. A sample picks a split with probability
/// proportional to its count, then deals each class by uniform random subsets of
/// the exact sizes, and splits the rest uniformly among the discard piles and the
/// heap: every consistent world has the same probability. [`Sampler::count`] gives
/// the number of worlds and [`Sampler::for_each_world`] enumerates them (for when
/// few cards remain).
#[derive(Clone, Debug)]
pub struct Sampler {
    /// Known placements: the viewer's hand and discards, the turned card.
    base: World,
    /// The two hidden seats.
    others: [Seat; 2],
    /// Classes: allowed in both hands, only in A, only in B, in neither.
    both: CardSet,
    only: [CardSet; 2],
    none: CardSet,
    /// The constrained card (the espada after an all-pass auction).
    special: Option<Card>,
    /// The all-pass constraint of `tresillo-house`, applied by rejection.
    forced: Option<ForcedCheck>,
    /// The grand tourné constraint of `lhombre`, applied by rejection.
    grand: Option<GrandCheck>,
    cases: [Case; 2],
    cells: [Cell; MAX_CELLS],
    ncells: usize,
    total: u128,
    /// At a table of four, the general sampler (every other field unused).
    four: Option<Box<four::Four>>,
}

/// The forced entrada of `tresillo-house` (RULES.md section 12.1) as a constraint
/// on the deal: the declarer was dealt the espada, else nobody was and the
/// declarer was dealt the basto, else nobody was dealt either and the declarer is
/// mano. Where a card was dealt is not a property of a world (a card in a hand at
/// play may have been drawn), so a world is consistent when *some* way of drawing
/// the exchanged cards satisfies the constraint: the declarer's espada and basto
/// taken as dealt when the exchange leaves room, the others' as drawn when they
/// drew enough (the reconstruction [`World::to_deal`] makes). [`Sampler::sample`]
/// draws worlds without the constraint and keeps the consistent ones: uniform over
/// the consistent worlds, as everywhere else.
#[derive(Clone, Copy, Debug)]
struct ForcedCheck {
    rules: Rules,
    declarer: Seat,
    mano: Seat,
    played_by: BySeat<CardSet>,
    exchanged: BySeat<u8>,
    /// `hombre` with `gascarille`: whether the others were asked to demand one,
    /// that is whether the declarer was dealt the espada ([`gascarille_asked`]).
    gascarille: Option<bool>,
}

impl ForcedCheck {
    /// Whether the espada and the basto can have been dealt so that the all-pass
    /// rule designates the declarer.
    fn accepts(&self, w: &World) -> bool {
        let specials = CardSet::from_iter([Card::ESPADA, Card::BASTO]);
        let mut dealt = [CardSet::EMPTY; 3];
        for (s, d) in dealt.iter_mut().enumerate() {
            let at_play = w.hands.0[s] | self.played_by.0[s];
            let k = u32::from(self.exchanged.0[s]);
            *d = w.discards.0[s] & specials;
            if Seat(s as u8) == self.declarer {
                // Kept as dealt while the cards not reserved can make up the draw
                // (the espada drawn when no gascarille was asked about).
                let mut free = at_play.len();
                for c in [Card::ESPADA, Card::BASTO] {
                    if c == Card::ESPADA && self.gascarille == Some(false) {
                        continue;
                    }
                    if at_play.contains(c) && free > k {
                        d.insert(c);
                        free -= 1;
                    }
                }
            } else {
                // Drawn first; dealt only when fewer cards were drawn than held.
                let held = at_play & specials;
                if held.len() > k {
                    for c in held.iter().skip(k as usize) {
                        d.insert(c);
                    }
                }
            }
        }
        if self.gascarille.is_some_and(|asked| dealt[self.declarer.index()].contains(Card::ESPADA) != asked) {
            return false;
        }
        self.rules.all_pass_declarer(&dealt, self.mano) == Some(self.declarer)
    }
}

/// `hombre` with the option `gascarille` after all passed (RULES.md section 12.3):
/// the others are asked to demand a gascarille exactly when the obliged declarer
/// was dealt the espada, so whether anyone was asked (`Some(true)`, the asking
/// public) says whether it was. `None` in every other case.
fn gascarille_asked(p: &tresillo_core::PublicState) -> Option<bool> {
    // The option is `hombre`'s only: a forced hand there is the obligation.
    if !(p.game_rules().gascarille() && p.forced) {
        return None;
    }
    Some(p.gascarille || p.gascarille_declined != 0)
}

/// The seat that bid grand tourné (rank 4 of `lhombre`) or declared it: it was
/// dealt both spadille and basta.
fn grand_holder(p: &tresillo_core::PublicState) -> Option<Seat> {
    if !crate::family::of(&p.game_rules()).grand_tourne {
        return None;
    }
    if p.contract == Some(Contract::GrandTourne) {
        return p.original_declarer;
    }
    p.bids().iter().find(|b| b.bid == tresillo_core::Bid::Level(4)).map(|b| b.seat)
}

/// Grand tourné (`lhombre`, RULES.md section 12.4) as a constraint on the deal:
/// the declarer was dealt both spadille and basta. Dealt cards were never drawn,
/// so both are in the declarer's hand at play, discards or played cards, and the
/// hand at play keeps room for the cards drawn besides them.
#[derive(Clone, Copy, Debug)]
struct GrandCheck {
    declarer: Seat,
    played: CardSet,
    exchanged: u8,
}

impl GrandCheck {
    fn accepts(&self, w: &World) -> bool {
        let aces = CardSet::from_iter([Card::ESPADA, Card::BASTO]);
        let at_play = w.hands[self.declarer] | self.played;
        let held = (at_play | w.discards[self.declarer]) & aces;
        held == aces && (at_play & aces).len() + u32::from(self.exchanged) <= at_play.len()
    }
}

/// After an all-pass auction the espada is where the auction says: dealt to the
/// forced declarer (espada forzada), or in the heap (a cancelled hand). Its places
/// in the three-player worlds (none when the auction says nothing of it; the
/// house rule sets check it by rejection, [`ForcedCheck`]).
fn espada_places(view: &PlayerView, others: [Seat; 2], unseen: CardSet) -> [Option<SpecialIn>; 2] {
    let p = view.public();
    let mut places = [None, None];
    let all_passed = p.bids().len() >= 3 && p.passed == (1 << p.players) - 1;
    let house = !p.game_rules().spec().forced_holds_espada;
    if all_passed && !house && unseen.contains(Card::ESPADA) {
        match p.original_declarer {
            Some(d) if p.forced && d != view.seat() => {
                let i = usize::from(d != others[0]);
                // Every card of the hand at play was drawn when nine were
                // exchanged; the espada can then only be among the discards.
                if p.exchanged[d] != Some(9) {
                    places[0] = Some(SpecialIn::Hand(i));
                }
                places[1] = Some(SpecialIn::Discards(i));
            }
            None => places[0] = Some(SpecialIn::Heap),
            _ => {}
        }
    }
    places
}

/// The forced declarer's deal to check by rejection after an all-pass auction
/// of `tresillo-house`, `hombre` and `lhombre` (whose forced dealer may have been
/// dealt no spadille, and whose redeal says nothing).
fn forced_check(view: &PlayerView, inf: &Inference) -> Option<ForcedCheck> {
    let p = view.public();
    let all_passed = p.bids().len() >= 3 && p.passed == (1 << p.players) - 1;
    let house = !p.game_rules().spec().forced_holds_espada;
    match p.original_declarer {
        Some(declarer) if all_passed && house => Some(ForcedCheck {
            rules: p.game_rules(),
            declarer,
            mano: p.mano(),
            played_by: inf.played_by,
            exchanged: BySeat(std::array::from_fn(|s| p.exchanged.0[s].unwrap_or(0))),
            gascarille: gascarille_asked(p),
        }),
        _ => None,
    }
}

/// The cases of the hidden places: `plain` without a constrained espada, or one
/// per place of it that fits (`ex`: the cards each hidden hand cannot hold).
fn espada_cases(
    plain: Case,
    places: [Option<SpecialIn>; 2],
    ex: [CardSet; 2],
    special: bool,
) -> ([Case; 2], usize) {
    let mut cases = [plain; 2];
    let mut ncases = usize::from(!special);
    for place in places.into_iter().flatten() {
        let mut k = plain;
        k.special = place;
        let ok = match place {
            SpecialIn::Hand(i) => {
                let fits = k.h[i] > 0 && !ex[i].contains(Card::ESPADA);
                k.h[i] = k.h[i].saturating_sub(1);
                fits
            }
            SpecialIn::Discards(i) => {
                let fits = k.x[i] > 0;
                k.x[i] = k.x[i].saturating_sub(1);
                fits
            }
            SpecialIn::Heap => {
                let fits = k.heap > 0;
                k.heap = k.heap.saturating_sub(1);
                fits
            }
            SpecialIn::Nowhere => true,
        };
        if ok {
            cases[ncases] = k;
            ncases += 1;
        }
    }
    (cases, ncases)
}

impl Sampler {
    /// Reads the constraints of `view` and counts the consistent worlds.
    pub fn new(view: &PlayerView) -> Result<Sampler, NoWorld> {
        let p = view.public();
        if p.table.dealer_sits_out {
            return Sampler::new_four(view);
        }
        let me = view.seat();
        let others = [me.next(3), me.plus(2, 3)];
        let mut known = Known::new(view);
        let mut room = [0u32; 4];
        let mut x = [0u8; 2];
        for (i, &s) in others.iter().enumerate() {
            room[s.index()] = known.inf.hand_size(s);
            x[i] = p.exchanged[s].unwrap_or(0);
        }
        known.place_turned(view, &mut room)?;
        let Known { mut base, mut unseen, inf, heap } = known;
        let mut h = [room[others[0].index()] as u8, room[others[1].index()] as u8];
        let heap = heap as u8;
        // Nolo ouvert: the hand laid face up is the declarer's.
        if let (Some(e), Some(d)) = (view.exposed_hand(), p.declarer)
            && d != me
        {
            let i = usize::from(d != others[0]);
            if u32::from(h[i]) < e.len() {
                return Err(NoWorld("the exposed hand is larger than the declarer's".into()));
            }
            h[i] -= e.len() as u8;
            base.hands[d] |= e;
        }
        let room = u32::from(h[0]) + u32::from(h[1]) + u32::from(x[0]) + u32::from(x[1]) + u32::from(heap);
        if room != unseen.len() {
            return Err(NoWorld(format!("{} unseen cards for {room} hidden places", unseen.len())));
        }
        let forced = forced_check(view, &inf);
        let places = espada_places(view, others, unseen);
        let special = if places.iter().any(Option::is_some) { Some(Card::ESPADA) } else { None };
        // Grand tourné: its bidder or declarer was dealt both spadille and basta.
        let grand = match grand_holder(p) {
            Some(d) if d != me => Some(GrandCheck {
                declarer: d,
                played: inf.played_by[d],
                exchanged: p.exchanged[d].unwrap_or(0),
            }),
            _ => None,
        };
        if special.is_some() {
            unseen.take(Card::ESPADA);
        }

        let ex = [inf.excluded[others[0]], inf.excluded[others[1]]];
        let in_a = unseen - ex[0];
        let in_b = unseen - ex[1];
        let plain = Case { special: SpecialIn::Nowhere, h, x, heap };
        let (cases, ncases) = espada_cases(plain, places, ex, special.is_some());
        let mut s = Sampler {
            base,
            others,
            both: in_a & in_b,
            only: [in_a - in_b, in_b - in_a],
            none: unseen - in_a - in_b,
            special,
            forced,
            grand,
            cases,
            cells: [Cell::default(); MAX_CELLS],
            ncells: 0,
            total: 0,
            four: None,
        };
        s.count_cells(ncases);
        if s.total == 0 {
            return Err(NoWorld("the constraints leave no world".into()));
        }
        Ok(s)
    }

    /// Counts the worlds of the first `ncases` cases, split by how many cards of
    /// each hidden hand come from the cards only it can hold (the cells).
    fn count_cells(&mut self, ncases: usize) {
        let (na, nb, nab) = (self.only[0].len(), self.only[1].len(), self.both.len());
        for ci in 0..ncases {
            let k = self.cases[ci];
            let (ha, hb) = (u32::from(k.h[0]), u32::from(k.h[1]));
            let pool = binom(u32::from(k.x[0] + k.x[1] + k.heap), u32::from(k.x[0]))
                * binom(u32::from(k.x[1] + k.heap), u32::from(k.x[1]));
            for a in 0..=na.min(ha) {
                for b in 0..=nb.min(hb) {
                    let (ra, rb) = (ha - a, hb - b);
                    if ra + rb > nab {
                        continue;
                    }
                    let w = binom(na, a) * binom(nb, b) * binom(nab, ra) * binom(nab - ra, rb) * pool;
                    if w == 0 {
                        continue;
                    }
                    self.total += w;
                    self.cells[self.ncells] =
                        Cell { cum: self.total, case: ci as u8, a: a as u8, b: b as u8 };
                    self.ncells += 1;
                }
            }
        }
    }

    /// The number of consistent worlds. After the forced entrada of
    /// `tresillo-house` (all passed), an upper bound: the worlds before the
    /// constraint on who was dealt the espada and the basto, which
    /// [`Sampler::sample`] and [`Sampler::for_each_world`] apply by rejection (see
    /// [`Sampler::has_rejection`]).
    #[must_use]
    pub fn count(&self) -> u128 {
        self.total
    }

    /// The sampler of a four-player view: the same constraints, with up to three
    /// hidden hands, dead hands and the penetro (see the `four` module).
    #[cold]
    fn new_four(view: &PlayerView) -> Result<Sampler, NoWorld> {
        if !view.public().game_rules().spec().forced_holds_espada {
            return Err(NoWorld("no four-player rule set forces a declarer by the cards dealt".into()));
        }
        let f = four::Four::new(view)?;
        let me = view.seat();
        let none = Case { special: SpecialIn::Nowhere, h: [0; 2], x: [0; 2], heap: 0 };
        Ok(Sampler {
            base: World::default(),
            others: [me.next(4), me.plus(2, 4)],
            both: CardSet::EMPTY,
            only: [CardSet::EMPTY; 2],
            none: CardSet::EMPTY,
            special: None,
            forced: None,
            grand: None,
            cases: [none; 2],
            cells: [Cell::default(); MAX_CELLS],
            ncells: 0,
            total: f.count(),
            four: Some(Box::new(f)),
        })
    }

    /// The seats whose hands are hidden (holding cards), in turn order after the
    /// viewer: two at three players; at four, two or three (a penetrating dealer,
    /// a dropped-out player, or all three others under `penetro_all_play`).
    #[must_use]
    pub fn hidden_seats(&self) -> &[Seat] {
        match &self.four {
            Some(f) => f.hidden_seats(),
            None => &self.others,
        }
    }

    /// Whether [`Sampler::sample`] rejects worlds (the all-pass constraint of
    /// `tresillo-house`): then [`Sampler::count`] is an upper bound, and
    /// [`Sampler::for_each_world`] calls its function fewer times.
    #[must_use]
    pub fn has_rejection(&self) -> bool {
        self.forced.is_some() || self.grand.is_some()
    }

    /// One world, uniform over the consistent worlds.
    pub fn sample(&self, rng: &mut AgentRng) -> World {
        if let Some(f) = &self.four {
            return f.sample(rng);
        }
        loop {
            let cell = self.draw_cell(rng);
            let w = self.fill(cell, |set, k| random_subset(set, k, rng));
            if self.accepts(&w) {
                return w;
            }
        }
    }

    /// One world from the same distribution as [`Sampler::sample`] (uniform over the
    /// consistent worlds), drawn with fewer random bits: each card of a subset is
    /// the `i`-th remaining card (one PDEP) for `i` uniform from 21-bit words
    /// ([`Draws`]), three per generator call. The worlds differ from `sample`'s for
    /// the same generator state; the search agents use this one.
    pub fn sample_fast(&self, rng: &mut AgentRng) -> World {
        if let Some(f) = &self.four {
            return f.sample_fast(rng);
        }
        loop {
            let cell = self.draw_cell(rng);
            let mut d = Draws::new(rng);
            let w = self.fill(cell, |set, k| subset_by_draws(set, k, &mut d));
            if self.accepts(&w) {
                return w;
            }
        }
    }

    /// Whether `w` meets the constraint applied by rejection (the all-pass rule of
    /// `tresillo-house`; always, otherwise).
    #[inline]
    fn accepts(&self, w: &World) -> bool {
        self.forced.is_none_or(|c| c.accepts(w)) && self.grand.is_none_or(|g| g.accepts(w))
    }

    /// The split of one world, with probability proportional to its count.
    #[inline]
    fn draw_cell(&self, rng: &mut AgentRng) -> Cell {
        let r = below_u128(rng, self.total);
        let cells = &self.cells[..self.ncells];
        let i = cells.partition_point(|c| c.cum <= r);
        cells[i]
    }

    /// The world of split `cell`, each class dealt by `subset(set, k)`, a uniform
    /// `k`-subset of `set`.
    #[inline]
    fn fill(&self, cell: Cell, mut subset: impl FnMut(CardSet, u32) -> CardSet) -> World {
        let k = self.cases[cell.case as usize];
        let mut w = self.base;
        let [sa, sb] = self.others;
        let mut pool = self.none;
        self.place_special(&mut w, k.special);
        // Class "only A": `a` cards to A, the rest to the pool.
        let ta = subset(self.only[0], u32::from(cell.a));
        w.hands[sa] |= ta;
        pool |= self.only[0] - ta;
        let tb = subset(self.only[1], u32::from(cell.b));
        w.hands[sb] |= tb;
        pool |= self.only[1] - tb;
        // Class "both": fill A, then B, the rest to the pool.
        let ra = u32::from(k.h[0] - cell.a);
        let rb = u32::from(k.h[1] - cell.b);
        let fa = subset(self.both, ra);
        let fb = subset(self.both - fa, rb);
        w.hands[sa] |= fa;
        w.hands[sb] |= fb;
        pool |= self.both - fa - fb;
        // The pool: discards A, discards B, heap.
        let da = subset(pool, u32::from(k.x[0]));
        let db = subset(pool - da, u32::from(k.x[1]));
        w.discards[sa] |= da;
        w.discards[sb] |= db;
        w.heap |= pool - da - db;
        w
    }

    fn place_special(&self, w: &mut World, at: SpecialIn) {
        if let Some(c) = self.special {
            match at {
                SpecialIn::Hand(i) => w.hands[self.others[i]].insert(c),
                SpecialIn::Discards(i) => w.discards[self.others[i]].insert(c),
                SpecialIn::Heap => w.heap.insert(c),
                SpecialIn::Nowhere => false,
            };
        }
    }

    /// Calls `f` once with every consistent world (in no particular order). Use it
    /// when [`Sampler::count`] is small: the number of calls is exactly the count
    /// (at most the count when [`Sampler::has_rejection`]).
    pub fn for_each_world(&self, mut f: impl FnMut(&World)) {
        if let Some(four) = &self.four {
            four.for_each_world(&mut f);
            return;
        }
        let [sa, sb] = self.others;
        for cell in &self.cells[..self.ncells] {
            let k = self.cases[cell.case as usize];
            let mut w0 = self.base;
            self.place_special(&mut w0, k.special);
            let ra = u32::from(k.h[0] - cell.a);
            let rb = u32::from(k.h[1] - cell.b);
            for_each_subset(self.only[0], u32::from(cell.a), |ta| {
                for_each_subset(self.only[1], u32::from(cell.b), |tb| {
                    for_each_subset(self.both, ra, |fa| {
                        for_each_subset(self.both - fa, rb, |fb| {
                            let pool =
                                self.none | (self.only[0] - ta) | (self.only[1] - tb) | (self.both - fa - fb);
                            for_each_subset(pool, u32::from(k.x[0]), |da| {
                                for_each_subset(pool - da, u32::from(k.x[1]), |db| {
                                    let mut w = w0;
                                    w.hands[sa] |= ta | fa;
                                    w.hands[sb] |= tb | fb;
                                    w.discards[sa] |= da;
                                    w.discards[sb] |= db;
                                    w.heap |= pool - da - db;
                                    if self.accepts(&w) {
                                        f(&w);
                                    }
                                });
                            });
                        });
                    });
                });
            });
        }
    }
}
