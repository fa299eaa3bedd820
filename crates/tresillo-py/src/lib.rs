//! The Python module `tresillo._tresillo` (re-exported by the package `tresillo`):
//! a thin edge over the engine and the agents, never a second engine.
//!
//! - [`Game`]: a rule set with its options at a table of three or four;
//! - [`State`]: one hand as a state machine over the fixed action space of
//!   [`tresillo_core::action`] (OpenSpiel's conventions: chance, then players);
//! - [`Agent`]: any agent of the registry, deciding from the view of the seat to
//!   move (the search runs with the interpreter's lock released).
//!
//! What a seat may know (RULES.md section 9) is the engine's [`PlayerView`]: the
//! observation tensor, the information-state string and `view()` are built from
//! it alone, never from the whole state.
//!
//! The package is built with PyO3 and maturin (abi3-py39); a cdylib, it has no Rust
//! tests and is tested by pytest in `tests/` (CI builds the wheel once). `Game` and
//! `State` bind tresillo-env's `Env` and `State` (argument checks, Python's ids -1 to
//! -4, the view dict, pickling); an `Agent` is built from registry specs, its lock
//! waited for only without the GIL, a search deciding in its own thread while `step`
//! polls signals; `record_actions`; `_cli_main` is the `tresillo` console script
//! (`tresillo_commands::main_with`). The Python side, `python/tresillo/`: `__init__`,
//! `openspiel.py` (`python_tresillo` for pyspiel), `pettingzoo.py` (an AEC env),
//! `gym.py` (Gymnasium: the vector env over `VectorEnv`, `tresillo/Tresillo-v0`),
//! `analysis.py` (`read_deals`) and the `_tresillo.pyi` stubs.
// PyO3's macros expand to `unsafe` FFI glue; this crate writes none itself.
#![allow(unsafe_code)]

mod model;
mod seat_view;
mod seated;
mod vector;

use numpy::PyArray1;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tresillo_agents::cheat::Seated;
use tresillo_agents::{AgentRng, TablePlayer};
use tresillo_core::action::{Action, NUM_ACTIONS};
use tresillo_core::{CardSet, Deal, Decision, Hand, Names, PlayerView, Request, Rules, Seat};
use tresillo_env::{Env, EnvError, Player, decision_actions, discard_step};

/// The player id of a chance node (OpenSpiel's `pyspiel.PlayerId.CHANCE`).
const CHANCE: i64 = -1;
/// The player id of a finished hand (OpenSpiel's `pyspiel.PlayerId.TERMINAL`).
const TERMINAL: i64 = -4;

pub(crate) fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// A rule set (any of `tresillo rules`) with its options, at a table of three or
/// four players.
///
/// `Game(rules="tresillo", players=3, options=None)`; option values may be
/// strings, booleans or integers (`{"palo_de_favor": "oros"}`, `{"contrabola": True}`).
#[pyclass(module = "tresillo._tresillo", frozen)]
#[derive(Clone)]
pub struct Game {
    pub(crate) env: Env,
}

fn option_text(name: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = v.extract::<bool>() {
        return Ok(if b { "true" } else { "false" }.into());
    }
    if v.is_instance_of::<PyInt>() {
        // Any size: the rule set's own check says what the option takes.
        return Ok(v.str()?.to_string());
    }
    v.extract::<String>().map_err(|_| {
        PyTypeError::new_err(format!("options[{name:?}]: expected a string, a bool or an int, got {v:?}"))
    })
}

/// An action id argument: a `ValueError` outside the action space, a
/// `TypeError` for what is not an int.
pub(crate) fn action_arg(a: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(i) = a.extract::<i64>()
        && !a.is_instance_of::<PyBool>()
        && let Ok(u) = usize::try_from(i)
        && u < NUM_ACTIONS
    {
        return Ok(u);
    }
    let range = format!("an action id, 0 to {}", NUM_ACTIONS - 1);
    let u: usize = int_arg("action", a, &range)?;
    if u >= NUM_ACTIONS {
        return Err(value_error(format!("action={u}: expected {range}")));
    }
    Ok(u)
}

/// A player argument (a seat, or `-1` for chance): a `ValueError` naming
/// it when it is no such thing (checked against the table by the caller).
pub(crate) fn player_arg(p: &Bound<'_, PyAny>) -> PyResult<i64> {
    if !p.is_instance_of::<PyBool>()
        && let Ok(i) = p.extract::<i64>()
    {
        return Ok(i);
    }
    int_arg("player", p, "a seat (0 to 3), or -1 for chance")
}

/// A `ModuleNotFoundError` naming `what` when NumPy cannot be imported.
pub(crate) fn numpy_needed(py: Python<'_>, what: &str) -> PyResult<()> {
    py.import("numpy").map(|_| ()).map_err(|_| {
        pyo3::exceptions::PyModuleNotFoundError::new_err(format!(
            "{what} returns NumPy arrays: pip install numpy"
        ))
    })
}

