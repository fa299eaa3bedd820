//! Run directories as a library: the crate that writes them (besides it, only the
//! command line and the stores of the server and of the study touch files). A
//! tournament ([`tresillo_sim::TournamentConfig`], agents from any
//! [`tresillo_agents::Registry`]) is played into a directory holding `deals.csv`,
//! `stats.json`, `manifest.json`, `compute.json` and, once complete, `summary.csv`,
//! `pairs.csv`, `compute.csv` and `forfeits.csv` ([`compute`]: what each agent
//! spent, counts reproducible, times measured), with
//! checkpoints, `resume` after a kill, replacement that keeps the old run whole,
//! a run lock, record files and the merge of shards, byte for byte as
//! `tresillo tournament` writes them (the CLI calls this crate; so do the Rust
//! example `own_agent` and the Python package).
//!
//! ```no_run
//! use tresillo_runs::{RunOptions, run};
//! use tresillo_sim::simple_config;
//! let config = simple_config(["rule", "rule", "random"], 1_000, 1, true);
//! let table = run(&config, &RunOptions::new("out/demo"), vec!["example".into()]).unwrap();
//! print!("{table}");
//! ```

pub mod compute;
pub mod dataset;
mod error;
pub mod league;
pub mod pairs;
mod run;
pub mod sprt;
mod threads;
mod tournament;
pub mod verify;

pub use error::{Interrupted, Result, RunError};
pub use run::{
    DirLock, LOCK_FILE, Manifest, RecordProgress, RunOptions, check_deals_size, check_output_file,
    check_record_path, check_run_dir, file_in_the_way, lock_dir, lock_file, merge, missing_files,
    progress_every, read_manifest, rows_file, run, run_book, run_experiment, run_stoppable, table,
};
pub use threads::{MAX_THREADS, ThreadsError, check_threads};
pub use tournament::{PYTHON_WORDS, TournamentArgs, check_resume_force, python_words, tournament_config};
pub use tresillo_deals::parquet::{DealsError, UnknownFormat};
pub use tresillo_deals::{BookError, Format, parquet, read_book};
/// The durable-file crate, whose modules the commands reach through this one.
pub use tresillo_durable::{self as durable, checksum, lines, write_point};

use serde::{Deserialize, Serialize};

/// Registers the rule set defined in the TOML file at `path`
/// (docs/RULE-SET-FILES.md) for the rest of the process
/// ([`tresillo_core::define_rule_set`]): the CLI's `--rule-set FILE` and Python's
/// `tresillo.register_rule_set(path)`. The same file again is the same set; an
/// unreadable or bad file is a one-line error naming it (and the line and key).
pub fn register_rule_set_file(path: &std::path::Path) -> Result<tresillo_core::RuleSet, RuleSetFileError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| RuleSetFileError::Read { path: path.to_path_buf(), error })?;
    tresillo_core::define_rule_set(&text, &path.display().to_string()).map_err(RuleSetFileError::Define)
}

/// Why a rule-set file could not be registered ([`register_rule_set_file`]).
#[derive(Debug, thiserror::Error)]
pub enum RuleSetFileError {
    /// The file could not be read.
    #[error("{}: {error}", path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// What the operating system said (in the message, not a source).
        error: std::io::Error,
    },
    /// The file does not define a rule set (the message names the file, line and key).
    #[error(transparent)]
    Define(tresillo_core::RuleSetError),
}

/// The build that wrote a manifest (its `build` field): the git commit of the
/// program and whether its work tree had uncommitted changes. The caller knows
/// it (the CLI from its build script); a manifest without it says nothing.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// The git commit (40 hex digits), or `unknown` for a build outside a checkout.
    pub commit: String,
    /// Whether tracked files differed from the commit (`None`: unknown).
    pub dirty: Option<bool>,
}

impl Build {
    /// `--version`'s text: the version, the commit and the state of the tree
    /// (`0.1.0 (commit 0123..., tree clean)`).
    #[must_use]
    pub fn version_text(&self) -> String {
        let tree = match self.dirty {
            Some(false) => "clean",
            Some(true) => "with uncommitted changes",
            None => "state unknown",
        };
        format!("{} (commit {}, tree {tree})", env!("CARGO_PKG_VERSION"), self.commit)
    }
}
