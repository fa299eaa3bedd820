//! Research code with negative results: agents and options that were built to
//! beat the agents beside them, measured, and found not to. They are kept
//! runnable for reproducibility, with the same specs (registry names and
//! options) and the same decisions as when they were measured, so that every
//! committed experiment under `experiments/` that uses them reproduces its
//! `results/` byte for byte. None is on by default: `alphamu` is an agent of its
//! own, and `pimc` and `ismcts` call the searched exchange and the card-play term
//! only when their option asks for it.
//!
//! - [`alphamu`] (`alphamu`): the alpha-mu search against PIMC's strategy
//!   fusion. Card play alone, at pimc's time, alphamu minus pimc −0.109
//!   [−0.197, −0.021] tantos per deal (`experiments/alphamu-vs-pimc-play.toml`;
//!   also `alphamu-depth-play`, `alphamu-vs-pimc-full`, `alphamu-vs-oracle-play`).
//! - [`exchange`] (`pimc:discard=search`, `pimc:discard=declarer`): pimc's
//!   searched exchange. Searched minus plain pimc −0.051 [−0.315, +0.213]
//!   (`experiments/pimc-discard-search.toml`); declarer only +0.075 [−0.226,
//!   +0.376] (`pimc-discard-declarer`).
//! - [`card_play`] (`pimc:infer_play=E`, `ismcts:infer_play=E`): the card-play
//!   term of the inference model. With it minus without −0.053 [−0.165, +0.059]
//!   (`experiments/infer-card-play-vs-infer.toml`); against two rule opponents
//!   +0.017 [−0.050, +0.084] (`infer-card-play-rule-field` paired with
//!   `infer-rule-field`).
//!
//! The runs, their figures and what they show are in results/README.md
//! (`alphamu-*`, `pimc-discard-search`, "The card-play term"); docs/AGENTS.md
//! lists them under "Research agents and options: negative results".

pub mod alphamu;
pub mod card_play;
pub mod exchange;
