//! The play-phase decisions of `pimc`, `oracle` and `cheat` in the rule sets
//! other than three-player Spanish puesta scoring: `hombre` (points or chips,
//! with `favorito`, `gascarille`, `contrabola`, `show_heap`), `lhombre` (nine
//! contracts, nolo, tout) and four-player `tresillo` (penetro, with or without
//! `penetro_all_play`), RULES.md section 12. The hooks in
//! [`PimcAgent`](crate::PimcAgent), [`Oracle`](crate::Oracle) and
//! [`Cheat`](crate::cheat::Cheat) call [`handles`] and, when it says yes, come
//! here; three-player `tresillo` and `tresillo-house` keep their own code.
//!
//! # What a hand is worth ([`Stakes`])
//!
//! The card play's objective is a [`Goal`] of the general solver, chosen from
//! the contract: section 7's classes in four-player `tresillo` (three opponents
//! under `penetro_all_play`); win/draw/loss (12.4) in the L'Hombre trump
//! contracts; nolo's 0/1/2+ tricks in the three nolo contracts; no trick in a
//! contrabola; lost / won / won 4-3-2 (*cuatro*, doubled) with `hombre` points;
//! lost / won with `hombre` chips; and "all nine tricks" once a bola, vole or
//! tout is played for or a vole declared. The utility of each class is the
//! declarer's net change **from the core's own ledger for a fresh deal**
//! ([`score_deal`]): a [`HandResult`] with this hand's rule set, options,
//! table, dealer, declarer, contract, trumps and flags (forced, gascarille,
//! penetro, the player who dropped out, the declared vole) and a representative
//! trick count of the class is scored, so the utilities are the ledger's
//! numbers: tantos of the puesta system (n = 4, penetro condición, palo de
//! favor and codillo_old included), `hombre` points (base values, doubling) or
//! chips (the ante's pool, per-opponent payments), `lhombre`'s per-defender
//! table. Payments that do not depend on the class (the estuches of a hand, a
//! pot from earlier hands, the dealer's tanto or ante) are left out: they cannot
//! change a choice. The other
//! active seats are a coalition scored by the negation.
//!
//! # Decisions searched
//!
//! With `worlds` worlds (sampled from the view by `pimc`, the true world for
//! `oracle`; `pimc`'s `adaptive` stopping is not used here: every world is
//! drawn), each solved exactly by [`Solvers`]:
//! - **Card play**: the card of best mean utility for the mover's side (ties:
//!   the first in the engine's order).
//! - **Surrender** (`hombre` entrada and vuelta, four-player `tresillo`): give
//!   up when the mean utility of playing on is below that of a lost game.
//! - **Takeover** (*yo sigo*): take over when the mean utility as the new
//!   declarer is positive (declining costs this seat nothing).
//! - **Acceptance of a surrendered vuelta** (`hombre`): accept unless playing
//!   on cannot do better for the declarer than the surrender (then refuse: the
//!   coalition loses nothing and a codillo may pay this seat).
//! - **Primeras or bola / vole / tout**: play on when `p` (the share of worlds
//!   in which the declarer takes every remaining trick) makes the ledger's
//!   value of playing on, `p` made plus `1 - p` failed, beat stopping with
//!   primeras.
//! - **Declared vole** (`hombre`, before the first trick): declare when `p`
//!   times a declared vole made plus `1 - p` times one failed beats the mean
//!   value of the contract played normally over the same worlds.
//!
//! In `hombre` `pimc` bids and names its contract by its own Monte Carlo
//! auction (the one of three-player `tresillo`, the contracts of section 3 with
//! the exchange simulated), each sampled deal's class valued by
//! [`HombreBids`]: a lost or won game as the ledger pays it, in units of a
//! simple game won (so `bid_margin` is in hundredths of one); the `oracle`
//! bids as the rule agent. Every other decision - the auction and contract of
//! `lhombre` and at four players (nolo contracts and tourné included), hombre's
//! obligation and gascarille trumps, the exchange and the exchange right, the
//! conversations, the penetro's heap end, its give-up at once and the
//! drop-out, gascarille - is the rule
//! agent's ([`RuleAgent`](crate::RuleAgent), which defers to the L'Hombre
//! heuristics in `lhombre`). `pimc` in four-player `tresillo` needs the
//! sampler's four-player worlds; where the sampler has none it plays as the
//! rule agent.

use crate::search::gsolver::{Goal, Solvers, active_seats};
use tresillo_core::Question;
use tresillo_core::{
    BySeat, Contract, Decision, HandResult, LedgerConfig, PlayState, PlayerView, PublicState, Request, Seat,
    cancelled_result, playing_seats, score_deal,
};