/// The integer argument `name`, in `T`'s range (`range` says it in words): a
/// `TypeError` for a value that is not an int (a bool neither), a `ValueError`
/// naming the argument outside the range.
pub(crate) fn int_arg<T: TryFrom<i128>>(name: &str, v: &Bound<'_, PyAny>, range: &str) -> PyResult<T> {
    if v.is_instance_of::<PyBool>() || (!v.is_instance_of::<PyInt>() && !v.hasattr("__index__")?) {
        let ty = v.get_type().name()?;
        return Err(PyTypeError::new_err(format!("{name}: expected an int, got {ty}")));
    }
    let too = || value_error(format!("{name}={v}: expected {range}"));
    let i: i128 = v.extract().map_err(|_| too())?;
    T::try_from(i).map_err(|_| too())
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = "tresillo", players = None, options = None))]
    pub(crate) fn new(
        rules: &str,
        players: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Game> {
        let players: u8 = match players {
            Some(p) => int_arg("players", p, "3 or 4")?,
            None => 3,
        };
        let mut pairs: Vec<(String, String)> = Vec::new();
        if let Some(o) = options {
            for (k, v) in o.iter() {
                let k: String = k
                    .extract()
                    .map_err(|_| PyTypeError::new_err(format!("options: the name {k:?} is not a string")))?;
                let text = option_text(&k, &v)?;
                pairs.push((k, text));
            }
        }
        let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let rules = Rules::parse(rules, &refs).map_err(|e| value_error(e.to_string()))?;
        Ok(Game { env: Env::new(rules, players).map_err(env_error)? })
    }

    /// The rule set's name.
    #[getter]
    fn rules(&self) -> &'static str {
        self.env.rules().set.name()
    }

    /// The options set away from their defaults, as `{name: value}` strings.
    #[getter]
    fn options(&self) -> Vec<(&'static str, String)> {
        self.env.rules().set_options()
    }

    /// Players at the table (3, or 4 with an inactive dealer).
    #[getter]
    fn players(&self) -> u8 {
        self.env.players()
    }

    /// The number of distinct actions (every action id is below it).
    #[staticmethod]
    fn num_distinct_actions() -> usize {
        NUM_ACTIONS
    }

    /// The length of `State.observation_tensor(player)`.
    #[staticmethod]
    fn observation_size() -> usize {
        Env::OBSERVATION_SIZE
    }

    /// The length of `State.information_state_tensor(player)`.
    #[staticmethod]
    fn information_state_size() -> usize {
        Env::INFORMATION_STATE_SIZE
    }

    /// The most decisions a hand can take (an upper bound, for OpenSpiel's
    /// `max_game_length`).
    #[staticmethod]
    fn max_game_length() -> usize {
        Env::MAX_GAME_LENGTH
    }

    /// A new hand. With `seed` the deal is the one `tresillo` deals for that seed
    /// (the `deal_seed` column of deals.csv) and play starts at once; with `deal`
    /// (RULES.md section 13 notation) that deal; with neither, the hand starts with
    /// 40 chance actions dealing the pack one card at a time (hands in seat order,
    /// then the heap from its top), as OpenSpiel deals.
    #[pyo3(signature = (seed = None, deal = None, dealer = None))]
    fn new_initial_state(
        &self,
        seed: Option<&Bound<'_, PyAny>>,
        deal: Option<&str>,
        dealer: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<State> {
        let seed: Option<u64> = seed.map(|s| int_arg("seed", s, "0 to 2**64-1")).transpose()?;
        let range = format!("a seat, 0 to {}", self.env.players() - 1);
        let dealer: u8 = dealer.map(|d| int_arg("dealer", d, &range)).transpose()?.unwrap_or(0);
        self.initial_state(seed, deal, dealer)
    }

    /// Pickling (and `copy.deepcopy`): the rule set, the table and the options.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let options = PyDict::new(py);
        for (k, v) in self.env.rules().set_options() {
            options.set_item(k, v)?;
        }
        let args = (self.env.rules().set.name(), self.env.players(), options).into_pyobject(py)?.into_any();
        Ok((py.get_type::<Game>().into_any(), args))
    }

    fn __repr__(&self) -> String {
        let opts: Vec<String> =
            self.env.rules().set_options().iter().map(|(k, v)| format!("{k:?}: {v:?}")).collect();
        format!(
            "Game(rules={:?}, players={}, options={{{}}})",
            self.env.rules().set.name(),
            self.env.players(),
            opts.join(", ")
        )
    }
}

