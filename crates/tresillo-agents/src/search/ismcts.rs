//! The `ismcts` agent: Information Set Monte Carlo Tree Search (Cowling, Powley and
//! Whitehouse 2012), single-observer (`ismcts`) or multiple-observer
//! (`ismcts:mo=1`).
//!
//! # What is searched
//!
//! The decisions of the play phase: card play, surrender, takeover (*yo sigo*) and
//! the primeras / bola choice (RULES.md sections 5 and 6). In plain `tresillo` at
//! three players the search's game is
//! [`PlayState`] plus the phase flags of section 6 (who declares, whether the
//! declarer may still give up, who has declined to take over, the bola choice), so
//! that a node is a sequence of public moves: cards, and the yes / no answers of
//! the three questions.
//!
//! Every other rule set and option, and four players (RULES.md section 12), is
//! searched on the engine's own [`Hand`]: each determinization is the world
//! replayed to the view ([`World::replay`]), and a node's moves are whatever the
//! hand asks in play - cards (nolo in the no-trump order, a penetro's three or four
//! seats), the surrender with takeover or, in a `hombre` vuelta, the acceptance both
//! opponents must give, the declared vole before the first trick, the bola or
//! `lhombre`'s tout - so every rule is the engine's. All these moves are public. A
//! nolo ouvert hand laid face up is in the view, and so in every world; nodes after
//! it within one search do not separate worlds by it (as every ISMCTS node merges
//! the worlds behind one public history). A penetrating dealer's giving up at once,
//! before trumps and the others' exchanges, is not searched. This path is slower
//! (a replay per iteration and the ledger per playout, which allocates;
//! `tresillo bench ismcts --rules R` measures it, results/BENCHMARKS.md has the
//! figures). The auction, the contract and trumps, the exchanges and the
//! opponents' conversation are the rule agent's ([`RuleAgent`]), with the
//! thresholds given as the agent's rule parameters (`entrada=`, `vuelta=`, ...):
//! those decisions happen before any card is seen played and involve hidden moves
//! (discards) that the play-phase search does not model.
//!
//! # One iteration
//!
//! 1. **Determinization**: one world drawn exactly uniformly from the worlds
//!    consistent with the view ([`Sampler::sample_fast`]; the sampler is built once
//!    per decision).
//! 2. **Selection**: from the root, while every move available in this world has a
//!    child, the child maximizing `mean + c * sqrt(ln(availability) / visits)`
//!    among the children whose move is legal in this world; every such child's
//!    availability count goes up by one (the subset-armed bandit: a child is
//!    compared with the times it *could* have been chosen, not with the parent's
//!    visits).
//! 3. **Expansion**: one child per iteration, for a move of this world that has
//!    none yet (chosen uniformly).
//! 4. **Playout** to the end of the hand: `random` plays uniform legal cards on the
//!    register playout ([`PlayState::playout`]), never gives up or takes over, and
//!    stops with primeras when the declarer wins the first five tricks; `rule`
//!    replays the world as a [`Hand`] and lets the rule agent play every seat.
//! 5. **Backpropagation**: each node on the path adds the reward of the seat that
//!    made its move.
//!
//! The move played is the root child with the most visits.
//!
//! # Rewards
//!
//! In plain `tresillo` at three players the end of a hand is scored as the tournament scores it (`--scoring deal`: a
//! fresh ledger, first-puesta case, RULES.md section 8): with the amount in play
//! `A = 9` and the plato `P = 6`, a sacado gives the declarer `P + 2` and costs each
//! opponent 1; a puesta costs the declarer `A`; a codillo costs it `2A` and gives
//! the winner `A`; a declarer who gives up pays `A`, and to a player who took over
//! and won, `A`; a failed takeover costs the new declarer `A` more (twin puestas),
//! and a codillo against it `A` to the winner as well. Condiciones (contract,
//! estuche, primeras, bola) are paid between the declarer and each other player as
//! in the ledger. (The dealer's tanto is the same whatever is played and is left
//! out.) [`hand_tantos`] computes this; a test checks it against the ledger.
//!
//! A seat's reward is its tantos *relative to the other two*, `u = t - (t1 + t2) / 2`
//! (the declarer plays against both opponents; an opponent gains when the declarer
//! loses even when the payment goes to the plato), mapped to `[0, 1]` by
//! `0.5 + u / 60` and clamped: an entrada's sacado is worth 0.65 to the declarer and
//! 0.43 to each opponent, a puesta 0.35 and 0.58, a codillo 0.13 to the declarer and
//! 0.80 to its winner. Only a made or failed bola reaches the clamp.
//!
//! Every other rule set scores the finished [`Hand`] with its own ledger from a
//! fresh start, exactly as the tournament's `--scoring deal` does ([`score_deal`]
//! with one deal per session, [`ledger_tantos`]): the puesta system with its
//! options and `n = 4` at four players, `hombre` points (the pot paid out at the
//! session's end, that is the hand's) or chips, `lhombre`'s per-defender payments.
//! A seat's reward is `u = t - (sum of the others) / (n - 1)` mapped by
//! `0.5 + u / D` and clamped ([`relative_rewards`]), with `D` so that a common won
//! game is worth about 0.15 above even, as in `tresillo`:
//!
//! | scoring | `D` | a won game, to the declarer |
//! | --- | --- | --- |
//! | puesta system (`tresillo` with options, `tresillo-house`, four players) | 60 | entrada sacado 0.65 (0.67 at four) |
//! | `hombre` points | 24 | simple game 0.58, puesta 0.38 |
//! | `hombre-chips` | 120 | simple game about 0.69 |
//! | `lhombre` per defender | 44 | game 0.57, nolo ouvert lost 0.02 |
//!
//! # Memory
//!
//! A node is [`NODE_BYTES`] (32) bytes: the mean reward and `1 / sqrt(visits)`
//! (`f32` each, so that selection does no division or square root), the mask of
//! moves with a child, visits, availability, the first slot of its children's
//! block, the move and its seat. A node's children sit together in one block with a
//! slot for every move that may ever be legal there (the searcher's own cards, or
//! the cards another seat may hold), so the child of a move is found by a popcount
//! and selection reads adjacent memory; the block is reserved when the first child
//! is made. An iteration makes at most one node per tree, plus the empty slots of
//! the blocks (`tresillo bench ismcts` prints the slots a search used; the figures
//! are in results/BENCHMARKS.md). The arenas are kept between decisions and only
//! grow; a search reserves 8 slots per iteration of its budget up front (more than
//! any search has used), so after its first search an agent allocates nothing in
//! practice, and never once its arenas have reached the largest search; a playout
//! never allocates (in plain `tresillo`; the other rule sets' playouts score a hand
//! result, which allocates). The peak memory is therefore the reservation:
//! `8 * NODE_BYTES` per iteration of the budget, per tree.
//!
//! # Multiple observers (`mo=1`)
//!
//! One tree per seat (four at a table of four): each seat's decisions are
//! selected in its own tree, and every tree follows each move as its owner
//! observes it. In the play phase every move is public (cards, surrender, takeover
//! and bola are seen by all, and so are the other rule sets' questions), so the
//! trees grow alike and MO-ISMCTS chooses exactly as SO-ISMCTS does with the same
//! random numbers (tests check it in every rule set); the two differ where moves
//! are hidden (discards),
//! which this search leaves to the rule agent.
//!
//! The fast `Sim` and `hand_tantos` hard-code plain `tresillo`'s takeover and scoring
//! at three players (the family row's `fast_sim`); every other rule set and table is
//! searched on the core's `Hand` itself (`HandSim`, replayed from each world and scored
//! by the rule set's ledger, so its rules and payments are the engine's), a quarter to
//! a fifth of the iterations per second, and that path allocates (the hand's result and
//! score per playout). A test drives `Sim` and a real `Hand` with the same moves and
//! compares the seat to move, the legal moves and the ending. The arenas are kept
//! between decisions (cleared, capacity kept), so the search allocates nothing in the
//! steady state (`tests/no_alloc.rs`). ISMCTS does not search the auction, contract,
//! exchanges or conversation: the rule agent's heuristics make them. Discards are
//! hidden moves, the only place where MO-ISMCTS would differ from SO-ISMCTS; in the
//! play phase every move is public and the two choose alike.

