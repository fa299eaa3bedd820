//! The searched exchange (`pimc:discard=search`, or `discard=declarer`): at its own discard, the
//! agent values a few candidate discards by sampling worlds and solving the
//! card play after the exchange, and keeps the one of best mean utility.
//!
//! # Candidates
//!
//! The rule agent's discards are the first `j` cards of one fixed order of
//! the hand (everything outside [`keep_set`](crate::keep_set), weakest first,
//! then the kept cards, weakest first): `R(j)` is the rule agent's discard
//! forced to `j` cards, and `R(k)` with `k` the rule agent's own count is its
//! choice. The candidates, in this order, are `R(k)`, `R(k-1)` (keep the
//! strongest card rule would discard), `R(k+1)` (discard the weakest card rule
//! keeps), the swap of those two cards (`k` cards), then `R(k-2)`, `R(k+2)`,
//! `R(k-3)`, ... within the request's `min..=max`, without repeats, at most
//! `cands` of them. With `cands=1` the choice is the rule agent's.
//!
//! # Value
//!
//! `worlds` worlds are drawn from the exact [`Sampler`] (the other hands, their
//! discards and the heap that is left), and in each the heap is put in a random
//! drawing order (the turned vuelta card first). Every candidate is valued on the
//! same worlds and drawing orders (common random numbers): this seat discards
//! it and draws from the top, the players who exchange after it discard as the
//! rule agent does (up to what the heap holds; the first opponent, if not yet
//! agreed, taken to be the one after the declarer, as in `pimc`'s auction), and
//! the card play is solved with mano leading. The utility is `pimc`'s (sacado
//! +1, puesta -1, codillo -2 for the declarer's side, the negation for an
//! opponent). The candidate of best sum is chosen, the earlier in the order
//! above among equals (so the rule agent's unless another is strictly better),
//! among the rule agent's and those whose mean gain over it exceeds `z`
//! hundredths of its standard error, paired over the worlds (`discard_z`; 0:
//! any gain).
//!
//! With `discard=declarer` only the declarer's discard is searched (an
//! opponent discards as the rule agent). Three-player `tresillo` and
//! `tresillo-house` with trumps known; elsewhere (the
//! forced entrada of `tresillo-house` that exchanges before naming trumps,
//! `hombre`, `lhombre`, four players) the agent discards as the rule agent does.

use crate::heuristic::rule::exchange_discards;
use crate::rng::{AgentRng, below};
use crate::sampling::sampler::Sampler;
use crate::search::pimc::declarer_utility;
use crate::search::solver::{Position, SolverContext};
use tresillo_core::{Card, CardSet, Contract, Phase, PlayerView, Seat, Suit};

/// Most candidates a searched discard considers.
pub const MAX_CANDIDATES: usize = 12;

/// The candidate discards of `hand` with trumps `trump`, at least `min` and at
/// most `max` cards, in the order of the module documentation, at most `cands`
/// (and at most [`MAX_CANDIDATES`]) of them; the first is the rule agent's.
/// Returns the candidates and their number.
#[must_use]
pub fn candidates(
    hand: CardSet,
    trump: Suit,
    min: u32,
    max: u32,
    cands: usize,
) -> ([CardSet; MAX_CANDIDATES], usize) {
    let max = max.min(hand.len());
    let min = min.min(max);
    let r = |j: u32| exchange_discards(hand, trump, j, j);
    let rule = exchange_discards(hand, trump, min, max);
    let k = rule.len();
    let mut out = [CardSet::EMPTY; MAX_CANDIDATES];
    let mut n = 0;
    let cap = cands.clamp(1, MAX_CANDIDATES);
    let mut push = |d: CardSet, out: &mut [CardSet; MAX_CANDIDATES]| {
        if n < cap && !out[..n].contains(&d) {
            out[n] = d;
            n += 1;
        }
    };
    push(rule, &mut out);
    let ok = |j: i64| j >= i64::from(min) && j <= i64::from(max);
    let k = i64::from(k);
    for step in 1..=10i64 {
        if ok(k - step) {
            push(r((k - step) as u32), &mut out);
        }
        if ok(k + step) {
            push(r((k + step) as u32), &mut out);
        }
        if step == 1 && k >= 1 && k < i64::from(hand.len()) {
            // The strongest card rule discards kept, the weakest it keeps discarded.
            let (less, more) = (r(k as u32 - 1), r(k as u32 + 1));
            push(less | (more - rule), &mut out);
        }
    }
    (out, n)
}