/// Whether the decisions of `view` belong to this module: every table but the
/// Spanish fast path's (a table where every seat plays, of a rule set whose row
/// opts in,
/// [`AgentRules::spanish_search`](crate::family::AgentRules::spanish_search):
/// `tresillo` and `tresillo-house` with their options), so a rule set added
/// later takes the general path unless its row says it is that game.
#[must_use]
pub fn handles(p: &PublicState) -> bool {
    !crate::family::spanish_search(p)
}

/// The card play's goal and the declarer's utility of each of its classes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stakes {
    /// What the declarer plays for.
    pub goal: Goal,
    /// The declarer's net for a fresh deal, by class (`0..=goal.top()`).
    pub utility: [f64; 3],
}

/// How a hand ends, for [`score`]: the trick counts and the primeras and bola
/// flags.
#[derive(Clone, Copy, Debug, Default)]
struct Ending {
    tricks: [u8; 4],
    primeras: bool,
    bola_attempted: bool,
    bola_made: bool,
}

/// The active seats of the hand in play order from the declarer: the declarer
/// first.
fn seats_from(p: &PublicState, declarer: Seat) -> ([Seat; 4], usize) {
    let n = p.players;
    let playing = playing_seats(p.table, p.dealer, &p.penetro);
    let mut out = [declarer; 4];
    let mut k = 0;
    for i in 0..n {
        let s = declarer.plus(i, n);
        if playing & (1 << s.0) != 0 {
            out[k] = s;
            k += 1;
        }
    }
    (out, k)
}

/// The declarer's net change for a fresh deal of the hand of `p` ended as
/// `e`, by the rule set's own ledger.
fn score(p: &PublicState, declarer: Seat, e: Ending) -> Option<f64> {
    let rules = p.game_rules();
    let mut r: HandResult = cancelled_result(p.players, p.dealer);
    r.rules = p.rules;
    r.options = p.options;
    r.declarer = Some(declarer);
    r.contract = p.contract;
    r.trump = p.trump;
    r.turned = p.turned;
    r.forced = p.forced;
    r.penetro = p.penetro.active;
    r.dropped_out = p.penetro.dropped;
    r.gascarille = p.gascarille;
    r.vole_declared = p.vole_declared == Some(true);
    r.tricks = BySeat(e.tricks);
    r.primeras = e.primeras;
    r.bola_attempted = e.bola_attempted || r.vole_declared;
    r.bola_made = e.bola_made;
    let (seats, k) = seats_from(p, declarer);
    let opps: Vec<(Seat, u8)> = seats[1..k].iter().map(|&s| (s, e.tricks[s.index()])).collect();
    let d = e.tricks[declarer.index()];
    r.outcome = rules.outcome(p.contract, d, &opps);
    let config = LedgerConfig::with_rules(rules, p.players);
    let s = score_deal(config, &r).ok()?;
    // A dealer's stake before the deal (the puesta system's tanto, the chips'
    // ante) is paid whatever happens: left out, so that a declarer who deals
    // values the hand as any other.
    let stake = if declarer == p.dealer { rules.dealer_stake() } else { 0 };
    Some((s.net(declarer) + stake) as f64)
}

/// Trick counts from the declarer's `mine` and the others' in play order.
fn counts(p: &PublicState, declarer: Seat, mine: u8, others: [u8; 3]) -> [u8; 4] {
    let (seats, k) = seats_from(p, declarer);
    let mut t = [0u8; 4];
    t[declarer.index()] = mine;
    for i in 1..k {
        t[seats[i].index()] = others[i - 1];
    }
    t
}

/// The goal of the contract of `p` before any bola, vole or tout.
fn contract_goal(p: &PublicState) -> Goal {
    match p.contract {
        Some(c) if c.is_nolo() => Goal::Nolo,
        Some(Contract::Contrabola) => Goal::Contrabola,
        _ => crate::family::of(&p.game_rules()).goal,
    }
}

/// A representative ending of each class of `goal` (0..=top): the trick counts
/// of the trick goals are for nine tricks, as every rule set has; those of
/// [`Goal::Reach`] read the rule set's.
fn endings(p: &PublicState, declarer: Seat, goal: Goal) -> [Ending; 3] {
    let four = seats_from(p, declarer).1 == 4;
    let t = |d: u8, o: [u8; 3]| Ending { tricks: counts(p, declarer, d, o), ..Ending::default() };
    let won = if four { t(3, [2, 2, 2]) } else { t(5, [2, 2, 0]) };
    match goal {
        Goal::Spanish if four => [t(2, [4, 2, 1]), t(3, [3, 2, 1]), won],
        Goal::Spanish => [t(2, [5, 2, 0]), t(3, [3, 3, 0]), won],
        Goal::Lhombre => [t(2, [5, 2, 0]), t(4, [4, 1, 0]), won],
        Goal::Nolo => [t(2, [5, 2, 0]), t(1, [4, 4, 0]), t(0, [5, 4, 0])],
        Goal::Contrabola => [t(1, [4, 4, 0]), t(0, [5, 4, 0]), t(0, [5, 4, 0])],
        Goal::Cuatro => [t(3, [3, 3, 0]), won, t(4, [3, 2, 0])],
        Goal::Won => [t(3, [3, 3, 0]), won, won],
        Goal::Reach(_) => {
            let all = p.game_rules().spec().tricks;
            let failed = Ending { bola_attempted: true, ..t(all - 1, [1, 0, 0]) };
            let made = Ending { bola_attempted: true, bola_made: true, ..t(all, [0, 0, 0]) };
            [failed, made, made]
        }
    }
}