use crate::heuristic::rule::RuleAgent;
use crate::heuristic::rule_eval::RuleParams;
use crate::rng::{AgentRng, Draws, below};
use crate::sampling::likelihood::{InferParams, Weighting};
use crate::sampling::sampler::{Sampler, World};
use crate::spec_error::SpecError;
use crate::spec_error::ValueError;
use crate::{Agent, Failure};
use std::time::{Duration, Instant};
use tresillo_core::Question;
use tresillo_core::tables::table;
use tresillo_core::{
    Card, Decision, Hand, LedgerConfig, MAX_TRICKS, Outcome, PlayState, PlayerView, Request, Rules, Seat,
    score_deal,
};

/// The search budget of one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations (deterministic given the seed).
    Iterations(u32),
    /// Iterations until this many milliseconds have passed (checked every 32
    /// iterations; not reproducible run to run).
    Millis(u32),
}

impl Budget {
    /// The iterations allowed (unbounded under a time budget), the deadline (none
    /// under an iteration budget) and the tree slots to reserve up front.
    fn plan(self) -> (u64, Option<Instant>, usize) {
        match self {
            // Slots per iteration measured at the first card: 6.6 at 1,000
            // iterations, 4.7 at 100,000 (the empty slots of children's blocks).
            // Capped at 4 million slots (128 MB); larger searches grow as needed.
            Budget::Iterations(n) => (u64::from(n), None, (n as usize * 8 + 64).min(4_000_000)),
            Budget::Millis(ms) => (u64::MAX, Some(Instant::now() + Duration::from_millis(u64::from(ms))), 1),
        }
    }
}

/// How a playout plays to the end of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// Uniform legal cards on the register playout; never surrender or take over;
    /// primeras when the declarer wins the first five tricks.
    Random,
    /// The rule agent at every seat, on the world replayed as a [`Hand`]: each
    /// playout slower and closer to real play, yet weaker at equal time
    /// (results/README.md, `ismcts-playouts`).
    Rule,
}

/// The parameters of [`Ismcts`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsParams {
    /// The budget per decision.
    pub budget: Budget,
    /// The exploration constant `c` of UCB (at least 0).
    pub c: f64,
    /// The playout policy.
    pub playout: Playout,
    /// Multiple-observer ISMCTS (one tree per seat).
    pub mo: bool,
    /// The rule agent's thresholds, for the decisions not searched (auction,
    /// contract and trumps, exchanges, conversation).
    pub rule: RuleParams,
    /// Inference-weighted worlds (`infer=1`, see
    /// [`RuleLikelihood`](crate::RuleLikelihood)) for plain three-player
    /// `tresillo`'s searches: a pool of `infer_pool` times 64 worlds per decision.
    pub infer: InferParams,
}

impl Default for IsmctsParams {
    fn default() -> Self {
        IsmctsParams {
            budget: Budget::Iterations(1000),
            c: 0.7,
            playout: Playout::Random,
            mo: false,
            rule: RuleParams::default(),
            infer: InferParams::default(),
        }
    }
}

impl IsmctsParams {
    /// The search parameters with their help, for `tresillo agents` (the rule
    /// parameters are listed as the rule agent's).
    pub const INFO: [(&'static str, &'static str); 5] = [
        ("iters", "iterations per decision (one determinization each; at most 10,000,000, about 1.5 GB)"),
        ("ms", "time per decision in milliseconds instead of `iters` (not reproducible)"),
        ("c", "UCB exploration constant (at least 0)"),
        ("playout", "playout policy: random (uniform cards) or rule (the rule agent)"),
        ("mo", "1: multiple-observer ISMCTS, one tree per seat; 0: single-observer"),
    ];

    /// The default of a search parameter as written in a spec.
    #[must_use]
    pub fn default_of(name: &str) -> Option<String> {
        let d = IsmctsParams::default();
        match name {
            "iters" => Some(match d.budget {
                Budget::Iterations(n) => n.to_string(),
                Budget::Millis(_) => "0".into(),
            }),
            "ms" => Some("0".into()),
            "c" => Some(d.c.to_string()),
            "playout" => Some("random".into()),
            "mo" => Some("0".into()),
            _ => InferParams::INFO.iter().find(|i| i.0 == name).map(|i| i.1.to_string()),
        }
    }

    /// Sets the search parameter `key` from its spec value. `Ok(false)`: no such
    /// search parameter (it may be a rule parameter); `Err(why)`: a bad value.
    /// `ms=0` keeps the iteration budget.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, ValueError> {
        let int = |min: u32, max: u32| crate::spec_error::int_in(value, min, max);
        match key {
            "iters" => self.budget = Budget::Iterations(int(1, 10_000_000)?),
            "ms" => {
                let ms = int(0, 3_600_000)?;
                if ms > 0 {
                    self.budget = Budget::Millis(ms);
                }
            }
            "c" => {
                let c: f64 = value.parse().map_err(|_| ValueError::Expected("expected a number"))?;
                if !c.is_finite() || c < 0.0 {
                    return Err(ValueError::Expected("must be a finite number, at least 0"));
                }
                self.c = c;
            }
            "playout" => {
                self.playout = match value {
                    "random" => Playout::Random,
                    "rule" => Playout::Rule,
                    _ => return Err(ValueError::Expected("expected `random` or `rule`")),
                }
            }
            "mo" => self.mo = int(0, 1)? == 1,
            _ => return self.infer.set(key, value),
        }
        Ok(true)
    }
}

impl IsmctsParams {
    /// The parameters of `key=value` pairs: the search parameters of
    /// [`IsmctsParams::INFO`] and the rule agent's thresholds (for the decisions
    /// not searched). A bad value or an unknown key is a [`SpecError`] naming it.
    pub fn from_pairs(agent: &str, pairs: &[(&str, &str)]) -> Result<IsmctsParams, SpecError> {
        let mut p = IsmctsParams::default();
        for &(k, v) in pairs {
            let bad = |why: ValueError| SpecError::BadValue {
                agent: agent.into(),
                param: k.into(),
                value: v.into(),
                why: why.to_string(),
            };
            if p.set(k, v).map_err(bad)? {
                continue;
            }
            if p.rule.get(k).is_none() {
                let mut known: Vec<&str> = IsmctsParams::INFO.iter().map(|(n, _)| *n).collect();
                known.extend(InferParams::INFO.iter().map(|(n, _, _)| *n));
                known.extend(RuleParams::INFO.iter().map(|(n, _)| *n));
                return Err(SpecError::UnknownParam {
                    agent: agent.into(),
                    param: k.into(),
                    known: known.join(", "),
                });
            }
            let x: i64 = v.parse().map_err(|_| bad(ValueError::NotInteger))?;
            if !(-1000..=1000).contains(&x) {
                return Err(bad(ValueError::Expected("must be between -1000 and 1000")));
            }
            p.rule.set(k, x as i32);
        }
        Ok(p)
    }
}

impl Ismcts {
    /// The agent of a spec `ismcts[:key=value]*` (the concrete type, for
    /// benchmarks and tests; the registry builds it the same way).
    pub fn from_spec(spec: &str) -> Result<Ismcts, SpecError> {
        let mut parts = spec.trim().split(':');
        let name = parts.next().unwrap_or("").trim();
        if name != "ismcts" {
            return Err(SpecError::UnknownAgent { name: name.into(), known: "ismcts".into() });
        }
        let mut pairs = Vec::new();
        for part in parts {
            let (k, v) = part.split_once('=').ok_or_else(|| SpecError::Malformed(part.to_string()))?;
            pairs.push((k.trim(), v.trim()));
        }
        Ok(Ismcts::new(IsmctsParams::from_pairs(name, &pairs)?))
    }
}

