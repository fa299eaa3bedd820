//! The `rule` agent: plays the way a club player would, by fixed heuristics.
//!
//! Every decision is a handful of bit operations on [`CardSet`]s: no sampling, no
//! search, no allocation (it never calls [`Request::legal_decisions`]). The agent
//! keeps no memory between decisions - everything is recomputed from the
//! [`PlayerView`] - so nothing can leak across deals.
//!
//! Strengths are measured in **tenths of a trick** (`45` = four and a half tricks
//! expected). The bidding thresholds ([`RuleParams`]) are on that scale; the
//! tuning feature searches them.
//!
//! The heuristics, each documented where it is coded:
//! - [`evaluate`]: hand evaluation for a candidate trump suit (trumps by rank and
//!   length, estuche, kings, voids and short suits for ruffing, and what the
//!   exchange can be expected to bring).
//! - bidding ([`RuleAgent::bid`]), contract and trump choice
//!   ([`RuleAgent::declare`]), discards toward voids and kings ([`keep_set`]),
//!   the opponents' conversation from hand strength ([`RuleAgent::word`]);
//! - card play ([`RuleAgent::play`]): the declarer draws trumps from the top (the
//!   espada first: an estuche card led forces the lower estuche cards), then cashes
//!   masters; the opponents cash masters, lead into the partner's voids and make the
//!   declarer ruff, never overtake a partner who is winning, and protect the partner
//!   from the declarer; an unforced estuche card is kept rather than wasted;
//! - surrender when codillo is likely, takeover only with a strong hand, bola only
//!   when every remaining trick is certain;
//! - four players (RULES.md section 12.2): a penetrating dealer takes the top ten
//!   (the choice is made without looking: nothing tells the ends apart), gives up
//!   at once when its best trump suit is worth less than `surrender`, and the
//!   others say how much they want to stay from their defensive strength
//!   ([`RuleAgent::drop_out`]).

use crate::heuristic::rule_eval::RuleParams;
use crate::heuristic::rule_eval::{best_suit, evaluate, evaluate_vuelta, keep_set, side_value, trump_value};
use crate::rng::AgentRng;
use crate::sampling::infer::Inference;
use crate::{Agent, Failure};
use std::sync::OnceLock;
use tresillo_core::Question;
use tresillo_core::tables::{TRUMP_SUIT, TrumpTable, table};
use tresillo_core::{
    Bid, Card, CardSet, Contract, Decision, DropWord, HeapEnd, Phase, PlayerView, Request, Seat, Suit, Table,
    Word,
};

/// The rule-based agent: a player a club player would recognise.
///
/// It keeps **no memory** between decisions (everything is recomputed from the
/// view), and decides with bit operations only: no sampling, no search, no
/// allocation - a few hundred nanoseconds per decision.
///
/// - **Bidding**: the hand is evaluated ([`evaluate`], in tenths of a trick) for
///   each trump suit with the exchange (entrada), without it (solo), and averaged
///   over the suit the turned card may bring ([`evaluate_vuelta`]); the highest
///   contract whose threshold ([`RuleParams`]) is reached is the most it will bid.
///   It bids the lowest level allowed (*juego*, raising only when outbid) up to
///   that, else passes.
/// - **Contract and trumps**: solo in the best suit when the solo threshold is
///   reached, else the lowest contract allowed; entrada (and espada forzada) in the
///   suit with the best evaluation.
/// - **Exchange**: keep trumps, kings and the caballo (and sota) under their king
///   ([`keep_set`]); discard the rest, shortest suits first, to make voids.
/// - **Conversation**: an opponent with defensive strength of at least `vienen`
///   asks to go first, the weaker one lets it; answering, it agrees unless clearly
///   stronger.
/// - **Declarer's play**: draw trumps from the top while the opponents may hold
///   any (the espada first: an estuche card led forces the lower estuche cards),
///   with trump length lead low trumps; then cash masters; then lead low from the
///   longest suit. Following, win as cheaply as possible, preferring a card the
///   last player cannot beat.
/// - **Opponents' play**: cash masters the declarer must follow; lead into the
///   partner's voids (the weaker feeding the stronger) or the declarer's (forcing
///   it to ruff); never overtake a winning partner; protect the partner's card
///   from the declarer; do not ruff what the partner may still win.
/// - **Estuche privilege**: when the lead cannot force them, estuche cards are
///   kept and a loser thrown instead, unless the estuche card wins the trick.
/// - **Surrender** after trick 3 when the expected final tricks are below
///   `surrender` (a codillo costs twice a puesta); **take over** only with at least
///   `takeover`; **bola** only when every remaining trick is certain.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuleAgent {
    /// Its thresholds.
    pub params: RuleParams,
}

impl RuleAgent {
    /// A rule agent with these thresholds.
    #[must_use]
    pub fn new(params: RuleParams) -> RuleAgent {
        RuleAgent { params }
    }
}

