//! The agents that use trained models, and how they are named in specs
//! ([`register`]):
//!
//! - `net:model=M` plays by a network alone, no search: the legal action of
//!   highest output at each step (a policy's most likely action, a value model's
//!   best), `temp=T` (hundredths) samples from the softmax instead;
//! - `loc=M` on `pimc` and `ismcts` weights the sampled worlds by a
//!   card-location model ([`LocationLikelihood`]), as `infer=1` weights them by
//!   the soft rule model;
//! - `bid=M` on any fair agent makes its auction and contract decisions by a
//!   value or policy network ([`NetBidder`]), everything else its own.
//!
//! `M` is a model file's path or `builtin/NAME` ([`builtin_models`]). Every
//! agent is given its seat's view only; the networks' inputs are computed from
//! it ([`crate::features`]).

use crate::features;
use crate::model::{Kind, ModelError, Net};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tresillo_agents::{Agent, AgentRng, Failure, Likelihood, ParamInfo, Registry, SpecError, World, below};
use tresillo_core::action::{Action, NUM_ACTIONS};
use tresillo_core::{CardSet, Decision, PlayerView, Request, Seat};
use tresillo_env::decide_by_actions;

/// The models shipped in the binary, by name (`builtin/NAME`): the files of the
/// repository's models/ (models/README.md says how each was trained).
#[must_use]
pub fn builtin_models() -> &'static [(&'static str, &'static [u8])] {
    &[
        ("locations-rule", include_bytes!("../../../models/locations-rule.safetensors")),
        ("locations-hombre", include_bytes!("../../../models/locations-hombre.safetensors")),
        ("locations-lhombre", include_bytes!("../../../models/locations-lhombre.safetensors")),
        ("locations-four", include_bytes!("../../../models/locations-four.safetensors")),
        ("policy-pimc", include_bytes!("../../../models/policy-pimc.safetensors")),
        ("value-bids-rule", include_bytes!("../../../models/value-bids-rule.safetensors")),
    ]
}

/// `lpimc`'s parameters beyond `pimc`'s: the shipped models and the pool and
/// power they were measured with (results/README.md, "learn-*").
pub const LPIMC_DEFAULTS: [(&str, &str); 4] = [
    (
        "loc",
        "builtin/locations-rule+builtin/locations-hombre+builtin/locations-lhombre+builtin/locations-four",
    ),
    ("loc_pow", "40"),
    ("infer_pool", "32"),
    ("bid", "builtin/value-bids-rule"),
];

/// Where `c` lies in `world`, as [`crate::data::PLACES`] numbers it for `me`.
pub(crate) fn place(world: &World, me: Seat, n: u8, c: tresillo_core::Card) -> usize {
    if world.heap.contains(c) {
        return 4;
    }
    for k in 1..n {
        let s = me.plus(k, n);
        if world.hands[s].contains(c) {
            return usize::from(k);
        }
        if world.discards[s].contains(c) {
            return 5;
        }
    }
    0
}

/// Refuses a model of another kind than `kind`.
fn of_kind(net: &Net, kind: Kind) -> Result<(), ModelError> {
    match net.info().kind {
        k if k == kind => Ok(()),
        k => Err(ModelError::Invalid(format!("a {} model, not a {} model", k.name(), kind.name()))),
    }
}

/// A batched likelihood's weight of one world.
fn one_world(l: &impl Likelihood, view: &PlayerView, world: &World) -> f64 {
    let mut out = Vec::new();
    l.log_weights(view, std::slice::from_ref(world), &mut out);
    out[0]
}

/// Worlds weighted by a card-location model: a world's log-weight is the sum,
/// over the cards the seat cannot see, of the model's log-probability of the
/// card's place in it (the cards taken as independent, as Kermit's inference
/// takes them). The exact sampler draws every consistent world alike, so these
/// weights make the pool a sample of the model's posterior over consistent
/// worlds.
pub struct LocationLikelihood {
    net: Arc<Net>,
    power: f64,
}