/// Bytes per tree node.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// The ISMCTS agent: see the module documentation.
#[derive(Clone, Debug)]
pub struct Ismcts {
    params: IsmctsParams,
    rule: RuleAgent,
    /// One tree (`ismcts`), or one per seat (`mo=1`); reused between decisions.
    trees: Vec<Tree>,
    /// Iterations of the last search, for benchmarks.
    last_iterations: u64,
    /// Iterations since the last [`Agent::take_work`].
    iterations: u64,
    /// The weighted worlds of `infer=1` and their counts.
    infer: Weighting,
}

impl Ismcts {
    /// An agent with these parameters.
    #[must_use]
    pub fn new(params: IsmctsParams) -> Ismcts {
        let n = if params.mo { 3 } else { 1 };
        // A table of four adds a fourth tree on its first search (`mo=1`).
        Ismcts {
            params,
            rule: RuleAgent::new(params.rule),
            trees: (0..n).map(|_| Tree::default()).collect(),
            last_iterations: 0,
            iterations: 0,
            infer: Weighting::default(),
        }
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &IsmctsParams {
        &self.params
    }

    /// Iterations the last search ran (0 when the last decision was not searched).
    #[must_use]
    pub fn last_iterations(&self) -> u64 {
        self.last_iterations
    }

    /// Nodes in the trees after the last search (all trees together).
    #[must_use]
    pub fn last_nodes(&self) -> usize {
        self.trees.iter().map(|t| t.made).sum()
    }

    /// Node slots the trees use after the last search (made nodes and the empty
    /// slots of children's blocks): the memory is this times [`NODE_BYTES`].
    #[must_use]
    pub fn last_slots(&self) -> usize {
        self.trees.iter().map(|t| t.nodes.len()).sum()
    }

    /// Searches the play-phase decision of `view` and returns it, or `None` when
    /// the request is not one the search decides (or no world fits the view).
    pub fn search(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Option<Decision> {
        self.last_iterations = 0;
        let req = view.request();
        if !is_fast(view) {
            return self.search_hand(view, rng);
        }
        let root = Sim::from_view(view)?;
        if let Request::Play { legal, .. } = req
            && legal.len() == 1
        {
            return legal.first().map(Decision::Play);
        }
        let sampler = Sampler::new(view).ok()?;
        let me = view.seat();
        let (iters, deadline, reserve) = self.params.budget.plan();
        for t in &mut self.trees {
            t.reset(reserve);
        }
        let weighted = self.infer.weigh(&self.params.infer, self.params.rule, 64, &sampler, view, rng);
        let estuche = table(root.ps.trump).estuche;
        let played_by = crate::Inference::from_view(view).played_by;
        let x = Ctx {
            c: self.params.c as f32,
            kind: self.params.playout,
            rule: &self.rule,
            view,
            moves: Moves::new(view),
            ledger: LedgerConfig::default(),
            divisor: 60.0,
        };
        let mut it = 0u64;
        while it < iters {
            if it.is_multiple_of(32)
                && it > 0
                && (deadline.is_some_and(|d| Instant::now() >= d) || crate::interrupt::stop_requested())
            {
                break;
            }
            it += 1;
            let world = match weighted.then(|| self.infer.pool.pick(rng)).flatten() {
                Some(w) => *w,
                None => sampler.sample_fast(rng),
            };
            let mut sim = root;
            for s in 0..3 {
                sim.ps.hands[s] = world.hands.0[s];
            }
            let held = world.hands[sim.original] | played_by[sim.original];
            sim.estuche = !estuche.is_empty() && held.is_superset(estuche);
            if self.trees.len() == 1 {
                iterate_so(&mut self.trees[0], sim, &x, &world, rng);
            } else {
                iterate_mo(&mut self.trees[..3], sim, &x, &world, rng);
            }
        }
        self.last_iterations = it;
        self.iterations += it;
        let tree = &self.trees[if self.trees.len() == 1 { 0 } else { me.index() }];
        let mv = tree.most_visited(Moves::new(view).possible(&root))?;
        Some(root.decision(mv))
    }

    /// The search of every rule set but plain `tresillo` (and of four players): the
    /// searched game is the core's [`Hand`] itself, each determinization replayed
    /// from the view ([`World::replay`]), and a finished hand is scored by the rule
    /// set's own ledger from a fresh start ([`score_deal`], as `--scoring deal`).
    fn search_hand(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Option<Decision> {
        let req = view.request();
        if !searched(view) {
            return None;
        }
        if let Request::Play { legal, .. } = req
            && legal.len() == 1
        {
            return legal.first().map(Decision::Play);
        }
        let p = view.public();
        let sampler = Sampler::new(view).ok()?;
        let me = view.seat();
        let n = usize::from(p.players);
        if self.params.mo {
            while self.trees.len() < n {
                self.trees.push(Tree::default());
            }
        }
        let trees = if self.params.mo { n } else { 1 };
        let (iters, deadline, reserve) = self.params.budget.plan();
        for t in &mut self.trees[..trees] {
            t.reset(reserve);
        }
        let rules = p.game_rules();
        let x = Ctx {
            c: self.params.c as f32,
            kind: self.params.playout,
            rule: &self.rule,
            view,
            moves: Moves::new(view),
            ledger: LedgerConfig { deals: 1, ..LedgerConfig::with_rules(rules, p.players) },
            divisor: reward_divisor(&rules),
        };
        let mut it = 0u64;
        let mut tries = 0u64;
        while it < iters {
            if it.is_multiple_of(32)
                && it > 0
                && (deadline.is_some_and(|d| Instant::now() >= d) || crate::interrupt::stop_requested())
            {
                break;
            }
            tries += 1;
            if tries > iters.saturating_mul(2).max(64) && it == 0 {
                return None;
            }
            let world = sampler.sample_fast(rng);
            // Every sampled world replays to the view (tested); skip one that would not.
            let Ok(hand) = world.replay(view) else { continue };
            it += 1;
            let sim = HandSim::new(hand);
            if trees == 1 {
                iterate_so(&mut self.trees[0], sim, &x, &world, rng);
            } else {
                iterate_mo(&mut self.trees[..trees], sim, &x, &world, rng);
            }
        }
        self.last_iterations = it;
        self.iterations += it;
        let tree = &self.trees[if trees == 1 { 0 } else { me.index() }];
        let possible = match req {
            Request::Play { .. } => x.moves.base[me.index()],
            _ => 0b11,
        };
        let mv = tree.most_visited(possible)?;
        Some(decision_of(req, mv))
    }
}

/// Whether `view` is searched on the fast [`Sim`]: a rule set whose row opts in
/// ([`AgentRules::fast_sim`](crate::family::AgentRules::fast_sim): plain
/// `tresillo`, the game [`hand_tantos`] scores) at a table where every seat plays.
fn is_fast(view: &PlayerView) -> bool {
    let p = view.public();
    crate::family::fast_sim(&p.game_rules(), p.table)
}

/// Whether the request of `view` is one the search decides: a card, or a yes / no
/// question of the play phase (surrender, takeover, bola or tout, accepting a
/// surrendered vuelta, declaring the vole). A penetrating dealer's giving up at
/// once (before trumps are named and the others exchange) is not: it is the rule
/// agent's, as the other decisions before play.
fn searched(view: &PlayerView) -> bool {
    let p = view.public();
    match view.request() {
        Request::Ask { question: Question::SURRENDER, .. } => p.phase != tresillo_core::Phase::PenetroGiveUp,
        r => searchable(r),
    }
}

/// The requests the searched game of [`HandSim`] has nodes for.
#[inline]
fn searchable(r: Request) -> bool {
    matches!(
        r,
        Request::Play { .. }
            | Request::Ask { question: Question::SURRENDER, .. }
            | Request::Ask { question: Question::TAKE_OVER, .. }
            | Request::Ask { question: Question::BOLA, .. }
            | Request::Ask { question: Question::ACCEPT_SURRENDER, .. }
            | Request::Ask { question: Question::DECLARE_VOLE, .. }
    )
}

/// The decision move `mv` stands for at request `r` (a card's bit, or `NO` /
/// `YES`).
fn decision_of(r: Request, mv: u8) -> Decision {
    let yes = mv == YES;
    match r {
        Request::Ask { question: Question::SURRENDER, .. } => Decision::Answer(Question::SURRENDER, yes),
        Request::Ask { question: Question::TAKE_OVER, .. } => Decision::Answer(Question::TAKE_OVER, yes),
        Request::Ask { question: Question::BOLA, .. } => Decision::Answer(Question::BOLA, yes),
        Request::Ask { question: Question::ACCEPT_SURRENDER, .. } => {
            Decision::Answer(Question::ACCEPT_SURRENDER, yes)
        }
        Request::Ask { question: Question::DECLARE_VOLE, .. } => {
            Decision::Answer(Question::DECLARE_VOLE, yes)
        }
        _ => Decision::Play(Card::from_bit(u32::from(mv)).expect("a card move")),
    }
}

/// The divisor `D` of the reward `0.5 + u / D` for the general search (see the
/// module documentation): the scale of the stakes of the scoring system in use
/// ([`ScoringSystem::reward_scale`](tresillo_core::ScoringSystem::reward_scale)).
#[must_use]
fn reward_divisor(rules: &Rules) -> f64 {
    rules.scoring().reward_scale()
}

impl Default for Ismcts {
    fn default() -> Self {
        Ismcts::new(IsmctsParams::default())
    }
}

impl Ismcts {
    /// The decision for `view` ([`Agent::decide`], which never fails for this agent).
    pub fn choose(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Decision {
        match view.request() {
            Request::Play { .. }
            | Request::Ask { question: Question::SURRENDER, .. }
            | Request::Ask { question: Question::TAKE_OVER, .. }
            | Request::Ask { question: Question::BOLA, .. }
            | Request::Ask { question: Question::ACCEPT_SURRENDER, .. }
            | Request::Ask { question: Question::DECLARE_VOLE, .. } => {
                self.search(view, rng).unwrap_or_else(|| self.rule.choose(view, rng))
            }
            _ => {
                self.last_iterations = 0;
                self.rule.choose(view, rng)
            }
        }
    }
}

impl Agent for Ismcts {
    fn name(&self) -> &str {
        "ismcts"
    }

    /// On a clock: the decision's budget as its `ms` (at least 1 ms).
    fn set_time(&mut self, time: &crate::agent::TimeLeft) {
        self.params.budget =
            Budget::Millis(u32::try_from(time.budget.as_millis()).unwrap_or(u32::MAX).max(1));
    }

    /// Iterations (one determinization each) of every search.
    fn take_work(&mut self) -> crate::Work {
        let mut w = std::mem::take(&mut self.infer.work);
        w.iters += std::mem::take(&mut self.iterations);
        w
    }

    fn set_likelihood(&mut self, model: std::sync::Arc<dyn crate::Likelihood>) -> bool {
        self.infer.give(&mut self.params.infer, model);
        true
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        let d = self.choose(view, rng);
        // A search cut short by a stop (Ctrl-C) decides nothing: its hand is
        // abandoned, not finished on a worse decision.
        if crate::interrupt::stop_requested() {
            return Err(Failure::new("interrupted"));
        }
        Ok(d)
    }
}

// ---------------------------------------------------------------------------
// The searched game
// ---------------------------------------------------------------------------

/// The phase of the searched game (the play phase of [`Hand`] and its questions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Play,
    Surrender,
    TakeOver,
    Bola,
    Done,
}

/// Moves of the yes / no questions (cards are their bit index).
const NO: u8 = 0;
const YES: u8 = 1;

/// A position of the searched game: a world's [`PlayState`] and the flags of
/// RULES.md section 6. `Copy`; playing a move allocates nothing.
#[derive(Clone, Copy, Debug)]
struct Sim {
    ps: PlayState,
    phase: Phase,
    /// The declarer now (after a takeover, the new one).
    declarer: Seat,
    /// The declarer who won the auction.
    original: Seat,
    /// The opponent asked to take over (phase `TakeOver`).
    asked: Seat,
    /// The declarer may still give up after the third trick.
    may_surrender: bool,
    surrendered: bool,
    took_over: Option<Seat>,
    declined: u8,
    bola: Option<bool>,
    /// The contract's condición (0, 1, 2).
    condicion: i32,
    /// The original declarer held the estuche when play began (in this world).
    estuche: bool,
}

impl Sim {
    /// The position of `view` with the viewer's hand only (the hidden hands are
    /// filled per world). `None` outside the play phase.
    fn from_view(view: &PlayerView) -> Option<Sim> {
        let p = view.public();
        let mut hands = tresillo_core::BySeat::default();
        hands[view.seat()] = view.hand();
        let ps = p.play_state(hands)?;
        let declarer = p.declarer?;
        let contract = p.contract?;
        let (phase, asked) = match view.request() {
            Request::Play { .. } => (Phase::Play, declarer),
            Request::Ask { question: Question::SURRENDER, .. } => (Phase::Surrender, declarer),
            Request::Ask { seat, question: Question::TAKE_OVER } => (Phase::TakeOver, seat),
            Request::Ask { question: Question::BOLA, .. } => (Phase::Bola, declarer),
            _ => return None,
        };
        Some(Sim {
            ps,
            phase,
            declarer,
            original: p.original_declarer.unwrap_or(declarer),
            asked,
            may_surrender: contract.may_surrender() && p.surrendered.is_none(),
            surrendered: p.surrendered == Some(true),
            took_over: p.took_over,
            declined: p.declined,
            bola: p.bola,
            condicion: tresillo_core::contract_condicion(contract) as i32,
            estuche: false,
        })
    }

    /// Whose move it is (meaningless when done).
    #[inline]
    fn mover(&self) -> Seat {
        match self.phase {
            Phase::Play | Phase::Done => self.ps.to_move,
            Phase::Surrender | Phase::Bola => self.declarer,
            Phase::TakeOver => self.asked,
        }
    }

    /// The legal moves as a mask (cards by bit index; `NO` and `YES` as bits 0
    /// and 1 for the questions).
    #[inline]
    fn legal(&self) -> u64 {
        match self.phase {
            Phase::Play => self.ps.legal_moves().bits(),
            Phase::Done => 0,
            _ => 0b11,
        }
    }

    /// The decision a move stands for at this position.
    fn decision(&self, mv: u8) -> Decision {
        match self.phase {
            Phase::Play | Phase::Done => Decision::Play(Card::from_bit(u32::from(mv)).expect("a card move")),
            Phase::Surrender => Decision::Answer(Question::SURRENDER, mv == YES),
            Phase::TakeOver => Decision::Answer(Question::TAKE_OVER, mv == YES),
            Phase::Bola => Decision::Answer(Question::BOLA, mv == YES),
        }
    }

    /// Plays a legal move.
    #[inline]
    fn apply(&mut self, mv: u8) {
        match self.phase {
            Phase::Play => {
                self.ps.play_unchecked(Card::from_bit(u32::from(mv)).expect("a card move"));
                if self.ps.trick_len == 0 {
                    self.after_trick();
                }
            }
            Phase::Surrender => {
                self.may_surrender = false;
                if mv == YES {
                    self.surrendered = true;
                    self.ask_next();
                } else {
                    self.phase = Phase::Play;
                }
            }
            Phase::TakeOver => {
                if mv == YES {
                    self.took_over = Some(self.asked);
                    self.declarer = self.asked;
                    self.phase = Phase::Play;
                } else {
                    self.declined |= 1 << self.asked.0;
                    self.ask_next();
                }
            }
            Phase::Bola => {
                self.bola = Some(mv == YES);
                self.phase = if mv == YES { Phase::Play } else { Phase::Done };
            }
            Phase::Done => {}
        }
    }

    /// After a surrender: the next opponent (in turn order from the declarer) who
    /// has not declined is asked; nobody left ends the hand.
    fn ask_next(&mut self) {
        let d = self.declarer;
        match [d.next(3), d.plus(2, 3)].into_iter().find(|o| self.declined & (1 << o.0) == 0) {
            Some(o) => {
                self.asked = o;
                self.phase = Phase::TakeOver;
            }
            None => self.phase = Phase::Done,
        }
    }

    /// The phase after a completed trick (as [`Hand`] does it).
    #[inline]
    fn after_trick(&mut self) {
        let done = self.ps.tricks_done;
        self.phase = if done == MAX_TRICKS {
            Phase::Done
        } else if done == 3 && self.may_surrender {
            Phase::Surrender
        } else if done == 5 && self.ps.tricks[self.declarer.index()] == 5 && self.bola.is_none() {
            Phase::Bola
        } else {
            Phase::Play
        };
    }

    /// Random playout to the end: uniform cards, never give up or take over, stop
    /// with primeras.
    #[inline]
    fn playout_random(&mut self, rng: &mut AgentRng) {
        let mut draws = Draws::new(rng);
        loop {
            match self.phase {
                Phase::Done => return,
                Phase::Surrender | Phase::TakeOver => self.apply(NO),
                Phase::Bola => self.apply(NO),
                Phase::Play => {
                    self.may_surrender = false;
                    let d = self.declarer.index();
                    let done = self.ps.tricks_done;
                    if done < 5 && self.bola.is_none() && self.ps.tricks[d] == done {
                        // The bola question may come after the fifth trick.
                        self.ps.playout_until(5, |n| draws.below(n));
                        if self.ps.tricks_done == 5 && self.ps.tricks[d] == 5 {
                            self.bola = Some(false);
                            self.phase = Phase::Done;
                            return;
                        }
                    }
                    self.ps.playout(|n| draws.below(n));
                    self.phase = Phase::Done;
                    return;
                }
            }
        }
    }

    /// The end of the hand as [`hand_tantos`] reads it.
    fn end(&self) -> HandEnd {
        HandEnd {
            tricks: [self.ps.tricks[0], self.ps.tricks[1], self.ps.tricks[2]],
            original: self.original,
            declarer: self.declarer,
            surrendered: self.surrendered,
            took_over: self.took_over,
            bola: self.bola,
            condicion: self.condicion,
            estuche: self.estuche,
        }
    }
}

/// How a hand ended, for scoring a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandEnd {
    /// Tricks per seat.
    pub tricks: [u8; 3],
    /// The declarer who won the auction.
    pub original: Seat,
    /// The declarer at the end (after a takeover, the one who took over).
    pub declarer: Seat,
    /// The original declarer gave up.
    pub surrendered: bool,
    /// Who took over, if anyone did.
    pub took_over: Option<Seat>,
    /// The bola choice: `Some(false)` stopped with primeras, `Some(true)` played on.
    pub bola: Option<bool>,
    /// The contract's condición (entrada 0, vuelta 1, solo 2).
    pub condicion: i32,
    /// The original declarer held the estuche when play began.
    pub estuche: bool,
}

/// The amount in play of a hand scored from a fresh ledger (`--scoring deal`): the
/// plato (a pajarito and the dealer's tanto) plus one per player.
const AIP: i32 = 9;
/// The plato of a hand scored from a fresh ledger.
const PLATO: i32 = 6;

/// Each seat's tantos for a hand that ended as `e`, as the ledger scores it from a
/// fresh ledger (RULES.md section 8, first puesta), less the dealer's tanto (paid
/// whatever happens).
#[must_use]
pub fn hand_tantos(e: &HandEnd) -> [i32; 3] {
    let mut t = [0i32; 3];
    let d = e.original;
    let won;
    if e.surrendered && e.took_over.is_none() {
        t[d.index()] -= AIP;
        won = false;
    } else {
        let f = e.declarer;
        let (o1, o2) = (f.next(3), f.plus(2, 3));
        let outcome = Outcome::from_tricks(
            e.tricks[f.index()],
            &[(o1, e.tricks[o1.index()]), (o2, e.tricks[o2.index()])],
        );
        won = outcome.is_won();
        match (e.took_over, outcome) {
            (None, Outcome::Sacado) => {
                t[d.index()] += PLATO + 2;
                t[o1.index()] -= 1;
                t[o2.index()] -= 1;
            }
            (None, Outcome::Codillo { winner }) => {
                t[d.index()] -= 2 * AIP;
                t[winner.index()] += AIP;
            }
            (None, _) => t[d.index()] -= AIP,
            (Some(o), Outcome::Sacado) => {
                t[d.index()] -= AIP;
                t[o.index()] += AIP;
            }
            (Some(o), Outcome::Codillo { winner }) => {
                t[d.index()] -= AIP;
                t[o.index()] -= 2 * AIP;
                t[winner.index()] += AIP;
            }
            (Some(o), _) => {
                t[d.index()] -= AIP;
                t[o.index()] -= AIP;
            }
        }
    }
    let per = if e.surrendered || !won {
        -e.condicion
    } else {
        let mut per = e.condicion + i32::from(e.estuche);
        match e.bola {
            Some(false) => per += 1,
            Some(true) => per += if e.tricks[e.declarer.index()] == MAX_TRICKS { 8 } else { -8 },
            None => {}
        }
        per
    };
    for s in [d.next(3), d.plus(2, 3)] {
        t[s.index()] -= per;
        t[d.index()] += per;
    }
    t
}

/// Each seat's reward in `[0, 1]`: its tantos relative to the other two, scaled
/// (see the module documentation).
#[must_use]
pub fn rewards(tantos: [i32; 3]) -> [f64; 3] {
    let sum: i32 = tantos.iter().sum();
    // u = t - (sum - t) / 2, reward = 0.5 + u / 60 = 0.5 + (3t - sum) / 120.
    tantos.map(|t| (0.5 + f64::from(3 * t - sum) / 120.0).clamp(0.0, 1.0))
}

/// The end of a [`Hand`] played out (rule playouts).
fn hand_end(hand: &Hand, condicion: i32, estuche: bool) -> HandEnd {
    let p = hand.public();
    let d = p.original_declarer.expect("a declarer");
    HandEnd {
        tricks: [p.tricks.0[0], p.tricks.0[1], p.tricks.0[2]],
        original: d,
        declarer: p.declarer.unwrap_or(d),
        surrendered: p.surrendered == Some(true),
        took_over: p.took_over,
        bola: p.bola,
        condicion,
        estuche,
    }
}

// ---------------------------------------------------------------------------
// The tree
// ---------------------------------------------------------------------------

/// "No block": a node without children yet.
const NIL: u32 = u32::MAX;

/// A node: the statistics of the move that leads to it, from the point of view
/// of the seat that made it, and where its children are.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Mean reward of `seat` (updated incrementally).
    mean: f32,
    /// `1 / sqrt(visits)`, kept so that selection does no division or root.
    rsv: f32,
    /// Mask of the moves that have a child.
    expanded: u64,
    visits: u32,
    /// Times the move was available when this node's parent was passed through.
    avail: u32,
    /// The first slot of the children's block: one slot per move that may ever be
    /// legal here ([`Moves::possible`]), in move order, so the child of a move is at
    /// `block + rank of the move`; `NIL` until the first child.
    block: u32,
    /// The move (a card's bit, or `NO` / `YES`).
    mv: u8,
    /// The seat that made it.
    seat: u8,
}

impl Node {
    const EMPTY: Node =
        Node { mean: 0.0, rsv: 0.0, expanded: 0, visits: 0, avail: 0, block: NIL, mv: 0, seat: 0 };
}

/// The moves that may ever be legal at a node, whatever the world: the searching
/// seat's own cards, or for another seat every card that is neither the searcher's,
/// nor played (before the search or on the path), nor excluded by that seat's play
/// (RULES.md section 10); `NO` and `YES` for the questions. A node's children sit in
/// a block with one slot per such move.
#[derive(Clone, Copy, Debug)]
struct Moves {
    /// Per seat, at the root.
    base: [u64; 4],
    /// Cards played on the path from the root.
    path: u64,
}

impl Moves {
    fn new(view: &PlayerView) -> Moves {
        let inf = crate::Inference::from_view(view);
        let me = view.seat();
        let mine = view.hand().bits();
        let gone = mine | view.discards().bits() | inf.played.bits();
        let full = tresillo_core::CardSet::FULL.bits();
        let base = std::array::from_fn(|s| {
            if s == me.index() { mine } else { full & !gone & !inf.excluded.0[s].bits() }
        });
        Moves { base, path: 0 }
    }

