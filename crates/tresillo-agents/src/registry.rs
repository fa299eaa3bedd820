//! The agent registry: every agent is built from a spec string `name[:key=value]*`,
//! for example `rule:entrada=44:vuelta=50`.
//!
//! A [`Registry`] maps agent names to their description ([`AgentInfo`]) and a
//! builder. [`Registry::builtin`] holds the agents of this crate (`random`, `rule`,
//! `pimc`, and the experiments-only `cheat` and `oracle`), registered through the same
//! [`Registry::register`] / [`Registry::register_cheat`] calls that code outside the
//! workspace uses for its own agents; the tournament runner and the tuner take any
//! registry. [`build_agent`], [`build_seated`] and [`agent_infos`] are shorthands for
//! the built-in registry.
//!
//! ```
//! use tresillo_agents::{Agent, AgentInfo, AgentRng, Failure, ParamInfo, Registry, RuleAgent, RuleParams};
//! use tresillo_core::{Decision, PlayerView, Request};
//!
//! /// Plays the lowest legal card; every other decision as the rule agent.
//! struct Lowest(RuleAgent);
//! impl Agent for Lowest {
//!     fn name(&self) -> &str { "lowest" }
//!     fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
//!         Ok(match view.request() {
//!             Request::Play { legal, .. } => Decision::Play(legal.first().expect("a legal card")),
//!             _ => self.0.choose(view, rng),
//!         })
//!     }
//! }
//!
//! let mut registry = Registry::builtin();
//! let info = AgentInfo { name: "lowest", help: "lowest legal card", params: vec![
//!     ParamInfo { name: "entrada", default: "45".into(), help: "the rule agent's entrada threshold" },
//! ]};
//! registry.register(info, |p| {
//!     let mut rule = RuleParams::default();
//!     if let Some(e) = p.int("entrada", -1000, 1000)? { rule.entrada = e as i32; }
//!     Ok(Box::new(Lowest(RuleAgent::new(rule))))
//! })?;
//! assert_eq!(registry.build_agent("lowest:entrada=50")?.name(), "lowest");
//! assert!(registry.build_agent("lowest:solo=3").is_err()); // not a declared parameter
//! # Ok::<(), tresillo_agents::SpecError>(())
//! ```
//!
//! **Agents come from a registry.** Every subcommand, the tournament runner and the
//! tuner build agents from spec strings through a `Registry`; the CLI uses
//! `Registry::builtin()`, library callers may pass their own
//! (`Tournament::with_registry`). Configurations and manifests hold spec strings only,
//! so a run is described by serializable data whatever registry built it.

use crate::cheat::{Cheat, CheatAgent, Seated};
use crate::heuristic::rule::RuleAgent;
use crate::heuristic::rule_eval::RuleParams;
use crate::sampling::likelihood::InferParams;
use crate::search::ismcts::{Ismcts, IsmctsParams};
use crate::search::pimc::{Oracle, PimcAgent, PimcParams};
pub use crate::spec_error::SpecError;
use crate::{Agent, RandomAgent};
use std::fmt;
use std::sync::Arc;

/// One parameter of an agent, for `tresillo agents` and for checking specs.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamInfo {
    /// Its key.
    pub name: &'static str,
    /// Its default, as written in a spec.
    pub default: String,
    /// What it means.
    pub help: &'static str,
}

impl ParamInfo {
    /// Whether a spec may set `key` with this parameter: its name, or, for a name
    /// ending in `.` (a family such as an external bot's `opt.`), any longer key
    /// that begins with it.
    #[must_use]
    pub fn accepts(&self, key: &str) -> bool {
        match self.name.strip_suffix('.') {
            Some(_) => key.len() > self.name.len() && key.starts_with(self.name),
            None => self.name == key,
        }
    }
}

/// One agent of a registry: its name, what it does, and its parameters. A spec may
/// set only the parameters listed here.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentInfo {
    /// Its spec name.
    pub name: &'static str,
    /// What it does.
    pub help: &'static str,
    /// Its parameters.
    pub params: Vec<ParamInfo>,
}