impl LocationLikelihood {
    /// A likelihood of a locations model, its log-weights multiplied by `power`
    /// (at most 1: the product over cards taken as independent is overconfident,
    /// and a power below 1 flattens it).
    pub fn new(net: Arc<Net>, power: f64) -> Result<LocationLikelihood, ModelError> {
        of_kind(&net, Kind::Locations)?;
        Ok(LocationLikelihood { net, power })
    }

    /// The model's log-probabilities for `view`: 40 cards x 5 places.
    pub fn log_probs(&self, view: &PlayerView) -> Result<Vec<f32>, ModelError> {
        let mut out = self.net.run(features::input(view, CardSet::EMPTY), 1)?;
        for card in out.chunks_mut(crate::data::LOCATIONS) {
            let m = card.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let z = card.iter().map(|x| (x - m).exp()).sum::<f32>().ln() + m;
            for x in card.iter_mut() {
                *x -= z;
            }
        }
        Ok(out)
    }
}

impl Likelihood for LocationLikelihood {
    fn log_weight(&self, view: &PlayerView, world: &World) -> f64 {
        one_world(self, view, world)
    }

    fn log_weights(&self, view: &PlayerView, worlds: &[World], out: &mut Vec<f64>) {
        out.clear();
        if !self.net.fits(view) {
            // A model of another game weights nothing: the uniform worlds.
            out.resize(worlds.len(), 0.0);
            return;
        }
        let Ok(lp) = self.log_probs(view) else {
            // A model that cannot run weights nothing: the uniform worlds.
            out.resize(worlds.len(), 0.0);
            return;
        };
        let (me, n) = (view.seat(), view.public().players);
        let unseen = view.unseen_cards();
        out.extend(worlds.iter().map(|w| {
            unseen
                .iter()
                .map(|c| match place(w, me, n, c) {
                    0 => 0.0,
                    p => f64::from(lp[c.index() * crate::data::LOCATIONS + p - 1]),
                })
                .sum::<f64>()
                * self.power
        }));
    }
}

/// Several models of one kind for several games (`loc=A+B`): each view is
/// weighted by the first whose game it is ([`Net::fits`]), and by none (the
/// uniform worlds) when no model is of its game.
pub struct ByGame(pub Vec<(Arc<Net>, Box<dyn Likelihood>)>);

impl ByGame {
    fn part(&self, view: &PlayerView) -> Option<&dyn Likelihood> {
        self.0.iter().find(|(net, _)| net.fits(view)).map(|(_, l)| &**l)
    }
}

impl Likelihood for ByGame {
    fn log_weight(&self, view: &PlayerView, world: &World) -> f64 {
        self.part(view).map_or(0.0, |l| l.log_weight(view, world))
    }

    fn log_weights(&self, view: &PlayerView, worlds: &[World], out: &mut Vec<f64>) {
        match self.part(view) {
            Some(l) => l.log_weights(view, worlds, out),
            None => {
                out.clear();
                out.resize(worlds.len(), 0.0);
            }
        }
    }
}

/// Policy-Based Inference (Rebstock et al. 2019): a world's log-weight is the
/// log-probability, under a policy network imitating the other players, of
/// every public decision the *other* seats made in it. Each world is replayed
/// ([`World::replay_visit`]); at each bid, contract, word, card and yes/no answer
/// of another seat with a choice (two legal actions or more), the network is
/// given that seat's view in the world and the action taken is scored by the
/// softmax of its outputs over the legal actions. Discards (several steps, none
/// public) are left to the card-location model. One forward pass answers a
/// whole pool. A world the rules reject on replay is ruled out.
pub struct PolicyLikelihood {
    net: Arc<Net>,
    power: f64,
    cards_only: bool,
}

impl PolicyLikelihood {
    /// A likelihood of a policy model, its log-weights multiplied by `power`.
    pub fn new(net: Arc<Net>, power: f64) -> Result<PolicyLikelihood, ModelError> {
        of_kind(&net, Kind::Policy)?;
        Ok(PolicyLikelihood { net, power, cards_only: false })
    }

    /// The same, scoring the cards played alone (not the auction, contract,
    /// words and answers) when `cards_only`.
    #[must_use]
    pub fn cards_only(self, cards_only: bool) -> PolicyLikelihood {
        PolicyLikelihood { cards_only, ..self }
    }
}