    #[inline]
    fn possible(&self, sim: &impl Game) -> u64 {
        if sim.card_node() { self.base[sim.mover().index()] & !self.path } else { 0b11 }
    }

    /// Records a move made at `sim` (before it is applied).
    #[inline]
    fn record(&mut self, sim: &impl Game, mv: u8) {
        if sim.card_node() {
            self.path |= 1 << mv;
        }
    }
}

/// The natural logarithm of `n > 0` to about 1e-5: the exponent of `n` as an
/// `f32` and a series for the mantissa (a `const fn`, for [`SQRT_LN`]).
const fn ln(n: u32) -> f64 {
    let bits = (n as f32).to_bits();
    let e = ((bits >> 23) & 0xFF) as i32 - 127;
    // The mantissa m in [1, 2); ln m = 2 atanh(t) with t = (m - 1) / (m + 1) in [0, 1/3).
    let m = f32::from_bits((bits & 0x007F_FFFF) | 0x3F80_0000) as f64;
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let series = t * (2.0 + t2 * (2.0 / 3.0 + t2 * (2.0 / 5.0 + t2 * (2.0 / 7.0 + t2 * (2.0 / 9.0)))));
    e as f64 * std::f64::consts::LN_2 + series
}

/// `sqrt(x)` for `x >= 0` by Newton's method (a `const fn`).
const fn sqrt_const(x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let mut g = if x > 1.0 { x } else { 1.0 };
    let mut i = 0;
    while i < 64 {
        g = 0.5 * (g + x / g);
        i += 1;
    }
    g
}

/// Availability counts below this take `sqrt(ln(n))` from [`SQRT_LN`].
const SQRT_LN_LEN: usize = 4096;

/// `sqrt(ln(n))` for `n < SQRT_LN_LEN`, computed at compile time.
static SQRT_LN: [f32; SQRT_LN_LEN] = {
    let mut t = [0f32; SQRT_LN_LEN];
    let mut n = 1;
    while n < SQRT_LN_LEN {
        t[n] = sqrt_const(ln(n as u32)) as f32;
        n += 1;
    }
    t
};

/// `sqrt(ln(n))`, the availability part of the exploration term.
#[inline]
fn sqrt_ln(n: u32) -> f32 {
    if (n as usize) < SQRT_LN_LEN { SQRT_LN[n as usize] } else { (ln(n) as f32).sqrt() }
}

/// The rank of `mv` among `possible` (its slot in a block).
#[inline]
fn rank(possible: u64, mv: u8) -> u32 {
    (possible & ((1u64 << mv) - 1)).count_ones()
}

/// An arena of nodes, node 0 the root. Cleared (capacity kept) for every search.
#[derive(Clone, Debug, Default)]
struct Tree {
    nodes: Vec<Node>,
    /// Nodes made (slots used), for the statistics.
    made: usize,
}

/// The deepest path: 36 cards (four playing under `penetro_all_play`) and the
/// questions, and the root.
const MAX_PATH: usize = 48;

impl Tree {
    fn reset(&mut self, reserve: usize) {
        self.nodes.clear();
        self.nodes.reserve(reserve);
        self.nodes.push(Node::EMPTY);
        self.made = 1;
    }