impl Game {
    /// A new hand (see [`Game::new_initial_state`]).
    fn initial_state(&self, seed: Option<u64>, deal: Option<&str>, dealer: u8) -> PyResult<State> {
        let dealer = Seat(dealer);
        let s = match (seed, deal) {
            (Some(_), Some(_)) => {
                self.env.initial_state(dealer).map_err(env_error)?;
                return Err(value_error("give a seed or a deal, not both"));
            }
            (Some(seed), None) => self.env.state_for_seed(seed, dealer),
            (None, Some(text)) => {
                self.env.initial_state(dealer).map_err(env_error)?;
                let d = Deal::parse(text).map_err(|e| value_error(format!("deal {text:?}: {e}")))?;
                self.env.state_for_deal(d, dealer)
            }
            (None, None) => self.env.initial_state(dealer),
        };
        Ok(State(s.map_err(env_error)?))
    }
}

/// The error of a state another thread is using at this very moment.
fn busy_state() -> PyErr {
    PyRuntimeError::new_err(
        "this State is in use by another thread at this moment; give each thread its own state (state.clone())",
    )
}

/// An error of the environment as Python raises it: a `ValueError` for what the
/// caller asked, a `RuntimeError` for a refusal of the engine.
pub(crate) fn env_error(e: EnvError) -> PyErr {
    match e {
        EnvError::Invalid(m) => PyValueError::new_err(m),
        EnvError::Engine(m) => PyRuntimeError::new_err(m),
    }
}

/// One hand of a [`Game`]: the state machine over the fixed action space
/// ([`tresillo_env::State`], which this binds).
///
/// `current_player()` is a seat, `-1` while the pack is dealt by chance and `-4`
/// once the hand is over (OpenSpiel's ids).
#[pyclass(module = "tresillo._tresillo")]
#[derive(Clone)]
pub struct State(pub(crate) tresillo_env::State);

impl State {
    /// The seat `player`, whose view is asked: first, an error at a chance node.
    fn viewing_seat(&self, player: i64) -> PyResult<Seat> {
        if self.0.is_chance_node() {
            return Err(env_error(EnvError::chance_node()));
        }
        self.0.env().seat(player).map_err(env_error)
    }

    fn view_of(&self, player: i64) -> PyResult<PlayerView> {
        self.0.view(self.viewing_seat(player)?).map_err(env_error)
    }
}

#[pymethods]
impl State {
    /// The seat to move, `-1` at a chance node, `-4` when the hand is over.
    fn current_player(&self) -> i64 {
        match self.0.current_player() {
            Player::Chance => CHANCE,
            Player::Terminal => TERMINAL,
            Player::Seat(s) => i64::from(s.0),
        }
    }

    /// Whether the pack is being dealt (the next action is chance's).
    fn is_chance_node(&self) -> bool {
        self.0.is_chance_node()
    }