/// The parameters of one spec, handed to a builder. Every key is one of the agent's
/// declared parameters (the registry checks that first), and none is repeated.
#[derive(Clone, Debug)]
pub struct Params<'a> {
    agent: &'a str,
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Params<'a> {
    /// The agent's name.
    #[must_use]
    pub fn agent(&self) -> &'a str {
        self.agent
    }

    /// The `key=value` pairs in spec order.
    #[must_use]
    pub fn pairs(&self) -> &[(&'a str, &'a str)] {
        &self.pairs
    }

    /// The value given for `key`, if any.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The error for a bad `value` of `key`.
    #[must_use]
    pub fn bad_value(&self, key: &str, value: &str, why: impl Into<String>) -> SpecError {
        SpecError::BadValue {
            agent: self.agent.into(),
            param: key.into(),
            value: value.into(),
            why: why.into(),
        }
    }

    /// `key` as an integer in `min..=max`, if given.
    pub fn int(&self, key: &str, min: i64, max: i64) -> Result<Option<i64>, SpecError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        let x: i64 = v.parse().map_err(|_| self.bad_value(key, v, "expected an integer"))?;
        if x < min || x > max {
            return Err(self.bad_value(key, v, format!("must be between {min} and {max}")));
        }
        Ok(Some(x))
    }

    /// `key` as a finite number in `min..=max`, if given.
    pub fn float(&self, key: &str, min: f64, max: f64) -> Result<Option<f64>, SpecError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        let x: f64 = v.parse().map_err(|_| self.bad_value(key, v, "expected a number"))?;
        if !x.is_finite() || x < min || x > max {
            return Err(self.bad_value(key, v, format!("must be between {min} and {max}")));
        }
        Ok(Some(x))
    }
}

/// Builds a fair agent from checked parameters.
type FairBuilder = dyn Fn(&Params<'_>) -> Result<Box<dyn Agent>, SpecError> + Send + Sync;
/// Builds an experiments-only agent that sees the whole hand.
type CheatBuilder = dyn Fn(&Params<'_>) -> Result<Box<dyn CheatAgent>, SpecError> + Send + Sync;

#[derive(Clone)]
enum Builder {
    Fair(Arc<FairBuilder>),
    Cheat(Arc<CheatBuilder>),
}

#[derive(Clone)]
struct Entry {
    info: AgentInfo,
    builder: Builder,
}

/// Agent names mapped to builders. Cheap to clone (builders are shared), `Send` and
/// `Sync`, so one registry serves every worker thread of a tournament.
#[derive(Clone, Default)]
pub struct Registry {
    entries: Vec<Entry>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.entries.iter().map(|e| e.info.name)).finish()
    }
}

impl Registry {
    /// A registry with no agents.
    #[must_use]
    pub fn empty() -> Registry {
        Registry::default()
    }

    /// The agents of this crate: `random`, `rule`, `pimc`, `ismcts`, `alphamu`
    /// and the experiments-only `cheat` and `oracle`.
    #[must_use]
    pub fn builtin() -> Registry {
        let mut r = Registry::empty();
        r.register(
            AgentInfo { name: "random", help: "uniform over the legal choices", params: vec![] },
            |_| Ok(Box::new(RandomAgent)),
        )
        .expect("a new name");
        r.register(
            AgentInfo {
                name: "rule",
                help: "club-player heuristics: hand evaluation against per-contract thresholds, \
                       trump drawing, cooperating opponents (no search, no memory)",
                params: rule_param_infos(),
            },
            |p| Ok(Box::new(RuleAgent::new(rule_params(p)?))),
        )
        .expect("a new name");
        register_ismcts(&mut r);
        let mut cheat_params = vec![ParamInfo {
            name: "rollouts",
            default: Cheat::default().rollouts.to_string(),
            help: "random playouts of the true deal per legal card",
        }];
        cheat_params.extend(rule_param_infos());
        r.register_cheat(
            AgentInfo {
                name: "cheat",
                help: "EXPERIMENTS ONLY: sees every hand; card play by playouts of the true deal \
                       (in hombre, lhombre and at four players scored by the ledger's stakes of the \
                       contract), the rest as rule (cannot be seated as a fair agent)",
                params: cheat_params,
            },
            |p| {
                let mut c = Cheat { rule: RuleAgent::new(rule_params(p)?), ..Cheat::default() };
                if let Some(n) = p.int("rollouts", 1, 1_000_000)? {
                    c.rollouts = n as u32;
                }
                Ok(Box::new(c))
            },
        )
        .expect("a new name");
        register_pimc(&mut r);
        register_alphamu(&mut r);
        r.register_cheat(
            AgentInfo {
                name: "oracle",
                help: "EXPERIMENTS ONLY: sees every hand; pimc's decisions solved on the true world \
                       (exact card play, surrender, takeover, bola; in hombre, lhombre and at four \
                       players also acceptance and the declared vole), the rest as rule: the upper bound",
                params: rule_param_infos(),
            },
            |p| Ok(Box::new(Oracle::new(rule_params(p)?))),
        )
        .expect("a new name");
        r
    }

    fn add(&mut self, info: AgentInfo, builder: Builder) -> Result<(), SpecError> {
        if self.entries.iter().any(|e| e.info.name == info.name) {
            return Err(SpecError::Duplicate(info.name.to_string()));
        }
        self.entries.push(Entry { info, builder });
        Ok(())
    }

