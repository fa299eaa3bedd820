//! The tournament runner: plays scoring units (a deal, or a session of deals) under
//! every seating, in parallel with rayon, and returns rows and statistics in deal
//! order. It does no I/O: the caller writes what it gets.
//!
//! [`Tournament`] plays units (a deal or a session) times seatings and yields
//! `DealRow`s; `AgentSlots` lets each worker thread keep its agents across a run
//! (`run_in`).

use crate::compute::{Compute, Forfeit, Metered};
use crate::config::{ConfigError, SEATINGS, SEATINGS4, TournamentConfig};
use crate::record::{HandRecord, TournamentOrigin, play_recorded, seating_rng_seed};
use crate::seeds::{deal_for_seed, deal_seed};
use crate::stats::Stats;
use rayon::prelude::*;
use std::ops::Range;
use tresillo_agents::cheat::Seated;
use tresillo_agents::{AgentError, Registry, SplitPlayer, seat_rngs};
use tresillo_core::{
    Bid, Contract, Hand, HandError, HandResult, HandScore, LedgerConfig, Outcome, PuestaKind, Scorer,
    ScoringError, ScoringSystem, Seat,
};

/// Why a tournament stopped.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A bad configuration.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// An agent made an illegal decision (or failed to decide). The message
    /// holds the agent's whole message, so it is not a separate source.
    #[error("deal {deal}{}: {error}", place.as_ref().map(|(seating, slot)| format!(", seating {seating}, agent slot {slot}")).unwrap_or_default())]
    Agent {
        /// The deal index.
        deal: u64,
        /// What went wrong (boxed: the error stays small).
        error: Box<AgentError>,
        /// In a tournament: the seating and the agent slot (the position in the
        /// agents list) of the agent at fault, so that two slots running the same
        /// program are told apart.
        place: Option<(&'static str, u8)>,
    },
    /// The run was interrupted (SIGINT or SIGTERM; [`tresillo_agents::interrupt`]):
    /// the units finished before it are kept.
    #[error("interrupted")]
    Interrupted,
    /// A hand could not be set up.
    #[error("deal {deal}: {source}")]
    Hand {
        /// The deal index.
        deal: u64,
        /// What went wrong.
        #[source]
        source: HandError,
    },
    /// A result the ledger refused (an engine bug).
    #[error("deal {deal}: {source}")]
    Scoring {
        /// The deal index.
        deal: u64,
        /// What went wrong.
        #[source]
        source: ScoringError,
    },
}