/// Seat `seat` discards `out` and draws as many from `heap` at `top`.
fn swap(hands: &mut [CardSet; 3], seat: Seat, out: CardSet, heap: &[Card], top: &mut usize) {
    let mut h = hands[seat.index()] - out;
    for &c in &heap[*top..*top + out.len() as usize] {
        h.insert(c);
    }
    *top += out.len() as usize;
    hands[seat.index()] = h;
}

/// The seats that exchange after `me` in this view's exchange, in order, each
/// with the most cards it may exchange (before the heap is counted).
fn later_exchangers(view: &PlayerView, me: Seat) -> ([(Seat, u32); 2], usize) {
    let p = view.public();
    let decl = p.declarer.unwrap_or(me);
    let fo = p.first_opponent.unwrap_or(decl.next(3));
    let so = if fo == decl.next(3) { decl.plus(2, 3) } else { decl.next(3) };
    let fo_max = u32::from(p.game_rules().spec().first_opponent_max);
    let mut out = [(me, 0); 2];
    let n = match p.phase {
        Phase::DeclarerExchange => {
            out = [(fo, fo_max), (so, 9)];
            2
        }
        Phase::FirstOpponentExchange => {
            out[0] = (so, 9);
            1
        }
        _ => 0,
    };
    (out, n)
}

/// One exchange to simulate: who discards now, the declarer, mano (who leads),
/// trumps and the seats that exchange after (each with its most cards).
#[derive(Clone, Copy, Debug)]
struct Exchange {
    me: Seat,
    declarer: Seat,
    mano: Seat,
    trump: Suit,
    later: [(Seat, u32); 2],
    num_later: usize,
}

impl Exchange {
    /// The utility for `me`'s side of each candidate discard of `cands` (into
    /// `values`) in the world of the hands `dealt` (`me`'s hand before its
    /// discard) and the heap in drawing order, or `false` if some candidate
    /// makes no position (more cards than the heap holds).
    fn values(
        &self,
        dealt: [CardSet; 3],
        heap: &[Card],
        cands: &[CardSet],
        ctx: &mut SolverContext,
        values: &mut [i64],
    ) -> bool {
        let sign = if self.me == self.declarer { 1 } else { -1 };
        for (i, &d) in cands.iter().enumerate() {
            if d.len() as usize > heap.len() {
                return false;
            }
            let mut hands = dealt;
            let mut top = 0;
            swap(&mut hands, self.me, d, heap, &mut top);
            for &(s, most) in &self.later[..self.num_later] {
                let left = (heap.len() - top) as u32;
                let out = exchange_discards(hands[s.index()], self.trump, 0, most.min(left));
                swap(&mut hands, s, out, heap, &mut top);
            }
            let Ok(pos) = Position::new(hands, self.trump, self.declarer, self.mano, &[], [0, 0, 0]) else {
                return false;
            };
            values[i] = i64::from(sign * declarer_utility(ctx.value(&pos)));
        }
        true
    }
}

/// The searched discard for this view's `Discard { min, max }` request: the
/// candidate of best mean utility over `worlds` sampled worlds (see the module
/// documentation), or `None` when the search does not apply (no trumps yet,
/// not three players, no world) and the rule agent's discard stands. Adds the
/// worlds drawn to `drawn`.
pub fn searched_discard(
    view: &PlayerView,
    min: u8,
    max: u8,
    (worlds, cands, z): (u32, usize, u32),
    rng: &mut AgentRng,
    ctx: &mut SolverContext,
    drawn: &mut u64,
) -> Option<CardSet> {
    let p = view.public();
    if p.players != 3 {
        return None;
    }
    let trump = view.trump()?;
    let declarer = p.declarer?;
    let me = view.seat();
    let hand = view.hand();
    let (cand, n) = candidates(hand, trump, u32::from(min), u32::from(max), cands);
    if n <= 1 {
        return Some(cand[0]);
    }
    let sampler = Sampler::new(view).ok()?;
    let (later, num_later) = later_exchangers(view, me);
    let mano = p.mano();
    let turned = p.turned.filter(|_| p.contract.is_some_and(Contract::turns_card));
    let mut sums = [0i64; MAX_CANDIDATES];
    // Sums of the squared differences to the rule agent's candidate.
    let mut squares = [0i64; MAX_CANDIDATES];
    let mut valid = 0u32;
    for _ in 0..worlds {
        *drawn += 1;
        let w = sampler.sample(rng);
        // The heap in drawing order: the turned card first while it is there.
        let mut order = [Card::ESPADA; 40];
        let mut rest = w.heap;
        let mut len = 0;
        if let Some(t) = turned
            && rest.take(t)
        {
            order[0] = t;
            len = 1;
        }
        while !rest.is_empty() {
            let c = rest.nth(below(rng, rest.len())).expect("a heap card");
            rest.take(c);
            order[len] = c;
            len += 1;
        }
        let heap = &order[..len];
        let dealt = [w.hands.0[0], w.hands.0[1], w.hands.0[2]];
        let mut values = [0i64; MAX_CANDIDATES];
        let world = Exchange { me, declarer, mano, trump, later, num_later };
        let ok = world.values(dealt, heap, &cand[..n], ctx, &mut values);
        if ok {
            valid += 1;
            for i in 0..n {
                sums[i] += values[i];
                squares[i] += (values[i] - values[0]).pow(2);
            }
        }
    }
    if valid == 0 {
        return None;
    }
    Some(cand[choose(&sums[..n], &squares[..n], valid, z)])
}

