//! Python callables seated in the Rust tournament runner: each is registered in a
//! [`Registry`] beside the built-in agents and decides from a [`SeatView`], which
//! holds only its seat's [`PlayerView`] (RULES.md section 9), never the hand.
//! The runner is the run-directory library's ([`tresillo_runs::run`]): the same
//! files, checkpoints and resume as `tresillo tournament`.
//!
//! A raised exception or an illegal answer stops the run, resumable. `(name, Agent)`
//! pairs become `ModelAgent`s (a built-in agent with its Python likelihood).
//! `_tournament` runs `tresillo_runs::run_stoppable` with the GIL released, in a thread
//! of its own while the caller polls signals (Ctrl-C:
//! `tresillo_agents::interrupt::request_stop`; a second Ctrl-C stops at once).

use crate::seat_view::SeatView;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use tresillo_agents::{Agent, AgentInfo, AgentRng, Failure};
use tresillo_core::{Decision, PlayerView, Rules};
use tresillo_runs::{RunOptions, TournamentArgs, python_words};

/// A Python callable `f(seat_view) -> action id` as an agent. A discard is asked
/// card by card until "done". An exception or an illegal answer is the agent's
/// [`Failure`] (also kept in `failure`, for the message Python raises), which
/// stops the run with every finished deal kept.
struct PyAgent {
    name: &'static str,
    f: Py<PyAny>,
    failure: Arc<Mutex<Option<String>>>,
}

impl PyAgent {
    fn fail(&self, view: &PlayerView, why: String) -> Failure {
        failed(&self.failure, format!("Python agent {} (seat {}): {why}", self.name, view.seat()))
    }
}

/// The failure `why`, kept in `failure` if it is the run's first (the message
/// `tresillo.tournament` raises).
fn failed(failure: &Mutex<Option<String>>, why: String) -> Failure {
    if let Ok(mut f) = failure.lock()
        && f.is_none()
    {
        *f = Some(why.clone());
    }
    Failure::new(why)
}

/// A built-in agent seated by a `(name, tresillo.Agent)` pair: its spec, and the
/// Python model it was given ([`crate::model::PyLikelihood`]). A failure of the
/// model stops the run as a failing Python agent does.
struct ModelAgent {
    name: &'static str,
    inner: Box<dyn Agent>,
    model_failure: Option<crate::model::ModelFailure>,
    failure: Arc<Mutex<Option<String>>>,
}

impl ModelAgent {
    fn build(
        name: &'static str,
        spec: &str,
        model: Option<Py<PyAny>>,
        batched: bool,
        failure: Arc<Mutex<Option<String>>>,
    ) -> Result<Box<dyn Agent>, tresillo_agents::SpecError> {
        let mut inner = crate::learned(tresillo_agents::Registry::builtin()).build_agent(spec)?;
        let mut model_failure = None;
        if let Some(f) = model {
            let (model, kept) = crate::model::PyLikelihood::new(f, batched);
            inner.set_likelihood(Arc::new(model));
            model_failure = Some(kept);
        }
        Ok(Box::new(ModelAgent { name, inner, model_failure, failure }))
    }
}

impl Agent for ModelAgent {
    fn name(&self) -> &str {
        self.name
    }

    fn new_hand(&mut self) {
        self.inner.new_hand();
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        let d = self.inner.decide(view, rng)?;
        match self.model_failure.as_ref().and_then(crate::model::ModelFailure::take) {
            Some(why) => Err(failed(
                &self.failure,
                format!("agent {} (seat {}): its likelihood {why}", self.name, view.seat()),
            )),
            None => Ok(d),
        }
    }

    fn end_hand(&mut self, result: &tresillo_core::HandResult) {
        self.inner.end_hand(result);
    }

    fn take_work(&mut self) -> tresillo_agents::Work {
        self.inner.take_work()
    }
}

impl Agent for PyAgent {
    fn name(&self) -> &str {
        self.name
    }