/// The stakes of the card play of `p` with `declarer` declaring: the
/// contract's goal, or all nine tricks once a bola, vole or tout is played for.
#[must_use]
pub fn stakes(p: &PublicState, declarer: Seat) -> Option<Stakes> {
    let all = p.bola == Some(true) || p.vole_declared == Some(true);
    let goal = if all { Goal::Reach(p.game_rules().spec().tricks) } else { contract_goal(p) };
    stakes_of(p, declarer, goal)
}

fn stakes_of(p: &PublicState, declarer: Seat, goal: Goal) -> Option<Stakes> {
    let e = endings(p, declarer, goal);
    let mut utility = [0.0; 3];
    for c in 0..=goal.top() as usize {
        utility[c] = score(p, declarer, e[c])?;
    }
    Some(Stakes { goal, utility })
}

/// The position of `hands` in the hand of `p` as if a card were asked now
/// (surrender acceptance is asked between tricks, outside the play phase).
fn position(p: &PublicState, hands: BySeat<tresillo_core::CardSet>) -> Option<PlayState> {
    p.play_state(hands).or_else(|| {
        let mut q = *p;
        q.phase = tresillo_core::Phase::Play;
        q.play_state(hands)
    })
}

/// The general play-phase search shared by `pimc` (sampled worlds) and
/// `oracle` (the true world). Owns its solvers.
#[derive(Debug, Default)]
pub struct General {
    solvers: Solvers,
    /// Worlds drawn since the last [`General::take_work`].
    worlds: u64,
    /// The solvers' node count at the last [`General::take_work`].
    nodes_seen: u64,
}

impl General {
    /// A searcher with empty solvers.
    #[must_use]
    pub fn new() -> General {
        General::default()
    }

    /// Empties both solvers' tables before a hand (see
    /// [`SolverContext::clear`](crate::search::solver::SolverContext::clear)).
    pub fn new_hand(&mut self) {
        self.solvers.clear();
    }

    /// The worlds drawn and the solver nodes visited since the last call.
    pub fn take_work(&mut self) -> crate::Work {
        let nodes = self.solvers.nodes();
        let w = crate::Work {
            worlds: std::mem::take(&mut self.worlds),
            nodes: nodes - self.nodes_seen,
            ..crate::Work::default()
        };
        self.nodes_seen = nodes;
        w
    }

