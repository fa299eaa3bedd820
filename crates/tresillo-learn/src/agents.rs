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
        ("value-bids-rule", include_bytes!("../../../models/value-bids-rule.safetensors")),
    ]
}

/// `lpimc`'s parameters beyond `pimc`'s: the shipped models and the pool and
/// power they were measured with (results/README.md, "learn-*").
pub const LPIMC_DEFAULTS: [(&str, &str); 4] = [
    ("loc", "builtin/locations-rule"),
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
        if net.info().kind != Kind::Locations {
            return Err(ModelError::Invalid(format!(
                "a {} model, not a locations model",
                net.info().kind.name()
            )));
        }
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
        let mut out = Vec::new();
        self.log_weights(view, std::slice::from_ref(world), &mut out);
        out[0]
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
    fn set_likelihood(&mut self, model: Arc<dyn Likelihood>) -> bool {
        self.inner.set_likelihood(model)
    }
}

/// Reads a model file's bytes: the caller's (the command line reads files; the
/// libraries below it do no I/O).
pub type ModelReader = Arc<dyn Fn(&str) -> Result<Vec<u8>, String> + Send + Sync>;

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
            None => (self.read)(name).map_err(bad)?,
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
                    help: "weight the sampled worlds by a card-location model (a file or builtin/NAME; tresillo train --kind locations)",
                },
                ParamInfo {
                    name: "loc_pow",
                    default: "100".into(),
                    help: "with loc: the power of the model's weights, percent (1-100; the cards are not independent, so the full product is overconfident)",
                },
            ],
            move |mut a, p| {
                let value = p.get("loc").ok_or_else(|| p.bad_value("loc_pow", p.get("loc_pow").unwrap_or(""), "loc_pow goes with loc=MODEL"))?;
                let net = m.get(agent, "loc", value)?;
                let power = p.int("loc_pow", 1, 100)?.unwrap_or(100) as f64 / 100.0;
                let l = LocationLikelihood::new(net, power).map_err(|e| p.bad_value("loc", value, e.to_string()))?;
                if !a.set_likelihood(Arc::new(l)) {
                    return Err(p.bad_value("loc", value, "this agent samples no worlds"));
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
            help: "pimc with the shipped learned models: worlds weighted by the card-location network, the auction and contract by the value network (three-player tresillo; elsewhere pimc); docs/LEARNING.md",
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
    fn set_likelihood(&mut self, model: Arc<dyn Likelihood>) -> bool {
        self.1.set_likelihood(model)
    }
}
