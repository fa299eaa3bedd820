//! The errors of the run library: [`RunError`], one line each, the words the CLI
//! prints (its tests check them). A step that failed says what it was and, after
//! `: `, why (the cause and its own causes, as `{:#}` shows an error's chain): the
//! cause is part of the message, not a separate source.

use std::fmt::Display;
use std::io;
use std::path::{Path, PathBuf};

/// Why a run, a merge, a league, a dataset or a check of a run directory failed.
///
/// The variants that name a step (`Io`, `Context`) say why after it, in the
/// message (`reading out/manifest.json: No such file or directory`).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The system refused a step on a file or directory (`reading PATH`,
    /// `creating PATH`, `moving A to B`, ...).
    #[error("{verb} {}: {}", path.display(), chain(error))]
    Io {
        /// The step, as the message says it (`reading`, `writing`, ...).
        verb: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// What the system said (in the message, not a source).
        error: io::Error,
    },
    /// Another process holds the run directory's lock.
    #[error(
        "{} is in use by another tresillo process (pid {holder}): one process at a time may write it; \
         wait for it to finish, or stop it",
        dir.display()
    )]
    InUse {
        /// The run directory (or file) locked.
        dir: PathBuf,
        /// The holder's process id as its lock file says, or `unknown`.
        holder: String,
    },
    /// The caller stopped the run ([`crate::run_stoppable`]); every finished deal
    /// is kept.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
    /// A line of a file that does not hold what it should (`what`: what it
    /// should hold, and the parser's words).
    #[error("{} line {line}: {what}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        what: String,
    },
    /// What is wrong, in one line: a file that does not hold what it should, a
    /// flag that does not fit the run directory, a missing shard, ...
    #[error("{0}")]
    Invalid(String),
    /// A step that failed (`what`), and why.
    #[error("{what}: {}", chain(cause.as_ref()))]
    Context {
        /// The step or the file, as the message says it.
        what: String,
        /// Why (in the message, not a source).
        cause: Box<RunError>,
    },
    /// A file of deals (`deals.parquet` or its parts).
    #[error(transparent)]
    Deals(#[from] tresillo_deals::parquet::DealsError),
    /// A deal book.
    #[error(transparent)]
    Book(#[from] tresillo_deals::BookError),
    /// The tournament itself (an agent that fails, an interruption of the play).
    #[error(transparent)]
    Sim(#[from] tresillo_sim::SimError),
    /// A tournament's configuration.
    #[error(transparent)]
    Config(#[from] tresillo_sim::ConfigError),
    /// A thread count.
    #[error(transparent)]
    Threads(#[from] crate::threads::ThreadsError),
    /// A file's checksum.
    #[error(transparent)]
    Checksum(#[from] tresillo_durable::checksum::Error),
    /// A line too long or not UTF-8 in a file read line by line.
    #[error(transparent)]
    Lines(#[from] tresillo_durable::lines::Error),
    /// A rule set that does not fit (its table size).
    #[error(transparent)]
    Rules(#[from] tresillo_core::RulesError),
    /// An agent spec.
    #[error(transparent)]
    Spec(#[from] tresillo_agents::SpecError),
    /// The rows of a dataset.
    #[error(transparent)]
    Data(#[from] tresillo_learn::DataError),
    /// Compute counts that overflow when added.
    #[error(transparent)]
    Overflow(#[from] tresillo_sim::compute::CountOverflow),
    /// The pool of threads could not be made.
    #[error(transparent)]
    Pool(#[from] rayon::ThreadPoolBuildError),
    /// The Parquet library (the dataset's files).
    #[error(transparent)]
    Parquet(#[from] parquet::errors::ParquetError),
    /// CSV text.
    #[error(transparent)]
    Csv(#[from] csv::Error),
    /// JSON text.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// An I/O error on no particular file.
    #[error(transparent)]
    System(#[from] io::Error),
}

impl RunError {
    /// Whether the run stopped because it was interrupted (by its caller, or a
    /// signal the tournament saw), here or in a cause.
    #[must_use]
    pub fn is_interrupted(&self) -> bool {
        match self {
            RunError::Interrupted(_) | RunError::Sim(tresillo_sim::SimError::Interrupted) => true,
            RunError::Context { cause, .. } => cause.is_interrupted(),
            _ => false,
        }
    }

    /// The [`Interrupted`] of a run stopped by its caller, here or in a cause.
    #[must_use]
    pub fn interrupted(&self) -> Option<Interrupted> {
        match self {
            RunError::Interrupted(i) => Some(*i),
            RunError::Context { cause, .. } => cause.interrupted(),
            _ => None,
        }
    }
}

/// What the library's functions return.
pub type Result<T, E = RunError> = std::result::Result<T, E>;

/// Returns a [`RunError::Invalid`] with the message (`format!`'s arguments).
macro_rules! bail {
    ($($message:tt)+) => {
        return Err($crate::RunError::Invalid(format!($($message)+)))
    };
}

/// Returns a [`RunError::Invalid`] with the message unless the condition holds.
macro_rules! ensure {
    ($cond:expr, $($message:tt)+) => {
        if !$cond {
            $crate::error::bail!($($message)+);
        }
    };
}

/// A [`RunError::Invalid`] with the message (`format!`'s arguments).
macro_rules! invalid {
    ($($message:tt)+) => {
        $crate::RunError::Invalid(format!($($message)+))
    };
}

pub(crate) use {bail, ensure, invalid};

pub(crate) use tresillo_durable::error_chain as chain;

/// Names the step that failed ([`RunError::Context`]): what anyhow's `Context` did.
pub(crate) trait Context<T> {
    /// The error, within `what`.
    fn context(self, what: impl Display) -> Result<T>;
    /// The error, within the step `what()` names (built only on an error).
    fn with_context<D: Display>(self, what: impl FnOnce() -> D) -> Result<T>;
}

impl<T, E: Into<RunError>> Context<T> for std::result::Result<T, E> {
    fn context(self, what: impl Display) -> Result<T> {
        self.map_err(|e| RunError::Context { what: what.to_string(), cause: Box::new(e.into()) })
    }

    fn with_context<D: Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.map_err(|e| RunError::Context { what: what().to_string(), cause: Box::new(e.into()) })
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, what: impl Display) -> Result<T> {
        self.ok_or_else(|| RunError::Invalid(what.to_string()))
    }

    fn with_context<D: Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.ok_or_else(|| RunError::Invalid(what().to_string()))
    }
}

/// Names the file of a step of the system that failed ([`RunError::Io`]).
pub(crate) trait OnFile<T> {
    /// The error of `verb` (`reading`, `writing`, ...) on `path`.
    fn on(self, verb: &'static str, path: &Path) -> Result<T>;
}

impl<T> OnFile<T> for io::Result<T> {
    fn on(self, verb: &'static str, path: &Path) -> Result<T> {
        self.map_err(|error| RunError::Io { verb, path: path.to_path_buf(), error })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step's message says its cause on the same line, as the binaries printed
    /// it before (anyhow's `{:#}`), and has no separate source to print twice.
    #[test]
    fn a_step_says_its_cause_on_one_line() {
        let gone = || Err::<(), _>(io::Error::new(io::ErrorKind::NotFound, "gone"));
        let e = gone().on("reading", Path::new("out/manifest.json")).context("out: the run").unwrap_err();
        assert_eq!(e.to_string(), "out: the run: reading out/manifest.json: gone");
        assert_eq!(format!("{e:#}"), e.to_string());
        assert!(std::error::Error::source(&e).is_none());
        let e = gone().with_context(|| format!("moving {} to {}", "a", "b")).unwrap_err();
        assert_eq!(e.to_string(), "moving a to b: gone");
    }

    /// An interruption is told apart through the steps around it.
    #[test]
    fn an_interruption_is_seen_through_its_steps() {
        let stopped = Err::<(), _>(Interrupted { deals_completed: 7 });
        let e = stopped.context("a step").context("another").unwrap_err();
        assert!(e.is_interrupted());
        assert_eq!(e.interrupted(), Some(Interrupted { deals_completed: 7 }));
        let e = Err::<(), _>(tresillo_sim::SimError::Interrupted).context("a step").unwrap_err();
        assert!(e.is_interrupted() && e.interrupted().is_none());
        assert!(!RunError::Invalid("no".into()).is_interrupted());
    }
}

/// Why [`run_stoppable`] returned early: its `stop` answered `true`. Every
/// batch finished before that is checkpointed; `--resume` continues the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted {
    /// The deals the run directory holds.
    pub deals_completed: u64,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted with {} finished deals kept; resume continues the run", self.deals_completed)
    }
}

impl std::error::Error for Interrupted {}
