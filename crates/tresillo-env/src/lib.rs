//! One hand of a rule set as an environment, for reinforcement learning and
//! game-theory tools: what the Python package (`tresillo.Game`, `tresillo.State`,
//! its OpenSpiel and PettingZoo adapters) binds, usable from Rust without Python.
//!
//! - [`Env`]: a rule set with its options at a table of three or four;
//! - [`State`]: one hand as a state machine over the fixed action space of
//!   [`tresillo_core::action`] (OpenSpiel's conventions): 40 chance actions deal
//!   the pack one card at a time (unless the hand starts from a seed or a deal),
//!   then the seats decide; a discard is chosen card by card, then "done";
//! - [`observation`]: the observation tensor of a seat; [`SeatView`]: its view
//!   serialized, as the protocol and Python's `view()` give it;
//! - [`deal_scores`]: what a finished hand scores alone, the returns;
//! - [`vector::Lane`]: hand after hand for a learner at one seat against
//!   built-in agents, what a vectorized environment steps N of.
//!
//! What a seat may know (RULES.md section 9) is the engine's [`PlayerView`](tresillo_core::PlayerView): the
//! observation tensor and the information-state string are built from it alone,
//! never from the whole state. No I/O.
//!
//! ```
//! use tresillo_core::{Rules, Seat};
//! use tresillo_env::{Env, Player};
//!
//! let env = Env::new(Rules::default(), 3).unwrap();
//! let mut state = env.initial_state(Seat(0)).unwrap();
//! while state.current_player() != Player::Terminal {
//!     let a = state.legal_actions()[0];
//!     state.apply_action(a).unwrap();
//! }
//! let returns = state.returns().unwrap();
//! assert_eq!(returns.len(), 3);
//! ```
//!
//! A crate of its own, not a module of tresillo-sim: a Rust user (and the Python
//! extension, the bots) gets the game without the tournament runner's dependencies
//! (csv, serde, rayon's runner); it depends on core and agents only.

pub mod observation;
mod seat_view;
mod state;
pub mod vector;

pub use seat_view::SeatView;
pub use state::{
    Env, EnvError, Player, State, deal_scores, decide_by_actions, decision_actions, discard_step,
};