impl Likelihood for PolicyLikelihood {
    fn log_weight(&self, view: &PlayerView, world: &World) -> f64 {
        one_world(self, view, world)
    }

    fn log_weights(&self, view: &PlayerView, worlds: &[World], out: &mut Vec<f64>) {
        out.clear();
        out.resize(worlds.len(), 0.0);
        if !self.net.fits(view) {
            return;
        }
        let me = view.seat();
        // The scored decisions of every world: their inputs, one row each, and
        // (world, action taken, legal actions' range in `legal`).
        let mut inputs: Vec<f32> = Vec::new();
        let mut rows: Vec<(usize, usize, std::ops::Range<usize>)> = Vec::new();
        let mut legal: Vec<usize> = Vec::new();
        for (w, world) in worlds.iter().enumerate() {
            let replayed = world.replay_visit(view, |hand, d| {
                let Some(seat) = hand.request().seat().filter(|&s| s != me) else { return };
                if matches!(d, Decision::Discard(_)) || (self.cards_only && !matches!(d, Decision::Play(_))) {
                    return;
                }
                let Some(a) = Action::Decision(d).id() else { return };
                let v = hand.view(seat);
                let ids = tresillo_core::action::legal_ids(&v, Default::default());
                if ids.len() < 2 {
                    return;
                }
                let at = legal.len();
                legal.extend(ids);
                rows.push((w, a, at..legal.len()));
                inputs.extend(features::input(&v, CardSet::EMPTY));
            });
            if replayed.is_err() {
                out[w] = f64::NEG_INFINITY;
            }
        }
        if rows.is_empty() {
            return;
        }
        let Ok(y) = self.net.run(inputs, rows.len()) else {
            // A model that cannot run weights nothing: the uniform worlds.
            out.fill(0.0);
            return;
        };
        for (r, (w, a, range)) in rows.iter().enumerate() {
            let logits = &y[r * NUM_ACTIONS..(r + 1) * NUM_ACTIONS];
            let ids = &legal[range.clone()];
            let m = ids.iter().map(|&i| logits[i]).fold(f32::NEG_INFINITY, f32::max);
            let z = ids.iter().map(|&i| f64::from(logits[i] - m).exp()).sum::<f64>().ln();
            out[*w] += (f64::from(logits[*a] - m) - z) * self.power;
        }
    }
}

/// Policy-Based Inference on a few worlds of a larger pool: two-stage
/// sampling-importance-resampling. The pool's worlds are weighted by `first`
/// (the card-location model, or none: every world alike), `keep` of them are
/// resampled in proportion (systematic resampling, no random number drawn),
/// and those alone are scored by the policy (`second`): a world's log-weight is
/// the log of the times it was kept plus its policy log-likelihood, and the
/// worlds not kept are ruled out. The policy's cost is then that of `keep`
/// worlds whatever the pool's size.
pub struct StagedLikelihood {
    /// The first stage's model, over the whole pool (`None`: uniform).
    pub first: Option<Box<dyn Likelihood>>,
    /// The second stage's model, over the kept worlds.
    pub second: PolicyLikelihood,
    /// How many draws the second stage scores (at least 1).
    pub keep: usize,
}

impl Likelihood for StagedLikelihood {
    fn log_weight(&self, view: &PlayerView, world: &World) -> f64 {
        self.first.as_ref().map_or(0.0, |f| f.log_weight(view, world)) + self.second.log_weight(view, world)
    }

    fn log_weights(&self, view: &PlayerView, worlds: &[World], out: &mut Vec<f64>) {
        out.clear();
        let mut lw = Vec::with_capacity(worlds.len());
        match &self.first {
            Some(f) => f.log_weights(view, worlds, &mut lw),
            None => lw.resize(worlds.len(), 0.0),
        }
        let counts = systematic(&lw, self.keep.max(1));
        let kept: Vec<World> = worlds.iter().zip(&counts).filter(|(_, c)| **c > 0).map(|(w, _)| *w).collect();
        let mut second = Vec::with_capacity(kept.len());
        self.second.log_weights(view, &kept, &mut second);
        let mut k = second.iter();
        out.extend(counts.iter().map(|&c| {
            if c == 0 { f64::NEG_INFINITY } else { (c as f64).ln() + k.next().copied().unwrap_or(0.0) }
        }));
    }
}

