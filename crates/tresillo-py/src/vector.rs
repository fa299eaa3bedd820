//! `tresillo.VectorEnv`: N hands stepped together from one call, a learner at
//! one seat and built-in agents at the others ([`tresillo_env::vector::Lane`]),
//! observations and legal-action masks written straight into NumPy arrays
//! (no Python list in between), the lanes stepped on rayon's threads with the
//! interpreter's lock released.

use crate::{env_error, int_arg, numpy_needed, value_error};
use numpy::{AllowTypeChange, PyArray1, PyArray2, PyArrayLike1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rayon::prelude::*;
use std::sync::Mutex;
use tresillo_core::action::NUM_ACTIONS;
use tresillo_env::vector::{Illegal, Lane, Outcome};
use tresillo_env::{Env, EnvError};

const OBS: usize = Env::OBSERVATION_SIZE;
/// Lanes per task of rayon's pool (a step of one lane is a few microseconds).
const CHUNK: usize = 64;

/// N hands of a game stepped together: the learner plays one seat of every
/// hand, built-in agents the others; when a hand ends the next one starts at
/// once (auto-reset, same step). See docs/PYTHON.md, "Vectorized environments".
///
/// `VectorEnv(num_envs, rules="tresillo", players=3, options=None, seat=0,
/// opponents="rule", seed=None, illegal_reward=None, threads=1)`: `opponents`
/// a spec of `tresillo agents` for every other seat or a list of one per
/// other seat (each lane has its own agents, seeded from its seed); `seed` an
/// int (lane `i` gets `seed + i`) or one per lane (default: lane `i` gets
/// `i`); `illegal_reward` `None` refuses an illegal action with a
/// `ValueError`, a number ends the hand with that reward; `threads` above 1
/// steps the lanes on that many threads.
#[pyclass(module = "tresillo._tresillo")]
pub struct VectorEnv {
    lanes: Mutex<Vec<Lane>>,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    n: usize,
    /// The threads lanes are stepped on (none: the calling thread).
    pool: Option<rayon::ThreadPool>,
}

/// Every lane's seed from `seed`: an int gives lane `i` `seed + i` (Gymnasium's
/// convention), a sequence one per lane.
fn lane_seeds(seed: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<u64>> {
    if let Ok(list) = seed.try_iter() {
        let seeds: Vec<u64> = list.map(|s| int_arg("seed", &s?, "0 to 2**64-1")).collect::<PyResult<_>>()?;
        if seeds.len() != n {
            return Err(value_error(format!("seed: {} seeds for {n} environments", seeds.len())));
        }
        return Ok(seeds);
    }
    let s: u64 = int_arg("seed", seed, "0 to 2**64-1")?;
    Ok((0..n as u64).map(|i| s.wrapping_add(i)).collect())
}

/// Runs `f` on every lane with its rows (on `pool`'s threads when given);
/// the first error names its environment.
fn each_lane<F>(
    lanes: &mut [Lane],
    obs: &mut [f32],
    mask: &mut [bool],
    outcomes: &mut [Outcome],
    pool: Option<&rayon::ThreadPool>,
    f: F,
) -> PyResult<()>
where
    F: Fn(usize, &mut Lane, &mut [f32], &mut [bool], &mut Outcome) -> Result<(), EnvError> + Sync,
{
    type Chunk<'a> = (usize, (((&'a mut [Lane], &'a mut [f32]), &'a mut [bool]), &'a mut [Outcome]));
    let run = |(k, (((ls, os), ms), outs)): Chunk<'_>| {
        let rows = ls.iter_mut().zip(os.chunks_mut(OBS)).zip(ms.chunks_mut(NUM_ACTIONS)).zip(outs.iter_mut());
        for (j, (((lane, o), m), out)) in rows.enumerate() {
            let i = k * CHUNK + j;
            f(i, lane, o, m, out).map_err(|e| (i, e))?;
        }
        Ok::<(), (usize, EnvError)>(())
    };
    let chunks = lanes
        .chunks_mut(CHUNK)
        .zip(obs.chunks_mut(CHUNK * OBS))
        .zip(mask.chunks_mut(CHUNK * NUM_ACTIONS))
        .zip(outcomes.chunks_mut(CHUNK))
        .enumerate();
    let r = match pool {
        Some(pool) => {
            let chunks: Vec<Chunk<'_>> = chunks.collect();
            pool.install(|| chunks.into_par_iter().try_for_each(run))
        }
        None => chunks.into_iter().try_for_each(run),
    };
    r.map_err(|(i, e)| match e {
        EnvError::Invalid(m) => value_error(format!("environment {i}: {m}")),
        EnvError::Engine(m) => pyo3::exceptions::PyRuntimeError::new_err(format!("environment {i}: {m}")),
    })
}

