//! Parameter tuning: search an agent's numeric parameters (for example the rule
//! agent's bidding thresholds) for the best mean tantos per deal against fixed
//! opponents. No I/O: the caller writes the candidates.
//!
//! The method is documented on [`Space`], the public entry point.
//!
//! Three methods (grid, coordinate, spsa) on common random numbers; SPSA's arithmetic
//! is `tune::spsa`, which `scripts/check-spsa.py` redoes independently.

use crate::config::{ConfigError, Scoring, Shard, TournamentConfig};
use crate::runner::{SimError, Tournament};
use crate::stats::{Moments, Stats};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use tresillo_agents::{Registry, SpecError};
use tresillo_core::Rules;

/// Most values one range may expand to.
pub const MAX_RANGE_VALUES: usize = 10_000;

/// A bad tuning request, or a failed evaluation.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The agent spec (or a candidate built from it) is refused by the registry.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A tuned parameter the agent does not have.
    #[error("agent `{agent}` has no parameter `{param}` to tune (its parameters: {known})")]
    UnknownParam {
        /// The agent.
        agent: String,
        /// The parameter given.
        param: String,
        /// The valid parameters.
        known: String,
    },
    /// A parameter range that does not parse.
    #[error(
        "bad parameter range `{text}`: {why} (expected NAME=START..END:STEP, for example \
         entrada=30..60:5, or NAME=V1,V2,..., for example entrada=40,45,50)"
    )]
    Range {
        /// The text given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// The same parameter given twice.
    #[error("parameter `{0}` is given twice")]
    DuplicateParam(String),
    /// Nothing to tune.
    #[error("no parameter to tune: give at least one NAME=RANGE")]
    NoParams,
    /// A parameter both fixed in the agent spec and tuned.
    #[error("parameter `{0}` is fixed in the agent spec and tuned: remove it from one of them")]
    FixedAndTuned(String),
    /// A start spec that does not fit the space.
    #[error("bad start spec `{spec}`: {why}")]
    Start {
        /// The start spec.
        spec: String,
        /// What is wrong with it.
        why: String,
    },
    /// An unknown search method.
    #[error("unknown search method `{0}` (known: grid, coordinate, spsa)")]
    Method(String),
    /// The search would need more evaluations than allowed.
    #[error(
        "the {method} search may need {needed} evaluations, more than the limit of {limit}: \
         shorten the ranges, use coordinate search, or raise the limit"
    )]
    TooManyEvaluations {
        /// The method.
        method: Method,
        /// The bound on its evaluations.
        needed: u128,
        /// The limit.
        limit: usize,
    },
    /// A bad opponent or deal count.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// More deals per candidate than a candidate's results may hold in memory.
    #[error(
        "{0} deals per candidate is more than the limit of {max}: a candidate keeps one number per \
         scoring unit for its paired comparison; split the question into smaller runs",
        max = TuneSetup::MAX_DEALS
    )]
    TooManyDeals(u64),
    /// An evaluation failed.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// Saved progress that is not this search's ([`Space::resume`]).
    #[error("the saved progress is not this search's: {0}")]
    Progress(String),
}

/// An exact decimal number: `m / 10^scale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decimal {
    m: i128,
    scale: u32,
}

impl Decimal {
    const MAX_SCALE: u32 = 9;

    fn parse(s: &str) -> Option<Decimal> {
        let s = s.trim();
        let (neg, digits) = match s.as_bytes().first()? {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty() || !all_digits(int) || !all_digits(frac) || int.len() > 18 {
            return None;
        }
        if digits.contains('.') && frac.is_empty() {
            return None;
        }
        let scale = frac.len() as u32;
        if scale > Self::MAX_SCALE {
            return None;
        }
        let m: i128 = format!("{int}{frac}").parse().ok()?;
        Some(Decimal { m: if neg { -m } else { m }, scale })
    }

    /// The mantissa at a larger scale.
    fn at(self, scale: u32) -> i128 {
        self.m * 10i128.pow(scale - self.scale)
    }

    fn render(m: i128, scale: u32) -> String {
        if scale == 0 {
            return m.to_string();
        }
        let p = 10i128.pow(scale);
        let sign = if m < 0 { "-" } else { "" };
        let a = m.abs();
        format!("{sign}{}.{:0width$}", a / p, a % p, width = scale as usize)
    }
}

/// One tuned parameter and the values to try, in order. Parses from
/// `NAME=START..END:STEP` (inclusive of `END` when it is on the step grid; the step
/// defaults to 1), `NAME=V1,V2,...` (duplicates dropped) or `NAME=V`. Values are
/// decimal numbers, kept as exact text: `0.1..0.3:0.1` gives `0.1`, `0.2`, `0.3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamRange {
    /// The parameter's key in the agent spec.
    pub name: String,
    /// The values, as written into candidate specs.
    pub values: Vec<String>,
}

impl FromStr for ParamRange {
    type Err = TuneError;

    fn from_str(text: &str) -> Result<ParamRange, TuneError> {
        let bad = |why: &str| TuneError::Range { text: text.to_string(), why: why.to_string() };
        let (name, range) = text.split_once('=').ok_or_else(|| bad("no `=`"))?;
        let name = name.trim();
        // A `.` joins a family and its member (an external bot's `opt.aggr`).
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.') {
            return Err(bad("the parameter name must be letters, digits, `_` or `.`"));
        }
        let range = range.trim();
        let number = |s: &str| {
            Decimal::parse(s).ok_or_else(|| {
                bad(&format!("`{}` is not a number (decimal, at most 9 digits after the point)", s.trim()))
            })
        };
        let values = if let Some((start, rest)) = range.split_once("..") {
            let (end, step) = match rest.split_once(':') {
                Some((e, s)) => (e, Some(s)),
                None => (rest, None),
            };
            let (start, end) = (number(start)?, number(end)?);
            let step = match step {
                Some(s) => number(s)?,
                None => Decimal { m: 1, scale: 0 },
            };
            let scale = start.scale.max(end.scale).max(step.scale);
            let (a, b, st) = (start.at(scale), end.at(scale), step.at(scale));
            if st <= 0 {
                return Err(bad("the step must be positive"));
            }
            if b < a {
                return Err(bad("the end is below the start"));
            }
            let count = (b - a) / st + 1;
            if count > MAX_RANGE_VALUES as i128 {
                return Err(bad(&format!("{count} values, more than {MAX_RANGE_VALUES}")));
            }
            (0..count).map(|k| Decimal::render(a + k * st, scale)).collect()
        } else {
            let mut values: Vec<String> = Vec::new();
            for part in range.split(',') {
                let d = number(part)?;
                let v = Decimal::render(d.m, d.scale);
                if !values.contains(&v) {
                    values.push(v);
                }
            }
            if values.len() > MAX_RANGE_VALUES {
                return Err(bad(&format!("more than {MAX_RANGE_VALUES} values")));
            }
            values
        };
        Ok(ParamRange { name: name.to_string(), values })
    }
}

