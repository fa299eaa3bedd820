//! The networks: a multilayer perceptron (ReLU between layers) from the input of
//! [`crate::features`] to one of three heads ([`Kind`]), on candle's CPU tensors,
//! kept as a safetensors file whose metadata records what the model is
//! ([`ModelInfo`]: its kind, input layout, shape, training data and command).
//!
//! The layers are named `fc0`, `fc1`, ... with PyTorch's `nn.Linear` shapes
//! (`weight` out x in, `bias` out), so a PyTorch module with the same attributes
//! saves a file this crate loads (examples/python/train_locations.py).

use crate::data::LOCATIONS;
use crate::features::{INPUT, LAYOUT};
use candle_core::{DType, Device, Module, Tensor, Var};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tresillo_core::action::NUM_ACTIONS;

/// What a network predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Where each hidden card lies: 40 x [`LOCATIONS`] logits (a softmax per card).
    Locations,
    /// Which action an agent takes: one logit per action id (a softmax over the
    /// legal ones).
    Policy,
    /// What each action is worth to the seat: one value per action id, in tantos
    /// divided by [`ModelInfo::scale`] (a Monte Carlo action-value, as DouZero's).
    Value,
}

impl Kind {
    /// Its name in files and on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Locations => "locations",
            Kind::Policy => "policy",
            Kind::Value => "value",
        }
    }

    /// Parses [`Kind::name`].
    pub fn parse(s: &str) -> Result<Kind, ModelError> {
        [Kind::Locations, Kind::Policy, Kind::Value].into_iter().find(|k| k.name() == s).ok_or_else(|| {
            ModelError::Invalid(format!("unknown model kind {s:?} (locations, policy, value)"))
        })
    }

    /// Its output length.
    #[must_use]
    pub fn outputs(self) -> usize {
        match self {
            Kind::Locations => 40 * LOCATIONS,
            Kind::Policy | Kind::Value => NUM_ACTIONS,
        }
    }
}

/// What a model file says of its model (its safetensors metadata, key
/// `tresillo`, as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelInfo {
    /// What it predicts.
    pub kind: Kind,
    /// The input layout it was trained on ([`LAYOUT`]).
    pub layout: u32,
    /// Its input length.
    pub input: usize,
    /// Its hidden layers' widths.
    pub hidden: Vec<usize>,
    /// Its output length.
    pub output: usize,
    /// Value models: tantos per output unit.
    pub scale: f32,
    /// What it was trained on (the dataset: its agents, rules, seed, deals, rows).
    pub data: String,
    /// The command that trained it.
    pub command: String,
    /// The training seed.
    pub seed: u64,
    /// The rule set its data was played in (by name), when known: the agents
    /// use the model only in that rule set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// The table size its data was played at, when known: likewise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<u8>,
    /// Training's measurements (held-out loss and the like), as `name=value` pairs.
    pub metrics: Vec<(String, f64)>,
}

/// Why a model could not be made, read or run.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// candle failed.
    #[error("{0}")]
    Candle(#[from] candle_core::Error),
    /// The file is not a model of this build.
    #[error("{0}")]
    Invalid(String),
}

/// A network with its description.
#[derive(Debug)]
pub struct Net {
    info: ModelInfo,
    weights: Vec<(Var, Var)>,
}

/// PyTorch's default initialisation of `nn.Linear` (uniform in ±1/√in, weights
/// and biases), from our own generator so that a seed makes the same network.
fn init(rng: &mut tresillo_agents::AgentRng, len: usize, fan_in: usize) -> Vec<f32> {
    let bound = 1.0 / (fan_in as f64).sqrt();
    (0..len)
        .map(|_| {
            let u = (rand_core::RngCore::next_u64(rng) >> 11) as f64 / (1u64 << 53) as f64;
            ((2.0 * u - 1.0) * bound) as f32
        })
        .collect()
}

impl Net {
    /// A new network of `kind` with `hidden` layers, initialised from `seed`.
    pub fn new(kind: Kind, hidden: &[usize], seed: u64) -> Result<Net, ModelError> {
        let mut rng = tresillo_agents::rng_from_seed(seed);
        let mut sizes = vec![INPUT];
        sizes.extend_from_slice(hidden);
        sizes.push(kind.outputs());
        let mut weights = Vec::new();
        for w in sizes.windows(2) {
            let (i, o) = (w[0], w[1]);
            let wt = Tensor::from_vec(init(&mut rng, o * i, i), (o, i), &Device::Cpu)?;
            let b = Tensor::from_vec(init(&mut rng, o, i), o, &Device::Cpu)?;
            weights.push((Var::from_tensor(&wt)?, Var::from_tensor(&b)?));
        }
        let info = ModelInfo {
            kind,
            layout: LAYOUT,
            input: INPUT,
            hidden: hidden.to_vec(),
            output: kind.outputs(),
            scale: 1.0,
            data: String::new(),
            command: String::new(),
            seed,
            rules: None,
            players: None,
            metrics: Vec::new(),
        };
        Ok(Net { info, weights })
    }

    /// Its description.
    #[must_use]
    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// Whether the model was trained for the game of `view` (its rule set and
    /// table size, where the model records them).
    #[must_use]
    pub fn fits(&self, view: &tresillo_core::PlayerView) -> bool {
        let p = view.public();
        self.info.rules.as_deref().is_none_or(|r| r == p.rules.name())
            && self.info.players.is_none_or(|n| n == p.players)
    }

    /// Its description, to fill in after training.
    pub fn info_mut(&mut self) -> &mut ModelInfo {
        &mut self.info
    }