/// How many times each of the worlds of log-weights `lw` is drawn when `n`
/// draws are made in proportion to the weights by systematic resampling (the
/// draws at `(i + 1/2) / n` of the cumulative weight): deterministic, and every
/// world of weight at least `1/n` of the total is drawn. All ruled out: none.
fn systematic(lw: &[f64], n: usize) -> Vec<usize> {
    let mut counts = vec![0; lw.len()];
    let m = lw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !m.is_finite() {
        return counts;
    }
    let w: Vec<f64> = lw.iter().map(|x| (x - m).exp()).collect();
    let total: f64 = w.iter().sum();
    let (mut cum, mut i) = (0.0, 0);
    for (k, x) in w.iter().enumerate() {
        cum += x / total * n as f64;
        while i < n && (i as f64 + 0.5) < cum {
            counts[k] += 1;
            i += 1;
        }
    }
    counts
}

/// The action a policy or value network picks among `legal` for `view` with
/// `building` chosen: the best output, or with `temp` > 0 a draw from the
/// softmax of the outputs divided by `temp`.
fn pick(
    net: &Net,
    view: &PlayerView,
    building: CardSet,
    legal: &[usize],
    temp: f64,
    rng: &mut AgentRng,
) -> Result<usize, Failure> {
    if legal.len() == 1 {
        return Ok(legal[0]);
    }
    let out = net
        .run(features::input(view, building), 1)
        .map_err(|e| Failure::new(format!("the network failed: {e}")))?;
    debug_assert_eq!(out.len(), NUM_ACTIONS);
    if temp <= 0.0 {
        return Ok(*legal.iter().max_by(|&&a, &&b| out[a].total_cmp(&out[b])).expect("a legal action"));
    }
    let m = legal.iter().map(|&a| out[a]).fold(f32::NEG_INFINITY, f32::max);
    let w: Vec<f64> = legal.iter().map(|&a| f64::from(out[a] - m) / temp).map(f64::exp).collect();
    let total: f64 = w.iter().sum();
    let mut u = f64::from(below(rng, 1 << 24)) / f64::from(1u32 << 24) * total;
    for (k, x) in w.iter().enumerate() {
        if u < *x {
            return Ok(legal[k]);
        }
        u -= x;
    }
    Ok(*legal.last().expect("a legal action"))
}

/// `net`: every decision by a policy or value network, action by action.
pub struct NetAgent {
    net: Arc<Net>,
    temp: f64,
}

impl NetAgent {
    /// An agent of a policy or value model; `temp` 0 plays the best output.
    pub fn new(net: Arc<Net>, temp: f64) -> Result<NetAgent, ModelError> {
        if net.info().kind == Kind::Locations {
            return Err(ModelError::Invalid(
                "a locations model chooses no action (loc= on pimc or ismcts uses it)".into(),
            ));
        }
        Ok(NetAgent { net, temp })
    }
}

impl Agent for NetAgent {
    fn name(&self) -> &str {
        "net"
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        let (net, temp) = (&self.net, self.temp);
        decide_by_actions(view, |b, legal| pick(net, view, b.chosen, legal, temp, rng))
    }
}

/// An agent whose auction and contract decisions (bids; contract and trump) a
/// value or policy network makes, every other decision the agent it wraps.
pub struct NetBidder {
    inner: Box<dyn Agent>,
    net: Arc<Net>,
}

impl NetBidder {
    /// `inner` bidding by `net`.
    pub fn new(inner: Box<dyn Agent>, net: Arc<Net>) -> Result<NetBidder, ModelError> {
        if net.info().kind == Kind::Locations {
            return Err(ModelError::Invalid(
                "a locations model cannot bid (bid= takes a value or policy model)".into(),
            ));
        }
        Ok(NetBidder { inner, net })
    }
}