    /// Registers a fair agent: `build` receives the spec's parameters, already
    /// checked against `info.params`, and returns the agent. Refused when the name
    /// is taken.
    pub fn register<F>(&mut self, info: AgentInfo, build: F) -> Result<(), SpecError>
    where
        F: Fn(&Params<'_>) -> Result<Box<dyn Agent>, SpecError> + Send + Sync + 'static,
    {
        self.add(info, Builder::Fair(Arc::new(build)))
    }

    /// Registers an agent that sees the whole hand, for upper-bound experiments
    /// only: [`Registry::build_seated`] builds it, [`Registry::build_agent`] refuses it.
    pub fn register_cheat<F>(&mut self, info: AgentInfo, build: F) -> Result<(), SpecError>
    where
        F: Fn(&Params<'_>) -> Result<Box<dyn CheatAgent>, SpecError> + Send + Sync + 'static,
    {
        self.add(info, Builder::Cheat(Arc::new(build)))
    }

    /// Adds parameters to the fair agent `name`: a spec that sets any of them
    /// builds the agent from its other parameters, then hands it with the added
    /// parameters' values (a [`Params`] of those alone) to `apply`, which returns
    /// the agent to seat (the same one given a model, or a wrapper). How a crate
    /// above this one (the learned models of `tresillo-learn`) adds its options
    /// to the built-in agents without this crate knowing of it. Refused when
    /// `name` is not a registered fair agent or already has one of the names.
    pub fn extend<F>(&mut self, name: &str, params: Vec<ParamInfo>, apply: F) -> Result<(), SpecError>
    where
        F: Fn(Box<dyn Agent>, &Params<'_>) -> Result<Box<dyn Agent>, SpecError> + Send + Sync + 'static,
    {
        let Some(entry) = self.entries.iter_mut().find(|e| e.info.name == name) else {
            return Err(SpecError::UnknownAgent { name: name.to_string(), known: String::new() });
        };
        let Builder::Fair(build) = &entry.builder else {
            return Err(SpecError::FullState(name.to_string()));
        };
        if let Some(p) = params.iter().find(|p| entry.info.params.iter().any(|q| q.name == p.name)) {
            return Err(SpecError::Duplicate(format!("{name}:{}", p.name)));
        }
        let build = build.clone();
        let keys: Vec<&'static str> = params.iter().map(|p| p.name).collect();
        entry.info.params.extend(params);
        entry.builder = Builder::Fair(Arc::new(move |p: &Params<'_>| {
            let (mine, rest): (Vec<_>, Vec<_>) = p.pairs.iter().partition(|(k, _)| keys.contains(k));
            let agent = build(&Params { agent: p.agent, pairs: rest })?;
            if mine.is_empty() { Ok(agent) } else { apply(agent, &Params { agent: p.agent, pairs: mine }) }
        }));
        Ok(())
    }

    /// Every registered agent, in registration order.
    #[must_use]
    pub fn infos(&self) -> Vec<AgentInfo> {
        self.entries.iter().map(|e| e.info.clone()).collect()
    }

    /// The agent named `name`, if registered.
    #[must_use]
    pub fn info(&self, name: &str) -> Option<&AgentInfo> {
        self.entries.iter().find(|e| e.info.name == name).map(|e| &e.info)
    }

    /// Parses `spec` and checks its parameters against the agent's declared ones.
    fn lookup<'s>(&self, spec: &'s str) -> Result<(&Entry, Params<'s>), SpecError> {
        // A spec is its agent's label in every table and file (or its `name=` is).
        if spec.chars().any(char::is_control) {
            return Err(SpecError::ControlCharacter(tresillo_core::printable(spec).into_owned()));
        }
        let (name, mut pairs) = split_spec(spec)?;
        // `name=LABEL` is every agent's: the label tables show, not the agent's;
        // so is `tc=` (a clock, [`clock_of`]).
        pairs.retain(|&(k, _)| k != "name" && k != "tc");
        let Some(entry) = self.entries.iter().find(|e| e.info.name == name) else {
            return Err(SpecError::UnknownAgent {
                name: name.to_string(),
                known: self.entries.iter().map(|e| e.info.name).collect::<Vec<_>>().join(", "),
            });
        };
        for (k, _) in &pairs {
            if !entry.info.params.iter().any(|p| p.accepts(k)) {
                let names: Vec<&str> = entry.info.params.iter().map(|p| p.name).collect();
                return Err(SpecError::UnknownParam {
                    agent: name.into(),
                    param: (*k).into(),
                    known: if names.is_empty() { "(none)".into() } else { names.join(", ") },
                });
            }
        }
        Ok((entry, Params { agent: name, pairs }))
    }

    /// Builds a fair agent from its spec, `name[:key=value]*`. Fair agents see only
    /// their seat's view; an agent registered with [`Registry::register_cheat`] is
    /// refused ([`SpecError::FullState`]).
    pub fn build_agent(&self, spec: &str) -> Result<Box<dyn Agent>, SpecError> {
        let (entry, params) = self.lookup(spec)?;
        let clock = clock_of(spec)?;
        match &entry.builder {
            Builder::Fair(b) => b(&params).map(|a| on_clock(a, clock)),
            Builder::Cheat(_) => Err(SpecError::FullState(params.agent.into())),
        }
    }

    /// Builds any registered agent, cheats included, for experiments ([`Seated`]).
    pub fn build_seated(&self, spec: &str) -> Result<Seated, SpecError> {
        let (entry, params) = self.lookup(spec)?;
        let clock = clock_of(spec)?;
        match &entry.builder {
            Builder::Fair(b) => b(&params).map(|a| Seated::Fair(on_clock(a, clock))),
            Builder::Cheat(_) if clock.is_some() => Err(SpecError::BadValue {
                agent: params.agent.into(),
                param: "tc".into(),
                value: spec_param(spec, "tc")?.unwrap_or_default().into(),
                why: "a clock is for agents that see only their seat".into(),
            }),
            Builder::Cheat(b) => b(&params).map(Seated::Cheat),
        }
    }
}

/// The clock a spec sets with `tc=` (every agent takes it: `rule:tc=60+0.5`,
/// [`crate::clock::TimeControl::parse`]), if any.
pub fn clock_of(spec: &str) -> Result<Option<crate::clock::TimeControl>, SpecError> {
    let Some(v) = spec_param(spec, "tc")? else { return Ok(None) };
    crate::clock::TimeControl::parse(v).map(Some).map_err(|why| SpecError::BadValue {
        agent: split_spec(spec).map(|(n, _)| n.to_string()).unwrap_or_default(),
        param: "tc".into(),
        value: v.into(),
        why: why.to_string(),
    })
}

/// `agent`, on `clock` when there is one.
fn on_clock(agent: Box<dyn Agent>, clock: Option<crate::clock::TimeControl>) -> Box<dyn Agent> {
    match clock {
        Some(tc) => Box::new(crate::clock::Clocked::new(agent, tc)),
        None => agent,
    }
}

/// Every agent of the built-in registry.
#[must_use]
pub fn agent_infos() -> Vec<AgentInfo> {
    Registry::builtin().infos()
}

/// Builds a fair agent of the built-in registry ([`Registry::build_agent`]).
pub fn build_agent(spec: &str) -> Result<Box<dyn Agent>, SpecError> {
    Registry::builtin().build_agent(spec)
}

/// Builds any agent of the built-in registry, cheats included, for experiments
/// ([`Registry::build_seated`]).
pub fn build_seated(spec: &str) -> Result<Seated, SpecError> {
    Registry::builtin().build_seated(spec)
}

/// The value a spec gives parameter `key` (`Ok(None)` when it is not set), read
/// as the registry reads specs (whitespace around names and values ignored).
pub fn spec_param<'a>(spec: &'a str, key: &str) -> Result<Option<&'a str>, SpecError> {
    Ok(split_spec(spec)?.1.into_iter().find(|&(k, _)| k == key).map(|(_, v)| v))
}