    /// The child of `parent` for `mv` (`possible`: the node's possible moves), made
    /// if it does not exist yet by `seat`.
    #[inline(never)]
    fn child_or_add(&mut self, parent: u32, possible: u64, mv: u8, seat: Seat) -> u32 {
        debug_assert!(possible & (1 << mv) != 0, "a move outside the possible ones");
        let mut block = self.nodes[parent as usize].block;
        if block == NIL {
            block = self.nodes.len() as u32;
            self.nodes[parent as usize].block = block;
            let n = self.nodes.len() + possible.count_ones() as usize;
            self.nodes.resize(n, Node::EMPTY);
        }
        let id = block + rank(possible, mv);
        let p = &mut self.nodes[parent as usize];
        if p.expanded & (1 << mv) == 0 {
            p.expanded |= 1 << mv;
            self.nodes[id as usize] = Node { mv, seat: seat.0, avail: 1, ..Node::EMPTY };
            self.made += 1;
        }
        id
    }

    /// One step of selection at `parent` with the moves `legal` of this world: the
    /// available children's availability goes up, then either a move without a
    /// child (chosen uniformly; `Err(mv)`, to expand) or the UCB child (`Ok`).
    #[inline]
    fn step(
        &mut self,
        parent: u32,
        legal: u64,
        possible: u64,
        c: f32,
        rng: &mut AgentRng,
    ) -> Result<u32, u8> {
        debug_assert!(legal & !possible == 0, "a legal move outside the possible ones");
        let p = self.nodes[parent as usize];
        let untried = legal & !p.expanded;
        let mut avail = legal & p.expanded;
        let mut best = (f32::NEG_INFINITY, NIL);
        while avail != 0 {
            let mv = avail.trailing_zeros() as u8;
            avail &= avail - 1;
            let id = p.block + rank(possible, mv);
            let n = &mut self.nodes[id as usize];
            n.avail += 1;
            if untried == 0 {
                let score = n.mean + c * sqrt_ln(n.avail) * n.rsv;
                if score > best.0 {
                    best = (score, id);
                }
            }
        }
        if untried != 0 {
            let i = below(rng, untried.count_ones());
            let mv = tresillo_core::CardSet(untried).nth(i).expect("an untried move").bit() as u8;
            return Err(mv);
        }
        Ok(best.1)
    }