impl fmt::Display for ParamRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.values.join(","))
    }
}

/// A search method (see [`Space`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Every combination of the ranges.
    Grid,
    /// One parameter at a time, in rounds, from the start point.
    Coordinate,
    /// Simultaneous perturbation stochastic approximation: every parameter moved
    /// at once along a gradient estimated from two candidates per iteration
    /// (see [`Space`] and [`spsa`]).
    Spsa,
}

impl FromStr for Method {
    type Err = TuneError;
    fn from_str(s: &str) -> Result<Method, TuneError> {
        match s.trim() {
            "grid" => Ok(Method::Grid),
            "coordinate" => Ok(Method::Coordinate),
            "spsa" => Ok(Method::Spsa),
            other => Err(TuneError::Method(other.to_string())),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Grid => "grid",
            Method::Coordinate => "coordinate",
            Method::Spsa => "spsa",
        })
    }
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchPlan {
    /// The method.
    pub method: Method,
    /// Coordinate search: the most rounds (passes over the parameters); SPSA:
    /// its iterations (two candidates each).
    pub max_rounds: u32,
    /// Refuse a plan that may need more evaluations than this.
    pub max_evaluations: usize,
}

impl Default for SearchPlan {
    fn default() -> Self {
        SearchPlan { method: Method::Coordinate, max_rounds: 4, max_evaluations: 1000 }
    }
}

/// The search space: a base agent spec (its fixed parameters included), the tuned
/// parameters with their ranges, and the start point; [`Space::search`] runs the
/// search.
///
/// # How a candidate is scored
///
/// A candidate is an agent spec such as `rule:entrada=40:vuelta=47:solo=55`. It
/// plays a tournament in agent slot 0 against the two fixed opponents
/// ([`TuneSetup`]) with **common random numbers** and **duplicate seating**: every
/// candidate plays the same deals (the same master seed), each deal under all six
/// seatings, so the candidate holds every hand of every deal (each seat twice).
/// Differences between candidates then come from their decisions, not from the cards
/// they were dealt. The score is the candidate's mean tantos per deal with a 95%
/// confidence interval over the deals ([`Evaluation::mean_ci`]); each candidate is
/// also compared with the starting point **paired by deal**
/// ([`Evaluation::paired_diff`]), which cancels the shared card luck and gives a much
/// narrower interval than the two means.
///
/// # The searches ([`Method`])
///
/// - **grid**: the cartesian product of the parameter ranges, the first parameter
///   outermost (the last one changes fastest). `1 + product of the range sizes`
///   evaluations (the start first, as the reference).
/// - **coordinate**: start at the agent's defaults, or at a given start spec. For
///   each parameter in turn, try every value of its range with the other parameters
///   fixed, and move to the best value if it is strictly better than the current
///   point (ties keep the current point). A round is one pass over the parameters;
///   rounds repeat until one changes nothing or `max_rounds` is reached. Evaluated
///   specs are cached, so no point is played twice: at most
///   `1 + max_rounds * (sum of the range sizes)` evaluations, against the product
///   for the grid. It finds a local optimum along the axes, which suits thresholds
///   that interact weakly; a grid over two or three short ranges checks the
///   interactions.
///
/// - **spsa**: simultaneous perturbation stochastic approximation (Spall 1992;
///   fishtest tunes engines with it). Each parameter is a position `θ` in its
///   list of values (0 to `len - 1`, real), starting at the start's value (the
///   nearest listed one). Iteration `k` (0-based, `max_rounds` of them) draws a
///   sign `Δ = ±1` per parameter ([`spsa::delta`]), plays the two candidates at
///   `round(θ ± c_k Δ)` (clamped to the list), estimates each parameter's slope
///   as `(mean₊ − mean₋) / (index₊ − index₋)` in tantos per deal per list step
///   (0 where the two indices are equal), and moves `θ` by `a_k` times it, the
///   move at most [`spsa::MAX_STEP`] list steps, clamped to the list. The gains
///   are Spall's schedules `a_k = a / (k + 1 + A)^0.602` and
///   `c_k = c / (k + 1)^0.101` with the defaults of [`spsa::Gains`]. After the
///   last iteration the point `round(θ)` is scored: it is the search's best (the
///   result of SPSA is where it ends, not the luckiest candidate it saw). `2 ·
///   max_rounds + 2` evaluations at most (the start and the end included);
///   evaluated points are cached, as for the other methods. Every parameter moves
///   at every iteration, so interactions are followed at the cost of two
///   candidates per step whatever the number of parameters.
///
/// The best of many noisy candidates is biased upwards (the winner's curse): confirm
/// a tuned spec on a fresh seed before relying on it, for example with a grid of one
/// point (the tuned values) whose start is the defaults, which scores the two paired.
///
/// # Example
///
/// ```
/// use tresillo_sim::{Method, SearchPlan, Space, TuneError, TuneSetup};
///
/// let space = Space::new("rule", vec!["entrada=40,50".parse()?], None)?;
/// let setup = TuneSetup::new(["random", "random"], 12, 7);
/// let plan = SearchPlan { method: Method::Grid, ..SearchPlan::default() };
/// let result = space.search(&plan, |spec| Ok::<_, TuneError>(setup.evaluate(spec)?), |_| Ok(()))?;
/// assert_eq!(result.records.len(), 3); // the defaults, entrada=40, entrada=50
/// println!("best: {}", result.best().spec);
/// # Ok::<(), TuneError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Space {
    base: String,
    params: Vec<ParamRange>,
    start: Vec<String>,
}

/// The agent name and `key=value` pairs of a spec (no validation of the values).
fn split_spec(spec: &str) -> (&str, Vec<(&str, &str)>) {
    let mut parts = spec.trim().split(':');
    let name = parts.next().unwrap_or("").trim();
    let kv = parts.filter_map(|p| p.split_once('=')).map(|(k, v)| (k.trim(), v.trim())).collect();
    (name, kv)
}

impl Space {
    /// The space of `base` (an agent spec such as `rule` or `rule:surrender=30`) over
    /// `params`, starting at the agent's defaults or at `start` (a spec of the same
    /// agent setting some of the tuned parameters, for example
    /// `rule:entrada=40:vuelta=50`). Every value of every range is checked with the
    /// registry. Any agent a tournament seats can be tuned, the experiments-only
    /// `cheat` included.
    pub fn new(base: &str, params: Vec<ParamRange>, start: Option<&str>) -> Result<Space, TuneError> {
        Space::with_registry(&Registry::builtin(), base, params, start)
    }