/// One row of `deals.csv`: one deal under one seating. Seats are 0, 1, 2 (and 3 at
/// a table of four); agent slots are the positions in the `--agents` list. The
/// columns of seat 3 and of the penetro come last and are empty at three players.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct DealRow<'a> {
    /// Deal index in the run.
    pub deal: u64,
    /// The deal's seed (`tresillo deal --seed` prints the deal).
    pub deal_seed: u64,
    /// The seating: the agent slot of seats 0, 1, 2 (for example `120`).
    pub seating: &'static str,
    /// The rule set.
    pub rules: &'static str,
    /// Agent spec in seat 0.
    pub agent0: &'a str,
    /// Agent spec in seat 1.
    pub agent1: &'a str,
    /// Agent spec in seat 2.
    pub agent2: &'a str,
    /// The dealer.
    pub dealer: u8,
    /// The auction: `seat:call` in order, `P` for paso, the level otherwise.
    pub bids: String,
    /// `entrada`, `vuelta`, `solo`, or empty when cancelled.
    pub contract: &'static str,
    /// Trumps, or empty.
    pub trump: &'static str,
    /// The declarer who won the auction, or empty.
    pub declarer: Option<u8>,
    /// Its agent spec.
    pub declarer_agent: &'a str,
    /// 1 for espada forzada.
    pub forced: u8,
    /// Cards exchanged by seat 0.
    pub exchanged0: u8,
    /// Cards exchanged by seat 1.
    pub exchanged1: u8,
    /// Cards exchanged by seat 2.
    pub exchanged2: u8,
    /// The first opponent.
    pub first_opponent: Option<u8>,
    /// Tricks of seat 0.
    pub tricks0: u8,
    /// Tricks of seat 1.
    pub tricks1: u8,
    /// Tricks of seat 2.
    pub tricks2: u8,
    /// `sacado`, `puesta`, `codillo` or `cancelled`, for the final declarer.
    pub outcome: &'static str,
    /// For a puesta: `plain`, `sabia`, `real` or `surrendered`.
    pub puesta_kind: &'static str,
    /// The codillo winner.
    pub codillo_winner: Option<u8>,
    /// The declarer who gave up, if one did.
    pub surrendered: Option<u8>,
    /// The opponent who took over (*yo sigo*).
    pub took_over: Option<u8>,
    /// 1 when the declarer stopped with primeras.
    pub primeras: u8,
    /// `made`, `failed`, or empty.
    pub bola: &'static str,
    /// 1 when the declarer held the estuche when play began.
    pub estuche: u8,
    /// The amount in play (empty in `lhombre`, paid per defender without one).
    pub aip: Option<i64>,
    /// Seat 0's change through the plato and payments between players.
    pub pool0: i64,
    /// Seat 0's condiciones.
    pub cond0: i64,
    /// Seat 1's pool change.
    pub pool1: i64,
    /// Seat 1's condiciones.
    pub cond1: i64,
    /// Seat 2's pool change.
    pub pool2: i64,
    /// Seat 2's condiciones.
    pub cond2: i64,
    /// Debts written on the paper against seat 0 (session scoring; empty in rule
    /// sets without the paper: `hombre`, `lhombre`).
    pub debt0: Option<i64>,
    /// Debts against seat 1.
    pub debt1: Option<i64>,
    /// Debts against seat 2.
    pub debt2: Option<i64>,
    /// Seats at the table: 3, or 4 (RULES.md section 12.2).
    pub players: u8,
    /// Agent spec in seat 3 (four players).
    pub agent3: Option<&'a str>,
    /// Cards exchanged by seat 3 (four players).
    pub exchanged3: Option<u8>,
    /// Tricks of seat 3 (four players).
    pub tricks3: Option<u8>,
    /// Seat 3's pool change (four players).
    pub pool3: Option<i64>,
    /// Seat 3's condiciones (four players).
    pub cond3: Option<i64>,
    /// Debts against seat 3 (four players).
    pub debt3: Option<i64>,
    /// 1 when the dealer penetró (four players).
    pub penetro: Option<u8>,
    /// The player who dropped out of a penetro.
    pub dropped_out: Option<u8>,
    /// 1 when the others made the espada's holder play a gascarille (`hombre`
    /// with its option `gascarille`; empty otherwise).
    pub gascarille: Option<u8>,
    /// 1 when the declarer declared the vole before the first trick (`hombre`;
    /// empty in rule sets without a declared vole).
    pub vole_declared: Option<u8>,
}

/// What one scoring unit produced.
#[derive(Debug)]
pub struct UnitOutput<'a> {
    /// The unit index.
    pub unit: u64,
    /// Its rows, in deal order then seating order.
    pub rows: Vec<DealRow<'a>>,
    /// Its statistics.
    pub stats: Stats,
    /// One record per row, in the same order, when the tournament records
    /// ([`Tournament::recording`]); empty otherwise.
    pub records: Vec<HandRecord>,
    /// What each agent slot spent (decisions, work, times) and the hands with
    /// forfeits: counts exact, times measured ([`crate::compute`]).
    pub compute: Compute,
}

const SEATING_NAMES: [&str; 6] = ["012", "021", "102", "120", "201", "210"];
const SEATING_NAMES4: [&str; 24] = [
    "0123", "0132", "0213", "0231", "0312", "0321", "1023", "1032", "1203", "1230", "1302", "1320", "2013",
    "2031", "2103", "2130", "2301", "2310", "3012", "3021", "3102", "3120", "3201", "3210",
];

/// A configured tournament.
#[derive(Clone, Debug)]
pub struct Tournament {
    config: TournamentConfig,
    registry: Registry,
    record: bool,
    book: Option<std::sync::Arc<crate::book::DealBook>>,
}

/// What sits in a seat during a tournament: the slot's agent, and the bidding agent
/// of [`TournamentConfig::bidding`] when there is one.
pub type SeatPlayer = SplitPlayer<Seated>;

/// One set of agents per worker thread of the current rayon pool, kept across
/// calls of [`Tournament::run_in`]; dropped (and external bots ended) with it.
#[derive(Default)]
pub struct AgentSlots(Vec<std::sync::Mutex<Vec<MeteredSeat>>>);