    /// Adds the rewards along `path` (node 0 excluded). Not inlined, so that
    /// profiles show it apart from selection.
    #[inline(never)]
    fn backprop(&mut self, path: &[u32], r: &[f64; 4]) {
        for &id in path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            let v = n.visits as f32;
            n.mean += (r[n.seat as usize] as f32 - n.mean) / v;
            n.rsv = 1.0 / v.sqrt();
        }
    }

    /// The most visited child move of the root (ties: the better mean, then the
    /// lower move); `possible`: the root's possible moves.
    fn most_visited(&self, possible: u64) -> Option<u8> {
        let root = self.nodes[0];
        let mut best: Option<(u32, f32, u8)> = None;
        let mut moves = root.expanded;
        while moves != 0 {
            let mv = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let n = &self.nodes[(root.block + rank(possible, mv)) as usize];
            let mean = n.mean;
            let better = match best {
                None => true,
                Some((v, m, _)) => n.visits > v || (n.visits == v && mean > m),
            };
            if better {
                best = Some((n.visits, mean, mv));
            }
        }
        best.map(|b| b.2)
    }
}

/// A searched game: a position whose moves are cards (their bit index) or the
/// answers `NO` / `YES` of a question, all public.
trait Game: Copy {
    /// No more searched moves (the hand is over, or waits for a decision the
    /// search does not make).
    fn over(&self) -> bool;
    /// Whose move it is.
    fn mover(&self) -> Seat;
    /// Whether the move is a card (else a yes / no question).
    fn card_node(&self) -> bool;
    /// The legal moves as a mask.
    fn legal(&self) -> u64;
    /// Plays a legal move.
    fn apply(&mut self, mv: u8);
    /// Plays on to the end of the hand and returns every seat's reward.
    fn finish(self, root: &Self, x: &Ctx<'_>, world: &World, made: &[u8], rng: &mut AgentRng) -> [f64; 4];
}

impl Game for Sim {
    #[inline]
    fn over(&self) -> bool {
        self.phase == Phase::Done
    }

    #[inline]
    fn mover(&self) -> Seat {
        Sim::mover(self)
    }

    #[inline]
    fn card_node(&self) -> bool {
        matches!(self.phase, Phase::Play | Phase::Done)
    }

    #[inline]
    fn legal(&self) -> u64 {
        Sim::legal(self)
    }

    #[inline]
    fn apply(&mut self, mv: u8) {
        Sim::apply(self, mv);
    }