    /// The decision for the request of `view` from at most `max` worlds that
    /// `next` yields (each the hands of every seat), or `None` when the request
    /// is not one decided by search here (or no world could be solved). With a
    /// `deadline`, drawing stops once it has passed and a world was solved.
    pub fn decide(
        &mut self,
        view: &PlayerView,
        max: u32,
        deadline: Option<std::time::Instant>,
        mut next: impl FnMut() -> Option<BySeat<tresillo_core::CardSet>>,
    ) -> Option<Decision> {
        let p = view.public();
        let me = view.seat();
        let declarer = p.declarer?;
        let mut worlds: Vec<PlayState> = Vec::with_capacity(max.min(256) as usize);
        let request = view.request();
        if p.phase == tresillo_core::Phase::PenetroGiveUp {
            // The penetro's give-up before the drop-out: the rule agent's.
            return None;
        }
        let wanted = match request {
            Request::Play { legal, .. } => legal.len() > 1,
            Request::Ask { question: Question::SURRENDER, .. }
            | Request::Ask { question: Question::TAKE_OVER, .. }
            | Request::Ask { question: Question::BOLA, .. }
            | Request::Ask { question: Question::ACCEPT_SURRENDER, .. }
            | Request::Ask { question: Question::DECLARE_VOLE, .. } => true,
            _ => false,
        };
        if !wanted {
            return None;
        }
        for _ in 0..max {
            if deadline.is_some_and(|d| !worlds.is_empty() && std::time::Instant::now() >= d) {
                break;
            }
            self.worlds += 1;
            let Some(hands) = next() else { continue };
            let ps = if let Request::Ask { question: Question::DECLARE_VOLE, .. } = request {
                let mut h = [tresillo_core::CardSet::EMPTY; 3];
                h.copy_from_slice(&hands.0[..3]);
                Some(PlayState::new(h, p.trump, p.mano()))
            } else {
                position(p, hands)
            };
            if let Some(ps) = ps {
                worlds.push(ps);
            }
        }
        if worlds.is_empty() {
            return None;
        }
        let k = worlds.len() as f64;
        match request {
            Request::Play { legal, .. } => {
                let st = stakes(p, declarer)?;
                let sign = if me == declarer { 1.0 } else { -1.0 };
                let mut sums = [0.0f64; 10];
                let cards: Vec<_> = legal.iter().collect();
                for ps in &worlds {
                    for (i, &c) in cards.iter().enumerate() {
                        let v = self.solvers.card_value(ps, c, declarer, st.goal);
                        sums[i] += sign * st.utility[v as usize];
                    }
                }
                let mut best = 0;
                for i in 1..cards.len() {
                    if sums[i] > sums[best] + 1e-9 {
                        best = i;
                    }
                }
                Some(Decision::Play(cards[best]))
            }
            Request::Ask { question: Question::SURRENDER, .. } => {
                let st = stakes(p, declarer)?;
                let on = self.mean(&worlds, declarer, &st);
                let lost = lost_utility(p, declarer)?;
                Some(Decision::Answer(Question::SURRENDER, on < lost))
            }
            Request::Ask { question: Question::TAKE_OVER, .. } => {
                let st = stakes(p, me)?;
                Some(Decision::Answer(Question::TAKE_OVER, self.mean(&worlds, me, &st) > 0.0))
            }
            Request::Ask { question: Question::ACCEPT_SURRENDER, .. } => {
                let st = stakes(p, declarer)?;
                let on = self.mean(&worlds, declarer, &st);
                let lost = lost_utility(p, declarer)?;
                Some(Decision::Answer(Question::ACCEPT_SURRENDER, on > lost + 1e-9))
            }
            Request::Ask { question: Question::BOLA, .. } => {
                let made =
                    worlds.iter().filter(|ps| self.solvers.can_take_all(ps, declarer)).count() as f64 / k;
                bola_worth(p, declarer, made).map(|b| Decision::Answer(Question::BOLA, b))
            }
            Request::Ask { question: Question::DECLARE_VOLE, .. } => {
                let normal = stakes(p, declarer)?;
                let plain = self.mean(&worlds, declarer, &normal);
                let made =
                    worlds.iter().filter(|ps| self.solvers.can_take_all(ps, declarer)).count() as f64 / k;
                let mut q = *p;
                q.vole_declared = Some(true);
                let vole = stakes_of(&q, declarer, Goal::Reach(p.game_rules().spec().tricks))?;
                let declared = made * vole.utility[1] + (1.0 - made) * vole.utility[0];
                Some(Decision::Answer(Question::DECLARE_VOLE, declared > plain))
            }
            _ => None,
        }
    }

    /// The declarer's mean utility over `worlds`.
    fn mean(&mut self, worlds: &[PlayState], declarer: Seat, st: &Stakes) -> f64 {
        let mut sum = 0.0;
        for ps in worlds {
            sum += st.utility[self.solvers.value(ps, declarer, st.goal) as usize];
        }
        sum / worlds.len() as f64
    }
}

/// The declarer's utility of a lost game (what a surrender costs: a puesta).
fn lost_utility(p: &PublicState, declarer: Seat) -> Option<f64> {
    let goal = contract_goal(p);
    let e = endings(p, declarer, goal);
    // The puesta class: 1 in section 7's classes, 0 where a loss is one class.
    let i = usize::from(matches!(goal, Goal::Spanish));
    score(p, declarer, e[i])
}

/// The declarer's utility of stopping after five straight tricks.
fn primeras_utility(p: &PublicState, declarer: Seat) -> Option<f64> {
    let e = Ending { tricks: counts(p, declarer, 5, [0, 0, 0]), primeras: true, ..Ending::default() };
    score(p, declarer, e)
}

/// Whether `pimc` makes the decision of `view` by its own Monte Carlo auction
/// (in `hombre`, whose auction and contracts are those of section 3, the bid
/// and the contract) rather than through [`General`] or the rule agent.
#[must_use]
pub fn pimc_bids(view: &PlayerView) -> bool {
    crate::family::of(&view.public().game_rules()).pimc_auction
        && matches!(view.request(), Request::Bid { .. } | Request::Declare { .. })
}

/// The row of the auction's tables (entrada, vuelta, solo) of `contract`;
/// contracts other than vuelta and solo count as entrada.
fn bid_row(contract: Contract) -> usize {
    match contract {
        Contract::Vuelta => 1,
        Contract::Solo => 2,
        _ => 0,
    }
}

/// A trump suit that is not favoured in the hand of `p`: where the auction's
/// unit (a game in a plain suit) is read.
fn plain_suit(p: &PublicState) -> tresillo_core::Suit {
    if p.game_rules().favoured(Some(tresillo_core::Suit::Copas)) {
        tresillo_core::Suit::Espadas
    } else {
        tresillo_core::Suit::Copas
    }
}