#[pymethods]
impl VectorEnv {
    #[new]
    #[pyo3(signature = (num_envs, rules = "tresillo", players = None, options = None, seat = None,
        opponents = None, seed = None, illegal_reward = None, threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: &Bound<'_, PyAny>,
        rules: &str,
        players: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
        seat: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        illegal_reward: Option<f32>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<VectorEnv> {
        numpy_needed(py, "VectorEnv")?;
        let n: usize = int_arg("num_envs", num_envs, "1 to 1048576 environments")?;
        if !(1..=1 << 20).contains(&n) {
            return Err(value_error(format!("num_envs={n}: expected 1 to 1048576 environments")));
        }
        let game = crate::Game::new(rules, players, options)?;
        let env = game.env;
        let seat: u8 = seat.map(|s| int_arg("seat", s, "a seat, 0 to 3")).transpose()?.unwrap_or(0);
        let seat = env.seat(i64::from(seat)).map_err(|e| value_error(format!("seat: {e}")))?;
        let others = usize::from(env.players()) - 1;
        let specs: Vec<String> = match opponents {
            None => vec!["rule".to_string(); others],
            Some(o) => match o.extract::<String>() {
                Ok(s) => vec![s; others],
                Err(_) => o.extract::<Vec<String>>().map_err(|_| {
                    PyTypeError::new_err("opponents: a spec string, or a list of one per other seat")
                })?,
            },
        };
        let threads: usize =
            threads.map(|t| int_arg("threads", t, "1 (this thread) or more")).transpose()?.unwrap_or(1);
        if !(1..=1024).contains(&threads) {
            return Err(value_error(format!("threads={threads}: expected 1 (this thread) to 1024")));
        }
        let pool = if threads > 1 && n > CHUNK {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("tresillo vector {i}"))
                .build()
                .map_err(|e| {
                    pyo3::exceptions::PyRuntimeError::new_err(format!("VectorEnv: no threads: {e}"))
                })?;
            Some(pool)
        } else {
            None
        };
        let seeds = match seed {
            Some(s) => lane_seeds(s, n)?,
            None => (0..n as u64).collect(),
        };
        let illegal = illegal_reward.map_or(Illegal::Refuse, Illegal::End);
        let lanes: Vec<Lane> = py
            .detach(|| {
                seeds.iter().map(|&s| Lane::new(env, seat, &specs, s, illegal)).collect::<Result<_, _>>()
            })
            .map_err(env_error)?;
        let obs = PyArray2::<f32>::zeros(py, [n, OBS], false).unbind();
        let mask = PyArray2::<bool>::zeros(py, [n, NUM_ACTIONS], false).unbind();
        let me = VectorEnv { lanes: Mutex::new(lanes), obs, mask, n, pool };
        me.write_rows(py)?;
        Ok(me)
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.n
    }

    /// Starts a new hand in every environment: with `seed` (an int: lane `i`
    /// gets `seed + i`; or one per lane) from that seed's first hand, else
    /// each lane's next hand. Returns `(observations, action_masks)`.
    #[pyo3(signature = (seed = None, copy = true))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        copy: bool,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let seeds = seed.map(|s| lane_seeds(s, self.n)).transpose()?;
        {
            let mut guard = self.lanes.try_lock().map_err(|_| busy())?;
            let lanes: &mut [Lane] = &mut guard;
            let (mut obs, mut mask) = (self.obs.bind(py).readwrite(), self.mask.bind(py).readwrite());
            let (o, m) = (obs.as_slice_mut()?, mask.as_slice_mut()?);
            let pool = self.pool.as_ref();
            let mut outs = vec![Outcome::default(); self.n];
            py.detach(|| {
                each_lane(lanes, o, m, &mut outs, pool, |i, lane, o, m, _| {
                    match &seeds {
                        Some(s) => lane.reset(s[i])?,
                        None => lane.skip_hand()?,
                    }
                    lane.write(o, m);
                    Ok(())
                })
            })?;
        }
        Ok((self.out(py, &self.obs, copy)?, self.out(py, &self.mask, copy)?))
    }

    /// Plays `actions` (one legal action id per environment, any integer
    /// array or sequence) and the other seats up to the learner's next
    /// decision. Returns `(observations (N, 416) float32, rewards (N,)
    /// float32, terminations (N,) bool, truncations (N,) bool, action_masks
    /// (N, 153) bool)`: a hand that ended gives the learner's return as its
    /// reward, and the observation and mask are already the next hand's.
    #[pyo3(signature = (actions, copy = true))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: PyArrayLike1<'py, i64, AllowTypeChange>,
        copy: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let acts = actions.as_slice().map_err(|_| value_error("actions: a one-dimensional array"))?;
        if acts.len() != self.n {
            return Err(value_error(format!("actions: {} for {} environments", acts.len(), self.n)));
        }
        let mut outcomes = vec![Outcome::default(); self.n];
        {
            let mut guard = self.lanes.try_lock().map_err(|_| busy())?;
            let lanes: &mut [Lane] = &mut guard;
            let (mut obs, mut mask) = (self.obs.bind(py).readwrite(), self.mask.bind(py).readwrite());
            let (o, m) = (obs.as_slice_mut()?, mask.as_slice_mut()?);
            let pool = self.pool.as_ref();
            py.detach(|| {
                each_lane(lanes, o, m, &mut outcomes, pool, |i, lane, o, m, out| {
                    let a = usize::try_from(acts[i]).ok().filter(|&a| a < NUM_ACTIONS).ok_or_else(|| {
                        EnvError::Invalid(format!("action {}: ids are 0 to {}", acts[i], NUM_ACTIONS - 1))
                    })?;
                    *out = lane.step(a)?;
                    lane.write(o, m);
                    Ok(())
                })
            })?;
        }
        let rewards = PyArray1::from_iter(py, outcomes.iter().map(|o| o.reward));
        let terms = PyArray1::from_iter(py, outcomes.iter().map(|o| o.terminated));
        let truncs = PyArray1::<bool>::zeros(py, self.n, false);
        let items: [Bound<'py, PyAny>; 5] = [
            self.out(py, &self.obs, copy)?,
            rewards.into_any(),
            terms.into_any(),
            truncs.into_any(),
            self.out(py, &self.mask, copy)?,
        ];
        PyTuple::new(py, items)
    }

    /// The current observations `(N, 416)` and action masks `(N, 153)`.
    #[pyo3(signature = (copy = true))]
    fn observe<'py>(&self, py: Python<'py>, copy: bool) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        Ok((self.out(py, &self.obs, copy)?, self.out(py, &self.mask, copy)?))
    }

    /// A copy of environment `i`'s hand in progress, as a `tresillo.State`.
    fn state(&self, i: &Bound<'_, PyAny>) -> PyResult<crate::State> {
        let i: usize = int_arg("i", i, "an environment index")?;
        let lanes = self.lanes.try_lock().map_err(|_| busy())?;
        let lane =
            lanes.get(i).ok_or_else(|| value_error(format!("i={i}: there are {} environments", self.n)))?;
        Ok(crate::State(lane.state().clone()))
    }

    fn __repr__(&self) -> String {
        format!("<tresillo.VectorEnv of {} hands>", self.n)
    }
}

impl VectorEnv {
    /// Fills the observation and mask rows of every lane.
    fn write_rows(&self, py: Python<'_>) -> PyResult<()> {
        let mut guard = self.lanes.try_lock().map_err(|_| busy())?;
        let lanes: &mut [Lane] = &mut guard;
        let (mut obs, mut mask) = (self.obs.bind(py).readwrite(), self.mask.bind(py).readwrite());
        let (o, m) = (obs.as_slice_mut()?, mask.as_slice_mut()?);
        let mut outs = vec![Outcome::default(); self.n];
        each_lane(lanes, o, m, &mut outs, None, |_, lane, o, m, _| {
            lane.write(o, m);
            Ok(())
        })
    }

    /// An output array: a copy, or the environment's own buffer (`copy=False`:
    /// overwritten by the next step).
    fn out<'py, T>(&self, py: Python<'py>, a: &Py<T>, copy: bool) -> PyResult<Bound<'py, PyAny>> {
        let a = a.bind(py).clone().into_any();
        if copy { a.call_method0("copy") } else { Ok(a) }
    }
}

/// The error of a vector stepped by another thread at this very moment (or
/// that failed in one).
fn busy() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "this VectorEnv is being stepped by another thread (or failed in one); step it from one thread",
    )
}