/// The rule agent's parameters with their defaults.
fn rule_param_infos() -> Vec<ParamInfo> {
    let d = RuleParams::default();
    RuleParams::INFO
        .iter()
        .map(|(name, help)| ParamInfo {
            name,
            default: d.get(name).expect("a rule parameter").to_string(),
            help,
        })
        .collect()
}

/// Registers `ismcts` (Information Set MCTS) with its parameters.
fn register_ismcts(r: &mut Registry) {
    let mut ismcts_params: Vec<ParamInfo> = IsmctsParams::INFO
        .iter()
        .map(|(name, help)| ParamInfo {
            name,
            default: IsmctsParams::default_of(name).expect("a search parameter"),
            help,
        })
        .collect();
    ismcts_params.extend(infer_param_infos());
    ismcts_params.extend(rule_param_infos());
    r.register(
        AgentInfo {
            name: "ismcts",
            help: "Information Set MCTS over card play, surrender, takeover and bola (one \
                   exactly sampled world per iteration, availability-count UCB, random or \
                   rule playouts; mo=1: one tree per seat), and in every rule set its own \
                   play-phase questions and ledger (hombre, lhombre, four players); \
                   auction, contract, exchange and conversation as rule with the rule \
                   parameters given",
            params: ismcts_params,
        },
        |p| Ok(Box::new(Ismcts::new(IsmctsParams::from_pairs(p.agent(), p.pairs())?))),
    )
    .expect("a new name");
}