/// A seat as the runner plays it: the slot's agent and the bidding agent each in
/// its own [`Metered`], so that the bidding agent's decisions, work and times
/// are charged to it ([`Compute::bidding`]), not to the slot it bids for.
pub type MeteredSeat = SplitPlayer<Metered<Seated>>;

impl AgentSlots {
    /// Empty slots for the threads of the current pool (call it inside the pool
    /// the run uses, as `pool.install(AgentSlots::new)`).
    #[must_use]
    pub fn new() -> AgentSlots {
        AgentSlots((0..rayon::current_num_threads()).map(|_| std::sync::Mutex::new(Vec::new())).collect())
    }
}

impl Tournament {
    /// Checks the configuration and prepares the run, with the built-in agents.
    pub fn new(config: TournamentConfig) -> Result<Tournament, SimError> {
        Tournament::with_registry(config, Registry::builtin())
    }

    /// Checks the configuration and prepares the run; the agent specs are built by
    /// `registry`, so agents defined outside this workspace play exactly as the
    /// built-in ones do (same seeds, same outputs).
    pub fn with_registry(config: TournamentConfig, registry: Registry) -> Result<Tournament, SimError> {
        config.validate_with(&registry)?;
        Ok(Tournament { config, registry, record: false, book: None })
    }

    /// Plays the deals of `book` instead of the master seed's: deal `i` is the
    /// book's deal `i` ([`crate::book::DealBook::deal`]). Refused when the run
    /// has more deals than the book.
    pub fn with_book(mut self, book: Option<crate::book::DealBook>) -> Result<Tournament, SimError> {
        if let Some(b) = &book
            && self.config.deals > b.len()
        {
            return Err(SimError::Config(ConfigError::Book(format!(
                "the run has {} deals but the deal book only {}",
                self.config.deals,
                b.len()
            ))));
        }
        self.book = book.map(std::sync::Arc::new);
        Ok(self)
    }