    fn decide(&mut self, view: &PlayerView, _rng: &mut AgentRng) -> Result<Decision, Failure> {
        tresillo_env::decide_by_actions(view, |discard, legal| {
            let answer = Python::attach(|py| -> PyResult<i64> {
                let sv = Py::new(py, SeatView { view: *view, discard })?;
                self.f.call1(py, (sv,))?.extract::<i64>(py)
            });
            let a = answer.map_err(|e| self.fail(view, format!("raised {e}")))?;
            usize::try_from(a).ok().filter(|a| legal.contains(a)).ok_or_else(|| {
                self.fail(view, format!("answered {a}, not a legal action (legal: {legal:?})"))
            })
        })
    }
}

fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// The agents' specs: each spec string kept, each `(name, callable)` or
/// `(name, tresillo.Agent)` pair registered in `registry` under its name (a
/// Python agent's failure is kept in `failure`).
fn register_agents(
    py: Python<'_>,
    agents: Vec<Bound<'_, PyAny>>,
    registry: &mut tresillo_agents::Registry,
    failure: &Arc<Mutex<Option<String>>>,
) -> PyResult<Vec<String>> {
    let mut specs = Vec::new();
    for a in agents {
        if let Ok(spec) = a.extract::<String>() {
            specs.push(spec);
            continue;
        }
        let (name, f): (String, Bound<'_, PyAny>) = a.extract().map_err(|_| {
            value_error(
                "an agent is a spec string (`\"pimc:worlds=32\"`), or a (name, callable) or (name, tresillo.Agent) pair",
            )
        })?;
        let agent = f.cast::<crate::Agent>().ok();
        if agent.is_none() && !f.is_callable() {
            return Err(value_error(format!("agent {name}: not callable")));
        }
        if name.contains([':', ',']) || name.trim() != name || name.is_empty() {
            return Err(value_error(format!(
                "agent name {name:?}: a name without `:`, `,` or spaces at its ends"
            )));
        }
        if specs.contains(&name) || registry.infos().iter().any(|i| i.name == name) {
            return Err(value_error(format!(
                "agent name {name}: already taken (name each Python agent apart)"
            )));
        }
        let name: &'static str = Box::leak(name.into_boxed_str());
        let fail = Arc::clone(failure);
        if let Some(agent) = agent {
            // A built-in agent, with the Python model it was given, if any.
            let agent = agent.borrow();
            let spec = agent.spec.clone();
            // The check the factory below repeats per worker: a fair agent of the registry.
            crate::learned(tresillo_agents::Registry::builtin())
                .build_agent(&spec)
                .map_err(|e| value_error(format!("agent {spec:?}: {e}")))?;
            let model = agent.likelihood.as_ref().map(|m| m.clone_ref(py));
            let batched = agent.batched;
            let help = "a built-in agent weighting its worlds by a Python likelihood";
            let info = AgentInfo { name, help, params: Vec::new() };
            registry
                .register(info, move |_| {
                    let model = model.as_ref().map(|m| Python::attach(|py| m.clone_ref(py)));
                    ModelAgent::build(name, &spec, model, batched, Arc::clone(&fail))
                })
                .map_err(|e| value_error(e.to_string()))?;
            specs.push(name.to_string());
            continue;
        }
        let f = f.unbind();
        let info = AgentInfo { name, help: "a Python callable", params: Vec::new() };
        registry
            .register(info, move |_| {
                let f = Python::attach(|py| f.clone_ref(py));
                Ok(Box::new(PyAgent { name, f, failure: Arc::clone(&fail) }))
            })
            .map_err(|e| value_error(e.to_string()))?;
        specs.push(name.to_string());
    }
    Ok(specs)
}