    #[inline]
    fn finish(mut self, root: &Sim, x: &Ctx<'_>, world: &World, made: &[u8], rng: &mut AgentRng) -> [f64; 4] {
        let r = match x.kind {
            Playout::Random => {
                self.playout_random(rng);
                rewards(hand_tantos(&self.end()))
            }
            Playout::Rule => {
                let Ok(mut hand) = world.replay(x.view) else {
                    self.playout_random(rng);
                    let r = rewards(hand_tantos(&self.end()));
                    return [r[0], r[1], r[2], 0.5];
                };
                // The moves of the tree, then the rule agent everywhere.
                let mut replay = *root;
                for &mv in made {
                    let d = replay.decision(mv);
                    replay.apply(mv);
                    hand.apply_unchecked(d);
                }
                let mut r = *x.rule;
                while let Some(seat) = hand.request().seat() {
                    let v = hand.view(seat);
                    let d = r.choose(&v, rng);
                    hand.apply_unchecked(d);
                }
                rewards(hand_tantos(&hand_end(&hand, self.condicion, self.estuche)))
            }
        };
        [r[0], r[1], r[2], 0.5]
    }
}

/// The searched game of every rule set but plain `tresillo`: the core's [`Hand`]
/// (a world replayed to the view) with its request cached. Every rule is the
/// engine's own; a hand is scored by the rule set's ledger.
#[derive(Clone, Copy, Debug)]
struct HandSim {
    hand: Hand,
    req: Request,
}

impl HandSim {
    fn new(hand: Hand) -> HandSim {
        HandSim { req: hand.request(), hand }
    }

    /// Plays `d` (legal) and caches the next request.
    #[inline]
    fn play(&mut self, d: Decision) {
        self.hand.apply_unchecked(d);
        self.req = self.hand.request();
    }
}

impl Game for HandSim {
    #[inline]
    fn over(&self) -> bool {
        !searchable(self.req)
    }

    #[inline]
    fn mover(&self) -> Seat {
        self.req.seat().unwrap_or(Seat(0))
    }

    #[inline]
    fn card_node(&self) -> bool {
        matches!(self.req, Request::Play { .. } | Request::Done)
    }

    #[inline]
    fn legal(&self) -> u64 {
        match self.req {
            Request::Play { legal, .. } => legal.bits(),
            Request::Done => 0,
            _ => 0b11,
        }
    }

    #[inline]
    fn apply(&mut self, mv: u8) {
        self.play(decision_of(self.req, mv));
    }

    fn finish(
        mut self,
        _root: &HandSim,
        x: &Ctx<'_>,
        _world: &World,
        _made: &[u8],
        rng: &mut AgentRng,
    ) -> [f64; 4] {
        let mut rule = *x.rule;
        while let Some(seat) = self.req.seat() {
            let d = match (x.kind, self.req) {
                (Playout::Random, Request::Play { legal, .. }) => {
                    Decision::Play(legal.nth(below(rng, legal.len())).expect("a legal card"))
                }
                // As the fast playout: never give up, take over, play for the
                // bola or tout, or declare the vole; accept a surrendered vuelta.
                (Playout::Random, Request::Ask { question: Question::SURRENDER, .. }) => {
                    Decision::Answer(Question::SURRENDER, false)
                }
                (Playout::Random, Request::Ask { question: Question::TAKE_OVER, .. }) => {
                    Decision::Answer(Question::TAKE_OVER, false)
                }
                (Playout::Random, Request::Ask { question: Question::BOLA, .. }) => {
                    Decision::Answer(Question::BOLA, false)
                }
                (Playout::Random, Request::Ask { question: Question::DECLARE_VOLE, .. }) => {
                    Decision::Answer(Question::DECLARE_VOLE, false)
                }
                (Playout::Random, Request::Ask { question: Question::ACCEPT_SURRENDER, .. }) => {
                    Decision::Answer(Question::ACCEPT_SURRENDER, true)
                }
                _ => rule.choose(&self.hand.view(seat), rng),
            };
            self.play(d);
        }
        ledger_rewards(&self.hand, &x.ledger, x.divisor)
    }
}

/// Every seat's tantos (points, chips) for the finished `hand`, scored by the rule
/// set's ledger from a fresh start (`ledger`: as the tournament's `--scoring
/// deal`). `None` if the hand is not over or the ledger refuses it.
#[must_use]
pub fn ledger_tantos(hand: &Hand, ledger: &LedgerConfig) -> Option<[i64; 4]> {
    let r = hand.result()?;
    let s = score_deal(*ledger, &r).ok()?;
    Some(std::array::from_fn(|i| if i < usize::from(r.players) { s.total(Seat(i as u8)) } else { 0 }))
}

/// Rewards in `[0, 1]` from tantos at a table of `players`: each seat's tantos
/// relative to the mean of the others, `u = t - (sum - t) / (n - 1)`, mapped by
/// `0.5 + u / divisor` and clamped (see the module documentation).
#[must_use]
pub fn relative_rewards(tantos: [i64; 4], players: u8, divisor: f64) -> [f64; 4] {
    let n = usize::from(players);
    let sum: i64 = tantos[..n].iter().sum();
    std::array::from_fn(|i| {
        if i >= n {
            return 0.5;
        }
        let u = tantos[i] as f64 - (sum - tantos[i]) as f64 / (n - 1) as f64;
        (0.5 + u / divisor).clamp(0.0, 1.0)
    })
}

/// The rewards of a finished hand (even ones if the ledger refuses it).
fn ledger_rewards(hand: &Hand, ledger: &LedgerConfig, divisor: f64) -> [f64; 4] {
    match ledger_tantos(hand, ledger) {
        Some(t) => relative_rewards(t, hand.public().players, divisor),
        None => [0.5; 4],
    }
}

/// What every iteration of one search shares.
struct Ctx<'a> {
    c: f32,
    kind: Playout,
    rule: &'a RuleAgent,
    view: &'a PlayerView,
    moves: Moves,
    /// The ledger that scores a finished hand (general search).
    ledger: LedgerConfig,
    /// The reward scale of the rule set (general search).
    divisor: f64,
}

/// One SO-ISMCTS iteration on `tree` in the world already placed in `sim`.
#[inline]
fn iterate_so<G: Game>(tree: &mut Tree, mut sim: G, x: &Ctx<'_>, world: &World, rng: &mut AgentRng) {
    let root = sim;
    let mut moves = x.moves;
    let mut path = [0u32; MAX_PATH];
    let mut made = [0u8; MAX_PATH];
    let mut len = 0;
    let mut node = 0u32;
    while !sim.over() {
        let legal = sim.legal();
        let possible = moves.possible(&sim);
        let (id, mv, expanded) = match tree.step(node, legal, possible, x.c, rng) {
            Ok(child) => (child, tree.nodes[child as usize].mv, false),
            Err(mv) => (tree.child_or_add(node, possible, mv, sim.mover()), mv, true),
        };
        moves.record(&sim, mv);
        sim.apply(mv);
        node = id;
        path[len] = id;
        made[len] = mv;
        len += 1;
        if expanded {
            break;
        }
    }
    let r = sim.finish(&root, x, world, &made[..len], rng);
    tree.backprop(&path[..len], &r);
}

