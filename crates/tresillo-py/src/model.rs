//! A Python model of the other players as the agents' [`Likelihood`]: the
//! `likelihood=` of `tresillo.Agent("pimc", likelihood=f)`. `f(view, world)`
//! returns the log-likelihood of the public history if the hidden cards were
//! those of `world` (docs/AGENTS.md, "Inference-weighted worlds"); the agent
//! samples a pool of worlds consistent with its seat's view, weights them by
//! `exp(f(view, world))` and searches worlds drawn from the pool. The callable
//! sees the deciding seat's [`SeatView`] and a candidate [`World`], never the
//! hand: what it may know is what the seat may know (RULES.md section 9).
//!
//! The callable's first failure is kept and raised after the decision.

use crate::seat_view::SeatView;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};
use tresillo_agents::Likelihood;
use tresillo_core::{CardSet, PlayerView};

/// A world the agent's sampler drew: every hidden card placed, consistent with
/// the deciding seat's view. `hands[s]`, `discards[s]` (card names, as in
/// `view()`), `heap` (the cards left in the heap, in no order).
#[pyclass(module = "tresillo._tresillo", frozen)]
pub struct World {
    world: tresillo_agents::World,
    players: usize,
}

fn names(s: CardSet) -> Vec<String> {
    s.iter().map(|c| c.to_string()).collect()
}

#[pymethods]
impl World {
    /// Each seat's hand in this world (the deciding seat's is its own).
    #[getter]
    fn hands(&self) -> Vec<Vec<String>> {
        self.world.hands.0[..self.players].iter().map(|&s| names(s)).collect()
    }

    /// Each seat's discards in this world.
    #[getter]
    fn discards(&self) -> Vec<Vec<String>> {
        self.world.discards.0[..self.players].iter().map(|&s| names(s)).collect()
    }

    /// The cards left in the heap.
    #[getter]
    fn heap(&self) -> Vec<String> {
        names(self.world.heap)
    }

    fn __repr__(&self) -> String {
        format!("World(hands={:?}, heap={:?})", self.hands(), self.heap())
    }
}

/// A Python callable as a [`Likelihood`]: `f(view, world) -> float`, or with
/// `batched`, `f(view, worlds) -> a sequence of floats` (one call per pool, for
/// a network's batched forward pass). Its first failure (an exception, an
/// answer that is not a number, a NaN, a batch of the wrong length) is kept in
/// `failure`, every world is then ruled out (the agent falls back on uniform
/// worlds), and the caller raises it after the decision.
pub struct PyLikelihood {
    f: Py<PyAny>,
    batched: bool,
    failure: Arc<Mutex<Option<String>>>,
}

/// Where a [`PyLikelihood`]'s first failure is kept, for the agent that owns the
/// model to raise after the decision it spoiled.
#[derive(Clone)]
pub struct ModelFailure(Arc<Mutex<Option<String>>>);

impl ModelFailure {
    /// The failure since the last call, if any (the model is then asked again).
    pub fn take(&self) -> Option<String> {
        self.0.lock().ok().and_then(|mut f| f.take())
    }
}

impl PyLikelihood {
    /// The model `f` (called per world, or per pool with `batched`), and where
    /// its failure will be kept.
    pub fn new(f: Py<PyAny>, batched: bool) -> (PyLikelihood, ModelFailure) {
        let failure = Arc::new(Mutex::new(None));
        (PyLikelihood { f, batched, failure: Arc::clone(&failure) }, ModelFailure(failure))
    }

    fn failed(&self) -> bool {
        self.failure.lock().map_or(true, |f| f.is_some())
    }

    /// One call of a batched model on `worlds`.
    fn batch(&self, view: &PlayerView, worlds: &[tresillo_agents::World]) -> PyResult<Vec<f64>> {
        let players = usize::from(view.public().players);
        Python::attach(|py| {
            let list = worlds
                .iter()
                .map(|w| Py::new(py, World { world: *w, players }))
                .collect::<PyResult<Vec<_>>>()?;
            self.f.call1(py, (SeatView::of(*view), list))?.extract::<Vec<f64>>(py)
        })
    }

    fn fail(&self, why: String) -> f64 {
        if let Ok(mut f) = self.failure.lock()
            && f.is_none()
        {
            *f = Some(why);
        }
        f64::NEG_INFINITY
    }
}

impl Likelihood for PyLikelihood {
    fn log_weights(&self, view: &PlayerView, worlds: &[tresillo_agents::World], out: &mut Vec<f64>) {
        out.clear();
        if !self.batched {
            out.extend(worlds.iter().map(|w| self.log_weight(view, w)));
            return;
        }
        if !self.failed() {
            match self.batch(view, worlds) {
                Ok(v) if v.len() != worlds.len() => {
                    self.fail(format!("returned {} log-likelihoods for {} worlds", v.len(), worlds.len()));
                }
                Ok(v) if v.iter().any(|x| x.is_nan()) => {
                    self.fail("returned NaN, not a log-likelihood".into());
                }
                Ok(v) => out.extend(v),
                Err(e) => {
                    self.fail(format!("raised {e}"));
                }
            }
        }
        out.resize(worlds.len(), f64::NEG_INFINITY);
    }

    fn log_weight(&self, view: &PlayerView, world: &tresillo_agents::World) -> f64 {
        if self.batched {
            let mut one = Vec::with_capacity(1);
            self.log_weights(view, std::slice::from_ref(world), &mut one);
            return one[0];
        }
        if self.failed() {
            return f64::NEG_INFINITY;
        }
        let players = usize::from(view.public().players);
        let answer = Python::attach(|py| -> PyResult<f64> {
            let w = World { world: *world, players };
            let r = self.f.call1(py, (SeatView::of(*view), w))?;
            r.extract::<f64>(py)
        });
        match answer {
            Ok(x) if !x.is_nan() => x,
            Ok(_) => self.fail("returned NaN, not a log-likelihood".into()),
            Err(e) => self.fail(format!("raised {e}")),
        }
    }
}
