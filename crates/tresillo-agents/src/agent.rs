//! The [`Agent`] trait (decides from a [`PlayerView`]), [`TablePlayer`] (what the
//! table calls: every agent, and the cheat), [`play_hand`], and [`SplitPlayer`] (a
//! seat whose bidding-phase decisions another player makes).
//!
//! An agent answers `Ok(decision)`, or `Err(Failure)` with a reason when it has none,
//! as an external bot or a Python agent may; the built-in agents never fail and also
//! have an inherent `choose` that returns the decision. [`play_hand`]'s `AgentError` is
//! `Illegal` or `Failed`; [`BiddingCovers::All`] gives a [`SplitPlayer`]'s other agent
//! every decision but card play.

use crate::rng::AgentRng;
use crate::sampling::model::Likelihood;
use std::sync::Arc;
use std::time::Duration;
use tresillo_core::{Decision, Hand, HandError, HandResult, PlayerView, Seat};

/// A player. Given its seat's view (whose [`PlayerView::request`] says what is
/// asked) and a seeded generator, it returns a legal decision, or a [`Failure`]
/// when it has none to give.
///
/// Agents are `Send` and cheap to create, one per seat per thread. An agent may keep
/// memory between the decisions of one hand; [`Agent::new_hand`] is called before
/// every hand and must clear it, so nothing leaks across deals.
pub trait Agent: Send {
    /// The agent's spec name (for example `random`).
    fn name(&self) -> &str;

    /// Called before each hand: forget everything about the previous one.
    fn new_hand(&mut self) {}

    /// Answers the request in `view` with a legal decision; `Err` when the agent
    /// cannot answer (an external bot that crashed, timed out or broke the
    /// protocol, a Python agent that raised), with the reason. The table stops
    /// the hand with the agent's [`AgentError`] then, never treating the failure
    /// as a decision. The agents of this crate never fail.
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure>;

    /// Called when a hand it played is over, with the result every seat sees
    /// (an external bot passes it on). Nothing by default.
    fn end_hand(&mut self, result: &HandResult) {
        let _ = result;
    }

    /// The agent's own work since the last call (worlds, solver nodes,
    /// iterations, forfeits), then zero: the runner takes it after every hand
    /// and sums it per slot. Nothing by default.
    fn take_work(&mut self) -> Work {
        Work::default()
    }

    /// Wall nanoseconds spent since the last call getting ready rather than
    /// deciding (an external bot's process start and greeting, within the
    /// decision that needed it), then zero: the runner's metering takes it
    /// out of that decision's time and counts it apart. 0 by default.
    fn take_startup_ns(&mut self) -> u64 {
        0
    }

    /// Gives the agent `model` to weight its sampled worlds by, in place of its
    /// soft `rule` (docs/AGENTS.md, "Inference-weighted worlds"), and turns its
    /// inference on, as `infer=1` would. `true` if the agent weights worlds
    /// (`pimc`, `ismcts`); `false` (the default) if it has none to weight.
    fn set_likelihood(&mut self, model: Arc<dyn Likelihood>) -> bool {
        let _ = model;
        false
    }

    /// Before a decision on a clock (`tc=`, [`crate::clock`]): the time left and
    /// the budget allocated to this decision. A search agent searches for the
    /// budget (as `ms=` would have it); an external bot is sent the time left.
    /// Nothing by default: the agent decides as always, its time still counted.
    fn set_time(&mut self, time: &TimeLeft) {
        let _ = time;
    }
}

/// What a clocked agent is told before a decision ([`Agent::set_time`]; `tc=`, `crate::clock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// The time left on the clock.
    pub left: Duration,
    /// The increment added after the decision.
    pub inc: Duration,
    /// The hands the clock still covers, this one included.
    pub hands_left: u32,
    /// The time this decision should take (`clock::allocate`).
    pub budget: Duration,
}

/// What an agent did besides deciding, counted per hand by the runner
/// ([`Agent::take_work`]). Counts that do not apply to an agent stay zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Worlds (sampled deals) searched.
    pub worlds: u64,
    /// Search nodes visited (solver nodes).
    pub nodes: u64,
    /// Search iterations (ISMCTS).
    pub iters: u64,
    /// Decisions that were not the agent's own: an external bot's faulty answer
    /// replaced by a fallback agent's.
    pub forfeits: u64,
    /// Decisions whose worlds were weighted by a likelihood (`infer=1`).
    pub weighted: u64,
    /// The effective sample sizes of those decisions' pools, summed (in
    /// worlds, each rounded down).
    pub ess: u64,
    /// Weighted decisions that fell back on uniform worlds (effective sample
    /// size below `infer_ess`).
    pub fallbacks: u64,
}

impl Work {
    /// Adds `other` to `self`, count by count.
    pub fn add(&mut self, other: Work) {
        self.worlds += other.worlds;
        self.nodes += other.nodes;
        self.iters += other.iters;
        self.forfeits += other.forfeits;
        self.weighted += other.weighted;
        self.ess += other.ess;
        self.fallbacks += other.fallbacks;
    }
}