    /// The chance outcomes with their probabilities (uniform over the cards not
    /// yet dealt); empty after the deal.
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        self.0.chance_outcomes()
    }

    /// The legal action ids of the player to move, increasing (empty when the hand
    /// is over).
    fn legal_actions(&self) -> Vec<usize> {
        self.0.legal_actions()
    }

    /// A NumPy array of [`Game::num_distinct_actions`] booleans, true at the
    /// legal actions (shape `(153,)`, dtype `bool`).
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        numpy_needed(py, "legal_actions_mask")?;
        let mut m = [false; NUM_ACTIONS];
        for a in self.0.legal_actions() {
            m[a] = true;
        }
        Ok(PyArray1::from_slice(py, &m))
    }

    /// Plays action `a` for the player to move; a `ValueError` names the seat, the
    /// action and the legal ones when it is not legal.
    fn apply_action(&mut self, a: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = action_arg(a)?;
        self.0.apply_action(a).map_err(env_error)
    }

    /// Whether the hand is over.
    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }

    /// Each seat's result of the finished hand in the rule set's unit (tantos,
    /// `hombre` points or chips): the bowl's change, pool plus condiciones, as a
    /// fresh ledger scores the hand (deals.csv's `pool` + `cond` columns); zeros
    /// before the end.
    fn returns(&self) -> PyResult<Vec<f64>> {
        self.0.returns().map_err(env_error)
    }

    /// Every action so far, chance's included.
    fn history(&self) -> Vec<u16> {
        self.0.history().to_vec()
    }

    /// The history as a string of ids (OpenSpiel's `history_str`).
    fn history_str(&self) -> String {
        self.0.history().iter().map(u16::to_string).collect::<Vec<_>>().join(", ")
    }

    /// A copy of this state.
    fn clone(&self) -> State {
        Clone::clone(self)
    }

    /// Pickling: the game and the history, replayed when unpickled.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let f = py.import("tresillo._tresillo")?.getattr("_state_from_history")?;
        let env = self.0.env();
        let args = (
            env.rules().set.name(),
            env.rules().set_options(),
            env.players(),
            self.0.dealer().0,
            self.0.history().to_vec(),
        )
            .into_pyobject(py)?
            .into_any();
        Ok((f, args))
    }

    fn __copy__(&self) -> State {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        Clone::clone(self)
    }

    /// A state `player` cannot tell from this one, drawn uniformly among the
    /// deals consistent with what that seat has seen (the sampler of the search
    /// agents), with every public decision replayed; its `history()` is this
    /// state's. `seed` seeds the draw. A `ValueError` at a chance node.
    #[pyo3(signature = (player, seed = None))]
    fn resample_from_infostate(
        &self,
        player: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<State> {
        let seed: u64 = seed.map(|s| int_arg("seed", s, "0 to 2**64-1")).transpose()?.unwrap_or(0);
        let player = player_arg(player)?;
        let seat = self.viewing_seat(player)?;
        Ok(State(self.0.resample_from_infostate(seat, seed).map_err(env_error)?))
    }

    /// The deal in RULES.md section 13 notation (`None` while it is being dealt).
    fn deal(&self) -> Option<String> {
        self.0.deal().map(ToString::to_string)
    }

    /// The dealer's seat.
    fn dealer(&self) -> u8 {
        self.0.dealer().0
    }

    /// The words of action `a` for `player`, in the rule set's names: for
    /// chance (`-1`) the card it deals (`deal 1E`), for a seat its decision
    /// (`play 1E`, `bid 2`); a `ValueError` for a player not at the table or an
    /// id outside the action space.
    fn action_to_string(&self, player: &Bound<'_, PyAny>, a: &Bound<'_, PyAny>) -> PyResult<String> {
        let player = player_arg(player)?;
        let a = action_arg(a)?;
        if player == CHANCE {
            let names = self.0.env().rules().spec().names;
            return tresillo_core::Card::try_index(a)
                .filter(|_| a < 40)
                .map(|c| format!("deal {}", names.card(c)))
                .ok_or_else(|| value_error(format!("action {a}: chance's actions are the cards, 0 to 39")));
        }
        self.0.env().seat(player).map_err(env_error)?;
        Ok(tresillo_core::action::words(self.0.env().rules().spec().names, a))
    }

    /// What seat `player` may know (RULES.md section 9), as a flat list of 0/1 and
    /// small fractions: `Game.observation_size()` values, laid out in docs/PYTHON.md.
    fn observation_tensor(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
        let player = player_arg(player)?;
        if self.0.is_chance_node() {
            return Ok(vec![0.0; tresillo_env::observation::SIZE]);
        }
        self.0.observation_tensor(self.viewing_seat(player)?).map_err(env_error)
    }

    /// What seat `player` knows with perfect recall, as a NumPy float32 array of
    /// `Game.information_state_size()` values: the observation tensor, then
    /// the actions since the deal (laid out in docs/PYTHON.md); zeros while
    /// the pack is being dealt.
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        numpy_needed(py, "information_state_tensor")?;
        let player = player_arg(player)?;
        let seat = self.0.env().seat(player).map_err(env_error)?;
        let t = self.0.information_state_tensor(seat).map_err(env_error)?;
        Ok(PyArray1::from_vec(py, t))
    }

    /// What seat `player` knows, as a compact string: equal for two states that
    /// seat cannot tell apart, different otherwise (perfect recall); see
    /// [`tresillo_env::State::information_state_string`] and docs/PYTHON.md.
    fn information_state_string(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        let player = player_arg(player)?;
        let seat = self.0.env().seat(player).map_err(env_error)?;
        self.0.information_state_string(seat).map_err(env_error)
    }

    /// What seat `player` sees, as a dict: the keys of `SeatView.view()` (the
    /// protocol's `view`, with the discard the seat is building when it is to
    /// move), and `phase`, `to_move`, `turned` and `exposed`.
    fn view<'py>(&self, py: Python<'py>, player: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let player = player_arg(player)?;
        let view = self.view_of(player)?;
        let p = view.public();
        let d = seat_view::view_dict(py, &view, self.0.building(&view))?;
        d.set_item("phase", format!("{:?}", p.phase))?;
        d.set_item("to_move", view.request().seat().map(|s| s.0))?;
        d.set_item("turned", p.turned.map(|c| c.to_string()))?;
        d.set_item("exposed", p.exposed.map(|s| s.iter().map(|c| c.to_string()).collect::<Vec<_>>()))?;
        Ok(d)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<tresillo.State {}>", self.0)
    }
}

/// The words of action `a` of a seat, in `names` ([`tresillo_core::action::words`]).
pub(crate) fn action_words(names: Names, a: usize) -> String {
    tresillo_core::action::words(names, a)
}

