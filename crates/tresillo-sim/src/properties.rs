//! The game-tree properties of Long, Sturtevant, Buro and Furtak ("Understanding
//! the Success of Perfect Information Monte Carlo Sampling in Game Tree Search",
//! AAAI 2010) measured on real positions of a rule set, with the error PIMC makes
//! against the oracle beside them. docs/PROPERTIES.md defines every number and
//! says what it explains; this module computes them and does no I/O.
//!
//! Positions come from deals `deal_seed(seed, i)` played by `rule` agents at every
//! seat (the seats' generators `seat_rngs(deal seed)`, dealer `i mod players`).
//! Every measure looks at the *true world* of the card play those agents reached:
//!
//! - **Leaf correlation** (`lc`): random playouts (uniform legal cards) from the
//!   first card of play; every node passed whose mover has two or more legal cards
//!   and whose every child is a line of forced cards to the end (a *pre-terminal*
//!   node: the paper's "node whose children are all terminal", with forced cards
//!   skipped, since the last trick of a card game is always forced) counts; `lc`
//!   is the fraction of them whose children all end in the same class of the
//!   contract's goal ([`gpimc::stakes`]).
//! - **Bias** (`b`): among those correlated pre-terminal nodes, the fraction whose
//!   common class favours the declarer (the declarer's ledger utility of the class
//!   is positive). Beside it: the fraction of the playouts' terminals, and of the
//!   first positions of play, that favour the declarer (the latter as the class the
//!   declarer can force with every card seen).
//! - **Disambiguation**: at the first card of every trick, for every active seat,
//!   `log2` of the number of worlds consistent with its view ([`Sampler::count`]),
//!   less the same count when the hand is over (the split of the unseen discards
//!   and heap, which card play never reveals): the bits of hidden *hand*
//!   information left. Only hands played to their last trick count here.
//! - **Indifference** by trick: of the card decisions with two or more legal cards,
//!   the fraction where every card has the same perfect-information class (the
//!   decision cannot matter in the true world).
//! - **PIMC error** by trick: at the same decisions, PIMC with `worlds` worlds
//!   sampled from the mover's view (each world's cards solved exactly, the card of
//!   the best mean utility for the mover's side) against the true world: how
//!   often its card has a worse class than the best card (the oracle's), and the
//!   utility that costs.

use crate::runner::SimError;
use crate::seeds::{deal_for_seed, deal_seed};
use rayon::prelude::*;
use tresillo_agents::gpimc::{self, Stakes};
use tresillo_agents::gsolver::{Goal, Solvers, active_seats};
use tresillo_agents::{
    AgentRng, Sampler, below, build_seated, play_hand_with, rng_from_seed, seat_rngs, splitmix64,
};
use tresillo_core::{Card, CardSet, Hand, MAX_TRICKS, PlayState, Request, Rules, Seat};

/// What to measure, and on how many deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropertiesConfig {
    /// The rule set and options.
    pub rules: Rules,
    /// Players at the table (3, or 4 with an inactive dealer).
    pub players: u8,
    /// Deals `0..deals` of the master seed.
    pub deals: u64,
    /// The master seed.
    pub seed: u64,
    /// Worlds PIMC samples at each card decision (0: no PIMC error measured).
    pub worlds: u32,
    /// Random playouts from the first card of play of each deal (leaf correlation
    /// and bias).
    pub playouts: u32,
}

/// `k` of `n`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases counted.
    pub n: u64,
    /// Cases with the property.
    pub k: u64,
}

impl Tally {
    /// `k / n` (`None` when nothing was counted).
    #[must_use]
    pub fn rate(&self) -> Option<f64> {
        (self.n > 0).then(|| self.k as f64 / self.n as f64)
    }

    fn add(&mut self, yes: bool) {
        self.n += 1;
        self.k += u64::from(yes);
    }

    fn merge(&mut self, o: &Tally) {
        self.n += o.n;
        self.k += o.k;
    }
}