    /// [`Space::new`] for an agent of `registry` (which may hold agents defined
    /// outside this workspace).
    pub fn with_registry(
        registry: &Registry,
        base: &str,
        params: Vec<ParamRange>,
        start: Option<&str>,
    ) -> Result<Space, TuneError> {
        let build_seated = |spec: &str| registry.build_seated(spec);
        build_seated(base)?;
        let base = base.trim().to_string();
        let (agent, fixed) = split_spec(&base);
        let info = registry.info(agent).cloned().expect("a built agent is registered");
        let known = || {
            let names: Vec<&str> = info.params.iter().map(|p| p.name).collect();
            if names.is_empty() { "(none)".to_string() } else { names.join(", ") }
        };
        if params.is_empty() {
            return Err(TuneError::NoParams);
        }
        let mut start_values = Vec::with_capacity(params.len());
        for (i, p) in params.iter().enumerate() {
            let Some(pi) = info.params.iter().find(|x| x.accepts(&p.name)) else {
                return Err(TuneError::UnknownParam {
                    agent: agent.into(),
                    param: p.name.clone(),
                    known: known(),
                });
            };
            if params[..i].iter().any(|q| q.name == p.name) {
                return Err(TuneError::DuplicateParam(p.name.clone()));
            }
            if fixed.iter().any(|(k, _)| *k == p.name) {
                return Err(TuneError::FixedAndTuned(p.name.clone()));
            }
            if p.values.is_empty() {
                return Err(TuneError::Range { text: p.to_string(), why: "no values".into() });
            }
            start_values.push(pi.default.clone());
        }
        if let Some(s) = start {
            let bad = |why: String| TuneError::Start { spec: s.to_string(), why };
            let (name, kv) = split_spec(s);
            if name != agent {
                return Err(bad(format!("it is not a spec of the tuned agent `{agent}`")));
            }
            if s.split(':').skip(1).any(|p| !p.contains('=')) {
                return Err(bad("expected key=value parts".into()));
            }
            for (k, v) in kv {
                let Some(i) = params.iter().position(|p| p.name == k) else {
                    return Err(bad(format!(
                        "`{k}` is not tuned (tuned: {}); fix other parameters in the agent spec",
                        params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
                    )));
                };
                start_values[i] = v.to_string();
            }
        }
        let space = Space { base, params, start: start_values };
        build_seated(&space.spec(&space.start))?;
        for (i, p) in space.params.iter().enumerate() {
            for v in &p.values {
                let mut values = space.start.clone();
                values[i] = v.clone();
                build_seated(&space.spec(&values))?;
            }
        }
        Ok(space)
    }

    /// The base agent spec.
    #[must_use]
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The tuned parameters.
    #[must_use]
    pub fn params(&self) -> &[ParamRange] {
        &self.params
    }

    /// The start point: one value per tuned parameter.
    #[must_use]
    pub fn start(&self) -> &[String] {
        &self.start
    }

    /// The agent spec of a point (one value per tuned parameter, in order): the base
    /// spec followed by `:name=value` for each tuned parameter.
    #[must_use]
    pub fn spec(&self, values: &[String]) -> String {
        let mut s = self.base.clone();
        for (p, v) in self.params.iter().zip(values) {
            s.push(':');
            s.push_str(&p.name);
            s.push('=');
            s.push_str(v);
        }
        s
    }

    /// The number of grid points.
    #[must_use]
    pub fn grid_size(&self) -> u128 {
        self.params.iter().map(|p| p.values.len() as u128).product()
    }

    /// Every grid point, the first parameter outermost.
    pub fn grid(&self) -> impl Iterator<Item = Vec<String>> + '_ {
        let n = self.params.len();
        let mut idx = vec![0usize; n];
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let point: Vec<String> =
                self.params.iter().zip(&idx).map(|(p, &i)| p.values[i].clone()).collect();
            // Advance the odometer, the last parameter fastest.
            done = true;
            for k in (0..n).rev() {
                idx[k] += 1;
                if idx[k] < self.params[k].values.len() {
                    done = false;
                    break;
                }
                idx[k] = 0;
            }
            Some(point)
        })
    }

    /// An upper bound on the evaluations `plan` needs (the start included).
    #[must_use]
    pub fn max_evaluations(&self, plan: &SearchPlan) -> u128 {
        match plan.method {
            Method::Grid => 1 + self.grid_size(),
            Method::Coordinate => {
                let sum: u128 = self.params.iter().map(|p| p.values.len() as u128).sum();
                1 + u128::from(plan.max_rounds) * sum
            }
            Method::Spsa => 2 + 2 * u128::from(plan.max_rounds),
        }
    }

    /// Checks the plan against its evaluation limit.
    pub fn check(&self, plan: &SearchPlan) -> Result<(), TuneError> {
        let needed = self.max_evaluations(plan);
        if needed > plan.max_evaluations as u128 {
            return Err(TuneError::TooManyEvaluations {
                method: plan.method,
                needed,
                limit: plan.max_evaluations,
            });
        }
        Ok(())
    }

    /// Runs the search. `evaluate` plays a candidate spec; `on_record` sees each
    /// new candidate as soon as it is scored (to write it out). Each spec is
    /// evaluated once; the start first.
    pub fn search<E: From<TuneError>>(
        &self,
        plan: &SearchPlan,
        evaluate: impl FnMut(&str) -> Result<Evaluation, E>,
        on_record: impl FnMut(&Record) -> Result<(), E>,
    ) -> Result<TuneResult, E> {
        self.resume(plan, Progress::default(), evaluate, on_record)
    }

    /// Continues a search that scored `done.records` (in evaluation order) before
    /// it was interrupted: the search is deterministic, so it asks for the same
    /// candidates again, takes those already scored from `done` instead of
    /// evaluating them, and evaluates the rest. The result is the one
    /// [`Space::search`] gives without the interruption. `on_record` sees only the
    /// candidates evaluated now; `done.start` must be the start's evaluation when
    /// any record is given (the later candidates are compared with it).
    pub fn resume<E: From<TuneError>>(
        &self,
        plan: &SearchPlan,
        done: Progress,
        mut evaluate: impl FnMut(&str) -> Result<Evaluation, E>,
        mut on_record: impl FnMut(&Record) -> Result<(), E>,
    ) -> Result<TuneResult, E> {
        self.check(plan)?;
        if !done.records.is_empty() && done.start.is_none() {
            return Err(TuneError::Progress("the start's evaluation is missing".into()).into());
        }
        let mut replay = done.records.into_iter();
        let mut s = Searcher { space: self, records: Vec::new(), cache: HashMap::new(), start: done.start };
        let mut eval = |s: &mut Searcher<'_>, values: &[String], round: u32| -> Result<usize, E> {
            if let Some(&i) = s.cache.get(values) {
                return Ok(i);
            }
            let spec = self.spec(values);
            if let Some(r) = replay.next() {
                let i = s.records.len();
                if r.spec != spec || r.values != values || r.index != i || r.round != round {
                    return Err(TuneError::Progress(format!(
                        "candidate {} is {} there, but this search's is {spec}",
                        i + 1,
                        r.spec
                    ))
                    .into());
                }
                s.cache.insert(values.to_vec(), i);
                s.records.push(r);
                return Ok(i);
            }
            let e = evaluate(&spec)?;
            let i = s.push(values, spec, round, e);
            on_record(&s.records[i])?;
            Ok(i)
        };
        let start = eval(&mut s, &self.start, 0)?;
        match plan.method {
            Method::Grid => {
                for point in self.grid() {
                    eval(&mut s, &point, 1)?;
                }
                // The best mean; the earliest on a tie.
                let mut best = start;
                for (i, r) in s.records.iter().enumerate() {
                    if r.mean > s.records[best].mean {
                        best = i;
                    }
                }
                Ok(TuneResult {
                    records: s.records,
                    start,
                    best,
                    rounds: 1,
                    converged: true,
                    steps: Vec::new(),
                })
            }
            Method::Coordinate => {
                let mut current = start;
                let mut rounds = 0;
                let mut converged = false;
                while rounds < plan.max_rounds {
                    rounds += 1;
                    let mut changed = false;
                    for (k, p) in self.params.iter().enumerate() {
                        let mut best = current;
                        for v in &p.values {
                            let mut point = s.records[current].values.clone();
                            point[k] = v.clone();
                            let i = eval(&mut s, &point, rounds)?;
                            if s.records[i].mean > s.records[best].mean {
                                best = i;
                            }
                        }
                        if best != current {
                            current = best;
                            changed = true;
                        }
                    }
                    if !changed {
                        converged = true;
                        break;
                    }
                }
                Ok(TuneResult {
                    records: s.records,
                    start,
                    best: current,
                    rounds,
                    converged,
                    steps: Vec::new(),
                })
            }
            Method::Spsa => {
                let gains = spsa::Gains::for_iterations(plan.max_rounds);
                let mut theta: Vec<f64> =
                    self.params.iter().zip(&self.start).map(|(p, v)| spsa::position(&p.values, v)).collect();
                let lens: Vec<usize> = self.params.iter().map(|p| p.values.len()).collect();
                let point = |idx: &[usize]| -> Vec<String> {
                    idx.iter().zip(&self.params).map(|(&i, p)| p.values[i].clone()).collect()
                };
                let mut steps = Vec::new();
                for k in 0..plan.max_rounds {
                    let (a_k, c_k) = gains.at(k);
                    let delta = spsa::delta(k, self.params.len());
                    let plus = spsa::indices(&theta, &delta, c_k, &lens);
                    let minus =
                        spsa::indices(&theta, &delta.iter().map(|d| -d).collect::<Vec<_>>(), c_k, &lens);
                    let ip = eval(&mut s, &point(&plus), k + 1)?;
                    let im = eval(&mut s, &point(&minus), k + 1)?;
                    let (yp, ym) = (s.records[ip].mean, s.records[im].mean);
                    let before = theta.clone();
                    let slope = spsa::update(&mut theta, &plus, &minus, yp, ym, a_k, &lens);
                    steps.push(spsa::Step {
                        k,
                        a: a_k,
                        c: c_k,
                        delta,
                        theta: before,
                        plus,
                        minus,
                        mean_plus: yp,
                        mean_minus: ym,
                        slope,
                        next: theta.clone(),
                    });
                }
                let end: Vec<usize> = spsa::indices(&theta, &vec![0.0; theta.len()], 0.0, &lens);
                let best = eval(&mut s, &point(&end), plan.max_rounds + 1)?;
                Ok(TuneResult {
                    records: s.records,
                    start,
                    best,
                    rounds: plan.max_rounds,
                    converged: false,
                    steps,
                })
            }
        }
    }
}

