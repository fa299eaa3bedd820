//! A process-wide request to stop (set when the user interrupts a run with SIGINT
//! or SIGTERM): the tournament runner begins no unit after it, and an agent that
//! waits on something outside (an external bot) gives up its decision, so that a
//! run ends soon with every finished deal kept. Only a flag: who catches the
//! signal (the CLI, the Python package) sets it; a search agent (pimc,
//! ismcts) cut short by it fails its decision instead of deciding on less.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every run in this process to stop.
pub fn request_stop() {
    STOP.store(true, Ordering::SeqCst);
}

/// Withdraws the request (a process that goes on after an interrupted run:
/// Python, where the agents stay usable).
pub fn clear_stop() {
    STOP.store(false, Ordering::SeqCst);
}

/// Whether a stop was asked for.
#[must_use]
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}