/// The measures of one trick and one side (declarer or defender).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrickStats {
    /// Card decisions with two or more legal cards, and how many of them were
    /// indifferent (every legal card of the same perfect-information class).
    pub indifferent: Tally,
    /// The same decisions, and how many PIMC's card had a worse class than the
    /// best card in the true world.
    pub pimc_errors: Tally,
    /// The declarer's utility PIMC's cards lost in the true world, summed.
    pub pimc_cost: f64,
    /// Seats measured at the first card of the trick (hands played to their end).
    pub info: u64,
    /// Sum over them of `log2` of the worlds consistent with the seat's view.
    pub world_bits: f64,
    /// Sum over them of the bits of hidden hand information: `world_bits` less the
    /// bits the view still has when the hand is over.
    pub hand_bits: f64,
}

impl TrickStats {
    fn merge(&mut self, o: &TrickStats) {
        self.indifferent.merge(&o.indifferent);
        self.pimc_errors.merge(&o.pimc_errors);
        self.pimc_cost += o.pimc_cost;
        self.info += o.info;
        self.world_bits += o.world_bits;
        self.hand_bits += o.hand_bits;
    }

    /// The mean bits of hidden hand information at the trick's first card.
    #[must_use]
    pub fn mean_hand_bits(&self) -> Option<f64> {
        (self.info > 0).then(|| self.hand_bits / self.info as f64)
    }

    /// The mean `log2` of the worlds consistent with a view at the trick's first card.
    #[must_use]
    pub fn mean_world_bits(&self) -> Option<f64> {
        (self.info > 0).then(|| self.world_bits / self.info as f64)
    }

    /// The mean utility PIMC lost per decision.
    #[must_use]
    pub fn mean_pimc_cost(&self) -> Option<f64> {
        (self.pimc_errors.n > 0).then(|| self.pimc_cost / self.pimc_errors.n as f64)
    }
}

/// The side a seat plays for: 0 the declarer, 1 a defender.
pub const SIDES: [&str; 2] = ["declarer", "defender"];

/// The measures of a rule set over a set of deals (counts and sums, merged in
/// deal order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Properties {
    /// Deals played.
    pub deals: u64,
    /// Deals that reached card play with a declarer.
    pub played: u64,
    /// Deals played to their last trick (the disambiguation's hands).
    pub played_out: u64,
    /// Pre-terminal nodes met by the random playouts, and how many were
    /// correlated (every child the same class).
    pub leaf: Tally,
    /// The correlated pre-terminal nodes, and how many favour the declarer.
    pub leaf_favour: Tally,
    /// The playouts' terminals, and how many favour the declarer.
    pub terminal_favour: Tally,
    /// First positions of card play, and how many the declarer can force to a
    /// favourable class with every card seen.
    pub forced_favour: Tally,
    /// By trick (index 0 the first) and side ([`SIDES`]).
    pub by_trick: [[TrickStats; 2]; MAX_TRICKS as usize],
}

impl Properties {
    fn merge(&mut self, o: &Properties) {
        self.deals += o.deals;
        self.played += o.played;
        self.played_out += o.played_out;
        self.leaf.merge(&o.leaf);
        self.leaf_favour.merge(&o.leaf_favour);
        self.terminal_favour.merge(&o.terminal_favour);
        self.forced_favour.merge(&o.forced_favour);
        for (a, b) in self.by_trick.iter_mut().zip(&o.by_trick) {
            for (x, y) in a.iter_mut().zip(b) {
                x.merge(y);
            }
        }
    }

    /// The disambiguation factor of `side` (0 the declarer, 1 a defender; `None`
    /// for both together): `1 - (H9 / H1)^(1/8)`, where `Ht` is the mean bits of
    /// hidden hand information at the first card of trick `t`: the fraction of
    /// the hidden hand information one trick removes, on average over the first
    /// eight tricks (0: nothing is learnt before the end; 1: the first trick shows
    /// everything).
    #[must_use]
    pub fn disambiguation(&self, side: Option<usize>) -> Option<f64> {
        let n = self.by_trick.len();
        let h = |t: usize| -> Option<f64> {
            let mut s = TrickStats::default();
            for (i, x) in self.by_trick[t].iter().enumerate() {
                if side.is_none_or(|k| k == i) {
                    s.merge(x);
                }
            }
            s.mean_hand_bits()
        };
        let (first, last) = (h(0)?, h(n - 1)?);
        if first <= 0.0 {
            return None;
        }
        Some(1.0 - (last.max(0.0) / first).powf(1.0 / (n - 1) as f64))
    }