struct Searcher<'a> {
    space: &'a Space,
    records: Vec<Record>,
    cache: HashMap<Vec<String>, usize>,
    /// The start's evaluation, the reference of the paired differences.
    start: Option<Evaluation>,
}

impl Searcher<'_> {
    fn push(&mut self, values: &[String], spec: String, round: u32, e: Evaluation) -> usize {
        let (mean, ci95) = e.mean_ci();
        let vs_start = match &self.start {
            Some(s) => e.paired_diff(s),
            None => Some((0.0, 0.0)),
        };
        let a = &e.stats.agents[0];
        let declare_rate = if a.rows == 0 { f64::NAN } else { a.declared as f64 / a.rows as f64 };
        let i = self.records.len();
        debug_assert_eq!(values.len(), self.space.params.len());
        self.records.push(Record {
            index: i,
            spec,
            values: values.to_vec(),
            round,
            mean,
            ci95,
            deals: e.stats.deals,
            vs_start,
            declare_rate,
        });
        self.cache.insert(values.to_vec(), i);
        if self.start.is_none() {
            self.start = Some(e);
        }
        i
    }
}

/// The candidates a search has scored so far, to continue it after an
/// interruption ([`Space::resume`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// The start's evaluation (the reference of the paired comparisons); `None`
    /// before the start is scored.
    pub start: Option<Evaluation>,
    /// The candidates scored, in evaluation order.
    pub records: Vec<Record>,
}

/// One evaluated candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Its position in evaluation order.
    pub index: usize,
    /// Its agent spec.
    pub spec: String,
    /// The value of each tuned parameter, in the space's order.
    pub values: Vec<String>,
    /// The round that evaluated it: 0 for the start; 1 for every grid point.
    pub round: u32,
    /// Mean tantos per deal.
    pub mean: f64,
    /// Half-width of the 95% confidence interval of the mean.
    pub ci95: f64,
    /// Deals played (each under every seating).
    pub deals: u64,
    /// Mean tantos per deal minus the start's, paired by deal, and the half-width of
    /// its 95% confidence interval (zero for the start itself).
    pub vs_start: Option<(f64, f64)>,
    /// How often it declared, per seat-deal.
    pub declare_rate: f64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneResult {
    /// Every candidate, in evaluation order.
    pub records: Vec<Record>,
    /// The start's record.
    pub start: usize,
    /// The best record.
    pub best: usize,
    /// Rounds run (1 for a grid).
    pub rounds: u32,
    /// Whether the search stopped because a round changed nothing (always true for
    /// a grid; false for SPSA, which runs all its iterations).
    pub converged: bool,
    /// SPSA: each iteration's inputs and move, to recompute (empty for the
    /// other methods).
    pub steps: Vec<spsa::Step>,
}

/// The arithmetic of [`Method::Spsa`], in the units of each parameter's list of
/// values (a position 0 to `len - 1`), so that `scripts/check-spsa.py` can redo
/// every step from the manifest.
pub mod spsa {
    /// The most list steps one iteration moves a parameter.
    pub const MAX_STEP: f64 = 2.0;

