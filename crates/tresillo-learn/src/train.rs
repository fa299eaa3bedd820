//! Training a [`Net`] on [`Row`]s: minibatches in an order drawn from the seed,
//! AdamW, one loss per [`Kind`], and the held-out measurements. Deterministic for
//! a seed when candle computes on one thread (`RAYON_NUM_THREADS=1`, what
//! `tresillo train` sets unless told otherwise).
//!
//! - **locations**: the mean cross-entropy, over the hidden cards of each row
//!   (places 1 to 5 of [`crate::data::PLACES`]), of the card's true place;
//! - **policy**: the cross-entropy of the action taken among the legal ones (the
//!   logits of illegal actions masked off), over the rows with a choice;
//! - **value**: the squared error of the taken action's value against the seat's
//!   score for the hand, in units of [`ModelInfo::scale`](crate::ModelInfo::scale).

use crate::data::{LOCATIONS, Row, held_out, shuffle};
use crate::features::INPUT;
use crate::model::{Kind, ModelError, Net};
use candle_core::{D, Device, Tensor};
use candle_nn::optim::{AdamW, Optimizer, ParamsAdamW};
use tresillo_core::action::NUM_ACTIONS;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// What to predict.
    pub kind: Kind,
    /// Hidden layers' widths.
    pub hidden: Vec<usize>,
    /// Passes over the training rows.
    pub epochs: u32,
    /// Rows per step.
    pub batch: usize,
    /// AdamW's learning rate.
    pub lr: f64,
    /// AdamW's weight decay.
    pub weight_decay: f64,
    /// The seed of the initial weights and of the order of the rows.
    pub seed: u64,
    /// Percentage of deals held out for measurement ([`held_out`]).
    pub held_out: u32,
    /// Train only on the rows of this agent (its index in the dataset), if any:
    /// a policy of that agent.
    pub slot: Option<u8>,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            kind: Kind::Locations,
            hidden: vec![256, 256],
            epochs: 2,
            batch: 256,
            lr: 1e-3,
            weight_decay: 1e-4,
            seed: 1,
            held_out: 10,
            slot: None,
        }
    }
}

/// Where training is, for a progress bar.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Steps done.
    pub step: u64,
    /// Steps in all.
    pub steps: u64,
    /// The mean training loss of the last steps.
    pub loss: f64,
}

/// What training measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Training rows used.
    pub train_rows: usize,
    /// Held-out rows used.
    pub test_rows: usize,
    /// The mean training loss of the first epoch's first tenth of steps, and of the last.
    pub first_loss: f64,
    /// The mean training loss over the last tenth of steps.
    pub last_loss: f64,
    /// `name=value` measurements on the held-out rows (per kind: the loss, and a
    /// baseline's; the policy's and the value's agreement with the action taken).
    pub metrics: Vec<(String, f64)>,
}

/// Whether a row trains or measures a model of `kind`.
fn usable(kind: Kind, r: &Row, slot: Option<u8>) -> bool {
    if slot.is_some_and(|s| s != r.slot) {
        return false;
    }
    match kind {
        Kind::Locations => r.owners.iter().any(|&o| o != 0),
        Kind::Policy => r.legal_count() > 1,
        Kind::Value => true,
    }
}

/// The tensors of one batch: inputs, and the kind's targets.
struct Batch {
    x: Tensor,
    /// locations: one-hot places [b, 40, LOCATIONS]; policy, value: one-hot action [b, 153].
    onehot: Tensor,
    /// policy: 0 for a legal action, -1e9 otherwise [b, 153]; value: the score [b].
    aux: Tensor,
    /// Labels in the batch (hidden cards for locations, rows otherwise).
    labels: f32,
}

