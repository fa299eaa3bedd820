//! The `rule` agent's heuristics for `lhombre` (RULES.md section 12.4): which
//! contract the hand supports (the trump contracts by the evaluations of
//! [`evaluate`](crate::evaluate), the nolo contracts by how many of the hand's
//! cards could be forced to win a trick), how to bid for it (born contracts
//! outright, the others as *game* to raise after winning), the nolo declarer's
//! discards, and nolo card play: the declarer ducks and sheds its dangerous
//! cards; the defenders keep under the declarer's card and lead low into the
//! suits it still holds. Trump contracts are played by the Spanish heuristics
//! (the trumps, the matadors and the following rules are the same).
//!
//! Like the rest of the rule agent it keeps no memory and allocates nothing.

use crate::heuristic::rule_eval::{RuleParams, best_suit, evaluate, evaluate_vuelta};
use crate::sampling::infer::Inference;
use tresillo_core::rulesets::lhombre::rank;
use tresillo_core::tables::{TrumpTable, table};
use tresillo_core::{Bid, Card, CardSet, Contract, Decision, PlayerView, Request, Seat, Suit};

/// Danger (tenths of a trick) up to which the hand bids nolo with its exchange
/// (measured: with any danger the exchange loses on average against `rule`).
const NOLO: i32 = 0;
/// The share (percent) of the unseen cards the nolo evaluation with an exchange
/// assumes the others hold: more than they do, since the cards drawn are unknown.
const NOLO_SHARE: u32 = 100;
/// The share assumed for pure nolo (no exchange to mend a mistake).
const PURE_SHARE: u32 = 100;
/// Share (percent) of the unseen cards the two other hands hold before the exchange.
const IN_HANDS: u32 = 58;

/// What the agent answers in `lhombre`, or `None` to use the Spanish heuristics
/// (trump discards and card play, tout).
pub(crate) fn decide(params: &RuleParams, view: &PlayerView) -> Option<Decision> {
    let p = view.public();
    match view.request() {
        Request::Bid { min_level, max_level, .. } => Some(bid(params, view, min_level, max_level)),
        Request::Declare { min_level, forced, .. } => Some(declare(params, view, min_level, forced)),
        Request::Discard { min, max, .. } if p.contract.is_some_and(Contract::is_nolo) => {
            Some(Decision::Discard(nolo_discards(view.hand(), view.unseen_cards(), min, max)))
        }
        Request::Play { legal, .. } if p.contract.is_some_and(Contract::is_nolo) => {
            Some(Decision::Play(if legal.len() == 1 {
                legal.first().expect("a legal card")
            } else {
                nolo_play(view, legal)
            }))
        }
        _ => None,
    }
}

/// How likely the cards of `hand` are to be forced to win tricks in no trump
/// (tenths of a trick): when a suit is led for the `i`-th time (from 1) the hand
/// plays its `i`-th lowest card, which wins unless one of the two others plays
/// above it; they can both stay under it while they hold (`share` percent of the
/// unseen cards) at least `2 i` lower cards of the suit.
#[must_use]
pub(crate) fn nolo_danger(hand: CardSet, unseen: CardSet, share: u32) -> i32 {
    let t = table(None);
    let mut danger = 0;
    for s in Suit::ALL {
        let mine = hand.of_suit(s);
        for c in mine {
            let pw = t.power[c.bit() as usize];
            let below_mine = mine.iter().filter(|x| t.power[x.bit() as usize] < pw).count() as u32;
            let below_out =
                unseen.of_suit(s).iter().filter(|x| t.power[x.bit() as usize] < pw).count() as u32;
            if below_out * share / 100 >= 2 * (below_mine + 1) {
                danger += 10;
            }
        }
    }
    danger
}

/// A contract the hand supports, with its trumps.
#[derive(Clone, Copy)]
struct Plan {
    contract: Contract,
    trump: Option<Suit>,
}