    /// Also returns a [`HandRecord`] of every hand played (in
    /// [`UnitOutput::records`]). Recording does not change what is played.
    #[must_use]
    pub fn recording(mut self, on: bool) -> Tournament {
        self.record = on;
        self
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &TournamentConfig {
        &self.config
    }

    /// Rows each agent slot plays per scoring unit.
    #[must_use]
    pub fn rows_per_unit(&self) -> u64 {
        self.config.scoring.unit_len() * self.config.seatings().len() as u64
    }

    /// The registry that builds the agents.
    #[must_use]
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The agents of the configuration, one per slot (cheats included: tournaments
    /// may measure upper bounds), each with the bidding agent when there is one.
    #[must_use]
    pub fn build_agents(&self) -> Vec<SeatPlayer> {
        let build = |s: &str| self.registry.build_seated(s).expect("validated");
        self.config
            .agents
            .iter()
            .map(|s| SplitPlayer {
                play: build(s),
                bidding: self.config.bidding.as_deref().map(build),
                covers: self.config.bidding_covers,
            })
            .collect()
    }

    /// [`Tournament::build_agents`], the slot's agent and the bidding agent
    /// each in a [`Metered`] that counts and times its decisions.
    #[must_use]
    pub fn metered_agents(&self) -> Vec<MeteredSeat> {
        self.build_agents()
            .into_iter()
            .map(|s| SplitPlayer {
                play: Metered::new(s.play),
                bidding: s.bidding.map(Metered::new),
                covers: s.covers,
            })
            .collect()
    }

    /// Plays scoring units `units` in parallel and maps each output with `f` (also
    /// in parallel); the results come back in unit order whatever the thread count.
    pub fn run<T: Send>(
        &self,
        units: Range<u64>,
        f: impl Fn(UnitOutput<'_>) -> T + Sync,
    ) -> Result<Vec<T>, SimError> {
        self.run_in(&AgentSlots::new(), units, f)
    }

    /// [`Tournament::run`] with the agents of `slots`: each worker thread of the
    /// current pool builds its agents once and keeps them in its slot, across
    /// every call that passes the same slots (so an external bot's process serves
    /// a whole run). Agents start every hand afresh ([`Agent::new_hand`]), so which
    /// thread plays which unit changes no result.
    ///
    /// [`Agent::new_hand`]: tresillo_agents::Agent::new_hand
    pub fn run_in<'t, T: Send>(
        &'t self,
        slots: &AgentSlots,
        units: Range<u64>,
        f: impl Fn(UnitOutput<'t>) -> T + Sync,
    ) -> Result<Vec<T>, SimError> {
        match self.run_in_kept(slots, units, f) {
            (outs, None) => Ok(outs),
            (_, Some(e)) => Err(e),
        }
    }

    /// [`Tournament::run_in`] that keeps what was finished when the run stops: the
    /// outputs of the units before the first one that failed (or before the first
    /// one not begun when the run was interrupted, [`tresillo_agents::interrupt`]),
    /// in unit order, and the error. Units after a failed one are not begun; units
    /// before it are played to the end, so the outputs kept are the same whatever
    /// the thread count.
    pub fn run_in_kept<'t, T: Send>(
        &'t self,
        slots: &AgentSlots,
        units: Range<u64>,
        f: impl Fn(UnitOutput<'t>) -> T + Sync,
    ) -> (Vec<T>, Option<SimError>) {
        use std::sync::atomic::{AtomicU64, Ordering};
        let first_failed = AtomicU64::new(u64::MAX);
        let outs: Vec<Option<Result<T, SimError>>> = units
            .into_par_iter()
            .map(|u| {
                if u > first_failed.load(Ordering::Relaxed) || tresillo_agents::interrupt::stop_requested() {
                    return None;
                }
                let slot = rayon::current_thread_index().and_then(|i| slots.0.get(i));
                // A slot in use (a unit nested in another on the same thread) or
                // missing (another pool): agents for this unit alone.
                let r = match slot.and_then(|m| m.try_lock().ok()) {
                    Some(mut agents) => {
                        if agents.is_empty() {
                            *agents = self.metered_agents();
                        }
                        self.play_unit(u, &mut agents).map(&f)
                    }
                    None => self.play_unit(u, &mut self.metered_agents()).map(&f),
                };
                if r.is_err() {
                    first_failed.fetch_min(u, Ordering::Relaxed);
                }
                Some(r)
            })
            .collect();
        let mut kept = Vec::with_capacity(outs.len());
        for o in outs {
            match o {
                Some(Ok(t)) => kept.push(t),
                // An agent stopped by the interruption is not at fault.
                Some(Err(SimError::Agent { .. })) if tresillo_agents::interrupt::stop_requested() => {
                    return (kept, Some(SimError::Interrupted));
                }
                Some(Err(e)) => return (kept, Some(e)),
                None => return (kept, Some(SimError::Interrupted)),
            }
        }
        (kept, None)
    }

    /// Plays one scoring unit with `agents` (one per slot, as built from the
    /// specs); the unit's compute is what they spent in it (their
    /// [`Metered::compute`] is taken, so it starts from zero).
    pub fn play_unit(&self, unit: u64, agents: &mut [MeteredSeat]) -> Result<UnitOutput<'_>, SimError> {
        let c = &self.config;
        let len = c.scoring.unit_len();
        let seatings = c.seatings();
        let mut rows = Vec::with_capacity((len as usize) * seatings.len());
        let mut records = Vec::new();
        let n = c.players;
        let mut stats = Stats::new(n, len);
        let mut unit_tantos = [0i64; 4];
        let mut forfeits = Vec::new();
        for a in agents.iter_mut() {
            a.play.compute = Default::default();
            if let Some(b) = &mut a.bidding {
                b.compute = Default::default();
            }
        }
        for (si, &seating) in seatings.iter().enumerate() {
            let mut ledger = LedgerConfig::with_rules(c.rules, n);
            // A `hombre` points session ends (and pays out its pot) with the unit.
            ledger.deals = len as u32;
            let mut scorer = Scorer::new(c.scoring.mode(), ledger).expect("a checked table");
            for i in unit * len..(unit + 1) * len {
                let (seed, deal) = match &self.book {
                    Some(b) => b.deal(c.seed, i),
                    None => (deal_seed(c.seed, i), deal_for_seed(deal_seed(c.seed, i))),
                };
                let dealer = Seat((i % u64::from(n)) as u8);
                let deal = deal.seated(c.rules.table(n), dealer);
                let mut hand = Hand::with_rules(c.rules, n, deal, dealer)
                    .map_err(|source| SimError::Hand { deal: i, source })?;
                let rng_seed = seating_rng_seed(seed, si);
                let mut rngs = seat_rngs(rng_seed);
                let swaps = permute(agents, seating);
                let played = if self.record {
                    play_recorded(&mut hand, agents, &mut rngs).map(|(r, steps)| (r, Some(steps)))
                } else {
                    tresillo_agents::play_hand(&mut hand, agents, &mut rngs).map(|r| (r, None))
                };
                if played.is_ok() {
                    for (seat, a) in agents.iter_mut().enumerate() {
                        let mut w = a.play.take_hand_work();
                        if let Some(b) = &mut a.bidding {
                            w.add(b.take_hand_work());
                        }
                        if w.forfeits > 0 {
                            forfeits.push(Forfeit {
                                deal: i,
                                seating: seating_name(seating).to_string(),
                                slot: seating[seat],
                                seat: seat as u8,
                                count: w.forfeits,
                            });
                        }
                    }
                }
                unpermute(agents, &swaps);
                let (r, steps) = played.map_err(|error| {
                    let slot = seating[usize::from(error.seat)];
                    SimError::Agent {
                        deal: i,
                        error: Box::new(error),
                        place: Some((seating_name(seating), slot)),
                    }
                })?;
                if let Some(steps) = steps {
                    let names = (0..usize::from(n)).map(|s| c.agents[seating[s] as usize].clone()).collect();
                    let mut rec = HandRecord::new(c.rules.set, deal, dealer, names, steps, r.clone());
                    rec.set_rules(&c.rules);
                    // A dealt line of a book has no deal seed (`seed` seeds the generators).
                    let dealt = self
                        .book
                        .as_ref()
                        .is_some_and(|b| matches!(b.deals()[i as usize], crate::book::BookDeal::Dealt(_)));
                    rec.seed = if dealt { None } else { Some(seed) };
                    rec.rng_seed = Some(rng_seed);
                    rec.bidding.clone_from(&c.bidding);
                    rec.bidding_covers = c.bidding_covers;
                    rec.tournament = Some(TournamentOrigin {
                        master_seed: c.seed,
                        deal: i,
                        seating: seating_name(seating).to_string(),
                    });
                    records.push(rec);
                }
                let score = scorer.apply(&r).map_err(|source| SimError::Scoring { deal: i, source })?;
                record(&mut stats, &r, &score, seating, &mut unit_tantos);
                rows.push(self.row(i, seed, seating, &r, &score));
            }
        }
        for (slot, t) in unit_tantos.iter().take(usize::from(n)).enumerate() {
            stats.agents[slot].units.add(*t);
        }
        let slots = agents.iter_mut().map(|a| std::mem::take(&mut a.play.compute)).collect();
        let bidding = c.bidding.is_some().then(|| {
            let mut sum = crate::compute::SlotCompute::default();
            for b in agents.iter_mut().filter_map(|a| a.bidding.as_mut()) {
                sum.merge(&std::mem::take(&mut b.compute));
            }
            sum
        });
        let compute = Compute { deals: len, slots, forfeits, bidding };
        Ok(UnitOutput { unit, rows, stats, records, compute })
    }

    fn row(&self, i: u64, seed: u64, seating: &[u8], r: &HandResult, s: &HandScore) -> DealRow<'_> {
        deal_row(&self.config.agents, i, seed, seating, r, s)
    }
}

/// The `deals.csv` row of a finished hand: deal `i` of seed `seed`, played under
/// `seating` (the agent slot of each seat) by `agents` (one spec per slot), its
/// result `r` scored `s`. What the tournament writes for each hand; a caller that
/// plays hands itself (a human study) writes its rows with it, so that they are
/// the tournament's exactly.
#[must_use]
pub fn deal_row<'a>(
    agents: &'a [String],
    i: u64,
    seed: u64,
    seating: &[u8],
    r: &HandResult,
    s: &HandScore,
) -> DealRow<'a> {
    let spec = |seat: usize| agents[seating[seat] as usize].as_str();
    // The columns of seat 3, and the penetro's, where the table has them.
    let four = usize::from(r.players) > 3;
    let penetro = r.table().penetro;
    let scoring = r.game_rules().spec().scoring;
    // Only the puesta system keeps the paper of debts.
    let paper = scoring == ScoringSystem::Puesta;
    let t = r.tricks.0;
    let mut bids = String::with_capacity(32);
    for (k, b) in r.bids.iter().enumerate() {
        if k > 0 {
            bids.push(' ');
        }
        bids.push(char::from(b'0' + b.seat.0));
        bids.push(':');
        match b.bid {
            Bid::Paso => bids.push('P'),
            Bid::Level(l) => bids.push(char::from(b'0' + l)),
        }
    }
    let (puesta_kind, codillo_winner) = match r.outcome {
        Outcome::Puesta { kind } => (
            match kind {
                PuestaKind::Plain => "plain",
                PuestaKind::Sabia => "sabia",
                PuestaKind::Real => "real",
                PuestaKind::Surrendered => "surrendered",
            },
            None,
        ),
        Outcome::Codillo { winner } => ("", Some(winner.0)),
        _ => ("", None),
    };
    DealRow {
        deal: i,
        deal_seed: seed,
        seating: seating_name(seating),
        rules: r.rules.name(),
        agent0: spec(0),
        agent1: spec(1),
        agent2: spec(2),
        dealer: r.dealer.0,
        bids,
        contract: r.contract.map_or("", Contract::name),
        trump: r.trump.map_or("", |x| x.name()),
        declarer: r.declarer.map(|d| d.0),
        declarer_agent: r.declarer.map_or("", |d| spec(d.index())),
        forced: u8::from(r.forced),
        exchanged0: r.exchanged.0[0],
        exchanged1: r.exchanged.0[1],
        exchanged2: r.exchanged.0[2],
        first_opponent: r.first_opponent.map(|s| s.0),
        tricks0: t[0],
        tricks1: t[1],
        tricks2: t[2],
        outcome: r.outcome.name(),
        puesta_kind,
        codillo_winner,
        surrendered: r.surrender.map(|x| x.by.0),
        took_over: r.surrender.and_then(|x| x.took_over).map(|x| x.0),
        primeras: u8::from(r.primeras),
        bola: match (r.bola_attempted, r.bola_made) {
            (true, true) => "made",
            (true, false) => "failed",
            _ => "",
        },
        estuche: u8::from(r.estuche),
        aip: (scoring != ScoringSystem::PerDefender).then_some(s.aip),
        pool0: s.pool.0[0],
        cond0: s.condiciones.0[0],
        pool1: s.pool.0[1],
        cond1: s.condiciones.0[1],
        pool2: s.pool.0[2],
        cond2: s.condiciones.0[2],
        debt0: paper.then_some(s.debts.0[0]),
        debt1: paper.then_some(s.debts.0[1]),
        debt2: paper.then_some(s.debts.0[2]),
        players: r.players,
        agent3: four.then(|| spec(3)),
        exchanged3: four.then_some(r.exchanged.0[3]),
        tricks3: four.then_some(t[3]),
        pool3: four.then_some(s.pool.0[3]),
        cond3: four.then_some(s.condiciones.0[3]),
        debt3: (four && paper).then_some(s.debts.0[3]),
        penetro: penetro.then_some(u8::from(r.penetro)),
        dropped_out: r.dropped_out.map(|x| x.0),
        gascarille: r.game_rules().gascarille().then_some(u8::from(r.gascarille)),
        vole_declared: r.game_rules().spec().declared_vole.then_some(u8::from(r.vole_declared)),
    }
}

