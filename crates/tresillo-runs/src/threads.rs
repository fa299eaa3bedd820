//! How many worker threads a run may take.

/// The most worker threads a run takes: far above any machine's cores, far below
/// what would exhaust the system's threads.
pub const MAX_THREADS: usize = 1024;

/// Refuses 0 threads and more than [`MAX_THREADS`] (`what` names the setting:
/// `--threads` on the command line, `threads` in an experiment file or Python).
pub fn check_threads(t: usize, what: &str) -> Result<usize, ThreadsError> {
    if t == 0 {
        Err(ThreadsError::None { what: what.to_string() })
    } else if t > MAX_THREADS {
        Err(ThreadsError::TooMany { what: what.to_string(), threads: t })
    } else {
        Ok(t)
    }
}

/// A worker-thread count [`check_threads`] refuses; the message names the setting.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ThreadsError {
    /// No thread.
    #[error("{what} must be at least 1")]
    None {
        /// The setting (`--threads`, `threads`).
        what: String,
    },
    /// More than [`MAX_THREADS`].
    #[error("{what} {threads} is too many: at most {MAX_THREADS} worker threads")]
    TooMany {
        /// The setting (`--threads`, `threads`).
        what: String,
        /// The count asked for.
        threads: usize,
    },
}