/// The contracts the hand supports, in the order the agent prefers them (the one
/// paying most first).
fn plans(params: &RuleParams, hand: CardSet, unseen: CardSet) -> [Option<Plan>; 7] {
    let both = hand.contains(Card::ESPADA) && hand.contains(Card::BASTO);
    let (solo_s, solo_v) = best_suit(hand, unseen, false);
    let (game_s, game_v) = best_suit(hand, unseen, true);
    let vuelta = evaluate_vuelta(hand, unseen);
    let plan = |ok: bool, contract, trump| ok.then_some(Plan { contract, trump });
    [
        plan(nolo_danger(hand, unseen, 100) == 0, Contract::NoloOuvert, None),
        plan(nolo_danger(hand, unseen, PURE_SHARE) == 0, Contract::PureNolo, None),
        plan(solo_v >= params.solo, Contract::Solo, Some(solo_s)),
        plan(both && vuelta >= params.vuelta - 5, Contract::GrandTourne, None),
        plan(vuelta >= params.vuelta + 5, Contract::Vuelta, None),
        plan(nolo_danger(hand, unseen, NOLO_SHARE) <= NOLO, Contract::Nolo, None),
        plan(game_v >= params.entrada, Contract::Entrada, Some(game_s)),
    ]
}

/// Bids for the supported contract the agent prefers (the one paying most) that
/// can still be reached: the lowest rank within `min..=max` that leads to it (a
/// rank-1 *game* reaches every contract that is not born, solo reaches spades
/// solo); then the next contract; else pass.
fn bid(params: &RuleParams, view: &PlayerView, min: u8, max: u8) -> Decision {
    let hand = view.hand();
    let rules = view.public().game_rules();
    for p in plans(params, hand, view.unseen_cards()).into_iter().flatten() {
        let r = rank(p.contract, p.trump);
        let born = matches!(p.contract, Contract::Solo | Contract::PureNolo | Contract::NoloOuvert);
        let low = match p.contract {
            Contract::Solo => 5,
            _ if born => r,
            _ => 1,
        };
        let reach = [low, r].into_iter().filter(|&l| l >= min && l <= max && rules.may_bid(l, hand)).min();
        if let Some(l) = reach {
            return Decision::Bid(Bid::Level(l));
        }
    }
    Decision::Bid(Bid::Paso)
}

/// The contract: the first supported one that the level won allows; else the
/// first contract allowed, trumps in the best suit. Forced (all passed): game in
/// the best suit, or tourné when that evaluates better.
fn declare(params: &RuleParams, view: &PlayerView, level: u8, forced: bool) -> Decision {
    let (hand, unseen) = (view.hand(), view.unseen_cards());
    let rules = view.public().game_rules();
    let (game_s, game_v) = best_suit(hand, unseen, true);
    if forced {
        return if evaluate_vuelta(hand, unseen) > game_v {
            Decision::Declare(Contract::Vuelta, None)
        } else {
            Decision::Declare(Contract::Entrada, Some(game_s))
        };
    }
    let ok = |c: Contract, t: Option<Suit>| rules.declare_error(c, t, level, forced, hand).is_none();
    for p in plans(params, hand, unseen).into_iter().flatten() {
        if ok(p.contract, p.trump) {
            return Decision::Declare(p.contract, p.trump);
        }
        // Solo won at its rank names another suit than spades, and the reverse.
        if p.contract == Contract::Solo {
            for s in Suit::ALL {
                if ok(Contract::Solo, Some(s)) && evaluate(hand, unseen, s, false) >= params.solo {
                    return Decision::Declare(Contract::Solo, Some(s));
                }
            }
        }
    }
    let (solo_s, _) = best_suit(hand, unseen, false);
    let fallback = [
        (Contract::Entrada, Some(game_s)),
        (Contract::Entrada, Some(Suit::Espadas)),
        (Contract::Vuelta, None),
        (Contract::Nolo, None),
        (Contract::GrandTourne, None),
        (Contract::Solo, Some(solo_s)),
        (Contract::Solo, Some(Suit::Oros)),
        (Contract::Solo, Some(Suit::Espadas)),
        (Contract::PureNolo, None),
        (Contract::NoloOuvert, None),
    ];
    for (c, t) in fallback {
        if ok(c, t) {
            return Decision::Declare(c, t);
        }
    }
    Decision::Declare(Contract::Entrada, Some(game_s))
}