/// The name of a seating in `deals.csv` (`120`: slot 1 in seat 0, slot 2 in seat
/// 1, slot 0 in seat 2; four digits at four players, `1230`).
#[must_use]
pub fn seating_name(seating: &[u8]) -> &'static str {
    if let Some(k) = SEATINGS.iter().position(|x| x[..] == *seating) {
        return SEATING_NAMES[k];
    }
    SEATING_NAMES4[SEATINGS4.iter().position(|x| x[..] == *seating).expect("a seating of three or four")]
}

/// The index in [`SEATINGS`] (or, for a name of four digits, in [`SEATINGS4`]) of
/// the seating named `name` (`012`, `120`, `1230`, ...).
#[must_use]
pub fn seating_index(name: &str) -> Option<usize> {
    let k = SEATING_NAMES.iter().chain(&SEATING_NAMES4).position(|n| *n == name)?;
    Some(if k < SEATING_NAMES.len() { k } else { k - SEATING_NAMES.len() })
}

/// The swaps that [`permute`] made, for [`unpermute`].
#[derive(Clone, Copy, Debug)]
struct Swaps {
    pairs: [(u8, u8); 4],
    len: usize,
}

/// Reorders the per-slot agents into seat order for `seating` (seat -> slot), by
/// swaps, and returns them.
fn permute<T>(agents: &mut [T], seating: &[u8]) -> Swaps {
    let mut out = Swaps { pairs: [(0, 0); 4], len: 0 };
    // at[k]: the slot of the agent now at position k.
    let mut at = [0u8, 1, 2, 3];
    for (seat, &slot) in seating.iter().enumerate() {
        let j = at.iter().position(|&x| x == slot).expect("a slot");
        if j != seat {
            agents.swap(seat, j);
            at.swap(seat, j);
            out.pairs[out.len] = (seat as u8, j as u8);
            out.len += 1;
        }
    }
    out
}