impl RuleAgent {
    /// The decision for `view` ([`Agent::decide`], which never fails for this agent).
    pub fn choose(&mut self, view: &PlayerView, _rng: &mut AgentRng) -> Decision {
        if crate::family::of(&view.public().game_rules()).heuristic == crate::family::Heuristic::Lhombre
            && let Some(d) = crate::heuristic::rule_lhombre::decide(&self.params, view)
        {
            return d;
        }
        match view.request() {
            Request::Bid { min_level, max_level, .. } => self.bid(view, min_level, max_level),
            Request::Declare { min_level, forced, .. } => self.declare(view, min_level, forced),
            Request::Discard { min, max, .. } => Decision::Discard(discards(view, min, max)),
            Request::Word { .. } => self.word(view),
            Request::Play { legal, .. } => Decision::Play(self.play(view, legal)),
            Request::Ask { question: Question::SURRENDER, .. }
                if view.public().phase == Phase::PenetroGiveUp =>
            {
                Decision::Answer(Question::SURRENDER, self.give_up_penetro(view))
            }
            Request::Ask { question: Question::SURRENDER, .. } => {
                Decision::Answer(Question::SURRENDER, self.surrender(view))
            }
            Request::Ask { question: Question::TAKE_OVER, .. } => {
                Decision::Answer(Question::TAKE_OVER, self.take_over(view))
            }
            Request::Ask { question: Question::BOLA, .. } => {
                Decision::Answer(Question::BOLA, bola_is_safe(view))
            }
            Request::Ask { question: Question::GASCARILLE, .. } => {
                Decision::Answer(Question::GASCARILLE, demand_gascarille(view))
            }
            Request::Ask { question: Question::EXCHANGE_FIRST, .. } => Decision::Answer(
                Question::EXCHANGE_FIRST,
                matches!(self.word(view), Decision::Word(Word::Vienen)),
            ),
            // A surrendered vuelta is the declarer's puesta: always accepted.
            Request::Ask { question: Question::ACCEPT_SURRENDER, .. } => {
                Decision::Answer(Question::ACCEPT_SURRENDER, true)
            }
            Request::Ask { question: Question::DECLARE_VOLE, .. } => Decision::Answer(
                Question::DECLARE_VOLE,
                bola_is_safe(view) && view.public().mano() == view.seat(),
            ),
            // A question this agent has no rule for: no.
            Request::Ask { question, .. } => Decision::Answer(question, false),
            Request::Penetro { .. } => Decision::Penetro(HeapEnd::Top),
            Request::DropOut { .. } => Decision::DropOut(self.drop_out(view)),
            // Not this seat's turn: nothing legal to say; play_hand never asks.
            Request::Done => Decision::Answer(Question::SURRENDER, false),
        }
    }
}

impl Agent for RuleAgent {
    fn name(&self) -> &str {
        "rule"
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        Ok(self.choose(view, rng))
    }
}

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/// For each trump suit and card: the cards of the same effective suit that beat it.
fn higher_tables() -> &'static [[CardSet; 64]; 4] {
    static T: OnceLock<[[CardSet; 64]; 4]> = OnceLock::new();
    T.get_or_init(|| {
        let mut out = [[CardSet::EMPTY; 64]; 4];
        for s in Suit::ALL {
            let t = table(Some(s));
            for c in Card::all() {
                let b = c.bit() as usize;
                let mask = t.suit_mask[t.eff_suit[b] as usize];
                out[s.index()][b] = mask.iter().filter(|x| t.power[x.bit() as usize] > t.power[b]).collect();
            }
        }
        out
    })
}

#[inline]
fn power(t: &TrumpTable, c: Card) -> u8 {
    t.power[c.bit() as usize]
}