    /// One side's (or, with `None`, both sides') stats of trick `t` (0-based).
    #[must_use]
    pub fn trick(&self, t: usize, side: Option<usize>) -> TrickStats {
        let mut s = TrickStats::default();
        for (i, x) in self.by_trick[t].iter().enumerate() {
            if side.is_none_or(|k| k == i) {
                s.merge(x);
            }
        }
        s
    }
}

/// Measures `config` over its deals, in parallel on rayon's pool; the result is
/// the same for any thread count.
pub fn measure(config: &PropertiesConfig) -> Result<Properties, SimError> {
    let parts: Vec<Result<Properties, SimError>> = (0..config.deals)
        .into_par_iter()
        .map_init(Solvers::new, |solvers, i| measure_deal(config, i, solvers))
        .collect();
    let mut total = Properties::default();
    for p in parts {
        total.merge(&p?);
    }
    Ok(total)
}

/// Whether `class` of `stakes` favours the declarer (a positive utility).
fn favours(stakes: &Stakes, class: u8) -> bool {
    stakes.utility[usize::from(class)] > 0.0
}

/// The measures of deal `i`.
fn measure_deal(c: &PropertiesConfig, i: u64, solvers: &mut Solvers) -> Result<Properties, SimError> {
    let seed = deal_seed(c.seed, i);
    let dealer = Seat((i % u64::from(c.players)) as u8);
    let deal = deal_for_seed(seed).seated(c.rules.table(c.players), dealer);
    let mut hand = Hand::with_rules(c.rules, c.players, deal, dealer)
        .map_err(|source| SimError::Hand { deal: i, source })?;
    let mut agents: Vec<_> =
        (0..c.players).map(|_| build_seated("rule").expect("the rule agent is built in")).collect();
    let mut rngs = seat_rngs(seed);
    // Every card decision's hand, before the card.
    let mut decisions: Vec<Hand> = Vec::with_capacity(36);
    play_hand_with(&mut hand, &mut agents, &mut rngs, |h, _| {
        if matches!(h.request(), Request::Play { .. }) {
            decisions.push(*h);
        }
    })
    .map_err(|e| SimError::Agent { deal: i, error: Box::new(e), place: None })?;
    let mut out = Properties { deals: 1, ..Properties::default() };
    let mut rng = rng_from_seed(splitmix64(seed ^ 0x5E_ED0F_D1A6_u64));
    let Some(first) = decisions.first() else { return Ok(out) };
    let Some((ps, declarer, stakes)) = position(first) else { return Ok(out) };
    out.played = 1;
    let top = solvers.value(&ps, declarer, stakes.goal);
    out.forced_favour.add(favours(&stakes, top));
    let active = active_seats(&ps);
    for _ in 0..c.playouts {
        playout(ps, declarer, &stakes, active, &mut rng, &mut out);
    }
    for h in &decisions {
        judge(h, c.worlds, solvers, &mut rng, &mut out);
    }
    let played_out = hand.public().tricks_done == hand.public().game_rules().spec().tricks;
    if played_out {
        out.played_out = 1;
        information(&decisions, &hand, &mut out);
    }
    Ok(out)
}

/// The true world of a card decision, its declarer and its stakes.
fn position(h: &Hand) -> Option<(PlayState, Seat, Stakes)> {
    let p = h.public();
    let declarer = p.declarer?;
    let stakes = gpimc::stakes(p, declarer)?;
    Some((h.play_state()?, declarer, stakes))
}

/// Whether every legal card of `ps` leads to the end by forced cards only; if
/// so, the classes of `goal` the cards end in (`None` otherwise, or when the
/// mover has one legal card).
fn preterminal(ps: &PlayState, declarer: Seat, goal: Goal, active: u8) -> Option<(u8, u8)> {
    let legal = ps.legal_moves();
    if legal.len() < 2 {
        return None;
    }
    let (mut lo, mut hi) = (u8::MAX, 0u8);
    for c in legal {
        let mut p = *ps;
        p.play_unchecked(c);
        while !p.is_over() {
            let l = p.legal_moves();
            if l.len() != 1 {
                return None;
            }
            p.play_unchecked(l.first()?);
        }
        let v = goal.class(p.tricks, declarer, active);
        lo = lo.min(v);
        hi = hi.max(v);
    }
    Some((lo, hi))
}