/// An agent of the registry (`tresillo agents`), for example `Agent("pimc:worlds=32")`.
///
/// `agent.step(state)` returns the action of the seat to move, decided from that
/// seat's view only (an `oracle` sees the whole hand, as in a tournament). A
/// discard comes one card at a time: the agent decides the whole set once and
/// returns its cards in order, then "discard done".
///
/// `likelihood=f` (pimc, ismcts): a Python model of the other players that
/// weights the agent's sampled worlds in place of its soft `rule`, turning its
/// inference on: `f(view, world) -> float`, the log-likelihood of the public
/// history in `world` (a `tresillo.World`) seen from `view` (a `SeatView`).
/// With `batched=True`, `f(view, worlds)` scores a decision's whole pool in one
/// call and returns a sequence of floats (a list, a NumPy array). An exception,
/// a NaN or a batch of the wrong length is raised as a `RuntimeError` after the
/// decision.
#[pyclass(module = "tresillo._tresillo")]
pub struct Agent {
    spec: String,
    /// The seed it was built with (what pickling keeps, with the spec).
    seed: u64,
    /// The agent's mutable part. Its lock is only ever waited for with the
    /// interpreter's lock released, so threads stepping one agent take turns
    /// and never deadlock.
    inner: Arc<Mutex<Inner>>,
    /// Whether a step decides in a thread of its own while the caller waits
    /// for it checking for Ctrl-C (a search agent; or any agent once one of
    /// its decisions took long). The others decide in the caller's thread.
    searches: Arc<AtomicBool>,
    /// Where a `likelihood=` model's first failure is kept (raised after the
    /// decision it spoiled).
    model_failure: Option<model::ModelFailure>,
    /// The `likelihood=` model, for a tournament that seats this agent, and
    /// whether it answers a whole pool per call (`batched=True`).
    pub(crate) likelihood: Option<Py<PyAny>>,
    pub(crate) batched: bool,
}

/// A decision that takes longer than this moves the agent's later steps to a
/// thread of their own (so that Ctrl-C interrupts them).
const LONG_DECISION: Duration = Duration::from_millis(20);

/// How often a caller waiting for a search checks for signals.
pub(crate) const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// An agent's mutable part (behind a lock: Python objects may be shared
/// between threads).
struct Inner {
    seated: Seated,
    rng: AgentRng,
    /// The history of the last state decided for (the agent's hand memory is
    /// reset when the next one does not continue it).
    last: Vec<u16>,
    /// The discards decided and being returned card by card, each keyed by
    /// the hand it belongs to: the seat and the history when the discard began
    /// (the state's history without the cards chosen since). One agent steps
    /// many hands (round-robin, from several threads): each hand's plan is its
    /// own.
    plans: HashMap<(Seat, Vec<u16>), CardSet>,
}

/// The most discards an agent keeps planned at once (hands abandoned in the
/// middle of a discard are forgotten past it).
const MAX_PLANS: usize = 1 << 16;

/// What a step needs of the state, owned (it may move to the search thread).
#[derive(Clone)]
struct Ask {
    hand: Hand,
    seat: Seat,
    history: Vec<u16>,
    chosen: CardSet,
    /// The legal action ids (a discard's, given the cards chosen).
    legal: Vec<usize>,
}

/// The next action of a discard planned as `plan` with `chosen` already in,
/// among `legal`: the plan's lowest card not chosen when legal (cards go in
/// increasing order), else its next legal card, else "done" when legal, else
/// the first legal card (a plan that `chosen` already departs from: the
/// closest legal discard).
pub(crate) fn planned_discard_step(plan: CardSet, chosen: CardSet, legal: &[usize]) -> usize {
    let next = discard_step(plan, chosen);
    if legal.contains(&next) {
        return next;
    }
    let done = Action::DiscardDone.id().expect("the done id");
    (plan & !chosen)
        .iter()
        .filter_map(|c| Action::DiscardCard(c).id())
        .filter(|a| legal.contains(a))
        .min()
        .or_else(|| legal.contains(&done).then_some(done))
        .or_else(|| legal.first().copied())
        .unwrap_or(done)
}

impl Inner {
    /// The action for `ask`, with the decision made (`None` for the next card
    /// of a discard already decided); `Err` says why there is none.
    fn step(
        &mut self,
        ask: &Ask,
        spec: &str,
        failure: Option<&model::ModelFailure>,
    ) -> Result<(usize, Option<Decision>), String> {
        let Ask { hand, seat, history, chosen, legal } = ask;
        let (seat, chosen) = (*seat, *chosen);
        if !history.starts_with(&self.last) || self.last.is_empty() {
            self.seated.begin_hand();
        }
        self.last.clone_from(history);
        let discarding = matches!(hand.request(), Request::Discard { .. });
        let key = || (seat, history[..history.len() - chosen.len() as usize].to_vec());
        if discarding && let Some(&plan) = self.plans.get(&key()) {
            let id = planned_discard_step(plan, chosen, legal);
            if id == Action::DiscardDone.id().expect("the done id") {
                self.plans.remove(&key());
            }
            return Ok((id, None));
        }
        let d = self.seated.decide_at(hand, seat, &mut self.rng).map_err(|f| format!("agent {spec}: {f}"))?;
        if let Some(why) = failure.and_then(model::ModelFailure::take) {
            return Err(format!("agent {spec}: its likelihood {why}"));
        }
        let id = match d {
            Decision::Discard(set) => {
                let id = planned_discard_step(set, chosen, legal);
                if id != Action::DiscardDone.id().expect("the done id") {
                    if self.plans.len() >= MAX_PLANS {
                        self.plans.clear();
                    }
                    self.plans.insert(key(), set);
                }
                id
            }
            d => Action::Decision(d).id().ok_or_else(|| format!("no action id for {d:?}"))?,
        };
        Ok((id, Some(d)))
    }