/// The nolo declarer's discards: its dangerous cards, highest first, between
/// `min` and `max` of them.
fn nolo_discards(hand: CardSet, unseen: CardSet, min: u8, max: u8) -> CardSet {
    let t = table(None);
    let mut out = CardSet::EMPTY;
    // Dangerous cards: those whose removal lowers the danger.
    let base = nolo_danger(hand, unseen, IN_HANDS);
    let mut order: [(i32, Card); 9] = [(0, Card::ESPADA); 9];
    let mut n = 0;
    for c in hand {
        let mut h = hand;
        h.take(c);
        let gain = base - nolo_danger(h, unseen, IN_HANDS);
        order[n] = (gain * 100 + i32::from(t.power[c.bit() as usize]), c);
        n += 1;
    }
    order[..n].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
    for (i, &(score, c)) in order[..n].iter().enumerate() {
        let wanted = score >= 100;
        if (i as u8) < min || (wanted && (i as u8) < max) {
            out.insert(c);
        }
    }
    out
}

#[inline]
fn power(t: &TrumpTable, c: Card) -> u8 {
    t.power[c.bit() as usize]
}

/// The card of `set` with the most (`high`) or least power.
fn pick(t: &TrumpTable, set: CardSet, high: bool) -> Option<Card> {
    let mut best: Option<Card> = None;
    for c in set {
        if best.is_none_or(|b| (power(t, c) > power(t, b)) == high) {
            best = Some(c);
        }
    }
    best
}

/// Nolo card play; see the module documentation.
fn nolo_play(view: &PlayerView, legal: CardSet) -> Card {
    let t = table(None);
    let p = view.public();
    let me = view.seat();
    let declarer = p.declarer.unwrap_or(me);
    let cur = p.current_trick();
    let leader = p.current_leader();
    let inf = Inference::from_view(view);
    let decl_cards = view.exposed_hand().unwrap_or(view.unseen_cards() - inf.excluded[declarer]);
    let led = cur.first().copied();
    let first = legal.first().expect("a legal card");
    // The winning card so far and who played it.
    let mut win: Option<(Seat, Card)> = None;
    for (i, &c) in cur.iter().enumerate() {
        let s = leader.plus(i as u8, 3);
        if win.is_none_or(|(_, w)| c.suit() == w.suit() && power(t, c) > power(t, w)) {
            win = Some((s, c));
        }
    }
    if me == declarer {
        let Some((_, w)) = win else {
            // Lead the card most cards out can beat.
            let out = view.unseen_cards();
            let mut best = (i32::MIN, first);
            for c in legal {
                let higher =
                    out.of_suit(c.suit()).iter().filter(|x| power(t, *x) > power(t, c)).count() as i32;
                let score = higher * 10 - i32::from(power(t, c));
                if score > best.0 {
                    best = (score, c);
                }
            }
            return best.1;
        };
        let follow = legal & legal.of_suit(led.expect("a card led").suit());
        if follow.is_empty() {
            // Shed the most dangerous card: the highest.
            return pick(t, legal, true).unwrap_or(first);
        }
        let under: CardSet = follow.iter().filter(|c| power(t, *c) < power(t, w)).collect();
        if let Some(c) = pick(t, under, true) {
            return c;
        }
        // Every card wins for now: the highest when last, else the lowest.
        return if cur.len() == 2 { pick(t, follow, true) } else { pick(t, follow, false) }.unwrap_or(first);
    }
    let decl_played = cur.iter().enumerate().any(|(i, _)| leader.plus(i as u8, 3) == declarer);
    match win {
        None => {
            // Lead low into a suit the declarer may still hold.
            let into: CardSet = legal.iter().filter(|c| !decl_cards.of_suit(c.suit()).is_empty()).collect();
            pick(t, if into.is_empty() { legal } else { into }, false).unwrap_or(first)
        }
        Some((ws, w)) => {
            let follow = legal.of_suit(led.expect("a card led").suit());
            if decl_played && ws == declarer {
                // Stay under the declarer's card.
                let under: CardSet = follow.iter().filter(|c| power(t, *c) < power(t, w)).collect();
                if let Some(c) = pick(t, under, true) {
                    return c;
                }
                return pick(t, legal, true).unwrap_or(first);
            }
            if decl_played || follow.is_empty() {
                // The declarer escapes this trick (or it is not ours to shape):
                // shed the highest card.
                return pick(t, legal, true).unwrap_or(first);
            }
            // The declarer plays after: keep the trick low.
            pick(t, follow, false).unwrap_or(first)
        }
    }
}