/// One uniform random playout from `ps`, counting the pre-terminal nodes it
/// passes and its terminal.
fn playout(
    mut ps: PlayState,
    declarer: Seat,
    stakes: &Stakes,
    active: u8,
    rng: &mut AgentRng,
    out: &mut Properties,
) {
    while !ps.is_over() {
        if let Some((lo, hi)) = preterminal(&ps, declarer, stakes.goal, active) {
            out.leaf.add(lo == hi);
            if lo == hi {
                out.leaf_favour.add(favours(stakes, lo));
            }
        }
        let legal = ps.legal_moves();
        let Some(card) = legal.nth(below(rng, legal.len())) else { return };
        ps.play_unchecked(card);
    }
    let end = stakes.goal.class(ps.tricks, declarer, active);
    out.terminal_favour.add(favours(stakes, end));
}

/// The side of `seat`: 0 the declarer, 1 a defender.
fn side(seat: Seat, declarer: Seat) -> usize {
    usize::from(seat != declarer)
}

/// Indifference and PIMC's error at the card decision of `h`.
fn judge(h: &Hand, worlds: u32, solvers: &mut Solvers, rng: &mut AgentRng, out: &mut Properties) {
    let Some((ps, declarer, stakes)) = position(h) else { return };
    let Some(seat) = h.request().seat() else { return };
    if ps.legal_moves().len() < 2 {
        return;
    }
    let t = usize::from(h.public().tricks_done).min(out.by_trick.len() - 1);
    let s = side(seat, declarer);
    let truth = solvers.card_values(&ps, declarer, stakes.goal);
    let classes = truth.iter().map(|&(_, v)| v);
    let (lo, hi) = (classes.clone().min().unwrap_or(0), classes.max().unwrap_or(0));
    let stats = &mut out.by_trick[t][s];
    stats.indifferent.add(lo == hi);
    if worlds == 0 {
        return;
    }
    let Some(card) = pimc_card(h, seat, declarer, &stakes, worlds, solvers, rng) else { return };
    let best = if s == 0 { hi } else { lo };
    let got = truth.iter().find(|&&(c, _)| c == card).map_or(best, |&(_, v)| v);
    let stats = &mut out.by_trick[t][s];
    stats.pimc_errors.add(got != best);
    stats.pimc_cost += (stakes.utility[usize::from(best)] - stakes.utility[usize::from(got)]).abs();
}

/// PIMC's card at `h` for `seat`: `worlds` worlds sampled from its view, each
/// card's class solved in each, the card of the best summed utility for its side
/// (the first in card order on a tie).
fn pimc_card(
    h: &Hand,
    seat: Seat,
    declarer: Seat,
    stakes: &Stakes,
    worlds: u32,
    solvers: &mut Solvers,
    rng: &mut AgentRng,
) -> Option<Card> {
    let view = h.view(seat);
    let Request::Play { legal, .. } = view.request() else { return None };
    let sampler = Sampler::new(&view).ok()?;
    let mut sums = [0.0f64; 64];
    for _ in 0..worlds {
        let w = sampler.sample(rng).play_state(&view)?;
        for (c, v) in solvers.card_values(&w, declarer, stakes.goal) {
            sums[c.index()] += stakes.utility[usize::from(v)];
        }
    }
    let sign = if seat == declarer { 1.0 } else { -1.0 };
    best_card(legal, |c| sign * sums[c.index()])
}

/// The card of `legal` with the highest score, the first in card order on a tie.
fn best_card(legal: CardSet, score: impl Fn(Card) -> f64) -> Option<Card> {
    let mut best: Option<(Card, f64)> = None;
    for c in legal {
        let v = score(c);
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((c, v));
        }
    }
    best.map(|(c, _)| c)
}

