//! The `tresillo` binary: the commands of `tresillo_commands`, told the commit
//! this binary is built from (`tresillo_provenance`, from its build script).
//!
//! The kill tests (tests/cli: atomic_cli, dataset_cli, sprt_cli, parquet_cli,
//! league_cli, tournament_cli) stop this binary at a known point through its
//! environment: `TRESILLO_ABORT_AFTER_WRITES=N` aborts right after the N-th change
//! of a file, `TRESILLO_ABORT_AFTER_CHECKPOINTS=N` right after a run's N-th
//! checkpoint. The libraries only mark those points
//! ([`tresillo_durable::fault`]); this binary, not a library, reads the variables.

use std::process::{ExitCode, abort};
use std::sync::atomic::{AtomicU64, Ordering};
use tresillo_durable::fault::{self, Faults, Point};

/// Aborts the process at the point its environment names.
struct AbortAt {
    writes: Option<u64>,
    checkpoints: Option<u64>,
    written: AtomicU64,
}

impl Faults for AbortAt {
    fn reached(&self, point: Point) {
        match point {
            Point::Write => {
                if self.writes == Some(self.written.fetch_add(1, Ordering::SeqCst) + 1) {
                    abort(); // a test's kill at a known point
                }
            }
            Point::Checkpoint { count } => {
                if self.checkpoints == Some(count) {
                    abort();
                }
            }
        }
    }
}

/// The positive count in the environment variable `name`: `Err` names a bad one.
fn count(name: &str) -> Result<Option<u64>, String> {
    match std::env::var(name) {
        Err(_) => Ok(None),
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(format!("environment variable {name}: `{v}` is not a positive integer")),
        },
    }
}

fn main() -> ExitCode {
    let writes = count("TRESILLO_ABORT_AFTER_WRITES");
    let checkpoints = count("TRESILLO_ABORT_AFTER_CHECKPOINTS");
    let (writes, checkpoints) = match (writes, checkpoints) {
        (Ok(w), Ok(c)) => (w, c),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if writes.is_some() || checkpoints.is_some() {
        let faults = Box::leak(Box::new(AbortAt { writes, checkpoints, written: AtomicU64::new(0) }));
        fault::install(faults);
    }
    tresillo_commands::main(tresillo_provenance::current())
}