    /// Spall's gain sequences `a_k = a / (k + 1 + A)^alpha`, `c_k = c / (k + 1)^gamma`.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Gains {
        /// `a`: list steps per (tanto per deal per list step) of estimated slope.
        pub a: f64,
        /// `c`: the perturbation, in list steps.
        pub c: f64,
        /// `A`: the stability constant.
        pub big_a: f64,
        /// `alpha`.
        pub alpha: f64,
        /// `gamma`.
        pub gamma: f64,
    }

    impl Gains {
        /// The defaults for `n` iterations: `a = 100` (a slope of 0.01 tantos per
        /// deal per list step moves a parameter about one step early on), `c = 1.5`
        /// list steps, `A` a tenth of the iterations, Spall's `alpha = 0.602` and
        /// `gamma = 0.101`.
        #[must_use]
        pub fn for_iterations(n: u32) -> Gains {
            Gains { a: 100.0, c: 1.5, big_a: f64::from(n) / 10.0, alpha: 0.602, gamma: 0.101 }
        }

        /// `(a_k, c_k)` of iteration `k` (0-based).
        #[must_use]
        pub fn at(&self, k: u32) -> (f64, f64) {
            let k = f64::from(k);
            (self.a / (k + 1.0 + self.big_a).powf(self.alpha), self.c / (k + 1.0).powf(self.gamma))
        }
    }

    /// One iteration, as the manifest records it.
    #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct Step {
        /// The iteration (0-based).
        pub k: u32,
        /// `a_k`.
        pub a: f64,
        /// `c_k`.
        pub c: f64,
        /// The signs drawn.
        pub delta: Vec<f64>,
        /// The position before the step.
        pub theta: Vec<f64>,
        /// The list indices of the two candidates.
        pub plus: Vec<usize>,
        /// See `plus`.
        pub minus: Vec<usize>,
        /// Their mean tantos per deal.
        pub mean_plus: f64,
        /// See `mean_plus`.
        pub mean_minus: f64,
        /// The slope estimated per parameter.
        pub slope: Vec<f64>,
        /// The position after the step.
        pub next: Vec<f64>,
    }

    /// SplitMix64, the generator of the signs (fixed, so that a script redoes it).
    #[must_use]
    pub fn splitmix64(x: u64) -> u64 {
        let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The signs of iteration `k` for `n` parameters: bit `i` of
    /// `splitmix64(k)` (1: +1, 0: −1), then of `splitmix64(k + 2^32)` past 64.
    #[must_use]
    pub fn delta(k: u32, n: usize) -> Vec<f64> {
        (0..n)
            .map(|i| {
                let word = splitmix64(u64::from(k) + ((i / 64) as u64) * (1u64 << 32));
                if (word >> (i % 64)) & 1 == 1 { 1.0 } else { -1.0 }
            })
            .collect()
    }

    /// The position of `value` in `values`: its index, or the index of the
    /// numerically nearest value (the first on a tie; 0 when not numeric).
    #[must_use]
    pub fn position(values: &[String], value: &str) -> f64 {
        if let Some(i) = values.iter().position(|v| v == value) {
            return i as f64;
        }
        let Ok(x) = value.parse::<f64>() else { return 0.0 };
        let mut best = (0, f64::INFINITY);
        for (i, v) in values.iter().enumerate() {
            if let Ok(y) = v.parse::<f64>()
                && (y - x).abs() < best.1
            {
                best = (i, (y - x).abs());
            }
        }
        best.0 as f64
    }

    /// `round(theta + c · sign)` per parameter, clamped to `0..len` (halves round
    /// away from zero).
    #[must_use]
    pub fn indices(theta: &[f64], sign: &[f64], c: f64, lens: &[usize]) -> Vec<usize> {
        theta
            .iter()
            .zip(sign)
            .zip(lens)
            .map(|((t, d), &n)| (t + c * d).round().clamp(0.0, (n - 1) as f64) as usize)
            .collect()
    }

    /// Moves `theta` by `a` times the slopes of the two candidates (means `yp`,
    /// `ym` at indices `plus`, `minus`), each move at most [`MAX_STEP`], clamped
    /// to the lists; returns the slopes.
    pub fn update(
        theta: &mut [f64],
        plus: &[usize],
        minus: &[usize],
        yp: f64,
        ym: f64,
        a: f64,
        lens: &[usize],
    ) -> Vec<f64> {
        let mut slopes = Vec::with_capacity(theta.len());
        for (i, t) in theta.iter_mut().enumerate() {
            let span = plus[i] as f64 - minus[i] as f64;
            let slope = if span == 0.0 { 0.0 } else { (yp - ym) / span };
            *t = (*t + (a * slope).clamp(-MAX_STEP, MAX_STEP)).clamp(0.0, (lens[i] - 1) as f64);
            slopes.push(slope);
        }
        slopes
    }
}

impl TuneResult {
    /// The best candidate.
    #[must_use]
    pub fn best(&self) -> &Record {
        &self.records[self.best]
    }

    /// The start.
    #[must_use]
    pub fn start(&self) -> &Record {
        &self.records[self.start]
    }
}

/// A candidate's results: the merged statistics of its tournament and its tantos per
/// scoring unit (for paired comparisons).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The tournament's statistics; the candidate is agent slot 0.
    pub stats: Stats,
    /// The candidate's tantos in each scoring unit (summed over the seatings), in
    /// unit order.
    pub units: Vec<i64>,
    /// Rows the candidate plays per scoring unit (deals per unit times seatings).
    pub rows_per_unit: u64,
}

impl Evaluation {
    /// Mean tantos per deal and the half-width of its 95% confidence interval.
    #[must_use]
    pub fn mean_ci(&self) -> (f64, f64) {
        self.stats.agents[0].units.mean_ci(self.rows_per_unit as f64).unwrap_or((f64::NAN, f64::NAN))
    }

    /// This candidate's mean tantos per deal minus `other`'s, paired by scoring unit,
    /// and the half-width of its 95% confidence interval; `None` unless both played
    /// the same units.
    #[must_use]
    pub fn paired_diff(&self, other: &Evaluation) -> Option<(f64, f64)> {
        if self.units.len() != other.units.len() || self.rows_per_unit != other.rows_per_unit {
            return None;
        }
        let mut m = Moments::default();
        for (a, b) in self.units.iter().zip(&other.units) {
            m.add(a - b);
        }
        m.mean_ci(self.rows_per_unit as f64)
    }
}

/// The fixed side of a tuning run: the opponents and the deals every candidate plays
/// (duplicate seating, always).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuneSetup {
    /// The opponents' agent specs (slots 1 and 2; and 3 at a table of four, whose
    /// size is one more than the number of opponents).
    pub opponents: Vec<String>,
    /// Deals per candidate.
    pub deals: u64,
    /// The master seed, the same for every candidate (common random numbers).
    pub seed: u64,
    /// The rule set with its options.
    pub rules: Rules,
    /// Scoring.
    pub scoring: Scoring,
    /// The agent that makes every seat's bidding-phase decisions, if any
    /// ([`TournamentConfig::bidding`]).
    pub bidding: Option<String>,
    /// Which decisions `bidding` makes ([`TournamentConfig::bidding_covers`]).
    pub bidding_covers: tresillo_agents::BiddingCovers,
}

