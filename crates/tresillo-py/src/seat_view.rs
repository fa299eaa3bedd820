//! What a Python callable deciding for a seat, or scoring a world for it, is
//! handed: [`SeatView`], its seat's [`PlayerView`] (RULES.md section 9) and the
//! discard it is building, never the hand.
//!
//! `view_dict` is `tresillo_env::SeatView` through `json.loads`, plus Python's keys.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use tresillo_core::action::{DiscardBuilder, legal_ids};
use tresillo_core::{CardSet, PlayerView};
use tresillo_env::observation;

/// What a seated Python agent sees: its seat's view, with the fixed action space.
/// `legal_actions()`, `observation_tensor()`, `information_state_string()`,
/// `view()` (a dict), `action_to_string(a)`, `seat`.
#[pyclass(module = "tresillo._tresillo", frozen)]
pub struct SeatView {
    pub(crate) view: PlayerView,
    pub(crate) discard: DiscardBuilder,
}

/// A seat's view as a Python dict: `seat`, `rules`, `players` and `request`
/// (the `Debug` text of the engine's request), then every key of the protocol's
/// `view` with its values ([`tresillo_env::SeatView`], the one definition:
/// docs/PROTOCOL.md), pairs as lists.
pub(crate) fn view_dict<'py>(
    py: Python<'py>,
    view: &PlayerView,
    discarding: CardSet,
) -> PyResult<Bound<'py, PyDict>> {
    let p = view.public();
    let d = PyDict::new(py);
    d.set_item("seat", view.seat().0)?;
    d.set_item("rules", p.rules.name())?;
    d.set_item("players", p.players)?;
    d.set_item("request", format!("{:?}", view.request()))?;
    let json = serde_json::to_string(&tresillo_env::SeatView::new(view, discarding))
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    let fields = py.import("json")?.call_method1("loads", (json,))?;
    d.update(fields.cast_into::<PyDict>()?.as_mapping())?;
    Ok(d)
}

impl SeatView {
    /// The view of a seat that decides in one step (no discard being built).
    pub(crate) fn of(view: PlayerView) -> SeatView {
        SeatView { view, discard: DiscardBuilder::default() }
    }
}

#[pymethods]
impl SeatView {
    /// The seat deciding.
    #[getter]
    fn seat(&self) -> u8 {
        self.view.seat().0
    }

    /// The legal action ids, increasing.
    fn legal_actions(&self) -> Vec<usize> {
        legal_ids(&self.view, self.discard)
    }

    /// The seat's observation tensor (docs/PYTHON.md).
    fn observation_tensor(&self) -> Vec<f32> {
        observation::tensor(&self.view, self.discard.chosen)
    }

    /// The seat's information-state string (as `State.information_state_string`).
    fn information_state_string(&self) -> String {
        format!("seat {}; discarding {}; {:?}", self.view.seat(), self.discard.chosen, self.view)
    }

    /// The words of action `a` in the rule set's names.
    fn action_to_string(&self, a: usize) -> String {
        crate::action_words(self.view.public().game_rules().spec().names, a)
    }

    /// The view as a dict: `seat`, `rules`, `players`, `request`, then the keys
    /// of the protocol's `view` ([`view_dict`]).
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        view_dict(py, &self.view, self.discard.chosen)
    }
}