/// Registers `pimc` (Perfect Information Monte Carlo) with its parameters.
fn register_pimc(r: &mut Registry) {
    let d = PimcParams::default();
    let mut pimc_params = vec![
        ParamInfo {
            name: "worlds",
            default: d.worlds.to_string(),
            help: "worlds drawn from the exact sampler and solved per decision (at least 1)",
        },
        ParamInfo {
            name: "adaptive",
            default: u8::from(d.adaptive).to_string(),
            help: "1: every 8 worlds, stop if no remaining world could change the card; 0: all",
        },
        ParamInfo {
            name: "threads",
            default: d.threads.to_string(),
            help: "threads of the pool sharing a card decision's searches (1: the calling thread; \
                   0: auto, 1 inside a tournament's or tune's worker pool, else up to 4; \
                   the same card and worlds drawn for any value)",
        },
        ParamInfo {
            name: "bid_worlds",
            default: d.bid_worlds.to_string(),
            help: "worlds drawn (once per hand) to value each contract and trump for the auction",
        },
        ParamInfo {
            name: "ms",
            default: d.ms.to_string(),
            help: "time per searched play-phase decision in milliseconds instead of `worlds` \
                   (worlds drawn until it has passed, at least one; 0: none; not reproducible)",
        },
        ParamInfo {
            name: "bid_margin",
            default: d.bid_margin.to_string(),
            help: "least mean bidding utility (hundredths of an AIP, 9 tantos) of a contract to bid it",
        },
        ParamInfo {
            name: "discard",
            default: "rule".to_string(),
            help: "this seat's own discards (three-player tresillo): rule, search (declarer and \
                   opponents: candidates around rule's discard valued by solving sampled worlds \
                   and draws after the exchange) or declarer (searched as declarer only)",
        },
        ParamInfo {
            name: "discard_worlds",
            default: d.discard_worlds.to_string(),
            help: "worlds (hidden cards and the draw) per searched discard (discard=search)",
        },
        ParamInfo {
            name: "discard_cands",
            default: d.discard_cands.to_string(),
            help: "most candidate discards a searched discard values, rule's first (1 to 12; 1: rule's)",
        },
        ParamInfo {
            name: "stakes",
            default: "ledger".to_string(),
            help: "the auction's and the bola decision's stakes in tresillo and tresillo-house: \
                   ledger (the rule set's own payments) or tresillo (tresillo's whatever the rule \
                   set; the agent before it asked the ledger, kept for an experiment)",
        },
        ParamInfo {
            name: "discard_z",
            default: d.discard_z.to_string(),
            help: "a searched discard leaves rule's only for a candidate whose mean gain over the \
                   worlds exceeds this many hundredths of its paired standard error (0: any gain)",
        },
    ];
    pimc_params.extend(infer_param_infos());
    pimc_params.extend(rule_param_infos());
    r.register(
        AgentInfo {
            name: "pimc",
            help: "Perfect Information Monte Carlo: card play, surrender, takeover and bola by \
                   solving worlds from the exact sampler (utility sacado +1, puesta -1, codillo -2 \
                   for the declarer's side; only the leading card searched beyond each world's \
                   value, same choice as solving every card); auction and contract by solving \
                   sampled deals after a simulated exchange (every player discarding as rule) as \
                   entrada and solo in each suit and as vuelta, valued by the rule set's ledger for a fresh deal; \
                   exchange as rule (or searched: discard=search, discard=declarer) and conversation as rule. In hombre and lhombre: card play, surrender, \
                   takeover, acceptance, bola/vole/tout and the declared vole by solving sampled \
                   worlds for the contract's objective (nolo, contrabola, cuatro, all tricks) \
                   valued by the ledger of a fresh deal; hombre's auction and contract by the \
                   same Monte Carlo valued by its ledger (bid_margin in hundredths of a simple \
                   game won); lhombre's auction, contract and exchange as rule; at four players \
                   the play phase likewise on four-player worlds, the rest as rule",
            params: pimc_params,
        },
        |p| {
            let mut q = PimcParams { rule: rule_params(p)?, ..PimcParams::default() };
            if let Some(n) = p.int("worlds", 1, 100_000)? {
                q.worlds = n as u32;
            }
            if let Some(a) = p.int("adaptive", 0, 1)? {
                q.adaptive = a == 1;
            }
            if let Some(t) = p.int("threads", 0, 64)? {
                q.threads = t as u32;
            }
            if let Some(ms) = p.int("ms", 0, 3_600_000)? {
                q.ms = ms as u32;
            }
            if let Some(n) = p.int("bid_worlds", 1, 10_000)? {
                q.bid_worlds = n as u32;
            }
            if let Some(m) = p.int("bid_margin", -300, 300)? {
                q.bid_margin = m as i32;
            }
            if let Some(n) = p.int("discard_worlds", 1, 100_000)? {
                q.discard_worlds = n as u32;
            }
            if let Some(n) = p.int("discard_cands", 1, crate::research::exchange::MAX_CANDIDATES as i64)? {
                q.discard_cands = n as u32;
            }
            if let Some(z) = p.int("discard_z", 0, 1000)? {
                q.discard_z = z as u32;
            }
            match p.get("discard") {
                None | Some("rule") => {}
                Some("search") => q.discard_search = true,
                Some("declarer") => (q.discard_search, q.discard_declarer_only) = (true, true),
                Some(v) => return Err(p.bad_value("discard", v, "expected rule, search or declarer")),
            }
            match p.get("stakes") {
                None | Some("ledger") => {}
                Some("tresillo") => q.tresillo_stakes = true,
                Some(v) => return Err(p.bad_value("stakes", v, "expected ledger or tresillo")),
            }
            q.infer = infer_params(p)?;
            Ok(Box::new(PimcAgent::new(q)))
        },
    )
    .expect("a new name");
}