/// The hand of `p` as if `me` had declared `contract` in `trump` (not forced, no
/// gascarille, bola or vole): what an auction values before anyone has declared.
fn declaring(p: &PublicState, me: Seat, contract: Contract, trump: tresillo_core::Suit) -> PublicState {
    let mut q = *p;
    q.declarer = Some(me);
    q.original_declarer = Some(me);
    q.contract = Some(contract);
    q.trump = Some(trump);
    q.forced = false;
    q.gascarille = false;
    q.bola = None;
    q.vole_declared = None;
    q
}

/// `pimc`'s bidding utilities in `hombre`: for entrada, vuelta and solo in each
/// trump suit, the declarer's net for a lost and a won game by the ledger for
/// a fresh deal (points or chips, `favorito` doubling included), in units of a
/// simple game won in a suit that is not favoured (points 2, chips 15).
#[derive(Clone, Copy, Debug)]
pub struct HombreBids {
    /// `(lost, won)` by contract (entrada, vuelta, solo) and trump index.
    u: [[(f64, f64); 4]; 3],
}

impl HombreBids {
    /// The utilities for `me` declaring in the hand of `p`; `None` outside
    /// `hombre` (or if the ledger refuses the results).
    #[must_use]
    pub fn new(p: &PublicState, me: Seat) -> Option<HombreBids> {
        if !crate::family::of(&p.game_rules()).pimc_auction {
            return None;
        }
        let mut u = [[(0.0, 0.0); 4]; 3];
        for (i, c) in [Contract::Entrada, Contract::Vuelta, Contract::Solo].into_iter().enumerate() {
            for t in tresillo_core::Suit::ALL {
                let st = stakes_of(&declaring(p, me, c, t), me, Goal::Won)?;
                u[i][t.index()] = (st.utility[0], st.utility[1]);
            }
        }
        let plain = plain_suit(p);
        let unit = u[0][plain.index()].1;
        if unit <= 0.0 {
            return None;
        }
        for row in &mut u {
            for x in row.iter_mut() {
                *x = (x.0 / unit, x.1 / unit);
            }
        }
        Some(HombreBids { u })
    }

    /// The utility of `contract` in `trump` ending in `class` (a sacado wins,
    /// a puesta or codillo loses; contracts other than vuelta and solo count as
    /// entrada).
    #[must_use]
    pub fn utility(&self, contract: Contract, trump: tresillo_core::Suit, class: crate::Class) -> f64 {
        let (lost, won) = self.u[bid_row(contract)][trump.index()];
        if class == crate::Class::Sacado { won } else { lost }
    }
}

/// The Spanish fast path's bidding utilities (`pimc` in `tresillo` and
/// `tresillo-house`): for entrada, vuelta and solo in each trump suit, the
/// declarer's net for a codillo, a puesta and a sacado by the rule set's own
/// ledger for a fresh deal (its plato and amount in play, its condiciones, a
/// favoured suit's doubling), in units of a lost entrada in a suit that is not
/// favoured (`tresillo`: 9 tantos, the amount in play). So a rule set with other
/// stakes is valued at its own, and `tresillo`'s are those of
/// [`bid_utility`](crate::search::pimc::bid_utility) exactly.
#[derive(Clone, Copy, Debug)]
pub struct SpanishBids {
    /// By contract (entrada, vuelta, solo), trump index and class (codillo,
    /// puesta, sacado).
    u: [[[f64; 3]; 4]; 3],
}

impl SpanishBids {
    /// The utilities for `me` declaring in the hand of `p`; `None` if the
    /// ledger refuses one of the results (or a lost entrada costs nothing).
    #[must_use]
    pub fn new(p: &PublicState, me: Seat) -> Option<SpanishBids> {
        let mut u = [[[0.0; 3]; 4]; 3];
        for (i, c) in [Contract::Entrada, Contract::Vuelta, Contract::Solo].into_iter().enumerate() {
            for t in tresillo_core::Suit::ALL {
                u[i][t.index()] = stakes_of(&declaring(p, me, c, t), me, Goal::Spanish)?.utility;
            }
        }
        let plain = plain_suit(p);
        let unit = -u[0][plain.index()][crate::Class::Puesta as usize];
        if unit <= 0.0 {
            return None;
        }
        for x in u.iter_mut().flatten().flatten() {
            *x /= unit;
        }
        Some(SpanishBids { u })
    }

    /// The utility of `contract` in `trump` ending in `class` (contracts other
    /// than vuelta and solo count as entrada).
    #[must_use]
    pub fn utility(&self, contract: Contract, trump: tresillo_core::Suit, class: crate::Class) -> f64 {
        self.u[bid_row(contract)][trump.index()][class as usize]
    }
}

