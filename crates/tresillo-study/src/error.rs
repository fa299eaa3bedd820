//! [`SetupError`]: why a study file could not be made or grown, a token drawn,
//! or a study exported; one line each, the words the CLI and the server show.

use std::io;
use std::path::PathBuf;

/// Why a study file could not be made or grown ([`crate::create_study`],
/// [`crate::add_participant`]), a token drawn ([`crate::new_token`]), or a study
/// exported ([`crate::export`], [`crate::export_baseline`]).
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The operating system's random source failed (its words).
    #[error("the operating system's random source failed: {0}")]
    Random(String),
    /// A file or directory that must be new exists (`what`: what the message
    /// adds, as "nothing was changed").
    #[error("{}: already exists ({what})", path.display())]
    Exists {
        /// The file or directory.
        path: PathBuf,
        /// What the message adds in parentheses.
        what: &'static str,
    },
    /// A step on a file or directory that the system refused.
    #[error("{}: {error}", path.display())]
    File {
        /// The file or directory.
        path: PathBuf,
        /// What the system said (in the message, not a source).
        error: io::Error,
    },
    /// A new study file that is refused (the line and the key).
    #[error(transparent)]
    NewFile(#[from] crate::FileError),
    /// The study file in `path` is refused (the line and the key).
    #[error("{}: {error}", path.display())]
    StudyFile {
        /// The study file.
        path: PathBuf,
        /// Why.
        error: crate::FileError,
    },
    /// The study file as it would be after adding participant `id` is refused.
    #[error("{}: participant {id:?}: {error}", path.display())]
    Participant {
        /// The study file.
        path: PathBuf,
        /// The participant.
        id: String,
        /// Why.
        error: crate::FileError,
    },
    /// A game of the study that cannot be exported or played again for the
    /// baseline.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The study's deal book.
    #[error(transparent)]
    Book(#[from] tresillo_deals::BookError),
    /// The export's `deals.parquet`.
    #[error(transparent)]
    Deals(#[from] tresillo_deals::parquet::DealsError),
    /// The rule set as TOML.
    #[error(transparent)]
    Toml(#[from] toml::ser::Error),
    /// CSV text.
    #[error(transparent)]
    Csv(#[from] csv::Error),
    /// JSON text.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A system error on a file the message does not name.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl SetupError {
    /// The error of a step on `path`.
    pub(crate) fn file(path: &std::path::Path) -> impl FnOnce(io::Error) -> SetupError + '_ {
        move |error| SetupError::File { path: path.to_path_buf(), error }
    }
}

impl<W> From<csv::IntoInnerError<W>> for SetupError {
    fn from(e: csv::IntoInnerError<W>) -> SetupError {
        SetupError::Io(e.into_error())
    }
}

/// Why a finished game of a study cannot be scored as a `deals.csv` row
/// ([`crate::study_row`]) or played again with a baseline agent
/// ([`crate::Study::baseline_games`]).
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The game's result could not be scored.
    #[error("game {game} of {participant}: {error}")]
    Score {
        /// The participant's game.
        game: u64,
        /// The participant.
        participant: String,
        /// Why.
        error: tresillo_core::ScoringError,
    },
    /// The baseline's agent (or an opponent) cannot be built.
    #[error("--baseline {spec:?}: {error}")]
    Agent {
        /// The agent spec.
        spec: String,
        /// Why.
        error: tresillo_agents::SpecError,
    },
    /// The deal cannot be dealt again.
    #[error("deal {deal}: {error}")]
    Deal {
        /// The deal's index in the book.
        deal: u64,
        /// Why.
        error: tresillo_core::HandError,
    },
    /// An agent failed while the deal was played again.
    #[error("deal {deal}: {error}")]
    Play {
        /// The deal's index in the book.
        deal: u64,
        /// Why.
        error: tresillo_agents::AgentError,
    },
}