/// Registers `alphamu` ([`crate::research::alphamu`]).
fn register_alphamu(r: &mut Registry) {
    use crate::research::alphamu::{AlphaMuAgent, AlphaMuParams, MAX_WORLDS};
    let d = AlphaMuParams::default();
    let mut params = vec![
        ParamInfo {
            name: "worlds",
            default: d.worlds.to_string(),
            help: "worlds drawn from the exact sampler per searched card decision (1 to 64)",
        },
        ParamInfo {
            name: "depth",
            default: d.depth.to_string(),
            help: "moves of this seat chosen alike in every world, the current one counted \
                   (1: pimc with adaptive=0; 1 to 9)",
        },
        ParamInfo {
            name: "late",
            default: d.late.to_string(),
            help: "search only card decisions with at most this many tricks left, the current \
                   one counted (1 to 9; the others as the inner pimc)",
        },
        ParamInfo {
            name: "pimc_worlds",
            default: d.pimc.worlds.to_string(),
            help: "worlds of the inner pimc (adaptive), which makes every decision not searched",
        },
        ParamInfo {
            name: "bid_worlds",
            default: d.pimc.bid_worlds.to_string(),
            help: "the inner pimc's worlds for the auction and contract",
        },
        ParamInfo {
            name: "bid_margin",
            default: d.pimc.bid_margin.to_string(),
            help: "the inner pimc's bid margin (hundredths of an AIP)",
        },
    ];
    params.extend(rule_param_infos());
    r.register(
        AgentInfo {
            name: "alphamu",
            help: "alpha-mu search (Cazenave and Ventos 2019) against pimc's strategy fusion: card \
                   play over sampled worlds with this seat's own next `depth` cards chosen alike in \
                   every world it cannot tell apart (Pareto fronts of per-world classes, the other \
                   seats choosing world by world, the solver's classes after the last), depth 1 \
                   being pimc; every other decision as an inner pimc (pimc_worlds). Three-player \
                   tresillo and tresillo-house only: in hombre, lhombre and at four players it \
                   plays as its inner pimc",
            params,
        },
        |p| {
            let mut q = AlphaMuParams::default();
            q.pimc.rule = rule_params(p)?;
            if let Some(n) = p.int("worlds", 1, i64::from(MAX_WORLDS))? {
                q.worlds = n as u32;
            }
            if let Some(n) = p.int("depth", 1, 9)? {
                q.depth = n as u32;
            }
            if let Some(n) = p.int("late", 1, 9)? {
                q.late = n as u32;
            }
            if let Some(n) = p.int("pimc_worlds", 1, 100_000)? {
                q.pimc.worlds = n as u32;
            }
            if let Some(n) = p.int("bid_worlds", 1, 10_000)? {
                q.pimc.bid_worlds = n as u32;
            }
            if let Some(m) = p.int("bid_margin", -300, 300)? {
                q.pimc.bid_margin = m as i32;
            }
            Ok(Box::new(AlphaMuAgent::new(q)))
        },
    )
    .expect("a new name");
}

/// The inference parameters (`infer`, `infer_temp`, ...) of `pimc` and `ismcts`.
fn infer_param_infos() -> Vec<ParamInfo> {
    InferParams::INFO
        .iter()
        .map(|&(name, default, help)| ParamInfo { name, default: default.into(), help })
        .collect()
}