impl Agent for NetBidder {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn new_hand(&mut self) {
        self.inner.new_hand();
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        match view.request() {
            Request::Bid { .. } | Request::Declare { .. } if self.net.fits(view) => {
                let legal = tresillo_core::action::legal_ids(view, Default::default());
                let a = pick(&self.net, view, CardSet::EMPTY, &legal, 0.0, rng)?;
                match Action::from_id(a) {
                    Some(Action::Decision(d)) => Ok(d),
                    other => Err(Failure::new(format!("the network chose {other:?} for a bid"))),
                }
            }
            _ => self.inner.decide(view, rng),
        }
    }
    fn end_hand(&mut self, result: &tresillo_core::HandResult) {
        self.inner.end_hand(result);
    }
    fn take_work(&mut self) -> tresillo_agents::Work {
        self.inner.take_work()
    }
    fn set_time(&mut self, time: &tresillo_agents::clock::TimeLeft) {
        self.inner.set_time(time);
    }
    fn set_likelihood(&mut self, model: Arc<dyn Likelihood>) -> bool {
        self.inner.set_likelihood(model)
    }
}

/// Reads a model file's bytes: the caller's (the command line reads files; the
/// libraries below it do no I/O). Its error is said as `reading NAME: ERROR`.
pub type ModelReader = Arc<dyn Fn(&str) -> std::io::Result<Vec<u8>> + Send + Sync>;

/// Models loaded once per registry and shared by every agent built from it.
#[derive(Clone)]
struct Models {
    read: ModelReader,
    cache: Arc<Mutex<HashMap<String, Arc<Net>>>>,
}

impl Models {
    fn get(&self, agent: &str, key: &str, name: &str) -> Result<Arc<Net>, SpecError> {
        let bad = |why: String| SpecError::BadValue {
            agent: agent.into(),
            param: key.into(),
            value: name.into(),
            why,
        };
        let mut cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = cache.get(name) {
            return Ok(n.clone());
        }
        let bytes = match name.strip_prefix("builtin/") {
            Some(b) => {
                builtin_models().iter().find(|(n, _)| *n == b).map(|(_, bytes)| bytes.to_vec()).ok_or_else(
                    || {
                        let names: Vec<&str> = builtin_models().iter().map(|(n, _)| *n).collect();
                        bad(format!(
                            "no built-in model {b:?} (built in: {})",
                            if names.is_empty() { "none".into() } else { names.join(", ") }
                        ))
                    },
                )?
            }
            None => (self.read)(name).map_err(|e| bad(format!("reading {name}: {e}")))?,
        };
        let net = Arc::new(Net::from_bytes(&bytes).map_err(|e| bad(e.to_string()))?);
        cache.insert(name.to_string(), net.clone());
        Ok(net)
    }
}