/// Waits for the run's result on `rx`, checking for signals every
/// `SIGNAL_POLL`: the first asks the run to stop (`stopping`, and every agent),
/// a second returns at once (`None`). The result, and the first signal's error.
fn wait_for_run(
    py: Python<'_>,
    rx: std::sync::mpsc::Receiver<anyhow::Result<String>>,
    stopping: &AtomicBool,
) -> (Option<anyhow::Result<String>>, Option<PyErr>) {
    // (A receiver is not `Sync`: waited on through a lock.)
    let rx = Mutex::new(rx);
    let wait =
        || rx.lock().map_or(Err(RecvTimeoutError::Disconnected), |r| r.recv_timeout(crate::SIGNAL_POLL));
    let mut interrupt = None::<PyErr>;
    let result = loop {
        match py.detach(wait) {
            Ok(r) => break Some(r),
            Err(RecvTimeoutError::Disconnected) => {
                break Some(Err(anyhow::anyhow!("the tournament's thread failed")));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    if interrupt.is_some() {
                        break None; // a second Ctrl-C: at once
                    }
                    interrupt = Some(e);
                    stopping.store(true, Ordering::SeqCst);
                    tresillo_agents::interrupt::request_stop();
                }
            }
        }
    };
    (result, interrupt)
}

/// What `tresillo.tournament` returns or raises for the run's `result`: the
/// table and the notes, a `KeyboardInterrupt` (with a warning of what was kept)
/// after an interruption, or the run's error in Python's words.
fn outcome(
    py: Python<'_>,
    result: Option<anyhow::Result<String>>,
    interrupt: Option<PyErr>,
    notes: &Mutex<Vec<String>>,
    failure: &Mutex<Option<String>>,
) -> PyResult<(String, Vec<String>)> {
    let notes = notes.lock().map(|n| n.clone()).unwrap_or_default();
    let interrupted = |e: &anyhow::Error| {
        e.chain().any(|c| {
            matches!(c.downcast_ref(), Some(tresillo_sim::SimError::Interrupted))
                || c.downcast_ref::<tresillo_runs::RunError>()
                    .is_some_and(tresillo_runs::RunError::is_interrupted)
        })
    };
    let warn = |text: String| -> PyResult<()> {
        let msg = std::ffi::CString::new(text).unwrap_or_default();
        // Level 2: the warning names the caller of `tresillo.tournament`, not the
        // package's own `__init__.py`.
        PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &msg, 2)
    };
    let keyboard = || pyo3::exceptions::PyKeyboardInterrupt::new_err("the tournament was interrupted");
    match result {
        None => {
            warn(
                "tresillo.tournament interrupted again: returned at once; the run ends in the background with \
                 every finished deal kept (resume=True continues it)"
                    .into(),
            )?;
            Err(interrupt.unwrap_or_else(keyboard))
        }
        Some(Ok(_)) if interrupt.is_some() => Err(interrupt.unwrap_or_else(keyboard)),
        Some(Ok(table)) => Ok((table, notes)),
        Some(Err(e)) if interrupt.is_some() || interrupted(&e) => {
            let kept = e
                .downcast_ref::<tresillo_runs::RunError>()
                .and_then(tresillo_runs::RunError::interrupted)
                .map_or_else(|| "all".to_string(), |i| i.deals_completed.to_string());
            warn(format!(
                "tresillo.tournament interrupted: {kept} finished deals kept; resume=True continues the run"
            ))?;
            Err(interrupt.unwrap_or_else(keyboard))
        }
        Some(Err(e)) => {
            let why = failure.lock().ok().and_then(|f| f.clone());
            Err(PyRuntimeError::new_err(match why {
                Some(w) => {
                    format!("{w}; the run stopped with every finished deal kept (resume=True continues it)")
                }
                None => python_words(&format!("{e:#}")),
            }))
        }
    }
}

/// Runs a tournament into the run directory `out` (see `tresillo.tournament`):
/// `agents` are spec strings or `(name, callable)` pairs. Returns the summary
/// table as printed by `tresillo tournament`, and the runner's notes (a time
/// budget that does not reproduce, a resumed run) for Python to warn with.
#[pyfunction]
#[pyo3(signature = (agents, deals, out, duplicate = false, rules = "tresillo", players = 3, options = Vec::new(),
    seed = 1, scoring = "deal", shard = None, threads = None, resume = false, force = false, record = None,
    progress = false, bidding = None, ms_per_decision = None, format = "csv", call = Vec::new(),
    bidding_covers = None))]