/// The inference parameters a spec sets ([`InferParams`]).
fn infer_params(p: &Params<'_>) -> Result<InferParams, SpecError> {
    let mut q = InferParams::default();
    for (name, _, _) in InferParams::INFO {
        if let Some(v) = p.get(name) {
            q.set(name, v).map_err(|why| p.bad_value(name, v, why.to_string()))?;
        }
    }
    Ok(q)
}

/// The rule parameters a spec sets (other keys are left to the caller).
fn rule_params(p: &Params<'_>) -> Result<RuleParams, SpecError> {
    let mut r = RuleParams::default();
    for (name, _) in RuleParams::INFO {
        if let Some(x) = p.int(name, -1000, 1000)? {
            r.set(name, x as i32);
        }
    }
    Ok(r)
}

/// The `key=value` pairs of a spec.
pub type Pairs<'a> = Vec<(&'a str, &'a str)>;

/// Splits `s` at each `sep` outside double quotes; refuses a quote left open.
fn split_unquoted(s: &str, sep: char) -> Result<Vec<&str>, SpecError> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            out.push(&s[start..i]);
            start = i + c.len_utf8();
        }
    }
    if quoted {
        return Err(SpecError::Malformed(format!("{s} (a double quote is not closed)")));
    }
    out.push(&s[start..]);
    Ok(out)
}

/// Splits a spec into its name and `key=value` pairs. A value in double quotes
/// (`cmd="python3 C:/bots/x.py"`) may hold `:` and `,`; the quotes are not part of
/// it.
fn split_spec(spec: &str) -> Result<(&str, Pairs<'_>), SpecError> {
    let parts = split_unquoted(spec.trim(), ':')?;
    let mut parts = parts.into_iter();
    let name = parts.next().unwrap_or("").trim();
    let mut kv = Vec::new();
    for p in parts {
        let (k, v) = p.split_once('=').ok_or_else(|| SpecError::Malformed(p.to_string()))?;
        let k = k.trim();
        if kv.iter().any(|&(seen, _)| seen == k) {
            return Err(SpecError::RepeatedParam { agent: name.to_string(), param: k.to_string() });
        }
        let v = v.trim();
        let v = v.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(v);
        kv.push((k, v));
    }
    Ok((name, kv))
}

/// A spec's agent name and its `key=value` pairs, as the registry reads them
/// (quotes removed, `name=` included).
pub fn spec_parts(spec: &str) -> Result<(&str, Pairs<'_>), SpecError> {
    split_spec(spec)
}

/// The agent specs of a comma-separated list (`--agents`), each trimmed; a comma
/// inside double quotes belongs to its spec (`ext:cmd="bot --x=1,2",rule`).
pub fn split_specs(list: &str) -> Result<Vec<String>, SpecError> {
    Ok(split_unquoted(list, ',')?.into_iter().map(|s| s.trim().to_string()).collect())
}