impl TuneSetup {
    /// Tresillo rules, scored by the deal.
    #[must_use]
    pub fn new(opponents: [&str; 2], deals: u64, seed: u64) -> TuneSetup {
        TuneSetup {
            opponents: opponents.map(str::to_string).to_vec(),
            deals,
            seed,
            rules: Rules::default(),
            scoring: Scoring::Deal,
            bidding: None,
            bidding_covers: tresillo_agents::BiddingCovers::Bidding,
        }
    }

    /// The tournament a candidate plays.
    #[must_use]
    pub fn config(&self, candidate: &str) -> TournamentConfig {
        TournamentConfig {
            agents: std::iter::once(candidate.to_string()).chain(self.opponents.iter().cloned()).collect(),
            players: (self.opponents.len() + 1) as u8,
            deals: self.deals,
            seed: self.seed,
            rules: self.rules,
            scoring: self.scoring,
            duplicate: true,
            shard: Shard::WHOLE,
            bidding: self.bidding.clone(),
            bidding_covers: self.bidding_covers,
        }
    }

    /// The most deals per candidate: a candidate keeps one number per scoring unit
    /// (80 MB at this bound) for its paired comparisons.
    pub const MAX_DEALS: u64 = 10_000_000;

    /// Checks the opponents and the deal count (with `candidate` in slot 0).
    pub fn validate(&self, candidate: &str) -> Result<(), TuneError> {
        if self.deals > Self::MAX_DEALS {
            return Err(TuneError::TooManyDeals(self.deals));
        }
        Ok(self.config(candidate).validate()?)
    }

    /// Plays `candidate`'s tournament (in parallel, on the current rayon pool) and
    /// merges its statistics.
    pub fn evaluate(&self, candidate: &str) -> Result<Evaluation, SimError> {
        self.evaluate_with(&Registry::builtin(), candidate)
    }

