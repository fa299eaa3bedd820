//! Training rows: one [`Row`] for every action of every decision of played
//! deals, with the deciding seat's input ([`crate::features`]) and three labels:
//! the action taken (a policy's target), where every card the seat cannot see
//! really lies (a card-location model's), and the seat's score for the hand (an
//! action-value's). A discard is its cards one action at a time, then "done"
//! (the action space of [`tresillo_core::action`]), each action a row whose
//! input holds the cards chosen before it.
//!
//! Deal `i` of a dataset with master seed `m` is the tournament's deal `i` of `m`
//! ([`tresillo_sim::seeds`]): the same cards, dealer `i mod players`, seat `s`
//! played by agent `s`. Every random choice (the agents', exploration's) flows
//! from the deal's seed, so a deal's rows are the same whatever the thread
//! count or the range it was made in.

use crate::features::{self, EXTRA, OBS};
use tresillo_agents::{Agent, AgentRng, Registry, SpecError, below, rng_from_seed, seat_rngs};
use tresillo_core::action::{Action, DiscardBuilder, NUM_ACTIONS, legal_ids};
use tresillo_core::{CardSet, Decision, Hand, HandError, PlayerView, Request, Rules, Seat};
use tresillo_env::observation;
use tresillo_sim::{deal_for_seed, deal_seed};

/// Bytes of the observation's bits.
pub const OBS_BYTES: usize = OBS.div_ceil(8);
/// Bytes of the extra values' bits.
pub const EXTRA_BYTES: usize = EXTRA.div_ceil(8);
/// Bytes of the legal actions' bits.
pub const LEGAL_BYTES: usize = NUM_ACTIONS.div_ceil(8);
/// The places a hidden card can be, as a card-location model predicts them.
pub const LOCATIONS: usize = 5;
/// The names of a card's place (a [`Row::owners`] value): 0, the card is known
/// to the seat (in its hand or discards, played, turned or shown: not a label);
/// 1 to 3, the hand of the next, second and third seat after it in turn order;
/// 4, the heap; 5, another seat's discards.
pub const PLACES: [&str; LOCATIONS + 1] = ["known", "next", "second", "third", "heap", "discards"];

/// One action of one decision, from the deciding seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The deal's index in the dataset.
    pub deal: u64,
    /// The deal's seed (its cards: [`tresillo_sim::seeds::deal_for_seed`]).
    pub seed: u64,
    /// The deciding seat.
    pub seat: u8,
    /// The agent (its index in the dataset's list) that decided.
    pub slot: u8,
    /// The kind of request (the observation tensor's request index, 0..15).
    pub phase: u8,
    /// The observation tensor's values as bits (the counts' positions are 0 here).
    pub obs: [u8; OBS_BYTES],
    /// The tensor's counts, undivided: tricks won, then cards exchanged, per
    /// relative seat ([`features::COUNT_POSITIONS`]).
    pub counts: [u8; 8],
    /// The extra values as bits ([`features::extra`]).
    pub extra: [u8; EXTRA_BYTES],
    /// The legal action ids as bits.
    pub legal: [u8; LEGAL_BYTES],
    /// The action id taken.
    pub action: u8,
    /// Where each card (by [`tresillo_core::Card::index`]) lies ([`PLACES`]).
    pub owners: [u8; 40],
    /// What the hand scored for the seat ([`tresillo_env::deal_scores`]).
    pub tantos: i32,
}

impl Row {
    /// The network input of the row ([`features::INPUT`] values) into `out`.
    pub fn input(&self, out: &mut [f32]) {
        features::unpack_bits(&self.obs, &mut out[..OBS]);
        for (k, &i) in features::COUNT_POSITIONS.iter().enumerate() {
            out[i] = f32::from(self.counts[k]) / 9.0;
        }
        features::unpack_bits(&self.extra, &mut out[OBS..features::INPUT]);
    }

    /// Whether action `a` was legal.
    #[must_use]
    pub fn is_legal(&self, a: usize) -> bool {
        a < NUM_ACTIONS && (self.legal[a / 8] >> (a % 8)) & 1 == 1
    }

    /// How many actions were legal.
    #[must_use]
    pub fn legal_count(&self) -> u32 {
        self.legal.iter().map(|b| b.count_ones()).sum()
    }
}

/// What a dataset plays.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The rule set and its options.
    pub rules: Rules,
    /// Seats at the table (3 or 4).
    pub players: u8,
    /// The master seed.
    pub seed: u64,
    /// Exploration: the percentage of auction and contract decisions (bids,
    /// contract and trump) taken uniformly among the legal actions instead of
    /// the agent's, so that an action-value model sees what other bids lead to.
    pub explore: u32,
    /// The kinds of request whose rows are kept, as a bit mask of their
    /// indices ([`Row::phase`]; [`phase_mask`] reads names); 0 keeps every row.
    pub phases: u16,
}