fn batch(kind: Kind, rows: &[&Row], scale: f32) -> Result<Batch, ModelError> {
    let b = rows.len();
    let mut x = vec![0f32; b * INPUT];
    for (i, r) in rows.iter().enumerate() {
        r.input(&mut x[i * INPUT..(i + 1) * INPUT]);
    }
    let dev = &Device::Cpu;
    let x = Tensor::from_vec(x, (b, INPUT), dev)?;
    Ok(match kind {
        Kind::Locations => {
            let mut oh = vec![0f32; b * 40 * LOCATIONS];
            let mut n = 0.0;
            for (i, r) in rows.iter().enumerate() {
                for (c, &o) in r.owners.iter().enumerate() {
                    if o != 0 {
                        oh[(i * 40 + c) * LOCATIONS + usize::from(o) - 1] = 1.0;
                        n += 1.0;
                    }
                }
            }
            Batch {
                x,
                onehot: Tensor::from_vec(oh, (b, 40, LOCATIONS), dev)?,
                aux: Tensor::zeros(1, candle_core::DType::F32, dev)?,
                labels: n,
            }
        }
        Kind::Policy | Kind::Value => {
            let mut oh = vec![0f32; b * NUM_ACTIONS];
            let mut aux = vec![0f32; if kind == Kind::Policy { b * NUM_ACTIONS } else { b }];
            for (i, r) in rows.iter().enumerate() {
                oh[i * NUM_ACTIONS + usize::from(r.action)] = 1.0;
                if kind == Kind::Policy {
                    for a in 0..NUM_ACTIONS {
                        if !r.is_legal(a) {
                            aux[i * NUM_ACTIONS + a] = -1e9;
                        }
                    }
                } else {
                    aux[i] = r.tantos as f32 / scale;
                }
            }
            let aux = if kind == Kind::Policy {
                Tensor::from_vec(aux, (b, NUM_ACTIONS), dev)?
            } else {
                Tensor::from_vec(aux, b, dev)?
            };
            Batch { x, onehot: Tensor::from_vec(oh, (b, NUM_ACTIONS), dev)?, aux, labels: b as f32 }
        }
    })
}

/// The batch's summed loss (divide by `labels` for the mean) and, for policy and
/// value models, how many rows' best legal action was the one taken.
fn loss(net: &Net, kind: Kind, bt: &Batch) -> Result<Tensor, ModelError> {
    let out = net.forward(&bt.x)?;
    Ok(match kind {
        Kind::Locations => {
            let b = out.dim(0)?;
            let logp = candle_nn::ops::log_softmax(&out.reshape((b, 40, LOCATIONS))?, D::Minus1)?;
            (logp * &bt.onehot)?.sum_all()?.neg()?
        }
        Kind::Policy => {
            let logp = candle_nn::ops::log_softmax(&out.broadcast_add(&bt.aux)?, D::Minus1)?;
            (logp * &bt.onehot)?.sum_all()?.neg()?
        }
        Kind::Value => {
            let q = (out * &bt.onehot)?.sum(D::Minus1)?;
            (q - &bt.aux)?.sqr()?.sum_all()?
        }
    })
}

/// The mean loss of `net` over `rows` (batches of 1,024).
pub fn mean_loss(net: &Net, rows: &[&Row]) -> Result<f64, ModelError> {
    let kind = net.info().kind;
    let (mut sum, mut n) = (0.0, 0.0);
    for chunk in rows.chunks(1024) {
        let bt = batch(kind, chunk, net.info().scale)?;
        sum += f64::from(loss(net, kind, &bt)?.to_scalar::<f32>()?);
        n += f64::from(bt.labels);
    }
    Ok(if n > 0.0 { sum / n } else { f64::NAN })
}

/// The uniform baseline of a card-location model: each hidden card equally
/// likely in each place that holds hidden cards in the row (the places' sizes
/// ignored), as a mean log-loss.
fn uniform_places_loss(rows: &[&Row]) -> f64 {
    let (mut sum, mut n) = (0.0, 0.0);
    for r in rows {
        let mut places = [false; LOCATIONS + 1];
        for &o in &r.owners {
            places[usize::from(o)] = true;
        }
        let k = places[1..].iter().filter(|p| **p).count() as f64;
        let hidden = r.owners.iter().filter(|&&o| o != 0).count() as f64;
        sum += hidden * k.ln();
        n += hidden;
    }
    if n > 0.0 { sum / n } else { f64::NAN }
}