    /// [`TuneSetup::evaluate`] with the agents of `registry`.
    pub fn evaluate_with(&self, registry: &Registry, candidate: &str) -> Result<Evaluation, SimError> {
        let t = Tournament::with_registry(self.config(candidate), registry.clone())?;
        let (u0, u1) = t.config().unit_range();
        let mut stats = Stats::default();
        let mut units = Vec::with_capacity((u1 - u0) as usize);
        // Batches keep the per-unit statistics in memory few at a time.
        const BATCH: u64 = 4096;
        let mut next = u0;
        while next < u1 {
            let end = (next + BATCH).min(u1);
            for (sum, s) in t.run(next..end, |u| (u.stats.agents[0].units.sum, u.stats))? {
                units.push(sum);
                stats.merge(&s);
            }
            next = end;
        }
        Ok(Evaluation { stats, units, rows_per_unit: t.rows_per_unit() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(s: &str) -> Vec<String> {
        s.parse::<ParamRange>().unwrap().values
    }

    #[test]
    fn ranges_parse() {
        let cases: &[(&str, &[&str])] = &[
            ("entrada=30..60:10", &["30", "40", "50", "60"]),
            ("entrada=30..45:10", &["30", "40"]),
            ("entrada = 3..5", &["3", "4", "5"]),
            ("x=-2..2:2", &["-2", "0", "2"]),
            ("x=40,45,50", &["40", "45", "50"]),
            ("x=45", &["45"]),
            ("x=5,+5,05,6", &["5", "6"]),
            ("x=0.1..0.3:0.1", &["0.1", "0.2", "0.3"]),
            ("x=0..1:0.25", &["0.00", "0.25", "0.50", "0.75", "1.00"]),
            ("x=-0.5,1.5", &["-0.5", "1.5"]),
            ("x=7..7", &["7"]),
        ];
        for (text, want) in cases {
            assert_eq!(range(text), *want, "{text}");
        }
        assert_eq!(range("entrada=30..60:5").len(), 7);
        assert_eq!("entrada=40,45".parse::<ParamRange>().unwrap().to_string(), "entrada=40,45");
    }

    #[test]
    fn bad_ranges_say_why() {
        for (text, why) in [
            ("entrada", "no `=`"),
            ("=1,2", "name"),
            ("a-b=1", "name"),
            ("x=", "not a number"),
            ("x=1,,2", "not a number"),
            ("x=a..b", "not a number"),
            ("x=1..5:0", "step must be positive"),
            ("x=1..5:-1", "step must be positive"),
            ("x=5..1", "below the start"),
            ("x=1..", "not a number"),
            ("x=1.", "not a number"),
            ("x=1e3", "not a number"),
            ("x=0..100000", "more than"),
        ] {
            match text.parse::<ParamRange>() {
                Err(e @ TuneError::Range { .. }) => {
                    let msg = e.to_string();
                    assert!(msg.contains(why), "{text}: {msg}");
                    assert!(msg.contains("entrada=30..60:5"), "the message shows the syntax: {msg}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    fn ranges(v: &[&str]) -> Vec<ParamRange> {
        v.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn spaces_check_the_agent() {
        let s = Space::new("rule", ranges(&["entrada=40,50", "solo=55"]), None).unwrap();
        assert_eq!(s.start(), ["45", "50"]);
        assert_eq!(s.spec(&["40".into(), "55".into()]), "rule:entrada=40:solo=55");
        match Space::new("rule", ranges(&["bogus=1"]), None) {
            Err(e @ TuneError::UnknownParam { .. }) => {
                let m = e.to_string();
                assert!(m.contains("bogus") && m.contains("entrada") && m.contains("vienen"), "{m}");
            }
            other => panic!("{other:?}"),
        }
        match Space::new("random", ranges(&["x=1"]), None) {
            Err(TuneError::UnknownParam { known, .. }) => assert_eq!(known, "(none)"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(Space::new("nope", ranges(&["x=1"]), None), Err(TuneError::Spec(_))));
        assert!(matches!(Space::new("rule", vec![], None), Err(TuneError::NoParams)));
        assert!(matches!(
            Space::new("rule", ranges(&["solo=1", "solo=2"]), None),
            Err(TuneError::DuplicateParam(p)) if p == "solo"
        ));
        assert!(matches!(
            Space::new("rule:solo=50", ranges(&["solo=1"]), None),
            Err(TuneError::FixedAndTuned(p)) if p == "solo"
        ));
        // The cheat agent seats in tournaments, so it can be tuned too.
        let s = Space::new("cheat", ranges(&["rollouts=4,8"]), None).unwrap();
        assert!(s.spec(s.start()).starts_with("cheat:rollouts="));
        // Values are checked by the registry: the rule agent's are integers.
        assert!(matches!(Space::new("rule", ranges(&["solo=0.5"]), None), Err(TuneError::Spec(_))));
        // A start spec sets tuned parameters only.
        let s = Space::new("rule:surrender=30", ranges(&["entrada=40,50"]), Some("rule:entrada=42")).unwrap();
        assert_eq!(s.spec(s.start()), "rule:surrender=30:entrada=42");
        assert!(matches!(
            Space::new("rule", ranges(&["entrada=40"]), Some("rule:vuelta=3")),
            Err(TuneError::Start { .. })
        ));
        assert!(matches!(
            Space::new("rule", ranges(&["entrada=40"]), Some("random:entrada=3")),
            Err(TuneError::Start { .. })
        ));
        assert!(matches!(
            Space::new("rule", ranges(&["entrada=40"]), Some("rule:entrada=x")),
            Err(TuneError::Spec(_))
        ));
    }

    #[test]
    fn the_grid_is_the_cartesian_product_first_parameter_outermost() {
        let s = Space::new("rule", ranges(&["entrada=1,2", "vuelta=3,4,5"]), None).unwrap();
        let g: Vec<String> = s.grid().map(|p| p.join(" ")).collect();
        assert_eq!(g, ["1 3", "1 4", "1 5", "2 3", "2 4", "2 5"]);
        assert_eq!(s.grid_size(), 6);
        let plan = SearchPlan { method: Method::Grid, max_rounds: 4, max_evaluations: 6 };
        assert!(matches!(s.check(&plan), Err(TuneError::TooManyEvaluations { needed: 7, .. })));
        let plan = SearchPlan { method: Method::Coordinate, max_rounds: 2, max_evaluations: 11 };
        assert_eq!(s.max_evaluations(&plan), 11);
        assert!(s.check(&plan).is_ok());
    }

    /// A fake evaluation with mean tantos per deal `mean` (one unit, one row).
    fn fake(mean: i64) -> Evaluation {
        let mut stats = Stats { deals: 1, ..Stats::default() };
        stats.agents[0].units.add(mean);
        stats.agents[0].rows = 1;
        Evaluation { stats, units: vec![mean], rows_per_unit: 1 }
    }

    /// Runs a search on `f(values)`, returning the result and the specs evaluated.
    fn run(space: &Space, plan: &SearchPlan, f: impl Fn(&[i64]) -> i64) -> (TuneResult, Vec<String>) {
        let mut seen = Vec::new();
        let r = space
            .search(
                plan,
                |spec| {
                    seen.push(spec.to_string());
                    let values: Vec<i64> = spec
                        .split(':')
                        .skip(1)
                        .map(|kv| kv.split_once('=').unwrap().1.parse().unwrap())
                        .collect();
                    Ok::<_, TuneError>(fake(f(&values)))
                },
                |_| Ok(()),
            )
            .unwrap();
        (r, seen)
    }

    /// Issue 55: SPSA moves every parameter at once toward the better side of a
    /// smooth score, deterministically, within its evaluation bound, and a resumed
    /// search is the uninterrupted one.
    #[test]
    fn spsa_climbs_every_parameter_at_once_and_resumes() {
        let space = Space::new(
            "rule",
            vec!["entrada=30..70:2".parse().unwrap(), "vuelta=30..70:2".parse().unwrap()],
            Some("rule:entrada=30:vuelta=70"),
        )
        .unwrap();
        // A bowl with its top at entrada=56, vuelta=40 (both parameters far from it).
        let score = |spec: &str| -> i64 {
            let v = |k: &str| -> i64 {
                let at = spec.find(&format!("{k}=")).unwrap() + k.len() + 1;
                spec[at..].split(':').next().unwrap().parse().unwrap()
            };
            -((v("entrada") - 56).pow(2) + (v("vuelta") - 40).pow(2))
        };
        let plan = SearchPlan { method: Method::Spsa, max_rounds: 30, max_evaluations: 62 };
        let evaluate = |spec: &str| Ok::<_, TuneError>(fake(score(spec)));
        let r = space.search(&plan, evaluate, |_| Ok(())).unwrap();
        assert!(r.records.len() <= 62 && r.steps.len() == 30, "{}", r.records.len());
        let best = &r.records[r.best];
        // Within two list steps of the top on each parameter (from 1576 below it).
        assert!(score(&best.spec) >= -32, "{} scores {}", best.spec, score(&best.spec));
        assert_eq!(r.records[r.start].spec, "rule:entrada=30:vuelta=70");
        // Deterministic, and resumable from any prefix (compared without the
        // intervals, NaN for one-unit fakes).
        let key = |t: &TuneResult| {
            let recs: Vec<_> = t.records.iter().map(|x| (x.spec.clone(), x.round, x.mean)).collect();
            (recs, t.best, t.steps.clone())
        };
        assert_eq!(key(&space.search(&plan, evaluate, |_| Ok(())).unwrap()), key(&r));
        for cut in [1, 7, 21] {
            let done =
                Progress { start: Some(fake(r.records[0].mean as i64)), records: r.records[..cut].to_vec() };
            assert_eq!(key(&space.resume(&plan, done, evaluate, |_| Ok(())).unwrap()), key(&r), "cut {cut}");
        }
        // Too few evaluations allowed: refused before anything is played.
        let tight = SearchPlan { max_evaluations: 61, ..plan };
        assert!(space.search(&tight, evaluate, |_| Ok(())).is_err());
        // The signs are SplitMix64's bits.
        assert_eq!(spsa::splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn coordinate_search_climbs_and_caches() {
        // A separable bowl with its top at entrada=40, vuelta=55.
        let space = Space::new("rule", ranges(&["entrada=30..60:5", "vuelta=40..60:5"]), None).unwrap();
        let f = |v: &[i64]| -((v[0] - 40).pow(2)) - (v[1] - 55).pow(2);
        let plan = SearchPlan { method: Method::Coordinate, max_rounds: 5, max_evaluations: 1000 };
        let (r, seen) = run(&space, &plan, f);
        assert_eq!(r.best().spec, "rule:entrada=40:vuelta=55");
        assert_eq!(r.start().spec, "rule:entrada=45:vuelta=47");
        assert!(r.converged);
        assert_eq!(r.rounds, 2, "round 2 confirms round 1's point");
        // No spec twice, and every record is a spec seen.
        let mut uniq = seen.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), seen.len());
        assert_eq!(r.records.len(), seen.len());
        // Round 1: the start, 6 more entrada values, 5 vuelta values at entrada=40.
        // Round 2: 6 new entrada values at vuelta=55; the vuelta values are cached.
        assert_eq!(r.records.iter().filter(|x| x.round == 1).count(), 6 + 5);
        assert_eq!(r.records.iter().filter(|x| x.round == 2).count(), 6);
        assert_eq!(seen.len(), 1 + 6 + 5 + 6);
        assert!(seen.len() as u128 <= space.max_evaluations(&plan));
        // Paired differences against the start.
        let best = r.best();
        assert_eq!(best.vs_start.unwrap().0, best.mean - r.start().mean);
        assert_eq!(r.start().vs_start, Some((0.0, 0.0)));
    }

    #[test]
    fn coordinate_search_follows_interactions_for_several_rounds() {
        // The best vuelta depends on entrada: a ridge along vuelta = entrada, rising
        // towards 60. One axis at a time, the search climbs it step by step.
        let space = Space::new("rule", ranges(&["entrada=30..60:5", "vuelta=30..70:5"]), None).unwrap();
        let f = |v: &[i64]| -2 * (v[1] - v[0]).pow(2) - (v[0] - 60).pow(2);
        let plan = SearchPlan { method: Method::Coordinate, max_rounds: 10, max_evaluations: 1000 };
        let (r, _) = run(&space, &plan, f);
        assert_eq!(r.rounds, 3);
        assert!(r.converged);
        let best = r.best();
        assert_eq!(best.spec, "rule:entrada=55:vuelta=55");
        assert!(r.records.iter().all(|x| x.mean <= best.mean));
        // A round limit stops it early, unconverged.
        let plan = SearchPlan { max_rounds: 1, ..plan };
        let (r1, _) = run(&space, &plan, f);
        assert_eq!(r1.rounds, 1);
        assert!(!r1.converged);
        assert!(r1.best().mean <= best.mean);
    }

    #[test]
    fn ties_keep_the_current_point() {
        let space = Space::new("rule", ranges(&["entrada=30..60:5"]), None).unwrap();
        let (r, _) = run(&space, &SearchPlan::default(), |_| 3);
        assert_eq!(r.best, r.start);
        assert!(r.converged);
        assert_eq!(r.rounds, 1);
    }

    #[test]
    fn grid_search_scores_every_point_and_the_start() {
        let space = Space::new("rule", ranges(&["entrada=40,50", "vuelta=40,45,50"]), None).unwrap();
        let plan = SearchPlan { method: Method::Grid, ..SearchPlan::default() };
        let (r, seen) = run(&space, &plan, |v| v[0] * 100 + v[1]);
        assert_eq!(seen.len(), 1 + 6);
        assert_eq!(seen[0], "rule:entrada=45:vuelta=47");
        assert_eq!(r.best().spec, "rule:entrada=50:vuelta=50");
        assert!(r.records[1..].iter().all(|x| x.round == 1));
        // The start is not replayed when it is a grid point.
        let space = Space::new("rule", ranges(&["entrada=45,50"]), None).unwrap();
        let (r, seen) = run(&space, &plan, |v| -v[0]);
        assert_eq!(seen, ["rule:entrada=45", "rule:entrada=50"]);
        assert_eq!(r.best, 0);
    }

    #[test]
    fn a_resumed_search_continues_where_it_stopped() {
        let space = Space::new("rule", ranges(&["entrada=30..60:5", "vuelta=30..70:5"]), None).unwrap();
        let f = |v: &[i64]| -2 * (v[1] - v[0]).pow(2) - (v[0] - 60).pow(2) + v[0] % 3;
        let value = |spec: &str| -> Vec<i64> {
            spec.split(':').skip(1).map(|kv| kv.split_once('=').unwrap().1.parse().unwrap()).collect()
        };
        let plan = SearchPlan { method: Method::Coordinate, max_rounds: 10, max_evaluations: 1000 };
        let (whole, seen) = run(&space, &plan, f);
        for stop in [1, 2, 7, seen.len() - 1, seen.len()] {
            // Interrupted after `stop` evaluations: keep what was scored.
            let mut done = Progress::default();
            let mut calls = 0;
            let r = space.search(
                &plan,
                |spec| {
                    calls += 1;
                    if calls > stop {
                        return Err(TuneError::NoParams);
                    }
                    let e = fake(f(&value(spec)));
                    done.start.get_or_insert_with(|| e.clone());
                    Ok(e)
                },
                |_| Ok(()),
            );
            if stop < seen.len() {
                assert!(matches!(r, Err(TuneError::NoParams)));
            }
            done.records = whole.records[..stop].to_vec();
            let mut again = Vec::new();
            let mut recorded = Vec::new();
            let resumed = space
                .resume(
                    &plan,
                    done,
                    |spec| {
                        again.push(spec.to_string());
                        Ok::<_, TuneError>(fake(f(&value(spec))))
                    },
                    |r| {
                        recorded.push(r.index);
                        Ok(())
                    },
                )
                .unwrap();
            // (Debug text: one-unit fakes have NaN intervals, which `==` refuses.)
            assert_eq!(format!("{resumed:?}"), format!("{whole:?}"), "stopped after {stop}");
            assert_eq!(again, seen[stop..], "only the rest is evaluated");
            assert_eq!(recorded, (stop..seen.len()).collect::<Vec<_>>());
        }
        // Progress of another search is refused.
        let other = Space::new("rule", ranges(&["entrada=35..60:5", "vuelta=30..70:5"]), None).unwrap();
        let (o, _) = run(&other, &plan, f);
        let done = Progress { start: Some(fake(0)), records: o.records[..3].to_vec() };
        let r = space.resume(&plan, done, |_| Ok(fake(0)), |_| Ok(()));
        assert!(matches!(r, Err(TuneError::Progress(_))), "{r:?}");
        let r =
            space.resume(&plan, Progress { start: None, records: o.records }, |_| Ok(fake(0)), |_| Ok(()));
        assert!(matches!(r, Err(TuneError::Progress(_))), "{r:?}");
    }

    #[test]
    fn errors_of_the_evaluator_stop_the_search() {
        let space = Space::new("rule", ranges(&["entrada=40,50"]), None).unwrap();
        let mut calls = 0;
        let r = space.search(
            &SearchPlan::default(),
            |_| {
                calls += 1;
                if calls == 2 { Err(TuneError::NoParams) } else { Ok(fake(1)) }
            },
            |_| Ok(()),
        );
        assert!(matches!(r, Err(TuneError::NoParams)));
        assert_eq!(calls, 2);
    }

    #[test]
    fn real_evaluations_share_the_deals() {
        let setup = TuneSetup::new(["random", "random"], 8, 3);
        setup.validate("rule").unwrap();
        let a = setup.evaluate("rule").unwrap();
        let b = setup.evaluate("rule").unwrap();
        assert_eq!(a, b, "the same candidate on the same deals scores the same");
        assert_eq!(a.units.len(), 8);
        assert_eq!(a.rows_per_unit, 6);
        assert_eq!(a.stats.agents[0].rows, 48);
        assert_eq!(a.paired_diff(&b), Some((0.0, 0.0)));
        let c = setup.evaluate("rule:entrada=10").unwrap();
        let (d, _) = c.paired_diff(&a).unwrap();
        assert!((d - (c.mean_ci().0 - a.mean_ci().0)).abs() < 1e-9);
        let short = TuneSetup::new(["random", "random"], 4, 3).evaluate("rule").unwrap();
        assert_eq!(short.paired_diff(&a), None);
        assert!(TuneSetup::new(["random", "nope"], 8, 3).validate("rule").is_err());
        assert!(TuneSetup::new(["random", "random"], 0, 3).validate("rule").is_err());
    }
}