/// Whether the declarer of `p` plays on for bola (RULES.md section 6) when it
/// takes all the tricks with probability `made`: playing on, `made` times a
/// made bola plus `1 - made` times a failed one, against stopping with
/// primeras, each as the rule set's ledger pays it for a fresh deal. `None` if
/// the ledger refuses one of the results.
#[must_use]
pub fn bola_worth(p: &PublicState, declarer: Seat, made: f64) -> Option<bool> {
    let all = stakes_of(p, declarer, Goal::Reach(p.game_rules().spec().tricks))?;
    let on = made * all.utility[1] + (1.0 - made) * all.utility[0];
    Some(on > primeras_utility(p, declarer)?)
}

/// The utility for `me`'s side of the finished play `ps` (the cheat's playout
/// score) under the stakes `st`.
#[must_use]
pub fn side_utility(st: &Stakes, ps: &PlayState, declarer: Seat, me: Seat) -> f64 {
    let c = st.goal.class(ps.tricks, declarer, active_seats(ps));
    let u = st.utility[c as usize];
    if me == declarer { u } else { -u }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::deal_for_seed;
    use tresillo_core::{Hand, RuleSet, Rules, Suit};

    /// The public state of a fresh hand of `rules` dealt by seat 0 with seat 1
    /// declaring `contract` in `trump` (what the utilities read of it).
    fn public(rules: Rules, players: u8, contract: Contract, trump: Option<Suit>) -> PublicState {
        let h =
            Hand::with_rules(rules, players, deal_for_seed(1).seated(rules.table(players), Seat(0)), Seat(0))
                .unwrap();
        let mut p = *h.public();
        p.declarer = Some(Seat(1));
        p.original_declarer = Some(Seat(1));
        p.contract = Some(contract);
        p.trump = trump;
        p
    }

    #[test]
    fn the_general_path_is_every_table_but_the_spanish_three_player_puesta_game() {
        // Every four-player table, and every rule set whose agents' row has no
        // Spanish fast path (today hombre and lhombre).
        for set in RuleSet::BUILT_IN {
            for players in [3u8, 4] {
                let rules = Rules::from(set);
                if rules.check_players(players).is_err() {
                    continue;
                }
                let p = public(rules, players, Contract::Entrada, Some(Suit::Oros));
                let general = players == 4 || !crate::family::of(&rules).spanish_search;
                assert_eq!(handles(&p), general, "{set} at {players}");
            }
        }
        // Options keep a Spanish game on the fast path.
        let favor =
            Rules::parse("tresillo-house", &[("palo_de_favor", "oros"), ("codillo_old", "true")]).unwrap();
        assert!(!handles(&public(favor, 3, Contract::Entrada, Some(Suit::Oros))));
    }

    fn utilities(p: &PublicState) -> (Goal, Vec<f64>) {
        let st = stakes(p, Seat(1)).expect("the ledger scores every class");
        (st.goal, st.utility[..=st.goal.top() as usize].to_vec())
    }

    #[test]
    fn hombre_points_utilities_are_the_base_values_doubled_for_cuatro() {
        let r = Rules::from(RuleSet::HOMBRE);
        // Lost, won, won 4-3-2: simple game 2, solo 5.
        let (g, u) = utilities(&public(r, 3, Contract::Entrada, Some(Suit::Copas)));
        assert_eq!((g, u), (Goal::Cuatro, vec![-2.0, 2.0, 4.0]));
        let (_, u) = utilities(&public(r, 3, Contract::Solo, Some(Suit::Copas)));
        assert_eq!(u, vec![-5.0, 5.0, 10.0]);
        // favorito: coins double.
        let fav = Rules::parse("hombre", &[("favorito", "true")]).unwrap();
        let (_, u) = utilities(&public(fav, 3, Contract::Vuelta, Some(Suit::Oros)));
        assert_eq!(u, vec![-6.0, 6.0, 12.0]);
        // The vole played on: made x4, failed as won then base x4 off.
        let mut p = public(r, 3, Contract::Entrada, Some(Suit::Copas));
        p.bola = Some(true);
        assert_eq!(utilities(&p), (Goal::Reach(9), vec![2.0 - 8.0, 8.0]));
        // Declared: x8 either way.
        let mut p = public(r, 3, Contract::Entrada, Some(Suit::Copas));
        p.vole_declared = Some(true);
        assert_eq!(utilities(&p), (Goal::Reach(9), vec![-16.0, 16.0]));
        // Primeras doubles; contrabola is a simple game.
        assert_eq!(primeras_utility(&public(r, 3, Contract::Solo, Some(Suit::Copas)), Seat(1)), Some(10.0));
        let cb = Rules::parse("hombre", &[("contrabola", "true")]).unwrap();
        let (g, u) = utilities(&public(cb, 3, Contract::Contrabola, Some(Suit::Copas)));
        assert_eq!((g, u), (Goal::Contrabola, vec![-2.0, 2.0]));
    }

    #[test]
    fn hombre_bidding_utilities_are_the_ledgers_in_simple_games_won() {
        use crate::Class;
        let points = public(Rules::from(RuleSet::HOMBRE), 3, Contract::Entrada, None);
        let b = HombreBids::new(&points, Seat(2)).unwrap();
        assert_eq!(b.utility(Contract::Entrada, Suit::Copas, Class::Sacado), 1.0);
        assert_eq!(b.utility(Contract::Entrada, Suit::Copas, Class::Codillo), -1.0);
        assert_eq!(b.utility(Contract::Vuelta, Suit::Oros, Class::Puesta), -1.5);
        assert_eq!(b.utility(Contract::Solo, Suit::Bastos, Class::Sacado), 2.5);
        // Chips: won simple 15 (the pool and 5 from each), solo 35; lost 15.
        let chips = Rules::parse("hombre", &[("hombre-chips", "true")]).unwrap();
        let b = HombreBids::new(&public(chips, 3, Contract::Entrada, None), Seat(0)).unwrap();
        assert_eq!(b.utility(Contract::Solo, Suit::Copas, Class::Sacado), 35.0 / 15.0);
        assert_eq!(b.utility(Contract::Solo, Suit::Copas, Class::Puesta), -1.0);
        // favorito: coins double; the unit stays a simple game in another suit.
        let fav = Rules::parse("hombre", &[("favorito", "true")]).unwrap();
        let b = HombreBids::new(&public(fav, 3, Contract::Entrada, None), Seat(1)).unwrap();
        assert_eq!(b.utility(Contract::Entrada, Suit::Oros, Class::Sacado), 2.0);
        assert_eq!(b.utility(Contract::Entrada, Suit::Copas, Class::Sacado), 1.0);
        assert!(HombreBids::new(&public(Rules::default(), 3, Contract::Entrada, None), Seat(1)).is_none());
    }

    /// Issue 37: the Spanish fast path asks the ledger. In `tresillo` it finds
    /// the stakes pimc had written out (`pimc::bid_utility`: sacado +8, puesta
    /// -9, codillo -18, condiciones vuelta 1 and solo 2 from or to each
    /// opponent, per amount in play of 9; so `pimc` plays `tresillo` as before,
    /// byte for byte), but for a favoured suit, whose doubled amount in play
    /// they left out; in `tresillo-house` its own. (The table is written here,
    /// not imported: pimc uses this module.)
    #[test]
    fn spanish_bidding_utilities_are_the_ledgers() {
        use crate::Class;
        let bid_utility = |class: Class, c: Contract, _favoured: bool| {
            let cond = match c {
                Contract::Entrada => 0.0,
                Contract::Vuelta => 1.0,
                _ => 2.0,
            };
            let tantos = match class {
                Class::Sacado => 8.0 + 2.0 * cond,
                Class::Puesta => -9.0 - 2.0 * cond,
                Class::Codillo => -18.0 - 2.0 * cond,
            };
            tantos / 9.0
        };
        let favour = Rules::parse("tresillo", &[("palo_de_favor", "oros")]).unwrap();
        for rules in [Rules::default(), favour] {
            for me in [Seat(0), Seat(1), Seat(2)] {
                let b = SpanishBids::new(&public(rules, 3, Contract::Entrada, None), me).unwrap();
                for c in [Contract::Entrada, Contract::Vuelta, Contract::Solo] {
                    for t in Suit::ALL.into_iter().filter(|&t| !rules.favoured(Some(t))) {
                        for class in Class::ALL {
                            let old = bid_utility(class, c, false);
                            assert_eq!(b.utility(c, t, class), old, "{rules} {me:?} {c:?} {t:?} {class:?}");
                        }
                    }
                }
                // RULES.md 12.5: in the favoured suit the +n of the amount in
                // play becomes +2n (AIP 12) and a sacado takes the plato and 2
                // from each (10), condiciones doubled (solo 4 from or to each).
                let u = |c, class| b.utility(c, Suit::Oros, class) * 9.0;
                if rules == favour {
                    assert_eq!(u(Contract::Entrada, Class::Sacado), 10.0);
                    assert_eq!(u(Contract::Entrada, Class::Puesta), -12.0);
                    assert_eq!(u(Contract::Entrada, Class::Codillo), -24.0);
                    assert_eq!(u(Contract::Solo, Class::Sacado), 18.0);
                }
            }
        }
        // tresillo-house (RULES.md 12.1): the amount in play is the plato alone
        // (6), a sacado takes it alone, and condiciones are entrada 1, vuelta 3,
        // solo 5 from or to each opponent. The unit is a lost entrada: 6 + 2.
        let house = Rules::from(RuleSet::TRESILLO_HOUSE);
        let b = SpanishBids::new(&public(house, 3, Contract::Entrada, None), Seat(1)).unwrap();
        let u = |c, class| b.utility(c, Suit::Copas, class) * 8.0;
        assert_eq!(u(Contract::Entrada, Class::Sacado), 8.0);
        assert_eq!(u(Contract::Entrada, Class::Puesta), -8.0);
        assert_eq!(u(Contract::Entrada, Class::Codillo), -14.0);
        assert_eq!(u(Contract::Vuelta, Class::Sacado), 12.0);
        assert_eq!(u(Contract::Solo, Class::Sacado), 16.0);
        assert_eq!(u(Contract::Solo, Class::Codillo), -22.0);
    }

    /// Issue 37: the bola decision by the ledger. `tresillo` pays a bola 8
    /// from or to each opponent against primeras 1: play on when
    /// 16p - 16(1 - p) > 2, as pimc had it written out; `tresillo-house` pays
    /// 10, so it plays on for less.
    #[test]
    fn the_bola_decision_is_the_ledgers() {
        for c in [Contract::Entrada, Contract::Vuelta, Contract::Solo] {
            let p = public(Rules::default(), 3, c, Some(Suit::Copas));
            for k in 0..=64 {
                let made = f64::from(k) / 64.0;
                let old = 16.0 * made - 16.0 * (1.0 - made) > 2.0;
                assert_eq!(bola_worth(&p, Seat(1), made), Some(old), "{c:?} {k}/64");
            }
        }
        let house = public(Rules::from(RuleSet::TRESILLO_HOUSE), 3, Contract::Solo, Some(Suit::Copas));
        let p = public(Rules::default(), 3, Contract::Solo, Some(Suit::Copas));
        // 20p - 20(1 - p) > 2 from p = 0.55; tresillo's from p = 0.5625.
        assert_eq!(bola_worth(&house, Seat(1), 0.56), Some(true));
        assert_eq!(bola_worth(&p, Seat(1), 0.56), Some(false));
        assert_eq!(bola_worth(&house, Seat(1), 0.54), Some(false));
    }

    #[test]
    fn hombre_chips_utilities_are_the_pool_and_each_opponents_payment() {
        let r = Rules::parse("hombre", &[("hombre-chips", "true")]).unwrap();
        // Won: the pool (ante 5) and 5 from each opponent; lost: the pool
        // matched plus 5 for each other player.
        let (g, u) = utilities(&public(r, 3, Contract::Entrada, Some(Suit::Copas)));
        assert_eq!((g, u), (Goal::Won, vec![-15.0, 15.0]));
        let (_, u) = utilities(&public(r, 3, Contract::Solo, Some(Suit::Copas)));
        assert_eq!(u, vec![-15.0, 35.0]);
    }

    #[test]
    fn lhombre_utilities_are_the_per_defender_table() {
        let r = Rules::from(RuleSet::LHOMBRE);
        // Loss, draw, win from or to each of two defenders.
        let (g, u) = utilities(&public(r, 3, Contract::Entrada, Some(Suit::Copas)));
        assert_eq!((g, u), (Goal::Lhombre, vec![-4.0, -2.0, 2.0]));
        let (_, u) = utilities(&public(r, 3, Contract::Solo, Some(Suit::Espadas)));
        assert_eq!(u, vec![-10.0, -8.0, 8.0]);
        let (g, u) = utilities(&public(r, 3, Contract::NoloOuvert, None));
        assert_eq!((g, u), (Goal::Nolo, vec![-14.0, -12.0, 12.0]));
        // Tout: the game won and 1 from or to each defender.
        let mut p = public(r, 3, Contract::Entrada, Some(Suit::Copas));
        p.bola = Some(true);
        assert_eq!(utilities(&p), (Goal::Reach(9), vec![0.0, 4.0]));
    }

    #[test]
    fn four_player_utilities_are_the_puesta_system_with_n_4() {
        let r = Rules::default();
        // Fresh plato 6 (a pajarito and the dealer's tanto), AIP 10: sacado
        // takes the plato and 1 from each of the three others; puesta pays 10;
        // codillo 10 into the plato and 10 to the winner.
        let (g, u) = utilities(&public(r, 4, Contract::Entrada, Some(Suit::Copas)));
        assert_eq!((g, u), (Goal::Spanish, vec![-20.0, -10.0, 9.0]));
        // Solo: condiciones 2 from or to each of the three others.
        let (_, u) = utilities(&public(r, 4, Contract::Solo, Some(Suit::Copas)));
        assert_eq!(u, vec![-26.0, -16.0, 15.0]);
        // A penetrating dealer declares: its tanto into the plato is left out.
        let mut pen = public(r, 4, Contract::Entrada, Some(Suit::Copas));
        pen.declarer = Some(Seat(0));
        pen.penetro.active = true;
        pen.penetro.dropped = Some(Seat(2));
        let st = stakes(&pen, Seat(0)).unwrap();
        assert_eq!(st.utility, [-23.0, -13.0, 12.0], "penetro condición 1 from or to each of three");
        let old = Rules::parse("tresillo", &[("codillo_old", "true")]).unwrap();
        let (_, u) = utilities(&public(old, 4, Contract::Entrada, Some(Suit::Copas)));
        assert_eq!(u, vec![-10.0, -10.0, 9.0]);
    }
}