/// Registers `net` and the `loc=` and `bid=` parameters in `registry`, reading
/// model files with `read`.
pub fn register(registry: &mut Registry, read: ModelReader) -> Result<(), SpecError> {
    let models = Models { read, cache: Arc::default() };
    let m = models.clone();
    registry.register(
        tresillo_agents::AgentInfo {
            name: "net",
            help: "a trained policy or value network alone, no search (tresillo train; docs/LEARNING.md)",
            params: vec![
                ParamInfo {
                    name: "model",
                    default: "(required)".into(),
                    help: "the model: a file or builtin/NAME",
                },
                ParamInfo {
                    name: "temp",
                    default: "0".into(),
                    help: "0: the best action; T > 0: sample the softmax of the outputs / (T/100) (1-10000)",
                },
            ],
        },
        move |p| {
            let name = p.get("model").ok_or_else(|| SpecError::BadValue {
                agent: "net".into(),
                param: "model".into(),
                value: String::new(),
                why: "net needs model=FILE or model=builtin/NAME".into(),
            })?;
            let net = m.get("net", "model", name)?;
            let temp = p.int("temp", 0, 10_000)?.unwrap_or(0) as f64 / 100.0;
            NetAgent::new(net, temp)
                .map(|a| Box::new(a) as Box<dyn Agent>)
                .map_err(|e| p.bad_value("model", name, e.to_string()))
        },
    )?;
    for agent in ["pimc", "ismcts"] {
        if registry.info(agent).is_none() {
            continue;
        }
        let m = models.clone();
        registry.extend(
            agent,
            vec![
                ParamInfo {
                    name: "loc",
                    default: "(none)".into(),
                    help: "weight the sampled worlds by a card-location model (a file or builtin/NAME; tresillo train --kind locations); A+B: models of several games, each used in its own",
                },
                ParamInfo {
                    name: "loc_pow",
                    default: "100".into(),
                    help: "with loc: the power of the model's weights, percent (1-100; the cards are not independent, so the full product is overconfident)",
                },
                ParamInfo {
                    name: "pbi",
                    default: "(none)".into(),
                    help: "Policy-Based Inference: weight the sampled worlds by a policy model's probability of the other seats' decisions in them (a file or builtin/NAME; tresillo train --kind policy); with loc, both",
                },
                ParamInfo {
                    name: "pbi_pow",
                    default: "100".into(),
                    help: "with pbi: the power of the policy's weights, percent (1-100)",
                },
                ParamInfo {
                    name: "pbi_cards",
                    default: "0".into(),
                    help: "with pbi: 1 scores the cards the other seats played alone, 0 their bids, contract, words and answers too",
                },
                ParamInfo {
                    name: "pbi_keep",
                    default: "64".into(),
                    help: "with pbi: how many draws from the pool (weighted by loc, else uniform) the policy scores (1-100000); the others are left out",
                },
            ],
            move |mut a, p| {
                let (mut loc, mut policy): (Option<Box<dyn Likelihood>>, _) = (None, None);
                if let Some(value) = p.get("loc") {
                    let power = p.int("loc_pow", 1, 100)?.unwrap_or(100) as f64 / 100.0;
                    let mut parts: Vec<(Arc<Net>, Box<dyn Likelihood>)> = Vec::new();
                    for name in value.split('+') {
                        let net = m.get(agent, "loc", name)?;
                        let l = LocationLikelihood::new(net.clone(), power)
                            .map_err(|e| p.bad_value("loc", name, e.to_string()))?;
                        parts.push((net, Box::new(l)));
                    }
                    loc = Some(if parts.len() == 1 { parts.pop().expect("one").1 } else { Box::new(ByGame(parts)) });
                } else if let Some(v) = p.get("loc_pow") {
                    return Err(p.bad_value("loc_pow", v, "loc_pow goes with loc=MODEL"));
                }
                if let Some(value) = p.get("pbi") {
                    let net = m.get(agent, "pbi", value)?;
                    let power = p.int("pbi_pow", 1, 100)?.unwrap_or(100) as f64 / 100.0;
                    let l = PolicyLikelihood::new(net, power).map_err(|e| p.bad_value("pbi", value, e.to_string()))?;
                    policy = Some(l.cards_only(p.int("pbi_cards", 0, 1)? == Some(1)));
                } else {
                    for k in ["pbi_pow", "pbi_keep", "pbi_cards"] {
                        if let Some(v) = p.get(k) {
                            return Err(p.bad_value(k, v, format!("{k} goes with pbi=MODEL")));
                        }
                    }
                }
                let keep = p.int("pbi_keep", 1, 100_000)?.unwrap_or(64) as usize;
                let (first, value) = if p.get("loc").is_some() { ("loc", p.get("loc")) } else { ("pbi", p.get("pbi")) };
                let model: Arc<dyn Likelihood> = match policy {
                    Some(second) => Arc::new(StagedLikelihood { first: loc, second, keep }),
                    None => Arc::from(loc.expect("loc= or pbi=")),
                };
                if !a.set_likelihood(model) {
                    return Err(p.bad_value(first, value.unwrap_or(""), "this agent samples no worlds"));
                }
                Ok(a)
            },
        )?;
    }
    let names: Vec<&'static str> = registry.infos().iter().map(|i| i.name).filter(|n| *n != "net").collect();
    for agent in names {
        let m = models.clone();
        let added = registry.extend(
            agent,
            vec![ParamInfo {
                name: "bid",
                default: "(none)".into(),
                help: "make the auction and contract decisions by a value or policy network (a file or builtin/NAME)",
            }],
            move |a, p| {
                let value = p.get("bid").unwrap_or("");
                let net = m.get(agent, "bid", value)?;
                NetBidder::new(a, net).map(|b| Box::new(b) as Box<dyn Agent>).map_err(|e| SpecError::BadValue {
                    agent: agent.into(),
                    param: "bid".into(),
                    value: value.into(),
                    why: e.to_string(),
                })
            },
        );
        match added {
            // A cheat (the oracle) has no bid=, and an agent that declares `bid`
            // itself keeps its own.
            Ok(()) | Err(SpecError::FullState(_) | SpecError::Duplicate(_)) => {}
            Err(e) => return Err(e),
        }
    }
    register_lpimc(registry)
}