impl<A: Agent + ?Sized> Agent for Box<A> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn new_hand(&mut self) {
        (**self).new_hand();
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        (**self).decide(view, rng)
    }
    fn end_hand(&mut self, result: &HandResult) {
        (**self).end_hand(result);
    }
    fn take_work(&mut self) -> Work {
        (**self).take_work()
    }
    fn set_time(&mut self, time: &TimeLeft) {
        (**self).set_time(time);
    }
    fn take_startup_ns(&mut self) -> u64 {
        (**self).take_startup_ns()
    }
    fn set_likelihood(&mut self, model: Arc<dyn Likelihood>) -> bool {
        (**self).set_likelihood(model)
    }
}

/// Why an agent gave no decision ([`Agent::decide`]'s error): one line, for
/// example "external bot `./bot` (seat 1): no answer within 10000 ms". Boxed, so
/// that a decision's `Result` stays two words on the hot path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure(Box<str>);

impl Failure {
    /// A failure for `reason`.
    pub fn new(reason: impl Into<String>) -> Failure {
        Failure(reason.into().into_boxed_str())
    }

    /// The reason.
    #[must_use]
    pub fn reason(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

/// What went wrong with an agent's decision ([`AgentError::kind`]).
#[derive(Debug)]
pub enum AgentErrorKind {
    /// It decided, and the hand refused the decision.
    Illegal {
        /// What it decided.
        decision: Decision,
        /// Why the hand refused it.
        source: HandError,
    },
    /// It gave no decision ([`Agent::decide`] returned this failure).
    Failed(Failure),
}

/// An agent made an illegal decision or failed to decide. Its message names the
/// agent and the seat, then the failure's reason, or the decision and why the
/// hand refused it.
#[derive(Debug)]
pub struct AgentError {
    /// The agent's name.
    pub agent: String,
    /// Its seat.
    pub seat: u8,
    /// What went wrong.
    pub kind: AgentErrorKind,
}

impl std::fmt::Display for AgentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            AgentErrorKind::Failed(why) => write!(f, "agent `{}` at seat {}: {why}", self.agent, self.seat),
            AgentErrorKind::Illegal { decision, source } => write!(
                f,
                "agent `{}` at seat {} made an illegal decision {decision:?}: {source}",
                self.agent, self.seat
            ),
        }
    }
}

impl std::error::Error for AgentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            AgentErrorKind::Failed(why) => Some(why),
            AgentErrorKind::Illegal { source, .. } => Some(source),
        }
    }
}

/// Whoever sits in a seat, as the table sees it: it is handed the table's [`Hand`]
/// and its seat. Every [`Agent`] is one, and sees only `hand.view(seat)`; the
/// experiments-only cheat of [`cheat`](crate::cheat) is the other kind.
pub trait TablePlayer {
    /// The spec name.
    fn player_name(&self) -> &str;
    /// Called before each hand.
    fn begin_hand(&mut self);
    /// Decides for `seat`, whose turn it is ([`Agent::decide`]).
    fn decide_at(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Result<Decision, Failure>;
    /// The hand is over ([`Agent::end_hand`]).
    fn finish_hand(&mut self, result: &HandResult) {
        let _ = result;
    }
    /// The player's work since the last call ([`Agent::take_work`]).
    fn player_work(&mut self) -> Work {
        Work::default()
    }
    /// Its start-up time since the last call ([`Agent::take_startup_ns`]).
    fn player_startup_ns(&mut self) -> u64 {
        0
    }
}

impl<A: Agent + ?Sized> TablePlayer for A {
    fn player_name(&self) -> &str {
        self.name()
    }
    fn begin_hand(&mut self) {
        self.new_hand();
    }
    #[inline]
    fn decide_at(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Result<Decision, Failure> {
        self.decide(&hand.view(seat), rng)
    }
    fn finish_hand(&mut self, result: &HandResult) {
        self.end_hand(result);
    }
    fn player_work(&mut self) -> Work {
        self.take_work()
    }
    fn player_startup_ns(&mut self) -> u64 {
        self.take_startup_ns()
    }
}

/// Plays `hand` to the end, asking `agents[seat]` for each decision with
/// `rngs[seat]`. Calls `new_hand` on every agent first.
pub fn play_hand<P: TablePlayer>(
    hand: &mut Hand,
    agents: &mut [P],
    rngs: &mut [AgentRng],
) -> Result<HandResult, AgentError> {
    play_hand_with(hand, agents, rngs, |_, _| {})
}

/// [`play_hand`] that also reports each applied decision to `observe` (the hand
/// before the decision, and the decision), for narration and records.
pub fn play_hand_with<P: TablePlayer>(
    hand: &mut Hand,
    agents: &mut [P],
    rngs: &mut [AgentRng],
    mut observe: impl FnMut(&Hand, &Decision),
) -> Result<HandResult, AgentError> {
    for a in agents.iter_mut() {
        a.begin_hand();
    }
    while let Some(seat) = hand.request().seat() {
        let i = seat.index();
        let error =
            |agent: &P, kind| AgentError { agent: agent.player_name().to_string(), seat: seat.0, kind };
        let d = match agents[i].decide_at(hand, seat, &mut rngs[i]) {
            Ok(d) => d,
            Err(f) => return Err(error(&agents[i], AgentErrorKind::Failed(f))),
        };
        observe(hand, &d);
        hand.apply(d).map_err(|source| error(&agents[i], AgentErrorKind::Illegal { decision: d, source }))?;
    }
    let result = hand.result().expect("the hand is over");
    for a in agents.iter_mut() {
        a.finish_hand(&result);
    }
    Ok(result)
}

/// Whether `request` belongs to the bidding phase: the auction, the contract and
/// trump, the exchange and the conversation, and a penetro's heap end and drop-out
/// words (everything before the first card but the penetro's give-up question). Card play, surrender, takeover and the primeras/bola choice are not.
#[must_use]
pub fn is_bidding_request(request: &tresillo_core::Request) -> bool {
    use tresillo_core::Request;
    matches!(
        request,
        Request::Bid { .. }
            | Request::Declare { .. }
            | Request::Discard { .. }
            | Request::Word { .. }
            | Request::Penetro { .. }
            | Request::DropOut { .. }
    )
}

/// Which decisions a [`SplitPlayer`]'s bidding agent makes (`--bidding-covers`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BiddingCovers {
    /// The bidding phase ([`is_bidding_request`]): the seated agent keeps card
    /// play and the questions asked during it (surrender, takeover, bola, and
    /// hombre's gascarille, exchange right, accepted surrender and vole).
    #[default]
    Bidding,
    /// Every decision but card play: the seated agent decides card play alone.
    All,
}

impl BiddingCovers {
    /// The word on the command line and in files: `bidding` or `all`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            BiddingCovers::Bidding => "bidding",
            BiddingCovers::All => "all",
        }
    }

    /// Whether this is the default, [`BiddingCovers::Bidding`].
    #[must_use]
    pub fn is_default(&self) -> bool {
        *self == BiddingCovers::Bidding
    }

    /// Whether the bidding agent makes the decision `request` asks for.
    #[must_use]
    pub fn covers(self, request: &tresillo_core::Request) -> bool {
        match self {
            BiddingCovers::Bidding => is_bidding_request(request),
            BiddingCovers::All => !matches!(request, tresillo_core::Request::Play { .. }),
        }
    }
}

