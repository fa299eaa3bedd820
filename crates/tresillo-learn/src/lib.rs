//! Learning from the toolkit's own played deals (docs/LEARNING.md):
//!
//! - [`data`]: one [`Row`] per action of every decision of played deals, the
//!   deciding seat's input and three labels (the action taken, where every card
//!   it cannot see lies, its score for the hand);
//! - [`features`]: a network's input, from a seat's view alone, with a layout
//!   version every model file records;
//! - [`model`]: small networks on candle (card locations, a policy, an
//!   action-value) and their safetensors files;
//! - [`train`]: their training, deterministic for a seed;
//! - [`agents`]: the agents that use them, as spec names and parameters
//!   (`net`, `loc=`, `bid=`) added to a [`tresillo_agents::Registry`].
//!
//! No I/O: the command line reads and writes the files (datasets through
//! `tresillo-runs`, model files as bytes).
//!
//! In `agents`: `loc=` may name a model per game (`ByGame`), `pbi=` a policy likelihood
//! (`PolicyLikelihood`, two-stage after `loc`: `StagedLikelihood`); they are added to a
//! registry with `Registry::extend`.

pub mod agents;
pub mod data;
pub mod eval;
pub mod features;
pub mod model;
pub mod train;

pub use agents::{LocationLikelihood, ModelReader, NetAgent, NetBidder, builtin_models, register};
pub use data::{DataError, Row, Setup, play_deal, play_deals};
pub use model::{Kind, ModelError, ModelInfo, Net};
pub use train::{Progress, Report, TrainConfig, train};