/// One MO-ISMCTS iteration: each seat selects in its own tree; every tree follows
/// the move as its owner observes it (all moves of the play phase are public, so
/// each observer sees the move itself).
#[inline]
fn iterate_mo<G: Game>(trees: &mut [Tree], mut sim: G, x: &Ctx<'_>, world: &World, rng: &mut AgentRng) {
    let root = sim;
    let mut moves = x.moves;
    let mut path = [[0u32; MAX_PATH]; 4];
    let mut made = [0u8; MAX_PATH];
    let mut len = 0;
    let mut node = [0u32; 4];
    while !sim.over() {
        let legal = sim.legal();
        let possible = moves.possible(&sim);
        let seat = sim.mover();
        let owner = seat.index();
        let (mv, expanded) = match trees[owner].step(node[owner], legal, possible, x.c, rng) {
            Ok(child) => (trees[owner].nodes[child as usize].mv, false),
            Err(mv) => (mv, true),
        };
        for (k, t) in trees.iter_mut().enumerate() {
            let child = t.child_or_add(node[k], possible, mv, seat);
            node[k] = child;
            path[k][len] = child;
        }
        moves.record(&sim, mv);
        sim.apply(mv);
        made[len] = mv;
        len += 1;
        if expanded {
            break;
        }
    }
    let r = sim.finish(&root, x, world, &made[..len], rng);
    for (k, t) in trees.iter_mut().enumerate() {
        t.backprop(&path[k][..len], &r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, seat_rngs};
    use tresillo_core::{
        BySeat, Contract, HandResult, LedgerConfig, RuleSet, SurrenderRecord, score_deal, table_result,
    };

    fn hand(seed: u64) -> Hand {
        Hand::new(RuleSet::TRESILLO, 3, crate::rng::deal_for_seed(seed), Seat((seed % 3) as u8)).unwrap()
    }

    /// The searched game follows the rules: random moves through `Sim` and `Hand`
    /// side by side give the same seat to move, the same legal moves and the same
    /// end.
    #[test]
    fn the_searched_game_follows_the_hand() {
        let rule = RuleAgent::default();
        let mut checked = 0;
        for seed in 0..400u64 {
            let mut h = hand(seed);
            let mut rngs = seat_rngs(seed);
            // The rule agent bids and exchanges.
            while let Some(seat) = h.request().seat() {
                if matches!(h.request(), Request::Play { .. }) {
                    break;
                }
                let d = rule.clone().choose(&h.view(seat), &mut rngs[seat.index()]);
                h.apply(d).unwrap();
            }
            if h.is_done() {
                continue;
            }
            let seat = h.request().seat().unwrap();
            let mut sim = Sim::from_view(&h.view(seat)).unwrap();
            for s in 0..3 {
                sim.ps.hands[s] = h.hand_of(Seat(s as u8));
            }
            let estuche = table(sim.ps.trump).estuche;
            sim.estuche = !estuche.is_empty() && h.hand_of(sim.original).is_superset(estuche);
            let mut rng = rng_from_seed(seed);
            loop {
                let req = h.request();
                match req.seat() {
                    None => {
                        assert_eq!(sim.phase, Phase::Done);
                        break;
                    }
                    Some(s) => assert_eq!(sim.mover(), s, "seed {seed}"),
                }
                let legal = sim.legal();
                let want = match req {
                    Request::Play { legal, .. } => legal.bits(),
                    _ => 0b11,
                };
                assert_eq!(legal, want, "seed {seed}");
                // Surrender and take over more often than at random, to test them.
                let mv = match req {
                    Request::Ask { question: Question::SURRENDER, .. }
                    | Request::Ask { question: Question::TAKE_OVER, .. } => u8::from(below(&mut rng, 3) > 0),
                    _ => {
                        tresillo_core::CardSet(legal).nth(below(&mut rng, legal.count_ones())).unwrap().bit()
                            as u8
                    }
                };
                h.apply(sim.decision(mv)).unwrap();
                sim.apply(mv);
                checked += 1;
            }
            let r = h.result().unwrap();
            let end = sim.end();
            assert_eq!(end, hand_end(&h, end.condicion, end.estuche));
            assert_eq!(end.estuche, r.estuche, "seed {seed}");
        }
        assert!(checked > 5000);
    }

    fn ledger_tantos(r: &HandResult) -> [i32; 3] {
        let s = score_deal(LedgerConfig::new(3), r).unwrap();
        let mut t = [0i32; 3];
        for (i, x) in t.iter_mut().enumerate() {
            *x = s.total(Seat(i as u8)) as i32 + i32::from(Seat(i as u8) == r.dealer);
        }
        t
    }

    /// `hand_tantos` is the ledger's scoring of a fresh hand (the dealer's tanto
    /// aside), for every kind of ending.
    #[test]
    fn tantos_are_the_ledgers() {
        let mut cases = 0;
        for contract in Contract::ALL {
            for d in 0..3u8 {
                let d = Seat(d);
                for a in 0..=9u8 {
                    for b in 0..=(9 - a) {
                        let tricks = [a, b, 9 - a - b];
                        for (bola, estuche) in
                            [(None, false), (None, true), (Some(true), true), (Some(false), false)]
                        {
                            let mut tr = [0u8; 3];
                            for (i, x) in tr.iter_mut().enumerate() {
                                *x = tricks[(i + 3 - d.index()) % 3];
                            }
                            if bola.is_some() && tr[d.index()] < 5 {
                                continue;
                            }
                            if bola.is_none() && tr[d.index()] == 9 {
                                // Nine tricks were a bola played for (the question
                                // comes after five straight tricks).
                                continue;
                            }
                            if bola == Some(false) {
                                // Stopped with primeras: five tricks, all the declarer's.
                                if tr[d.index()] != 5 {
                                    continue;
                                }
                                tr = [0; 3];
                                tr[d.index()] = 5;
                            }
                            let mut r = table_result(3, Seat(2), d, contract, &tr);
                            r.estuche = estuche;
                            r.final_estuche = estuche;
                            r.primeras = bola == Some(false);
                            r.bola_attempted = bola == Some(true);
                            r.bola_made = bola == Some(true) && tr[d.index()] == 9;
                            let e = HandEnd {
                                tricks: tr,
                                original: d,
                                declarer: d,
                                surrendered: false,
                                took_over: None,
                                bola,
                                condicion: tresillo_core::contract_condicion(contract) as i32,
                                estuche,
                            };
                            assert_eq!(hand_tantos(&e), ledger_tantos(&r), "{e:?}");
                            cases += 1;
                            if !contract.may_surrender() || bola.is_some() || estuche {
                                continue;
                            }
                            // Surrendered: nobody took over, or one of the others did.
                            for o in [None, Some(d.next(3)), Some(d.plus(2, 3))] {
                                let mut r = r.clone();
                                r.surrender = Some(SurrenderRecord { by: d, took_over: o });
                                // Given up after three tricks: only those were played.
                                let tr = if o.is_none() { [1, 1, 1] } else { tr };
                                if o.is_some_and(|f| tr[f.index()] == 9) {
                                    continue; // a bola played for: another question
                                }
                                r.tricks = BySeat([tr[0], tr[1], tr[2], 0]);
                                let f = o.unwrap_or(d);
                                r.outcome = match o {
                                    None => Outcome::Puesta { kind: tresillo_core::PuestaKind::Surrendered },
                                    Some(f) => {
                                        let (o1, o2) = (f.next(3), f.plus(2, 3));
                                        Outcome::from_tricks(
                                            tr[f.index()],
                                            &[(o1, tr[o1.index()]), (o2, tr[o2.index()])],
                                        )
                                    }
                                };
                                let e =
                                    HandEnd { tricks: tr, declarer: f, surrendered: true, took_over: o, ..e };
                                assert_eq!(hand_tantos(&e), ledger_tantos(&r), "{e:?}");
                                cases += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(cases > 1000);
    }

    #[test]
    fn rewards_are_relative_and_in_range() {
        let r = rewards([8, -1, -1]);
        assert!((r[0] - 0.65).abs() < 1e-9 && (r[1] - 0.425).abs() < 1e-9);
        let r = rewards([-18, 9, 0]);
        assert!(r[1] > 0.79 && r[0] < 0.13);
        for t in [[40, -20, -20], [-40, 20, 20]] {
            assert!(rewards(t).iter().all(|x| (0.0..=1.0).contains(x)));
        }
    }

    #[test]
    fn node_is_compact() {
        assert_eq!(NODE_BYTES, 32);
    }

    #[test]
    fn fast_ln_is_close() {
        for n in (1..100_000u32).step_by(7).chain([1, 2, 3, 4095, 4096, 1 << 20, u32::MAX]) {
            let (a, b) = (ln(n), f64::from(n).ln());
            assert!((a - b).abs() < 1e-4 * b.max(1.0), "{n}: {a} vs {b}");
            let (a, b) = (f64::from(sqrt_ln(n)), b.sqrt());
            assert!((a - b).abs() < 1e-4 * b.max(1.0), "{n}: {a} vs {b}");
        }
    }
}