/// The request kinds by [`Row::phase`], as the observation tensor numbers them
/// ([`observation::request_index`]).
pub const PHASES: [&str; 15] = [
    "bid",
    "declare",
    "discard",
    "word",
    "play",
    "surrender",
    "takeover",
    "bola",
    "gascarille",
    "exchange_right",
    "accept_surrender",
    "declare_vole",
    "penetro",
    "drop_out",
    "done",
];

/// A phase of no known name ([`phase_mask`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown phase {0:?} (one of {phases})", phases = PHASES.join(", "))]
pub struct UnknownPhase(pub String);

/// The mask of [`Setup::phases`] for comma-separated names of [`PHASES`].
pub fn phase_mask(names: &str) -> Result<u16, UnknownPhase> {
    let mut m = 0;
    for n in names.split(',').map(str::trim) {
        let i = PHASES.iter().position(|p| *p == n).ok_or_else(|| UnknownPhase(n.to_string()))?;
        m |= 1 << i;
    }
    Ok(m)
}

/// Why a dataset could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// An agent spec did not build.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The rule set cannot be played at that table, or a deal is bad.
    #[error("deal {deal}: {source}")]
    Hand {
        /// The deal's index.
        deal: u64,
        /// What the engine said.
        source: HandError,
    },
    /// An agent failed or decided something illegal.
    #[error("deal {deal}: {why}")]
    Agent {
        /// The deal's index.
        deal: u64,
        /// What went wrong.
        why: String,
    },
}

/// The hand of deal `index` of master seed `seed`: the tournament's deal, dealer
/// `index mod players`.
pub fn new_hand(rules: Rules, players: u8, seed: u64, index: u64) -> Result<Hand, HandError> {
    let s = deal_seed(seed, index);
    let dealer = Seat((index % u64::from(players)) as u8);
    let deal = deal_for_seed(s).seated(rules.table(players), dealer);
    Hand::with_rules(rules, players, deal, dealer)
}

/// Where each card lies as `seat` would have to guess it ([`PLACES`]), from the
/// whole hand: the label, never an input.
#[must_use]
pub fn owners(hand: &Hand, seat: Seat) -> [u8; 40] {
    owners_known(hand, seat, hand.view(seat).known_cards())
}

/// [`owners`] given the cards `seat` knows.
fn owners_known(hand: &Hand, seat: Seat, known: CardSet) -> [u8; 40] {
    let n = hand.public().players;
    let mut out = [0u8; 40];
    for k in 1..n {
        let s = seat.plus(k, n);
        for c in hand.discards_of(s) - known {
            out[c.index()] = 5;
        }
        for c in hand.hand_of(s) - known {
            out[c.index()] = k;
        }
    }
    for c in hand.heap_remaining() - known {
        out[c.index()] = 4;
    }
    out
}

/// What the rows of one decision share: the seat's extra values as bits and the
/// labels of the hidden cards.
struct Shared {
    extra: [u8; EXTRA_BYTES],
    owners: [u8; 40],
}

/// The row of `view` choosing action `a` among `legal`, before its labels;
/// `t` is scratch space of [`OBS`] values.
fn row(
    view: &PlayerView,
    building: CardSet,
    legal: &[usize],
    a: usize,
    shared: &Shared,
    t: &mut [f32],
) -> Row {
    observation::write(view, building, t);
    let mut obs = [0u8; OBS_BYTES];
    let mut counts = [0u8; 8];
    for (k, &i) in features::COUNT_POSITIONS.iter().enumerate() {
        counts[k] = (t[i] * 9.0).round() as u8;
        t[i] = 0.0;
    }
    features::pack_bits(&t[..OBS], &mut obs);
    let mut lb = [0u8; LEGAL_BYTES];
    for &l in legal {
        lb[l / 8] |= 1 << (l % 8);
    }
    let phase = t[385..400].iter().position(|x| *x != 0.0).unwrap_or(14) as u8;
    Row {
        deal: 0,
        seed: 0,
        seat: view.seat().0,
        slot: 0,
        phase,
        obs,
        counts,
        extra: shared.extra,
        legal: lb,
        action: a as u8,
        owners: shared.owners,
        tantos: 0,
    }
}

/// Whether exploration may replace the agent's answer to `request`.
fn explorable(request: &Request) -> bool {
    matches!(request, Request::Bid { .. } | Request::Declare { .. })
}