/// The candidate chosen from each one's sum of utility over `n` worlds and
/// its sum of squared differences to the first's (the rule agent's) in each
/// world: the best sum (the earliest among equals) among the first and those
/// whose mean gain over the first exceeds `z` hundredths of its standard
/// error (paired over the worlds; `z` 0: any gain).
fn choose(sums: &[i64], squares: &[i64], n: u32, z: u32) -> usize {
    let n_f = f64::from(n.max(1));
    let mut best = 0;
    for i in 1..sums.len() {
        let mean = (sums[i] - sums[0]) as f64 / n_f;
        let var =
            if n > 1 { (squares[i] as f64 / n_f - mean * mean).max(0.0) * n_f / (n_f - 1.0) } else { 0.0 };
        let clear = mean > f64::from(z) / 100.0 * (var / n_f).sqrt();
        if clear && sums[i] > sums[best] {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Agent;
    use crate::heuristic::rule::RuleAgent;
    use crate::heuristic::rule_eval::RuleParams;
    use crate::rng::{deal_for_seed, rng_from_seed};
    use crate::search::pimc::{PimcAgent, PimcParams};
    use tresillo_core::{Decision, Hand, Request, RuleSet, Rules};

    fn searching(worlds: u32, cands: u32) -> PimcAgent {
        PimcAgent::new(PimcParams {
            worlds: 2,
            bid_worlds: 2,
            discard_search: true,
            discard_worlds: worlds,
            discard_cands: cands,
            discard_z: 0,
            ..PimcParams::default()
        })
    }

    /// Plays hands of `rules` at `players` seats with the rule agent, every
    /// discard made by `agent` (applied, so it must be legal); calls `each`
    /// with every discard's view, the agent's decision and the rule agent's.
    fn discards(
        rules: Rules,
        players: u8,
        seeds: std::ops::Range<u64>,
        agent: &mut dyn Agent,
        mut each: impl FnMut(&PlayerView, CardSet, CardSet),
    ) -> usize {
        let mut n = 0;
        for seed in seeds {
            let dealer = Seat((seed % u64::from(players)) as u8);
            let deal = deal_for_seed(seed).seated(players, dealer);
            let mut h = Hand::with_rules(rules, players, deal, dealer).unwrap();
            let mut rule = RuleAgent::new(RuleParams::default());
            let mut rng = rng_from_seed(seed);
            agent.new_hand();
            while let Some(seat) = h.request().seat() {
                let view = h.view(seat);
                let d = if let Request::Discard { .. } = view.request() {
                    let Decision::Discard(ours) = agent.decide(&view, &mut rng) else { panic!("a discard") };
                    let Decision::Discard(theirs) = rule.decide(&view, &mut rng) else { panic!("a discard") };
                    each(&view, ours, theirs);
                    n += 1;
                    Decision::Discard(ours)
                } else {
                    rule.decide(&view, &mut rng)
                };
                h.apply(d).unwrap_or_else(|e| panic!("{rules}, {players} players, seed {seed}: {e}"));
            }
        }
        n
    }

    #[test]
    fn candidates_start_with_rules_discard_and_respect_the_counts() {
        for seed in 0..300u64 {
            let hand = deal_for_seed(seed).hands.0[0];
            let trump = Suit::ALL[(seed % 4) as usize];
            for (min, max) in [(0, 9), (1, 9), (0, 3), (0, 0), (2, 2), (1, 13)] {
                let rule = exchange_discards(hand, trump, min, max.min(9));
                for cands in [1, 6, MAX_CANDIDATES] {
                    let (c, n) = candidates(hand, trump, min, max, cands);
                    assert_eq!(c[0], rule, "seed {seed}: rule's discard first");
                    assert!(n >= 1 && n <= cands, "seed {seed}: {n} candidates");
                    for (i, d) in c[..n].iter().enumerate() {
                        assert!(*d - hand == CardSet::EMPTY, "seed {seed}: from the hand");
                        assert!((min..=max).contains(&d.len()), "seed {seed}: {min}..={max}");
                        assert!(!c[..i].contains(d), "seed {seed}: no repeats");
                    }
                }
            }
        }
    }

    #[test]
    fn searched_discards_are_legal_in_every_rule_set() {
        let all_play = Rules::parse("tresillo", &[("penetro_all_play", "true")]).unwrap();
        let cases = [
            (Rules::default(), 3, 24),
            (Rules::from(RuleSet::TresilloHouse), 3, 24),
            (Rules::from(RuleSet::Hombre), 3, 8),
            (Rules::from(RuleSet::Lhombre), 3, 8),
            (Rules::default(), 4, 8),
            (all_play, 4, 8),
        ];
        // Built from its spec: the parameters reach the agent.
        let mut agent =
            crate::build_agent("pimc:worlds=2:bid_worlds=2:discard=search:discard_worlds=4").unwrap();
        for (rules, players, seeds) in cases {
            let mut changed = 0;
            let n = discards(rules, players, 0..seeds, agent.as_mut(), |view, ours, theirs| {
                let Request::Discard { min, max, .. } = view.request() else { unreachable!() };
                assert!(ours - view.hand() == CardSet::EMPTY);
                assert!((u32::from(min)..=u32::from(max)).contains(&ours.len()));
                changed += usize::from(ours != theirs);
                if players == 4 || rules.set == RuleSet::Hombre || rules.set == RuleSet::Lhombre {
                    assert_eq!(ours, theirs, "{rules}: as the rule agent");
                }
            });
            assert!(n > 0, "{rules}, {players} players: some discards");
            if players == 3 && rules.set == RuleSet::Tresillo {
                assert!(changed > 0, "the search departs from rule's discard somewhere");
            }
        }
    }

    #[test]
    fn declarer_only_searches_as_declarer() {
        let mut agent =
            crate::build_agent("pimc:worlds=2:bid_worlds=2:discard=declarer:discard_worlds=4").unwrap();
        let (mut changed, mut n) = (0, 0);
        discards(Rules::default(), 3, 0..40, agent.as_mut(), |view, ours, theirs| {
            if view.public().declarer == Some(view.seat()) {
                changed += usize::from(ours != theirs);
            } else {
                n += 1;
                assert_eq!(ours, theirs, "an opponent discards as rule");
            }
        });
        assert!(
            n > 0 && changed > 0,
            "{n} opponents' discards, {changed} declarer's searched away from rule"
        );
    }

    #[test]
    fn one_candidate_is_rules_discard_and_off_is_rule() {
        let mut one = searching(4, 1);
        let n = discards(Rules::default(), 3, 0..20, &mut one, |_, ours, theirs| assert_eq!(ours, theirs));
        assert!(n > 20);
        let mut off = PimcAgent::new(PimcParams { worlds: 2, bid_worlds: 2, ..PimcParams::default() });
        discards(Rules::default(), 3, 0..20, &mut off, |_, ours, theirs| assert_eq!(ours, theirs));
    }

    #[test]
    fn bad_discard_parameters_are_errors() {
        use crate::{SpecError, build_agent};
        assert!(build_agent("pimc:discard=search:discard_worlds=8:discard_cands=3:discard_z=150").is_ok());
        assert!(build_agent("pimc:discard=rule").is_ok());
        assert!(build_agent("pimc:discard=declarer").is_ok());
        for bad in
            ["discard=maybe", "discard_cands=0", "discard_cands=13", "discard_worlds=0", "discard_z=-1"]
        {
            let spec = format!("pimc:{bad}");
            assert!(matches!(build_agent(&spec), Err(SpecError::BadValue { .. })), "{spec}");
        }
    }

    #[test]
    fn a_gain_within_the_noise_keeps_rules_discard() {
        // Candidate 1 gains 4 over 8 worlds (0.5 a world; differences +2 in 3
        // worlds, -1 in 2, 0 in 3: squares 14): a standard error of about
        // 0.46, a gain of 1.08 of them, so z 1.0 switches and z 1.5 does not.
        let (sums, squares) = ([0, 4, -8], [0, 14, 40]);
        assert_eq!(choose(&sums, &squares, 8, 0), 1);
        assert_eq!(choose(&sums, &squares, 8, 100), 1);
        assert_eq!(choose(&sums, &squares, 8, 150), 0);
        // Equal sums: the earlier candidate.
        assert_eq!(choose(&[2, 2, 2], &[0, 4, 4], 4, 0), 0);
    }

    #[test]
    fn searched_discards_are_deterministic() {
        let mut views = Vec::new();
        discards(Rules::default(), 3, 0..12, &mut searching(4, 6), |v, _, _| views.push(*v));
        assert!(views.len() > 12);
        let decide = |v: &PlayerView, k: u64| {
            let mut ctx = SolverContext::new();
            let mut rng = rng_from_seed(k);
            let Request::Discard { min, max, .. } = v.request() else { unreachable!() };
            let d = searched_discard(v, min, max, (8, 6, 100), &mut rng, &mut ctx, &mut 0);
            (d, rng)
        };
        // The same choice and generator afterwards, in a fresh or a used context.
        let mut warm = SolverContext::new();
        for (k, v) in views.iter().enumerate() {
            let want = decide(v, k as u64);
            let Request::Discard { min, max, .. } = v.request() else { unreachable!() };
            let mut rng = rng_from_seed(k as u64);
            let got = searched_discard(v, min, max, (8, 6, 100), &mut rng, &mut warm, &mut 0);
            assert!(want == (got, rng), "view {k}");
        }
    }

    #[test]
    fn keeping_a_card_that_wins_is_found() {
        // Espadas trumps; the declarer (seat 0, mano) holds the three
        // matadors, the king of bastos, king and caballo of oros with the 4,
        // and caballo and sota of copas without their king: the rule agent
        // discards the copas and the 4 of oros and draws low bastos and oros
        // from the heap's top (its bottom holds the king of copas, which
        // nobody draws). In this world that is a puesta, and keeping the 4 of
        // oros (discarding the two copas only) a sacado: the search keeps it.
        let set = |cs: &[&str]| cs.iter().map(|s| s.parse::<Card>().unwrap()).collect::<CardSet>();
        let hand = set(&["1e", "2e", "1b", "12b", "11c", "10c", "12o", "11o", "4o"]);
        let a = set(&["12e", "11e", "10e", "7e", "11b", "10b", "7b", "6b", "5b"]);
        let b = set(&["6e", "5e", "4e", "3e", "1o", "2o", "3o", "10o", "5o"]);
        let heap: Vec<Card> = ["2b", "3b", "4b", "6o", "7o", "1c", "2c", "3c", "4c", "5c", "6c", "7c", "12c"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        assert_eq!(heap.iter().copied().collect::<CardSet>() | hand | a | b, CardSet::FULL);
        let trump = Suit::Espadas;
        let rule = exchange_discards(hand, trump, 0, 9);
        assert_eq!(rule, set(&["11c", "10c", "4o"]));
        let world = Exchange {
            me: Seat(0),
            declarer: Seat(0),
            mano: Seat(0),
            trump,
            later: [(Seat(1), 9), (Seat(2), 9)],
            num_later: 2,
        };
        let (cand, n) = candidates(hand, trump, 0, 9, 6);
        let mut values = [0i64; MAX_CANDIDATES];
        let mut ctx = SolverContext::new();
        assert!(world.values([hand, a, b], &heap, &cand[..n], &mut ctx, &mut values));
        assert_eq!(values[0], -1, "rule's discard: a puesta");
        let best = choose(&values[..n], &[0; MAX_CANDIDATES][..n], 1, 0);
        assert_eq!(cand[best], set(&["11c", "10c"]), "keeps the 4 of oros");
        assert_eq!(values[best], 1, "a sacado");
    }
}
