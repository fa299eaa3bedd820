//! What a Python callable deciding for a seat, or scoring a world for it, is
//! handed: [`SeatView`], its seat's [`PlayerView`] (RULES.md section 9) and the
//! discard it is building, never the hand.

use crate::observation;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tresillo_core::PlayerView;
use tresillo_core::action::{DiscardBuilder, legal_ids};

/// What a seated Python agent sees: its seat's view, with the fixed action space.
/// `legal_actions()`, `observation_tensor()`, `information_state_string()`,
/// `view()` (a dict), `action_to_string(a)`, `seat`.
#[pyclass(module = "tresillo._tresillo", frozen)]
pub struct SeatView {
    pub(crate) view: PlayerView,
    pub(crate) discard: DiscardBuilder,
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

    /// The view as a dict: hand, discards, request, rules, players.
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let p = self.view.public();
        let cards = |s: tresillo_core::CardSet| s.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        d.set_item("seat", self.view.seat().0)?;
        d.set_item("rules", p.rules.name())?;
        d.set_item("players", p.players)?;
        d.set_item("hand", cards(self.view.hand()))?;
        d.set_item("discards", cards(self.view.discards()))?;
        d.set_item("building", cards(self.discard.chosen))?;
        d.set_item("request", format!("{:?}", self.view.request()))?;
        d.set_item("trump", p.trump.map(|t| t.to_string()))?;
        d.set_item("contract", p.contract.map(|c| p.rules.names().contract(c, p.trump)))?;
        d.set_item("declarer", p.declarer.map(|s| s.0))?;
        d.set_item("current_trick", p.current_trick().iter().map(ToString::to_string).collect::<Vec<_>>())?;
        Ok(d)
    }
}