    /// Forgets the hand in progress (its step was abandoned: the next step
    /// starts the agent's hand afresh).
    fn forget(&mut self) {
        self.last.clear();
    }
}

/// Steps `inner` for `ask` under its lock (taken here, in the calling thread).
fn step_locked(
    inner: &Mutex<Inner>,
    ask: &Ask,
    spec: &str,
    failure: Option<&model::ModelFailure>,
) -> Result<(usize, Option<Decision>), String> {
    let mut me = inner.lock().map_err(|_| "the agent failed in another thread".to_string())?;
    me.step(ask, spec, failure)
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (spec, seed = None, likelihood = None, batched = false))]
    fn new(
        spec: &str,
        seed: Option<&Bound<'_, PyAny>>,
        likelihood: Option<Bound<'_, PyAny>>,
        batched: bool,
    ) -> PyResult<Agent> {
        let seed: u64 = seed.map(|s| int_arg("seed", s, "0 to 2**64-1")).transpose()?.unwrap_or(0);
        let mut seated = learned(tresillo_agents::Registry::builtin())
            .build_seated(spec)
            .map_err(|e| value_error(format!("agent {spec:?}: {e}")))?;
        let mut model_failure = None;
        let kept = likelihood.as_ref().map(|f| f.clone().unbind());
        if let Some(f) = likelihood {
            if !f.is_callable() {
                return Err(value_error(format!("agent {spec:?}: likelihood is not callable")));
            }
            let (model, failure) = model::PyLikelihood::new(f.unbind(), batched);
            if !seated.set_likelihood(std::sync::Arc::new(model)) {
                return Err(value_error(format!(
                    "agent {spec:?}: samples no worlds to weight; a likelihood is for pimc or ismcts"
                )));
            }
            model_failure = Some(failure);
        }
        // A search (an amount of work: worlds, iterations, a time budget) or an
        // oracle's solver may take long.
        let name = spec.split(':').next().unwrap_or("").trim();
        let searches = matches!(seated, Seated::Cheat(_))
            || learned(tresillo_agents::Registry::builtin())
                .info(name)
                .is_some_and(|i| i.params.iter().any(|p| tresillo_sim::WORK_PARAMS.contains(&p.name)));
        Ok(Agent {
            model_failure,
            likelihood: kept,
            batched,
            spec: spec.to_string(),
            seed,
            searches: Arc::new(AtomicBool::new(searches)),
            inner: Arc::new(Mutex::new(Inner {
                seated,
                rng: tresillo_agents::rng_from_seed(seed),
                last: Vec::new(),
                plans: HashMap::new(),
            })),
        })
    }

    /// The spec the agent was built from.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The `likelihood=` model it was given, or `None`.
    #[getter]
    fn likelihood(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.likelihood.as_ref().map(|f| f.clone_ref(py))
    }

    /// The action of the seat to move in `state` (a `ValueError` at a chance node
    /// or after the end). Safe to call from several threads on one agent (the
    /// steps take turns), and for many hands at once (each discard's plan is
    /// kept with its hand). A search checks for signals while it runs: Ctrl-C
    /// stops it (within its current world or iteration) and raises
    /// `KeyboardInterrupt`, the agent usable at once (its next step starts its
    /// hand afresh); a second Ctrl-C raises at once.
    fn step(&self, py: Python<'_>, state: &Bound<'_, State>) -> PyResult<usize> {
        // The state is read here and let go: another thread may use it while
        // the agent decides (its answer is checked against the state after).
        let ask = {
            let state = state.try_borrow().map_err(|_| busy_state())?;
            let Some(hand) = state.0.hand() else {
                return Err(value_error("agent step at a chance node: the pack is still being dealt"));
            };
            let Some(seat) = hand.request().seat() else {
                return Err(value_error("agent step after the end of the hand"));
            };
            Ask {
                hand: *hand,
                seat,
                history: state.0.history().to_vec(),
                chosen: state.0.discard().chosen,
                legal: state.0.legal_actions(),
            }
        };
        let answer = if self.searches.load(Ordering::Relaxed) {
            self.step_in_thread(py, &ask)?
        } else {
            let (inner, spec, failure) = (&*self.inner, self.spec.as_str(), self.model_failure.as_ref());
            py.detach(|| {
                let t0 = Instant::now();
                let r = step_locked(inner, &ask, spec, failure);
                if t0.elapsed() > LONG_DECISION {
                    self.searches.store(true, Ordering::Relaxed);
                }
                r
            })
        };
        let (id, d) = answer.map_err(PyRuntimeError::new_err)?;
        if !ask.legal.contains(&id) {
            return Err(PyRuntimeError::new_err(format!(
                "agent {}: seat {} decided {d:?}, which is not legal here",
                self.spec, ask.seat
            )));
        }
        if state.try_borrow().map_or(true, |s| s.0.history() != ask.history.as_slice()) {
            return Err(PyRuntimeError::new_err(format!(
                "agent {}: the state changed while the agent decided (another thread applied an action); \
                 give each thread its own state (state.clone())",
                self.spec
            )));
        }
        Ok(id)
    }

    /// The seed it was built with.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Pickling (and `copy.deepcopy`): the agent as its spec, seed and model,
    /// rebuilt afresh (what it remembered of a hand in progress is not kept;
    /// a `likelihood=` model must be picklable itself).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let model = self.likelihood.as_ref().map(|m| m.clone_ref(py));
        let args = (self.spec.as_str(), self.seed, model, self.batched).into_pyobject(py)?.into_any();
        Ok((py.get_type::<Agent>().into_any(), args))
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.spec)
    }
}