/// The label a spec shows in tables: its `name=` value when it has one, else the
/// spec itself.
#[must_use]
pub fn spec_label(spec: &str) -> &str {
    match split_spec(spec) {
        Ok((_, pairs)) => pairs.iter().find(|(k, _)| *k == "name").map_or(spec, |(_, v)| v),
        Err(_) => spec,
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    /// `tc=` is every fair agent's key; a bad clock, or a clock on an agent
    /// that sees every hand, is a spec error naming it.
    #[test]
    fn every_fair_agent_takes_a_clock() {
        let r = Registry::builtin();
        for spec in ["rule:tc=60+0.5", "random:tc=1", "pimc:worlds=4:tc=10/300+1", "ismcts:tc=2+0.1:name=x"] {
            assert!(r.build_agent(spec).is_ok(), "{spec}");
        }
        let err = |spec: &str| r.build_seated(spec).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err("rule:tc=fast").contains("bad value `fast` for `tc`"), "{}", err("rule:tc=fast"));
        assert!(err("rule:tc=0").contains("above 0"), "{}", err("rule:tc=0"));
        assert!(
            err("cheat:tc=60").contains("a clock is for agents that see only their seat"),
            "{}",
            err("cheat:tc=60")
        );
    }

    #[test]
    fn a_parameter_ending_in_a_dot_accepts_a_family_of_keys() {
        let mut r = Registry::empty();
        let info = AgentInfo {
            name: "fam",
            help: "",
            params: vec![ParamInfo { name: "opt.", default: String::new(), help: "" }],
        };
        r.register(info, |p| {
            assert_eq!(p.get("opt.aggr"), Some("60"));
            Ok(Box::new(RandomAgent))
        })
        .unwrap();
        assert!(r.build_agent("fam:opt.aggr=60").is_ok());
        assert!(matches!(r.build_agent("fam:opt.=60"), Err(SpecError::UnknownParam { .. })));
        assert!(matches!(r.build_agent("fam:optaggr=60"), Err(SpecError::UnknownParam { .. })));
    }

    #[test]
    fn specs_parse_and_errors_list_valid_names() {
        assert_eq!(build_agent("rule:entrada=26:vuelta=31").unwrap().name(), "rule");
        assert_eq!(build_agent(" random ").unwrap().name(), "random");
        match build_agent("rule:foo=1") {
            Err(SpecError::UnknownParam { known, .. }) => {
                assert!(known.contains("entrada") && known.contains("vuelta") && known.contains("solo"))
            }
            other => panic!("{:?}", other.map(|a| a.name().to_string())),
        }
        assert!(matches!(build_agent("rule:entrada=x"), Err(SpecError::BadValue { .. })));
        assert!(matches!(build_agent("rule:entrada"), Err(SpecError::Malformed(_))));
        assert_eq!(spec_param("pimc: threads = 2 :worlds=8", "threads"), Ok(Some("2")));
        assert_eq!(spec_param("pimc:worlds=8", "threads"), Ok(None));
        assert_eq!(
            build_agent("rule:entrada=40:solo=50:entrada=50").err(),
            Some(SpecError::RepeatedParam { agent: "rule".into(), param: "entrada".into() })
        );
        assert!(matches!(
            build_seated("cheat:rollouts=2: rollouts =3"),
            Err(SpecError::RepeatedParam { .. })
        ));
        match build_agent("nope") {
            Err(SpecError::UnknownAgent { known, .. }) => {
                assert!(known.contains("rule") && known.contains("random"))
            }
            other => panic!("{:?}", other.map(|a| a.name().to_string())),
        }
        assert!(matches!(build_agent("random:x=1"), Err(SpecError::UnknownParam { .. })));
        assert!(matches!(build_agent("cheat"), Err(SpecError::FullState(_))));
        assert_eq!(build_seated("cheat:rollouts=4:entrada=40").unwrap().name(), "cheat");
        assert!(matches!(build_seated("cheat:rollouts=0"), Err(SpecError::BadValue { .. })));
        assert_eq!(build_agent("pimc:worlds=8:adaptive=0:entrada=40").unwrap().name(), "pimc");
        assert!(matches!(build_agent("pimc:worlds=0"), Err(SpecError::BadValue { .. })));
        assert!(matches!(build_agent("pimc:adaptive=2"), Err(SpecError::BadValue { .. })));
        assert!(matches!(build_agent("pimc:bid_worlds=0"), Err(SpecError::BadValue { .. })));
        assert_eq!(build_agent("pimc:bid_margin=-20").unwrap().name(), "pimc");
        assert!(matches!(build_agent("pimc:rollouts=2"), Err(SpecError::UnknownParam { .. })));
        assert!(matches!(build_agent("oracle"), Err(SpecError::FullState(_))));
        assert_eq!(build_seated("oracle:entrada=40").unwrap().name(), "oracle");
        assert_eq!(build_seated("rule").unwrap().name(), "rule");
    }

    #[test]
    fn infos_cover_every_buildable_agent() {
        for a in agent_infos() {
            let built = build_seated(a.name).unwrap();
            assert_eq!(built.name(), a.name);
            for p in &a.params {
                build_seated(&format!("{}:{}={}", a.name, p.name, p.default)).unwrap();
            }
        }
    }

    #[test]
    fn callers_extend_a_registry_and_names_stay_unique() {
        let mut r = Registry::builtin();
        let info = AgentInfo {
            name: "mine",
            help: "random under another name",
            params: vec![ParamInfo { name: "k", default: "1".into(), help: "a number" }],
        };
        r.register(info.clone(), |p| {
            p.int("k", 0, 9)?;
            Ok(Box::new(RandomAgent))
        })
        .unwrap();
        assert!(r.build_agent("mine:k=3").is_ok());
        assert!(matches!(r.build_agent("mine:k=10"), Err(SpecError::BadValue { .. })));
        assert!(matches!(r.build_agent("mine:j=1"), Err(SpecError::UnknownParam { .. })));
        assert_eq!(r.register(info, |_| Ok(Box::new(RandomAgent))), Err(SpecError::Duplicate("mine".into())));
        assert!(r.info("mine").is_some() && r.infos().len() == Registry::builtin().infos().len() + 1);
        // The built-in shorthands do not see it.
        assert!(matches!(build_agent("mine"), Err(SpecError::UnknownAgent { .. })));
        assert!(matches!(Registry::empty().build_agent("rule"), Err(SpecError::UnknownAgent { .. })));
    }
}