/// Registers `lpimc`: `pimc` with the shipped models by default
/// ([`LPIMC_DEFAULTS`]), the strongest fair agent of the toolkit in three-player
/// `tresillo` (results/README.md, "learn-*"); every `pimc` parameter may be set.
/// In other games the models do not apply ([`Net::fits`]) and it plays as `pimc`
/// with `infer_pool=32`.
fn register_lpimc(registry: &mut Registry) -> Result<(), SpecError> {
    let Some(pimc) = registry.info("pimc").cloned() else { return Ok(()) };
    let base = registry.clone();
    let params = pimc
        .params
        .iter()
        .map(|p| match LPIMC_DEFAULTS.iter().find(|(k, _)| *k == p.name) {
            Some((_, v)) => ParamInfo { default: (*v).to_string(), ..p.clone() },
            None => p.clone(),
        })
        .collect();
    registry.register(
        tresillo_agents::AgentInfo {
            name: "lpimc",
            help: "pimc with the shipped learned models: worlds weighted by the card-location networks (tresillo at three and four players, hombre, lhombre), the auction and contract by the value network (three-player tresillo); docs/LEARNING.md",
            params,
        },
        move |p| {
            let mut spec = String::from("pimc");
            for (k, v) in p.pairs() {
                spec.push_str(&format!(":{k}={v}"));
            }
            for (k, v) in LPIMC_DEFAULTS {
                if p.get(k).is_none() {
                    spec.push_str(&format!(":{k}={v}"));
                }
            }
            base.build_agent(&spec).map(|a| Box::new(Named("lpimc", a)) as Box<dyn Agent>)
        },
    )
}

/// An agent under another name.
struct Named(&'static str, Box<dyn Agent>);

impl Agent for Named {
    fn name(&self) -> &str {
        self.0
    }
    fn new_hand(&mut self) {
        self.1.new_hand();
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        self.1.decide(view, rng)
    }
    fn end_hand(&mut self, result: &tresillo_core::HandResult) {
        self.1.end_hand(result);
    }
    fn take_work(&mut self) -> tresillo_agents::Work {
        self.1.take_work()
    }
    fn set_time(&mut self, time: &tresillo_agents::clock::TimeLeft) {
        self.1.set_time(time);
    }
    fn set_likelihood(&mut self, model: Arc<dyn Likelihood>) -> bool {
        self.1.set_likelihood(model)
    }
}

#[cfg(test)]
mod tests {
    use super::systematic;

    #[test]
    fn systematic_resampling_draws_in_proportion_and_never_the_ruled_out() {
        let lw = [0.0, f64::NEG_INFINITY, 3f64.ln(), 0.0, 0.0, f64::NEG_INFINITY];
        let c = systematic(&lw, 12);
        assert_eq!(c.iter().sum::<usize>(), 12);
        // Weights 1, 0, 3, 1, 1, 0 of 6: 2, 0, 6, 2, 2, 0 draws of 12, exactly.
        assert_eq!(c, vec![2, 0, 6, 2, 2, 0]);
        // Every world of weight at least 1/n of the total is drawn.
        let c = systematic(&[0.0; 10], 10);
        assert!(c.iter().all(|&k| k == 1), "{c:?}");
        assert_eq!(systematic(&[f64::NEG_INFINITY; 3], 5), vec![0, 0, 0]);
        assert_eq!(systematic(&[], 5), Vec::<usize>::new());
    }
}