/// How often the legal action with the best output is the one taken.
pub fn agreement(net: &Net, rows: &[&Row]) -> Result<f64, ModelError> {
    let (mut hit, mut n) = (0usize, 0usize);
    for chunk in rows.chunks(1024) {
        let mut x = vec![0f32; chunk.len() * INPUT];
        for (i, r) in chunk.iter().enumerate() {
            r.input(&mut x[i * INPUT..(i + 1) * INPUT]);
        }
        let out = net.run(x, chunk.len())?;
        for (i, r) in chunk.iter().enumerate() {
            let o = &out[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
            let best = (0..NUM_ACTIONS).filter(|&a| r.is_legal(a)).max_by(|&a, &b| o[a].total_cmp(&o[b]));
            hit += usize::from(best == Some(usize::from(r.action)));
            n += 1;
        }
    }
    Ok(if n > 0 { hit as f64 / n as f64 } else { f64::NAN })
}

/// Trains a new network on `rows` as `config` says, calling `progress` after
/// every step; the network comes back with its metrics recorded.
pub fn train(
    rows: &[Row],
    config: &TrainConfig,
    mut progress: impl FnMut(Progress),
) -> Result<(Net, Report), ModelError> {
    let kind = config.kind;
    let (mut train, mut test): (Vec<&Row>, Vec<&Row>) = (Vec::new(), Vec::new());
    for r in rows.iter().filter(|r| usable(kind, r, config.slot)) {
        if held_out(r.deal, config.held_out) { test.push(r) } else { train.push(r) }
    }
    if train.is_empty() {
        return Err(ModelError::Invalid(format!("no rows to train a {} model on", kind.name())));
    }
    let mut net = Net::new(kind, &config.hidden, config.seed)?;
    if kind == Kind::Value {
        // Values in units of the scores' spread, so that one learning rate fits every rule set.
        let m = train.iter().map(|r| f64::from(r.tantos)).sum::<f64>() / train.len() as f64;
        let v = train.iter().map(|r| (f64::from(r.tantos) - m).powi(2)).sum::<f64>() / train.len() as f64;
        net.info_mut().scale = v.sqrt().max(1.0) as f32;
    }
    let scale = net.info().scale;
    let params = ParamsAdamW { lr: config.lr, weight_decay: config.weight_decay, ..ParamsAdamW::default() };
    let mut opt = AdamW::new(net.vars(), params)?;
    let mut rng = tresillo_agents::rng_from_seed(config.seed ^ 0x0D3E_5EED);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let per_epoch = train.len().div_ceil(config.batch) as u64;
    let steps = per_epoch * u64::from(config.epochs);
    let window = (steps / 10).max(1);
    let (mut first, mut recent) = (Vec::new(), std::collections::VecDeque::new());
    let mut step = 0;
    let mut picked: Vec<&Row> = Vec::with_capacity(config.batch);
    for _ in 0..config.epochs {
        shuffle(&mut order, &mut rng);
        for chunk in order.chunks(config.batch) {
            picked.clear();
            picked.extend(chunk.iter().map(|&i| train[i]));
            let bt = batch(kind, &picked, scale)?;
            let l = (loss(&net, kind, &bt)? / f64::from(bt.labels.max(1.0)))?;
            opt.backward_step(&l)?;
            let l = f64::from(l.to_scalar::<f32>()?);
            step += 1;
            if (first.len() as u64) < window {
                first.push(l);
            }
            recent.push_back(l);
            if recent.len() as u64 > window {
                recent.pop_front();
            }
            progress(Progress { step, steps, loss: recent.iter().sum::<f64>() / recent.len() as f64 });
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let first_loss = mean(&first);
    let last_loss = mean(recent.make_contiguous());
    let mut metrics = vec![("train_loss".to_string(), last_loss)];
    if !test.is_empty() {
        metrics.push(("test_loss".to_string(), mean_loss(&net, &test)?));
        match kind {
            Kind::Locations => {
                metrics.push(("test_loss_uniform_places".to_string(), uniform_places_loss(&test)))
            }
            Kind::Policy | Kind::Value => {
                metrics.push(("test_agreement".to_string(), agreement(&net, &test)?))
            }
        }
    }
    net.info_mut().metrics = metrics.clone();
    let report = Report { train_rows: train.len(), test_rows: test.len(), first_loss, last_loss, metrics };
    Ok((net, report))
}