/// The card of `set` with the least trick-taking power (plain cards before trumps).
#[inline]
fn weakest(t: &TrumpTable, set: CardSet) -> Option<Card> {
    let mut best: Option<(u8, Card)> = None;
    for c in set {
        let p = power(t, c);
        if best.is_none_or(|(bp, _)| p < bp) {
            best = Some((p, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The card of `set` with the most trick-taking power.
#[inline]
fn strongest(t: &TrumpTable, set: CardSet) -> Option<Card> {
    let mut best: Option<(u8, Card)> = None;
    for c in set {
        let p = power(t, c);
        if best.is_none_or(|(bp, _)| p > bp) {
            best = Some((p, c));
        }
    }
    best.map(|(_, c)| c)
}

// ---------------------------------------------------------------------------
// Auction, contract, exchange, conversation
// ---------------------------------------------------------------------------

impl RuleAgent {
    /// The highest level this hand supports: solo if its best no-exchange
    /// evaluation reaches `solo`, else vuelta if its vuelta evaluation reaches
    /// `vuelta`, else entrada if its best exchange evaluation reaches `entrada`.
    fn max_level(&self, view: &PlayerView) -> u8 {
        let (hand, unseen) = (view.hand(), view.unseen_cards());
        let rules = view.public().game_rules();
        let trump_level = self.trump_level(&rules, hand, unseen);
        if !rules.has_contract(Contract::Contrabola) {
            return trump_level;
        }
        // `hombre`'s contrabola ranks just below solo and pushes the solos up.
        let cb = rules.contract_level(Contract::Contrabola, None);
        let shifted = if trump_level >= cb { trump_level + 1 } else { trump_level };
        if contrabola_suit(hand).is_some() { shifted.max(cb) } else { shifted }
    }

    /// [`RuleAgent::max_level`] among the trump contracts, before `contrabola`.
    fn trump_level(&self, rules: &tresillo_core::Rules, hand: CardSet, unseen: CardSet) -> u8 {
        if let Some(f) = rules.favoured_suit() {
            return self.max_level_a_favor(hand, unseen, f);
        }
        if best_suit(hand, unseen, false).1 >= self.params.solo {
            3
        } else if evaluate_vuelta(hand, unseen) >= self.params.vuelta {
            2
        } else if best_suit(hand, unseen, true).1 >= self.params.entrada {
            1
        } else {
            0
        }
    }

    /// [`RuleAgent::max_level`] with a favoured suit `f` (levels 1 entrada, 2
    /// entrada a favor, 3 vuelta, 4 solo, 5 solo a favor): the highest level among
    /// the contracts the hand supports.
    fn max_level_a_favor(&self, hand: CardSet, unseen: CardSet, f: Suit) -> u8 {
        if evaluate(hand, unseen, f, false) >= self.params.solo {
            5
        } else if best_suit(hand, unseen, false).1 >= self.params.solo {
            4
        } else if evaluate_vuelta(hand, unseen) >= self.params.vuelta {
            3
        } else if evaluate(hand, unseen, f, true) >= self.params.entrada {
            2
        } else if best_suit(hand, unseen, true).1 >= self.params.entrada {
            1
        } else {
            0
        }
    }

    /// Bidding: bid the lowest level allowed (a club player says *juego* and raises
    /// only when outbid) as long as it is within what the hand supports; else pass.
    fn bid(&self, view: &PlayerView, min_level: u8, max_level: u8) -> Decision {
        if min_level <= max_level && min_level <= self.max_level(view) {
            Decision::Bid(Bid::Level(min_level))
        } else {
            Decision::Bid(Bid::Paso)
        }
    }

    /// Contract and trumps: solo in the best suit when the hand supports solo;
    /// otherwise the lowest contract allowed (entrada in the best suit with the
    /// exchange, or vuelta). Espada forzada: entrada in the best suit.
    fn declare(&self, view: &PlayerView, min_level: u8, forced: bool) -> Decision {
        let (hand, unseen) = (view.hand(), view.unseen_cards());
        if forced && (view.public().exchanged[view.seat()].is_some() || view.public().penetro.active) {
            // A forced entrada of `tresillo-house` names trumps after its exchange;
            // a penetrating dealer discards one card and draws none.
            return Decision::Declare(Contract::Entrada, Some(best_suit(hand, unseen, false).0));
        }
        let rules = view.public().game_rules();
        if let (false, Some(s)) =
            (forced, contrabola_suit(hand).filter(|_| rules.has_contract(Contract::Contrabola)))
        {
            // A hand that can lose every trick plays contrabola, when the level
            // allows it and the hand is no solo.
            let cb = rules.contract_level(Contract::Contrabola, Some(s));
            if min_level <= cb && best_suit(hand, unseen, false).1 < self.params.solo {
                return Decision::Declare(Contract::Contrabola, Some(s));
            }
        }
        if let Some(f) = rules.favoured_suit() {
            return self.declare_a_favor(&rules, hand, unseen, min_level, forced, f);
        }
        let (solo_suit, solo_v) = best_suit(hand, unseen, false);
        // Above vuelta (a contrabola may sit between) only solo is left.
        if !forced && (solo_v >= self.params.solo || min_level > rules.contract_level(Contract::Vuelta, None))
        {
            return Decision::Declare(Contract::Solo, Some(solo_suit));
        }
        if forced || min_level <= 1 {
            return Decision::Declare(Contract::Entrada, Some(best_suit(hand, unseen, true).0));
        }
        vuelta_or_solo(&rules, solo_suit)
    }

    /// [`RuleAgent::declare`] with a favoured suit `f`: the contract of the highest
    /// level the hand supports, but never below the level won. The levels are the
    /// rule set's (`hombre`'s contrabola sits between vuelta and solo).
    fn declare_a_favor(
        &self,
        rules: &tresillo_core::Rules,
        hand: CardSet,
        unseen: CardSet,
        min_level: u8,
        forced: bool,
        f: Suit,
    ) -> Decision {
        if forced {
            return Decision::Declare(Contract::Entrada, Some(best_suit(hand, unseen, true).0));
        }
        let (solo_suit, solo_v) = best_suit(hand, unseen, false);
        let solo_f = evaluate(hand, unseen, f, false);
        let solo_level = rules.contract_level(Contract::Solo, None);
        let vuelta_level = rules.contract_level(Contract::Vuelta, None);
        if min_level > solo_level || (solo_f >= self.params.solo && solo_f >= solo_v) {
            return Decision::Declare(Contract::Solo, Some(f));
        }
        if min_level > vuelta_level || solo_v >= self.params.solo {
            return Decision::Declare(Contract::Solo, Some(solo_suit));
        }
        if min_level <= 1 {
            return Decision::Declare(Contract::Entrada, Some(best_suit(hand, unseen, true).0));
        }
        if min_level == 2 && evaluate(hand, unseen, f, true) >= self.params.entrada {
            return Decision::Declare(Contract::Entrada, Some(f));
        }
        vuelta_or_solo(rules, solo_suit)
    }

    /// Conversation: strength is the hand's defensive worth in the known trumps
    /// (trumps and side winners, no exchange). A strong opponent asks to go first
    /// (*vienen*) - the first opponent draws first and leads the defence - and the
    /// weaker one lets it (*van*), which is how the weaker opponent helps the
    /// stronger. Answering the partner: agree unless clearly stronger.
    fn word(&self, view: &PlayerView) -> Decision {
        let Some(tr) = view.trump() else { return Decision::Word(Word::ComoQuiera) };
        let t = table(Some(tr));
        let hand = view.hand();
        let strength = trump_value(t, hand & t.trumps) + side_value(t, hand, tr);
        let hi = self.params.vienen;
        let me = view.seat();
        let partner = view.public().words().iter().rev().find(|w| w.seat != me).map(|w| w.word);
        let w = match partner {
            Some(Word::Vienen) => {
                if strength >= hi + 15 {
                    Word::Vienen
                } else {
                    Word::Van
                }
            }
            Some(Word::Van) => Word::Vienen,
            Some(Word::ComoQuiera) => {
                if strength >= hi - 10 {
                    Word::Vienen
                } else {
                    Word::Van
                }
            }
            None => {
                if strength >= hi {
                    Word::Vienen
                } else if strength >= hi - 10 {
                    Word::ComoQuiera
                } else {
                    Word::Van
                }
            }
        };
        Decision::Word(w)
    }

    /// Penetro, right after taking ten cards: give up at once (a puesta plus the
    /// penetro condición) when the best trump suit, without exchange, is worth fewer
    /// than `surrender` tenths of a trick - playing on then risks a codillo.
    fn give_up_penetro(&self, view: &PlayerView) -> bool {
        best_suit(view.hand(), view.unseen_cards(), false).1 < self.params.surrender
    }

    /// The drop-out conversation of a penetro: the defensive strength in the
    /// dealer's trumps (as for the first-opponent conversation) says how much this
    /// player wants to stay: `vienen` + 10 or more *me quedo*, `vienen` or more
    /// *puedo quedarme*, 10 less *puedo irme*, else *me voy*.
    fn drop_out(&self, view: &PlayerView) -> DropWord {
        let Some(tr) = view.trump() else { return DropWord::PuedoIrme };
        let t = table(Some(tr));
        let hand = view.hand();
        let strength = trump_value(t, hand & t.trumps) + side_value(t, hand, tr);
        let hi = self.params.vienen;
        if strength >= hi + 10 {
            DropWord::MeQuedo
        } else if strength >= hi {
            DropWord::PuedoQuedarme
        } else if strength >= hi - 10 {
            DropWord::PuedoIrme
        } else {
            DropWord::MeVoy
        }
    }
}

/// Discards (declarer and opponents alike): everything outside [`keep_set`], as
/// many as allowed; when more are allowed than that, nothing more (fresh cards are
/// not better than a trump or a king); when at least `min` must go (vuelta), the
/// weakest kept cards make up the number. Before trumps are known (the forced
/// entrada of `tresillo-house`, which names trumps after exchanging) the cards kept
/// are those [`keep_set`] keeps for the best trump suit with the exchange; that
/// suit is then usually named.
fn discards(view: &PlayerView, min: u8, max: u8) -> CardSet {
    let hand = view.hand();
    let Some(tr) = view.trump() else {
        let (best, _) = best_suit(hand, view.unseen_cards(), true);
        let t = table(Some(best));
        return take_weakest(hand - keep_set(hand, best), hand, u32::from(min), u32::from(max), t);
    };
    let t = table(Some(tr));
    let out = hand - keep_set(hand, tr);
    take_weakest(out, hand, u32::from(min), u32::from(max), t)
}

/// The rule agent's discards from `hand` with `trump` known (declarer and
/// opponents alike): at least `min`, at most `max` (see [`RuleAgent`]).
pub(crate) fn exchange_discards(hand: CardSet, trump: Suit, min: u32, max: u32) -> CardSet {
    take_weakest(hand - keep_set(hand, trump), hand, min, max, table(Some(trump)))
}

/// From `cand` (then from the rest of `hand` if needed) the weakest cards, at least
/// `min` and at most `max`, shortest plain suits first so that voids appear.
fn take_weakest(cand: CardSet, hand: CardSet, min: u32, max: u32, t: &TrumpTable) -> CardSet {
    let want = cand.len().clamp(min, max);
    let mut chosen = CardSet::EMPTY;
    // Order: candidates before kept cards; within each, by discard score.
    for pool in [cand, hand - cand] {
        while chosen.len() < want {
            let rest = pool - chosen;
            let Some(c) = rest.iter().min_by_key(|c| discard_score(t, hand, *c)) else { break };
            chosen.insert(c);
        }
    }
    chosen
}

/// Lower goes first: trumps last, then by the length of the card's suit (short
/// suits first, toward voids), then by power.
fn discard_score(t: &TrumpTable, hand: CardSet, c: Card) -> i32 {
    let b = c.bit() as usize;
    let es = t.eff_suit[b] as usize;
    let trump = usize::from(es == TRUMP_SUIT as usize);
    let len = (hand & t.suit_mask[es]).len() as i32;
    trump as i32 * 10_000 + len * 100 + i32::from(t.power[b])
}

// ---------------------------------------------------------------------------
// Card play
// ---------------------------------------------------------------------------

/// Everything the card-play heuristics look at, derived from the view.
struct Ctx {
    t: &'static TrumpTable,
    hi: &'static [CardSet; 64],
    hand: CardSet,
    legal: CardSet,
    declarer: Seat,
    is_decl: bool,
    /// The other opponent (when this seat is an opponent; under `penetro_all_play`
    /// the next one in turn order).
    partner: Seat,
    /// Every opponent of the declarer other than this seat, as a seat bit mask.
    allies: u8,
    /// The declarer's opponents (two, or three under `penetro_all_play`).
    opps: [Seat; 3],
    num_opps: usize,
    /// The seat after this one among those that play.
    next: Seat,
    /// Cards per trick.
    size: usize,
    /// Cards not seen by this seat: in other hands, their discards, or the heap.
    out: CardSet,
    inf: Inference,
    trick: [Card; 4],
    seats: [Seat; 4],
    n: usize,
}

impl Ctx {
    fn new(view: &PlayerView, legal: CardSet) -> Option<Ctx> {
        let p = view.public();
        let tr = p.trump?;
        let me = view.seat();
        let declarer = p.declarer?;
        let t = table(Some(tr));
        let inf = Inference::from_view(view);
        let cur = p.current_trick();
        let leader = p.current_leader();
        let mut trick = [Card::ESPADA; 4];
        let mut seats = [leader; 4];
        let mut s = leader;
        for (i, c) in cur.iter().enumerate() {
            trick[i] = *c;
            seats[i] = s;
            s = p.next_playing(s);
        }
        let (opps, num_opps) = p.all_opponents()?;
        let (partner, allies) = if me == declarer {
            (me, 0)
        } else if p.table == Table::THREE {
            let partner = Seat(3 - me.0 - declarer.0);
            (partner, 1 << partner.0)
        } else {
            // Four players: every other opponent is an ally; the partner is the
            // next of them in turn order.
            let mut allies = 0u8;
            for &o in &opps[..num_opps] {
                if o != me {
                    allies |= 1 << o.0;
                }
            }
            let mut o = p.next_playing(me);
            while allies & (1 << o.0) == 0 && o != me {
                o = p.next_playing(o);
            }
            (o, allies)
        };
        Some(Ctx {
            t,
            hi: &higher_tables()[tr.index()],
            hand: view.hand(),
            legal,
            declarer,
            is_decl: me == declarer,
            partner,
            allies,
            opps,
            num_opps,
            next: p.next_playing(me),
            size: p.trick_size() as usize,
            out: view.unseen_cards(),
            inf,
            trick,
            seats,
            n: cur.len(),
        })
    }

    #[inline]
    fn trumps(&self) -> CardSet {
        self.t.trumps
    }

    /// Cards `s` may hold now (unseen and not excluded by its play).
    #[inline]
    fn possible(&self, s: Seat) -> CardSet {
        self.out - self.inf.excluded[s]
    }

    #[inline]
    fn is_trump(&self, c: Card) -> bool {
        self.t.trumps.contains(c)
    }

    /// Whether `c` is the highest unplayed card of its effective suit (counting
    /// this seat's own cards as safe).
    #[inline]
    fn is_master(&self, c: Card) -> bool {
        (self.hi[c.bit() as usize] & self.out).is_empty()
    }

    /// The cards that beat `w`, the card winning a trick whose led suit is `ls`.
    #[inline]
    fn beaters(&self, w: Card) -> CardSet {
        let b = w.bit() as usize;
        if self.is_trump(w) { self.hi[b] } else { self.hi[b] | self.trumps() }
    }

    /// The winning (seat, card) of the trick so far.
    fn winning(&self) -> (Seat, Card) {
        let mut best = (self.seats[0], self.trick[0]);
        for i in 1..self.n {
            if self.beaters(best.1).contains(self.trick[i]) {
                best = (self.seats[i], self.trick[i]);
            }
        }
        best
    }

    /// The opponents of the declarer (whoever this seat is).
    fn opponents(&self) -> &[Seat] {
        &self.opps[..self.num_opps]
    }

    /// Cards `s` might play to beat `x` in this trick (led suit `ls`). A player who
    /// may still hold the suit led is assumed to follow unless few cards of it are
    /// out (then it may be void and ruff).
    fn threats(&self, s: Seat, x: Card) -> CardSet {
        let led = self.trick[0];
        let ls = self.t.eff_suit[led.bit() as usize];
        let poss = self.possible(s);
        let beat = self.beaters(x) & poss;
        if ls == TRUMP_SUIT {
            return beat;
        }
        let suit = self.t.suit_mask[ls as usize];
        let in_suit = poss & suit;
        let likely_void = in_suit.is_empty() || (self.out & suit).len() <= 2;
        if likely_void { beat } else { beat & suit }
    }

    /// The card to throw when not trying to win: the least useful of the legal
    /// cards. Trumps are kept, then masters; among the rest the lowest, from the
    /// shortest suit (toward a void) when holding trumps to ruff with.
    fn shed(&self) -> Card {
        let has_trumps = !(self.hand & self.trumps()).is_empty();
        let mut best = (i32::MAX, Card::ESPADA);
        for c in self.legal {
            let b = c.bit() as usize;
            let p = i32::from(self.t.power[b]);
            let score = if self.is_trump(c) {
                1000 + p
            } else if self.is_master(c) {
                500 + p
            } else {
                let len = (self.hand & self.t.suit_mask[self.t.eff_suit[b] as usize]).len() as i32;
                p * 4 + if has_trumps { len * 3 } else { -len }
            };
            if score < best.0 {
                best = (score, c);
            }
        }
        best.1
    }
}

impl RuleAgent {
    /// Chooses a card: see [`Ctx`] and the lead/follow functions (deterministic;
    /// the inference model asks it of the other seats' views in a sampled world).
    pub(crate) fn play(&self, view: &PlayerView, legal: CardSet) -> Card {
        if legal.len() == 1 {
            return legal.first().expect("a legal card");
        }
        let Some(ctx) = Ctx::new(view, legal) else {
            return legal.first().expect("a legal card");
        };
        let c = if view.public().contract == Some(Contract::Contrabola) {
            contrabola_card(&ctx)
        } else if ctx.n == 0 {
            if ctx.is_decl { lead_declarer(&ctx) } else { lead_opponent(&ctx) }
        } else {
            follow(&ctx)
        };
        debug_assert!(legal.contains(c));
        c
    }

    /// Surrender after trick 3 when the expected final tricks are below the
    /// `surrender` threshold: a codillo costs twice a puesta, and with so few tricks
    /// expected an opponent is likely to finish ahead.
    fn surrender(&self, view: &PlayerView) -> bool {
        let me = view.seat();
        let est = 10 * i32::from(view.public().tricks[me]) + remaining_tricks(view);
        est < self.params.surrender
    }

    /// Take over (*yo sigo*) only when the expected final tricks as declarer reach
    /// `takeover`: a failed takeover makes twin puestas.
    fn take_over(&self, view: &PlayerView) -> bool {
        let me = view.seat();
        let est = 10 * i32::from(view.public().tricks[me]) + remaining_tricks(view);
        est >= self.params.takeover
    }
}

/// Leading as declarer.
///
/// 1. Draw trumps (*arrastrar*) while the opponents may hold any: lead the top
///    trump when it is the highest out - the espada first; an estuche card led
///    forces the lower estuche cards, the one way to pull them - else, with trump
///    length, a low trump.
/// 2. Then cash masters in plain suits (kings first), preferring suits neither
///    opponent is known to be void in while they may still ruff.
/// 3. Else lead low from the longest plain suit to set up its lower cards.
fn lead_declarer(c: &Ctx) -> Card {
    let my_tr = c.hand & c.trumps();
    let opps = c.opponents();
    let opp_tr = c.trumps() & opps.iter().fold(CardSet::EMPTY, |a, &o| a | c.possible(o));
    if !my_tr.is_empty() && !opp_tr.is_empty() {
        let top = strongest(c.t, my_tr).expect("a trump");
        if c.is_master(top) {
            return top;
        }
        if my_tr.len() >= 4 || my_tr.len() > opp_tr.len() {
            return weakest(c.t, my_tr).expect("a trump");
        }
    }
    let plain = c.hand - c.trumps();
    let mut masters = CardSet::EMPTY;
    for x in plain {
        if c.is_master(x) {
            masters.insert(x);
        }
    }
    if !masters.is_empty() {
        let safe: CardSet = masters
            .iter()
            .filter(|x| {
                let suit = c.t.suit_mask[c.t.eff_suit[x.bit() as usize] as usize];
                opp_tr.is_empty() || opps.iter().all(|&o| (c.inf.excluded[o] & suit).is_empty())
            })
            .collect();
        let pick = if safe.is_empty() { masters } else { safe };
        return strongest(c.t, pick).expect("a master");
    }
    if !plain.is_empty() {
        return low_from_longest(c, plain);
    }
    // Only trumps left and none out, or a weak trump hand: highest first.
    strongest(c.t, c.hand).expect("a card")
}

/// The lowest card of the longest plain suit in `set`.
fn low_from_longest(c: &Ctx, set: CardSet) -> Card {
    let mut best: Option<(i32, Card)> = None;
    for s in 0..4 {
        let cards = set & c.t.suit_mask[s];
        if cards.is_empty() {
            continue;
        }
        let len = cards.len() as i32;
        if best.is_none_or(|(l, _)| len > l) {
            best = Some((len, weakest(c.t, cards).expect("a card")));
        }
    }
    best.map_or_else(|| weakest(c.t, set).expect("a card"), |(_, x)| x)
}

/// Leading as an opponent: the two cooperate against the declarer.
///
/// 1. Cash a master plain card in a suit the declarer may still follow (or any,
///    once the declarer can hold no trump).
/// 2. Lead a suit the partner is void in while the declarer is not known to be
///    (the partner ruffs) - the weaker opponent feeding the stronger.
/// 3. Lead a suit the declarer is void in while it may hold trumps (force it to
///    ruff and shorten its trumps).
/// 4. Else low from the longest plain suit; trumps only when nothing else is left
///    (the highest if it is a master, else the lowest).
fn lead_opponent(c: &Ctx) -> Card {
    let d = c.declarer;
    let pd = c.possible(d);
    let decl_trumps = !(pd & c.trumps()).is_empty();
    let plain = c.hand - c.trumps();
    let mut best_master: Option<Card> = None;
    for x in plain {
        let suit = c.t.suit_mask[c.t.eff_suit[x.bit() as usize] as usize];
        if c.is_master(x) && (!decl_trumps || !(pd & suit).is_empty()) {
            best_master = Some(x);
            break;
        }
    }
    if let Some(m) = best_master {
        return m;
    }
    let partner_may_ruff = !(c.possible(c.partner) & c.trumps()).is_empty();
    let mut feed: Option<Card> = None;
    let mut force: Option<Card> = None;
    for s in 0..4 {
        let cards = plain & c.t.suit_mask[s];
        if cards.is_empty() {
            continue;
        }
        let suit = c.t.suit_mask[s];
        let partner_void = (c.possible(c.partner) & suit).is_empty();
        let decl_void = (pd & suit).is_empty();
        if partner_void && partner_may_ruff && !decl_void && feed.is_none() {
            feed = weakest(c.t, cards);
        }
        if decl_void && decl_trumps && force.is_none() {
            force = weakest(c.t, cards);
        }
    }
    if let Some(x) = feed.or(force) {
        return x;
    }
    if !plain.is_empty() {
        return low_from_longest(c, plain);
    }
    let top = strongest(c.t, c.hand).expect("a card");
    if c.is_master(top) { top } else { weakest(c.t, c.hand).expect("a card") }
}

/// Following to a trick.
///
/// - Last to play: if the partner is winning, throw the least useful card (never
///   overtake a partner); otherwise win with the cheapest card that wins, or throw.
/// - Second to play: as declarer, win with the cheapest card the last player
///   cannot beat, else with the cheapest card that wins now, else throw. As an
///   opponent after the declarer's lead, win as cheaply as possible - but do not
///   ruff a plain card the partner, playing last, may still beat in its suit; after
///   the partner's lead, throw if the declarer cannot beat the partner's card, else
///   overtake with a card the declarer cannot beat, or throw.
///
/// Throwing uses [`Ctx::shed`], which keeps trumps: an opponent (or declarer)
/// holding only estuche cards the lead cannot force keeps them for a trick that
/// matters, rather than spending them on a small trump lead it cannot win well.
fn follow(c: &Ctx) -> Card {
    let (ws, wc) = c.winning();
    let winners = c.legal & c.beaters(wc);
    let partner_winning = !c.is_decl && c.allies & (1 << ws.0) != 0;
    if c.n + 1 == c.size {
        if partner_winning || winners.is_empty() {
            return c.shed();
        }
        return cheapest_winner(c, winners);
    }
    let next = c.next;
    if c.is_decl {
        let safe: CardSet = winners.iter().filter(|x| c.threats(next, *x).is_empty()).collect();
        if !safe.is_empty() {
            return cheapest_winner(c, safe);
        }
        // No sure winner: still try the cheapest one (ducking gives the trick away
        // for certain).
        if !winners.is_empty() {
            return cheapest_winner(c, winners);
        }
        return c.shed();
    }
    if ws == c.declarer {
        if winners.is_empty() {
            return c.shed();
        }
        let w = cheapest_winner(c, winners);
        if c.is_trump(w) && !c.is_trump(wc) {
            // Only a trump wins: keep it if the partner, playing last, may still
            // beat the declarer's card in its own suit.
            let suit = c.t.suit_mask[c.t.eff_suit[wc.bit() as usize] as usize];
            if !(c.possible(c.partner) & suit & c.beaters(wc)).is_empty() {
                return c.shed();
            }
        }
        return w;
    }
    // The partner led; the declarer plays last.
    if c.threats(c.declarer, wc).is_empty() {
        return c.shed();
    }
    let safe: CardSet = winners.iter().filter(|x| c.threats(c.declarer, *x).is_empty()).collect();
    if !safe.is_empty() {
        return cheapest_winner(c, safe);
    }
    c.shed()
}

/// The winner that costs least: lowest power (plain before trumps, small trumps
/// before estuche cards).
fn cheapest_winner(c: &Ctx, winners: CardSet) -> Card {
    weakest(c.t, winners).expect("a winner")
}

// ---------------------------------------------------------------------------
// Counting tricks in hand
// ---------------------------------------------------------------------------

/// Expected tricks still to come from this seat's hand (tenths), for the
/// surrender, takeover and bola decisions: each trump wins as in
/// [`trump_value`] but counting only the trumps still out as missing; a master
/// plain card wins, fully when no trump is out, else most of the time.
fn remaining_tricks(view: &PlayerView) -> i32 {
    let Some(tr) = view.trump() else { return 0 };
    let t = table(Some(tr));
    let hi = &higher_tables()[tr.index()];
    let hand = view.hand();
    let out = view.unseen_cards();
    let mine = hand & t.trumps;
    let n = mine.len() as i32;
    let mut v = 0;
    let mut missing = 0;
    for &c in &t.trump_order[..t.num_trumps as usize] {
        if mine.contains(c) {
            v += (10 * (n - missing) / n.max(1)).max(0);
        } else if out.contains(c) {
            missing += 1;
        }
    }
    let trumps_out = !(out & t.trumps).is_empty();
    for c in hand - t.trumps {
        if (hi[c.bit() as usize] & out).is_empty() {
            v += if trumps_out { 7 } else { 10 };
        }
    }
    v
}

/// `hombre`'s contrabola: the trump suit for a hand that can lose every trick,
/// if there is one. With a suit `s` of the hand as trumps, every card must have
/// at least three higher cards of its effective suit outside the hand (to duck
/// under), and the hand at most two trumps; the suit kept is the one whose
/// weakest-covered card has the most higher cards out.
fn contrabola_suit(hand: CardSet) -> Option<Suit> {
    let mut best: Option<(u32, Suit)> = None;
    for s in Suit::ALL {
        if (hand & CardSet::suit(s)).is_empty() {
            continue;
        }
        let t = table(Some(s));
        let hi = &higher_tables()[s.index()];
        if (hand & t.trumps).len() > 2 {
            continue;
        }
        let cover = hand.iter().map(|c| (hi[c.bit() as usize] - hand).len()).min().unwrap_or(0);
        if cover >= 3 && best.is_none_or(|(b, _)| cover > b) {
            best = Some((cover, s));
        }
    }
    best.map(|(_, s)| s)
}

/// Card play in `hombre`'s contrabola, where the declarer must lose every trick.
/// The declarer leads its card with the most higher cards out, and follows with
/// its highest card that does not win (or, when every legal card wins, the
/// highest: the game is lost anyway). The opponents, who want the declarer to
/// take a trick, lead their lowest card and follow with a card that does not beat
/// the declarer's winning card, else their lowest.
fn contrabola_card(c: &Ctx) -> Card {
    let t = c.t;
    if c.is_decl {
        if c.n == 0 {
            let mut best = (0, c.legal.first().expect("a legal card"));
            for x in c.legal {
                // Most higher cards out first, then the weakest (a power is below 256).
                let cover = (c.hi[x.bit() as usize] & c.out).len() * 256 + 255 - u32::from(power(t, x));
                if cover >= best.0 {
                    best = (cover, x);
                }
            }
            return best.1;
        }
        let (_, w) = c.winning();
        let losers = c.legal - c.beaters(w);
        return strongest(t, if losers.is_empty() { c.legal } else { losers }).expect("a legal card");
    }
    if c.n == 0 {
        return weakest(t, c.legal).expect("a legal card");
    }
    let (ws, w) = c.winning();
    if ws == c.declarer {
        let under = c.legal - c.beaters(w);
        if let Some(x) = strongest(t, under) {
            return x;
        }
    }
    weakest(t, c.legal).expect("a legal card")
}

/// `hombre`'s gascarille: demanded under chips scoring, where the opponents pay 3
/// for a won gascarille instead of 5 for a won obligation (and a lost one costs
/// the declarer the same); never under points, where a gascarille is worth more
/// to the declarer (3) than an obligation (1).
fn demand_gascarille(view: &PlayerView) -> bool {
    crate::family::of(&view.public().game_rules()).demand_gascarille
}

/// Bola only when safe: every card left is certain to win. The declarer leads
/// the sixth trick; its trumps must be the highest out and at least as many as
/// the trumps out (each lead of a top trump draws one from each opponent - the
/// top trump forces every lower one, estuche included), and every plain card a
/// master.
fn bola_is_safe(view: &PlayerView) -> bool {
    let Some(tr) = view.trump() else { return false };
    let t = table(Some(tr));
    let hi = &higher_tables()[tr.index()];
    let hand = view.hand();
    let out = view.unseen_cards();
    let mine = hand & t.trumps;
    let out_tr = out & t.trumps;
    // My trumps in sequence from the top of what is unplayed.
    let mut top = 0u32;
    for &c in &t.trump_order[..t.num_trumps as usize] {
        if mine.contains(c) {
            top += 1;
        } else if out.contains(c) {
            break;
        }
    }
    if top < out_tr.len() {
        return false;
    }
    (hand - t.trumps).iter().all(|c| (hi[c.bit() as usize] & out).is_empty())
}

/// The vuelta where the rule set plays it, else solo in `solo_suit`: the contract
/// above entrada that fulfils a level won above entrada's (a rule set without the
/// vuelta, such as a file-defined one, still lets the vuelta's level be bid).
fn vuelta_or_solo(rules: &tresillo_core::Rules, solo_suit: Suit) -> Decision {
    if rules.has_contract(Contract::Vuelta) {
        Decision::Declare(Contract::Vuelta, None)
    } else {
        Decision::Declare(Contract::Solo, Some(solo_suit))
    }
}