#[allow(clippy::too_many_arguments)]
pub fn _tournament(
    py: Python<'_>,
    agents: Vec<Bound<'_, PyAny>>,
    deals: u64,
    out: PathBuf,
    duplicate: bool,
    rules: &str,
    players: u8,
    options: Vec<(String, String)>,
    seed: u64,
    scoring: &str,
    shard: Option<&str>,
    threads: Option<usize>,
    resume: bool,
    force: bool,
    record: Option<PathBuf>,
    progress: bool,
    bidding: Option<String>,
    ms_per_decision: Option<u32>,
    format: &str,
    call: Vec<String>,
    bidding_covers: Option<&str>,
) -> PyResult<(String, Vec<String>)> {
    if let Some(t) = threads {
        tresillo_runs::check_threads(t, "threads").map_err(|e| value_error(e.to_string()))?;
    }
    tresillo_runs::check_resume_force(resume, force)
        .map_err(|e| value_error(python_words(&e.to_string())))?;
    let format = format.parse::<tresillo_runs::Format>().map_err(|e| value_error(format!("format: {e}")))?;
    let refs: Vec<(&str, &str)> = options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let rules = Rules::parse(rules, &refs).map_err(|e| value_error(e.to_string()))?;
    let mut registry = crate::learned(tresillo_bots::registry());
    let failure = Arc::new(Mutex::new(None::<String>));
    let specs = register_agents(py, agents, &mut registry, &failure)?;
    let bidding_covers = bidding_covers
        .map(str::parse::<tresillo_agents::BiddingCovers>)
        .transpose()
        .map_err(|e| value_error(format!("bidding_covers: {e}")))?
        .unwrap_or_default();
    let args = TournamentArgs {
        agents: specs,
        players,
        deals,
        seed,
        rules,
        scoring,
        duplicate,
        shard,
        bidding: bidding.as_deref(),
        bidding_covers,
        ms_per_decision,
    };
    let config = tresillo_runs::tournament_config(args, &registry)
        .map_err(|e| value_error(python_words(&e.to_string())))?;
    let mut notes = Vec::<String>::new();
    if ms_per_decision.is_some() {
        notes.extend(config.time_budget_note(&registry));
    }
    let notes = Arc::new(Mutex::new(notes));
    // The manifest's command line: the call and its arguments, as Python wrote them.
    let command_line: Vec<String> =
        std::iter::once("python: tresillo.tournament".to_string()).chain(call).collect();
    // Ctrl-C: the run plays in a thread of its own while this one (the main
    // thread, where Python runs signal handlers) waits, checking for signals
    // every SIGNAL_POLL. The first signal asks every agent and the runner to
    // stop (tresillo_agents::interrupt): the deals in progress are abandoned
    // (a search gives up within its current world), every finished deal is
    // kept, and the run ends within about a second. A second signal returns at
    // once, leaving the run to end in the background.
    let stopping = Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::sync_channel::<anyhow::Result<String>>(1);
    let run = {
        let (notes, stopping) = (Arc::clone(&notes), Arc::clone(&stopping));
        move || {
            let note = |line: &str| {
                if let Ok(mut n) = notes.lock() {
                    n.push(line.to_string());
                }
            };
            let opts = RunOptions {
                out,
                threads,
                resume,
                force,
                record,
                progress,
                build: Some(tresillo_provenance::current()),
                registry,
                note: &note,
                format,
                bots: Vec::new(),
            };
            let stop = || stopping.load(Ordering::SeqCst);
            let r = tresillo_runs::run_stoppable(&config, &opts, None, command_line, &stop);
            drop(opts);
            if stopping.load(Ordering::SeqCst) {
                tresillo_agents::interrupt::clear_stop();
            }
            let _ = tx.send(r.map_err(anyhow::Error::from));
        }
    };
    std::thread::Builder::new()
        .name("tresillo tournament".into())
        .spawn(run)
        .map_err(|e| PyRuntimeError::new_err(format!("tresillo.tournament: no thread to run in: {e}")))?;
    let (result, interrupt) = wait_for_run(py, rx, &stopping);
    outcome(py, result, interrupt, &notes, &failure)
}