/// Undoes [`permute`].
fn unpermute<T>(agents: &mut [T], swaps: &Swaps) {
    for &(a, b) in swaps.pairs[..swaps.len].iter().rev() {
        agents.swap(usize::from(a), usize::from(b));
    }
}

fn record(stats: &mut Stats, r: &HandResult, s: &HandScore, seating: &[u8], unit: &mut [i64; 4]) {
    stats.rows += 1;
    if r.is_cancelled() {
        stats.cancelled += 1;
    }
    // Per-contract columns are entrada, vuelta and solo; a contrabola (`hombre`
    // option) counts among the hands declared only.
    let contract = r.contract.filter(|c| *c != Contract::Contrabola).map(Contract::index);
    let oc = match r.outcome {
        Outcome::Sacado => Some(0),
        Outcome::Puesta { .. } => Some(1),
        Outcome::Codillo { .. } => Some(2),
        Outcome::Cancelled => None,
    };
    for (seat, &slot) in seating.iter().enumerate() {
        let slot = slot as usize;
        let a = &mut stats.agents[slot];
        let total = s.pool.0[seat] + s.condiciones.0[seat];
        a.rows += 1;
        unit[slot] += total;
        match r.declarer {
            Some(d) if d.index() == seat => {
                a.declared += 1;
                a.forced += u64::from(r.forced);
                a.declarer.add(total);
                if let (Some(c), Some(o)) = (contract, oc) {
                    a.contracts[c] += 1;
                    // The declarer succeeds when the hand was won without a takeover.
                    let own = r.final_declarer() == r.declarer;
                    if own && o == 0 {
                        a.won[c] += 1;
                    }
                    a.outcomes[c][if own { o } else { 1 }] += 1;
                }
            }
            Some(_) => a.opponent.add(total),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::simple_config;

    #[test]
    fn permute_and_unpermute_are_inverse() {
        for s in &SEATINGS {
            let mut v = vec![0u8, 1, 2];
            let w = permute(&mut v, s);
            assert_eq!(v, s.to_vec(), "seat -> slot");
            unpermute(&mut v, &w);
            assert_eq!(v, vec![0, 1, 2]);
        }
        for s in &SEATINGS4 {
            let mut v = vec![0u8, 1, 2, 3];
            let w = permute(&mut v, s);
            assert_eq!(v, s.to_vec(), "seat -> slot");
            unpermute(&mut v, &w);
            assert_eq!(v, vec![0, 1, 2, 3]);
            assert_eq!(seating_index(seating_name(s)), SEATINGS4.iter().position(|x| x == s));
        }
        for (k, s) in SEATINGS.iter().enumerate() {
            assert_eq!(seating_index(seating_name(s)), Some(k));
        }
    }

    #[test]
    fn runs_are_identical_whatever_the_thread_count() {
        let t = Tournament::new(simple_config(["random"; 3], 60, 9, true)).unwrap();
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let a = one.install(|| {
            t.run(0..60, |u| (u.rows.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>(), u.stats))
        });
        let b = two.install(|| {
            t.run(0..60, |u| (u.rows.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>(), u.stats))
        });
        assert_eq!(a.unwrap(), b.unwrap());
    }

    #[test]
    fn the_cheat_can_sit_in_a_tournament() {
        let t = Tournament::new(simple_config(["cheat:rollouts=2", "rule", "random"], 4, 1, false)).unwrap();
        let out = t.run(0..4, |u| u.stats.rows).unwrap();
        assert_eq!(out.iter().sum::<u64>(), 4);
    }

    #[test]
    fn duplicate_plays_six_seatings() {
        let t = Tournament::new(simple_config(["random"; 3], 10, 3, true)).unwrap();
        let outs = t.run(0..10, |u| u.stats).unwrap();
        let mut s = Stats::default();
        for o in &outs {
            s.merge(o);
        }
        assert_eq!(s.rows, 60);
        assert_eq!(s.deals, 10);
        for a in &s.agents {
            assert_eq!(a.rows, 60);
        }
    }
}