impl Agent {
    /// Decides in a thread of its own while this one waits with the
    /// interpreter's lock released, checking for signals every
    /// [`SIGNAL_POLL`]: a `KeyboardInterrupt` (any exception of a signal
    /// handler) is raised at once and the search is abandoned.
    fn step_in_thread(
        &self,
        py: Python<'_>,
        ask: &Ask,
    ) -> PyResult<Result<(usize, Option<Decision>), String>> {
        let ask = ask.clone();
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let inner = Arc::clone(&self.inner);
        let spec = self.spec.clone();
        let failure = self.model_failure.clone();
        // Set when the caller was interrupted: the search ends at once (it
        // checks tresillo_agents::interrupt), forgets its hand and withdraws
        // the stop.
        let cancelled = Arc::new(AtomicBool::new(false));
        let cancel = Arc::clone(&cancelled);
        std::thread::Builder::new()
            .name(format!("tresillo agent {spec}"))
            .spawn(move || {
                let Ok(mut me) = inner.lock() else {
                    let _ = tx.send(Err("the agent failed in another thread".to_string()));
                    return;
                };
                let r = me.step(&ask, &spec, failure.as_ref());
                if cancel.load(Ordering::SeqCst) {
                    me.forget();
                    tresillo_agents::interrupt::clear_stop();
                }
                drop(me);
                let _ = tx.send(r);
            })
            .map_err(|e| {
                PyRuntimeError::new_err(format!("agent {}: no thread to search in: {e}", self.spec))
            })?;
        // (A receiver is not `Sync`: waited on through a lock, to be handed to the
        // closure that runs without the interpreter's lock.)
        let rx = Mutex::new(rx);
        let wait = || rx.lock().map_or(Err(RecvTimeoutError::Disconnected), |r| r.recv_timeout(SIGNAL_POLL));
        let mut interrupt = None::<PyErr>;
        loop {
            match py.detach(wait) {
                Ok(r) => {
                    if let Some(e) = interrupt {
                        // The search ended (cut short): the agent is usable at once.
                        tresillo_agents::interrupt::clear_stop();
                        return Err(e);
                    }
                    return Ok(r);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        if interrupt.is_some() {
                            return Err(e); // a second Ctrl-C: at once
                        }
                        // Ctrl-C: the search is asked to stop, and waited for.
                        interrupt = Some(e);
                        cancelled.store(true, Ordering::SeqCst);
                        tresillo_agents::interrupt::request_stop();
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    tresillo_agents::interrupt::clear_stop();
                    return Err(interrupt.unwrap_or_else(|| {
                        PyRuntimeError::new_err(format!("agent {}: its search failed", self.spec))
                    }));
                }
            }
        }
    }
}

/// A game record (one line of a `--record` file, docs/RECORDS.md) as what a
/// [`State`] needs to replay it: `(rules, options, players, deal, dealer,
/// actions)`, a discard spelled as its cards in order and "done". Replayed and
/// checked first; a `ValueError` names what is wrong.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn record_actions(line: &str) -> PyResult<(String, Vec<(String, String)>, u8, String, u8, Vec<usize>)> {
    let rec: tresillo_sim::HandRecord =
        tresillo_sim::json::from_str(line).map_err(|e| value_error(format!("not a game record: {e}")))?;
    rec.replay().map_err(|e| value_error(format!("invalid record: {e}")))?;
    let mut actions = Vec::new();
    for step in &rec.decisions {
        let d = step.act;
        actions.extend(decision_actions(d).ok_or_else(|| value_error(format!("no action id for {d:?}")))?);
    }
    let options = rec.options.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    Ok((rec.rules.name().to_string(), options, rec.players, rec.deal.to_string(), rec.dealer.0, actions))
}

