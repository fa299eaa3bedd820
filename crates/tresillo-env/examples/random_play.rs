//! Plays whole hands of an [`Env`] with uniformly random legal actions, chance's
//! included, and prints each hand's returns: the environment driven from Rust,
//! without Python (docs/ENV.md).
//!
//! `cargo run --release --example random_play -- [HANDS] [SEED] [RULES] [PLAYERS]`
//! (defaults: 5 hands, seed 1, `tresillo`, 3 players).

use rand::Rng;
use tresillo_core::{Rules, Seat};
use tresillo_env::{Env, Player};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let hands: u64 = arg(0, "5").parse().map_err(|e| format!("hands {:?}: {e}", arg(0, "5")))?;
    let seed: u64 = arg(1, "1").parse().map_err(|e| format!("seed {:?}: {e}", arg(1, "1")))?;
    let rules = Rules::parse(&arg(2, "tresillo"), &[])?;
    let players: u8 = arg(3, "3").parse().map_err(|e| format!("players {:?}: {e}", arg(3, "3")))?;
    let env = Env::new(rules, players)?;
    let mut rng = tresillo_agents::rng_from_seed(seed);
    for h in 0..hands {
        let dealer = Seat((h % u64::from(players)) as u8);
        let mut state = env.initial_state(dealer)?;
        while state.current_player() != Player::Terminal {
            let legal = state.legal_actions();
            let a = legal[rng.random_range(0..legal.len())];
            state.apply_action(a)?;
        }
        let returns = state.returns()?;
        let deal = state.deal().map(ToString::to_string).unwrap_or_default();
        println!(
            "hand {h}: dealer {dealer}, {} actions, returns {returns:?}; deal {deal}",
            state.history().len()
        );
    }
    Ok(())
}