    /// Its trainable tensors.
    #[must_use]
    pub fn vars(&self) -> Vec<Var> {
        self.weights.iter().flat_map(|(w, b)| [w.clone(), b.clone()]).collect()
    }

    /// The outputs of a batch of inputs (`[batch, INPUT]`): `[batch, output]`.
    pub fn forward(&self, x: &Tensor) -> Result<Tensor, ModelError> {
        let mut h = x.clone();
        let last = self.weights.len() - 1;
        for (k, (w, b)) in self.weights.iter().enumerate() {
            h = candle_nn::Linear::new(w.as_tensor().clone(), Some(b.as_tensor().clone())).forward(&h)?;
            if k < last {
                h = h.relu()?;
            }
        }
        Ok(h)
    }

    /// The outputs of `rows` inputs given back to back in `x` (`rows * INPUT`
    /// values), as one vector of `rows * output` values.
    pub fn run(&self, x: Vec<f32>, rows: usize) -> Result<Vec<f32>, ModelError> {
        let t = Tensor::from_vec(x, (rows, self.info.input), &Device::Cpu)?;
        Ok(self.forward(&t)?.flatten_all()?.to_vec1::<f32>()?)
    }

    /// The model file's bytes (safetensors with the description as metadata).
    pub fn to_bytes(&self) -> Result<Vec<u8>, ModelError> {
        let mut tensors: Vec<(String, Tensor)> = Vec::new();
        for (k, (w, b)) in self.weights.iter().enumerate() {
            tensors.push((format!("fc{k}.weight"), w.as_tensor().clone()));
            tensors.push((format!("fc{k}.bias"), b.as_tensor().clone()));
        }
        let meta = serde_json::to_string(&self.info).map_err(|e| ModelError::Invalid(e.to_string()))?;
        let meta = HashMap::from([("tresillo".to_string(), meta)]);
        safetensors::serialize(tensors.iter().map(|(n, t)| (n.as_str(), t)), Some(meta))
            .map_err(|e| ModelError::Invalid(format!("writing the model: {e}")))
    }

    /// A model from its file's bytes: refused, with the reason in one line, when
    /// it is not a model file, its input layout is not this build's, or a tensor
    /// is missing or of the wrong shape.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, ModelError> {
        let bad = |why: String| ModelError::Invalid(why);
        let (_, meta) = safetensors::SafeTensors::read_metadata(bytes)
            .map_err(|e| bad(format!("not a safetensors model file ({e})")))?;
        let text = meta.metadata().as_ref().and_then(|m| m.get("tresillo")).ok_or_else(|| {
            bad("a safetensors file without tresillo's description (metadata key `tresillo`)".into())
        })?;
        let info: ModelInfo =
            serde_json::from_str(text).map_err(|e| bad(format!("its description does not read: {e}")))?;
        if info.layout != LAYOUT || info.input != INPUT {
            return Err(bad(format!(
                "a model of input layout {} ({} values); this build reads layout {LAYOUT} ({INPUT} values): train it again",
                info.layout, info.input
            )));
        }
        if info.output != info.kind.outputs() {
            return Err(bad(format!(
                "a {} model has {} outputs, not {}",
                info.kind.name(),
                info.kind.outputs(),
                info.output
            )));
        }
        let tensors = candle_core::safetensors::load_buffer(bytes, &Device::Cpu)?;
        let mut sizes = vec![INPUT];
        sizes.extend_from_slice(&info.hidden);
        sizes.push(info.output);
        let mut weights = Vec::new();
        for (k, w) in sizes.windows(2).enumerate() {
            let get = |name: String, shape: &[usize]| -> Result<Var, ModelError> {
                let t = tensors.get(&name).ok_or_else(|| bad(format!("no tensor {name}")))?;
                if t.dims() != shape {
                    return Err(bad(format!("tensor {name} is {:?}, not {shape:?}", t.dims())));
                }
                Ok(Var::from_tensor(&t.to_dtype(DType::F32)?)?)
            };
            weights
                .push((get(format!("fc{k}.weight"), &[w[1], w[0]])?, get(format!("fc{k}.bias"), &[w[1]])?));
        }
        if tensors.len() != weights.len() * 2 {
            return Err(bad(format!(
                "{} tensors, not the {} of its layers",
                tensors.len(),
                weights.len() * 2
            )));
        }
        Ok(Net { info, weights })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_file_round_trips_and_another_layout_is_refused() {
        let mut net = Net::new(Kind::Policy, &[8], 3).unwrap();
        net.info_mut().command = "tresillo train".into();
        let bytes = net.to_bytes().unwrap();
        let back = Net::from_bytes(&bytes).unwrap();
        assert_eq!(back.info(), net.info());
        let x: Vec<f32> = (0..INPUT).map(|i| (i % 7) as f32 / 7.0).collect();
        assert_eq!(net.run(x.clone(), 1).unwrap(), back.run(x, 1).unwrap());
        // The same seed makes the same network.
        let again = Net::new(Kind::Policy, &[8], 3).unwrap();
        assert_eq!(again.to_bytes().unwrap(), Net::new(Kind::Policy, &[8], 3).unwrap().to_bytes().unwrap());

        let mut old = Net::new(Kind::Policy, &[8], 3).unwrap();
        old.info_mut().layout = LAYOUT + 1;
        let e = Net::from_bytes(&old.to_bytes().unwrap()).unwrap_err().to_string();
        assert!(e.contains(&format!("input layout {}", LAYOUT + 1)) && !e.contains('\n'), "{e}");
        let e = Net::from_bytes(b"not a model").unwrap_err().to_string();
        assert!(e.starts_with("not a safetensors model file"), "{e}");
    }
}