/// `log2` of the worlds consistent with `seat`'s view of `h` (`None` if the
/// sampler cannot read the view).
fn world_bits(h: &Hand, seat: Seat) -> Option<f64> {
    let s = Sampler::new(&h.view(seat)).ok()?;
    Some(log2(s.count()))
}

/// `log2` of a count (exact enough for counts far beyond 2^53).
#[must_use]
pub fn log2(n: u128) -> f64 {
    if n == 0 {
        return f64::NEG_INFINITY;
    }
    let shift = (128 - n.leading_zeros()).saturating_sub(53);
    ((n >> shift) as f64).log2() + f64::from(shift)
}

/// The information measures of a hand played to its end: at the first card of
/// every trick, every active seat's world bits and hidden hand bits.
fn information(decisions: &[Hand], end: &Hand, out: &mut Properties) {
    for h in decisions {
        let p = h.public();
        let Some(ps) = h.play_state() else { continue };
        let Some(declarer) = p.declarer else { continue };
        if ps.trick_len != 0 {
            continue;
        }
        let t = usize::from(p.tricks_done).min(out.by_trick.len() - 1);
        let active = active_seats(&ps);
        for s in 0..4u8 {
            if active & (1 << s) == 0 {
                continue;
            }
            let seat = Seat(s);
            let (Some(now), Some(floor)) = (world_bits(h, seat), world_bits(end, seat)) else { continue };
            let stats = &mut out.by_trick[t][side(seat, declarer)];
            stats.info += 1;
            stats.world_bits += now;
            stats.hand_bits += (now - floor).max(0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tresillo_core::{RuleSet, Suit, parse_card, parse_hand};

    fn config(rules: RuleSet, players: u8, deals: u64) -> PropertiesConfig {
        PropertiesConfig { rules: Rules::from(rules), players, deals, seed: 7, worlds: 4, playouts: 4 }
    }

    #[test]
    fn log2_is_exact_on_powers_and_close_beyond_f64() {
        assert_eq!(log2(1), 0.0);
        assert_eq!(log2(1 << 20), 20.0);
        assert_eq!(log2(1u128 << 100), 100.0);
        assert!((log2(3) - 3f64.log2()).abs() < 1e-12);
        assert!((log2(u128::MAX) - 128.0).abs() < 1e-9);
    }

    /// Oros trumps, seven tricks done (4-3-0), seat 1 leads the eighth: seat 1
    /// holds the king of cups and the mala, seat 2 a small cup and a sword, seat 0
    /// `mine` (no cup).
    fn eighth_trick(mine: &str) -> PlayState {
        let mut ps = PlayState::new(
            [parse_hand(mine).unwrap(), parse_hand("12C 7O").unwrap(), parse_hand("3C 4E").unwrap()],
            Some(Suit::Oros),
            Seat(1),
        );
        ps.tricks = [4, 3, 0, 0];
        ps.tricks_done = 7;
        ps
    }

    #[test]
    fn a_node_whose_cards_all_end_alike_is_correlated() {
        // Seat 0 trumps the king of cups with either trump: 5-3-0 whatever
        // follows, a sacado for the declarer (seat 0).
        let mut ps = eighth_trick("1O 2O");
        let active = active_seats(&ps);
        // Seat 1's lead is no pre-terminal node: seat 0 still chooses after it.
        assert_eq!(preterminal(&ps, Seat(0), Goal::Spanish, active), None);
        ps.play_unchecked(parse_card("12C").unwrap());
        // Seat 2 has one legal card (it follows cups): not a decision.
        assert_eq!(preterminal(&ps, Seat(0), Goal::Spanish, active), None);
        ps.play_unchecked(parse_card("3C").unwrap());
        assert_eq!(preterminal(&ps, Seat(0), Goal::Spanish, active), Some((2, 2)));
    }

    #[test]
    fn a_node_whose_cards_end_differently_is_not_correlated() {
        // Seat 0 trumps with the punto (5-3-0, sacado) or throws the sword: seat 1
        // takes the trick (4-4-0) and leads the mala, which forces the punto out:
        // 4-5-0, codillo.
        let mut ps = eighth_trick("1O 5E");
        let active = active_seats(&ps);
        ps.play_unchecked(parse_card("12C").unwrap());
        ps.play_unchecked(parse_card("3C").unwrap());
        assert_eq!(preterminal(&ps, Seat(0), Goal::Spanish, active), Some((0, 2)));
        // For seat 1 declaring, the same node is a codillo for it or a puesta.
        assert_eq!(preterminal(&ps, Seat(1), Goal::Spanish, active).map(|(lo, hi)| lo < hi), Some(true));
    }

    #[test]
    fn the_best_card_is_the_first_on_a_tie() {
        let legal = parse_hand("1E 7O 2C").unwrap();
        let first = legal.first().unwrap();
        assert_eq!(best_card(legal, |_| 1.0), Some(first));
        let last = legal.iter().next_back().unwrap();
        assert_eq!(best_card(legal, |c| if c == last { 2.0 } else { 0.0 }), Some(last));
        assert_eq!(best_card(CardSet::EMPTY, |_| 0.0), None);
    }

    #[test]
    fn the_disambiguation_factor_of_a_known_halving_is_one_half() {
        // Hidden hand bits halve every trick: 256, 128, ..., 1 over nine tricks.
        let mut p = Properties::default();
        for (t, x) in p.by_trick.iter_mut().enumerate() {
            x[0].info = 2;
            x[0].hand_bits = 2.0 * 256.0 / f64::from(1u32 << t);
        }
        let df = p.disambiguation(Some(0)).unwrap();
        assert!((df - 0.5).abs() < 1e-12, "{df}");
        assert!((p.disambiguation(None).unwrap() - 0.5).abs() < 1e-12);
        // Nothing measured for defenders.
        assert_eq!(p.disambiguation(Some(1)), None);
        // Nothing learnt before the end: 0.
        for x in &mut p.by_trick {
            x[0].hand_bits = 10.0;
        }
        assert!(p.disambiguation(Some(0)).unwrap().abs() < 1e-12);
    }

    #[test]
    fn world_bits_at_the_end_of_a_hand_are_what_play_never_shows() {
        // A tresillo hand played to its end: the count is the split of the unseen
        // discards and heap, so no hand bits are left, and bits only fall.
        let c = config(RuleSet::TRESILLO, 3, 6);
        let p = measure(&c).unwrap();
        assert_eq!(p.deals, 6);
        assert!(p.played_out > 0);
        let mut last = f64::INFINITY;
        for t in 0..MAX_TRICKS as usize {
            let h = p.trick(t, None).mean_hand_bits().unwrap();
            assert!(h >= 0.0 && h <= last + 1e-9, "trick {t}: {h} after {last}");
            last = h;
        }
    }

    #[test]
    fn counts_add_up_and_the_same_seed_gives_the_same_numbers() {
        for (rules, players) in
            [(RuleSet::TRESILLO, 3), (RuleSet::HOMBRE, 3), (RuleSet::LHOMBRE, 3), (RuleSet::TRESILLO, 4)]
        {
            let c = config(rules, players, 4);
            let a = measure(&c).unwrap();
            assert_eq!(a, measure(&c).unwrap(), "{rules:?} at {players}");
            assert_eq!(a.deals, 4);
            assert!(a.played <= a.deals && a.played_out <= a.played);
            assert!(a.leaf_favour.n == a.leaf.k);
            assert_eq!(a.terminal_favour.n, a.played * u64::from(c.playouts));
            assert_eq!(a.forced_favour.n, a.played);
            for t in 0..MAX_TRICKS as usize {
                let s = a.trick(t, None);
                assert_eq!(s.indifferent.n, s.pimc_errors.n);
                assert!(s.pimc_errors.k <= s.pimc_errors.n);
            }
        }
        // Another seed, other deals.
        let c = config(RuleSet::TRESILLO, 3, 4);
        let other = PropertiesConfig { seed: 8, ..c };
        assert_ne!(measure(&c).unwrap(), measure(&other).unwrap());
    }

    #[test]
    fn a_table_the_rule_set_is_not_played_at_is_an_error() {
        let c = config(RuleSet::LHOMBRE, 4, 1);
        assert!(matches!(measure(&c), Err(SimError::Hand { deal: 0, .. })));
    }
}