impl std::fmt::Display for BiddingCovers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A bidding cover of no known name ([`BiddingCovers`]' `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown bidding cover `{0}`: `bidding` (the auction, contract, exchange and conversation) or `all` \
     (every decision but card play)"
)]
pub struct UnknownBiddingCover(pub String);

impl std::str::FromStr for BiddingCovers {
    type Err = UnknownBiddingCover;

    fn from_str(s: &str) -> Result<BiddingCovers, UnknownBiddingCover> {
        match s.trim() {
            "bidding" => Ok(BiddingCovers::Bidding),
            "all" => Ok(BiddingCovers::All),
            other => Err(UnknownBiddingCover(other.to_string())),
        }
    }
}

/// One seat played by two players: `bidding`, when present, makes the decisions
/// `covers` gives it (by default the bidding phase, [`is_bidding_request`]),
/// `play` makes all the others (card play, and by default surrender, takeover,
/// bola). Both draw from the seat's one generator, so the split is as
/// deterministic as a single agent. The seat's name is `play`'s.
#[derive(Debug)]
pub struct SplitPlayer<P> {
    /// Decides card play, and the decisions `covers` leaves it (everything
    /// when `bidding` is `None`).
    pub play: P,
    /// Decides the auction, contract and trump, exchange and conversation
    /// (and with [`BiddingCovers::All`] every decision but card play).
    pub bidding: Option<P>,
    /// Which decisions `bidding` makes.
    pub covers: BiddingCovers,
}

impl<P: TablePlayer> TablePlayer for SplitPlayer<P> {
    fn player_name(&self) -> &str {
        self.play.player_name()
    }

    fn begin_hand(&mut self) {
        self.play.begin_hand();
        if let Some(b) = &mut self.bidding {
            b.begin_hand();
        }
    }

    #[inline]
    fn decide_at(&mut self, hand: &Hand, seat: Seat, rng: &mut AgentRng) -> Result<Decision, Failure> {
        match &mut self.bidding {
            Some(b) if self.covers.covers(&hand.request()) => b.decide_at(hand, seat, rng),
            _ => self.play.decide_at(hand, seat, rng),
        }
    }

    fn finish_hand(&mut self, result: &HandResult) {
        self.play.finish_hand(result);
        if let Some(b) = &mut self.bidding {
            b.finish_hand(result);
        }
    }

    fn player_work(&mut self) -> Work {
        let mut w = self.play.player_work();
        if let Some(b) = &mut self.bidding {
            w.add(b.player_work());
        }
        w
    }

    fn player_startup_ns(&mut self) -> u64 {
        self.play.player_startup_ns() + self.bidding.as_mut().map_or(0, TablePlayer::player_startup_ns)
    }
}