/// Plays deal `index` of `setup` with `agents` (seat `s` is `agents[s]`) and
/// appends its rows to `out`.
pub fn play_deal(
    setup: &Setup,
    index: u64,
    agents: &mut [Box<dyn Agent>],
    out: &mut Vec<Row>,
) -> Result<(), DataError> {
    let n = setup.players;
    let mut hand = new_hand(setup.rules, n, setup.seed, index)
        .map_err(|source| DataError::Hand { deal: index, source })?;
    let seed = deal_seed(setup.seed, index);
    let mut rngs: [AgentRng; 4] = seat_rngs(seed);
    let mut explore_rng = rng_from_seed(seed ^ 0x005E_ED0F_E8B1_0BE5);
    let start = out.len();
    for a in agents.iter_mut() {
        a.new_hand();
    }
    while let Some(seat) = hand.request().seat() {
        let view = hand.view(seat);
        let i = seat.index();
        let fail = |why: String| DataError::Agent { deal: index, why };
        let explore =
            setup.explore > 0 && explorable(&view.request()) && below(&mut explore_rng, 100) < setup.explore;
        let decision = if explore {
            let legal = legal_ids(&view, DiscardBuilder::default());
            let a = legal[below(&mut explore_rng, legal.len() as u32) as usize];
            match Action::from_id(a) {
                Some(Action::Decision(d)) => d,
                other => return Err(fail(format!("exploration drew {other:?}"))),
            }
        } else {
            agents[i]
                .decide(&view, &mut rngs[i])
                .map_err(|f| fail(format!("{}: {}", agents[i].name(), f.reason())))?
        };
        let keep = setup.phases == 0 || setup.phases & (1 << observation::request_index(view.request())) != 0;
        let mut shared = Shared { extra: [0; EXTRA_BYTES], owners: [0; 40] };
        if keep {
            shared.owners = owners_known(&hand, seat, view.known_cards());
            let mut ex = [0f32; EXTRA];
            features::extra(&view, &mut ex);
            features::pack_bits(&ex, &mut shared.extra);
        }
        let mut t = [0f32; OBS];
        let mut push = |building: CardSet, legal: &[usize], a: usize| {
            if !keep {
                return;
            }
            let mut r = row(&view, building, legal, a, &shared, &mut t);
            r.deal = index;
            r.seed = seed;
            r.slot = seat.0;
            out.push(r);
        };
        match decision {
            Decision::Discard(set) => {
                let mut b = DiscardBuilder::default();
                let mut cards = set.iter();
                loop {
                    let legal = legal_ids(&view, b);
                    let next = cards.next();
                    let a = match next {
                        Some(c) => Action::DiscardCard(c).id(),
                        None => Action::DiscardDone.id(),
                    }
                    .ok_or_else(|| fail("a discard with no action id".into()))?;
                    if !legal.contains(&a) {
                        return Err(fail(format!(
                            "{} discarded {set}, not a legal sequence",
                            agents[i].name()
                        )));
                    }
                    push(b.chosen, &legal, a);
                    match next {
                        Some(c) => b.chosen.insert(c),
                        None => break,
                    };
                }
            }
            d => {
                let legal = legal_ids(&view, DiscardBuilder::default());
                let a = Action::Decision(d).id().ok_or_else(|| fail(format!("{d:?} has no action id")))?;
                push(CardSet::EMPTY, &legal, a);
            }
        }
        hand.apply(decision).map_err(|e| fail(format!("{}: {e}", agents[i].name())))?;
    }
    let result =
        hand.result().ok_or_else(|| DataError::Agent { deal: index, why: "the hand did not end".into() })?;
    for a in agents.iter_mut() {
        a.end_hand(&result);
    }
    let scores = tresillo_env::deal_scores(&result)
        .map_err(|e| DataError::Agent { deal: index, why: e.to_string() })?;
    for r in &mut out[start..] {
        r.tantos = scores[usize::from(r.seat)] as i32;
    }
    Ok(())
}

/// The rows of deals `range` of `setup`, played by `specs` (one per seat) built
/// from `registry`, on rayon's pool: the same rows, in deal order, whatever the
/// thread count.
pub fn play_deals(
    setup: &Setup,
    specs: &[String],
    registry: &Registry,
    range: std::ops::Range<u64>,
) -> Result<Vec<Row>, DataError> {
    use rayon::prelude::*;
    for s in specs {
        registry.build_agent(s)?;
    }
    const CHUNK: u64 = 64;
    let chunks: Vec<u64> = (range.start..range.end).step_by(CHUNK as usize).collect();
    let parts: Result<Vec<Vec<Row>>, DataError> = chunks
        .par_iter()
        .map(|&start| {
            let mut agents: Vec<Box<dyn Agent>> =
                specs.iter().map(|s| registry.build_agent(s)).collect::<Result<_, _>>()?;
            let mut rows = Vec::with_capacity(64 * 48);
            for i in start..(start + CHUNK).min(range.end) {
                play_deal(setup, i, &mut agents, &mut rows)?;
            }
            Ok(rows)
        })
        .collect();
    let parts = parts?;
    let mut rows = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for p in parts {
        rows.extend_from_slice(&p);
    }
    Ok(rows)
}

/// A uniform draw of `n` distinct row indices of `0..len` would be the usual
/// split; datasets are split by deal instead (every row of a deal on one side),
/// so that held-out rows are of deals never trained on: deal `d` is held out when
/// `splitmix64(d) % 100 < percent`.
#[must_use]
pub fn held_out(deal: u64, percent: u32) -> bool {
    tresillo_agents::splitmix64(deal ^ 0x00DD_BA11) % 100 < u64::from(percent)
}

/// Draws a permutation of `0..n` from `rng` (Fisher-Yates).
pub fn shuffle(order: &mut [usize], rng: &mut AgentRng) {
    for i in (1..order.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        order.swap(i, j);
    }
}