/// The state reached by `history` from a new hand of the game (for pickling).
#[pyfunction]
fn _state_from_history(
    rules: &str,
    options: Vec<(String, String)>,
    players: u8,
    dealer: u8,
    history: Vec<i64>,
) -> PyResult<State> {
    let refs: Vec<(&str, &str)> = options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let rules = Rules::parse(rules, &refs).map_err(|e| value_error(e.to_string()))?;
    let game = Game { env: Env::new(rules, players).map_err(env_error)? };
    let mut s = game.initial_state(None, None, dealer)?;
    for a in history {
        let a = usize::try_from(a).map_err(|_| value_error(format!("action {a}: not an action id")))?;
        s.0.apply_action(a).map_err(env_error)?;
    }
    Ok(s)
}

/// `registry` with the learned models' agent and parameters (`net`, `loc=`,
/// `bid=`: tresillo-learn), model files read from disk.
pub(crate) fn learned(mut registry: tresillo_agents::Registry) -> tresillo_agents::Registry {
    let read: tresillo_learn::ModelReader = Arc::new(|path: &str| std::fs::read(path));
    tresillo_learn::register(&mut registry, read).expect("the learned models' names are free");
    registry
}

/// Every agent spec name of the registry, with its one-line help.
#[pyfunction]
fn agents() -> Vec<(String, String)> {
    learned(tresillo_agents::Registry::builtin())
        .infos()
        .into_iter()
        .map(|i| (i.name.to_string(), i.help.to_string()))
        .collect()
}

/// Every rule set with its options: `[(name, summary, [(option, default, values, help)])]`.
/// `(option, default, values, help)`.
type OptionRow = (&'static str, &'static str, &'static str, &'static str);

/// Registers the rule set defined in the TOML file at `path`
/// (docs/RULE-SET-FILES.md) for this process, so that `Game`, `tournament`,
/// `replay` and records know its name; returns the name. The same file again is
/// harmless; a bad file is a `ValueError` naming the file, line and key.
#[pyfunction]
fn register_rule_set(path: std::path::PathBuf) -> PyResult<String> {
    tresillo_runs::register_rule_set_file(&path)
        .map(|s| s.name().to_string())
        .map_err(|e| value_error(e.to_string()))
}

#[pyfunction]
fn rule_sets() -> Vec<(&'static str, &'static str, Vec<OptionRow>)> {
    tresillo_core::RuleSet::all()
        .map(|r| {
            let s = r.spec();
            (r.name(), s.summary, s.options.iter().map(|o| (o.name, o.default, o.values, o.help)).collect())
        })
        .collect()
}

/// The columns of `deals.csv` in order, `[(name, kind, nullable)]`, the kind one of
/// `u64`, `u8`, `i64`, `name`, `text` ([`tresillo_sim::schema`]); the Python reader
/// builds its dtypes from them.
#[pyfunction]
fn deals_columns() -> Vec<(&'static str, &'static str, bool)> {
    tresillo_sim::schema::COLUMNS.iter().map(|c| (c.name, c.kind.name(), c.nullable)).collect()
}

/// Every contract name of the `contract` column with the name of its family
/// (`Contract::family`: the summary column it counts in).
#[pyfunction]
fn contract_families() -> Vec<(&'static str, &'static str)> {
    tresillo_sim::schema::contract_families().into_iter().map(|(c, f)| (c.name(), f.name())).collect()
}

/// The module.
#[pymodule]
fn _tresillo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<Agent>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_function(wrap_pyfunction!(agents, m)?)?;
    m.add_function(wrap_pyfunction!(rule_sets, m)?)?;
    m.add_function(wrap_pyfunction!(register_rule_set, m)?)?;
    m.add_function(wrap_pyfunction!(deals_columns, m)?)?;
    m.add_function(wrap_pyfunction!(contract_families, m)?)?;
    m.add_function(wrap_pyfunction!(record_actions, m)?)?;
    m.add_function(wrap_pyfunction!(_state_from_history, m)?)?;
    m.add_function(wrap_pyfunction!(seated::_tournament, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("LONG_VERSION", tresillo_provenance::current().version_text())?;
    m.add_class::<seat_view::SeatView>()?;
    m.add_class::<model::World>()?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBSERVATION_SIZE", Env::OBSERVATION_SIZE)?;
    m.add("INFORMATION_STATE_SIZE", Env::INFORMATION_STATE_SIZE)?;
    m.add("CHANCE", CHANCE)?;
    m.add("TERMINAL", TERMINAL)?;
    Ok(())
}
