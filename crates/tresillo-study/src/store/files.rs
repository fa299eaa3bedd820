//! The study file on disk: read, created without overwriting, appended to.

use crate::SetupError;
use std::fs;
use std::path::{Path, PathBuf};
use tresillo_durable as durable;

/// The study file's name inside a study directory.
pub const STUDY_FILE: &str = "study.toml";

/// The directory of the participants' journals inside a study directory.
pub const GAMES_DIR: &str = "games";

/// The study file of study directory `dir`.
#[must_use]
pub fn study_file(dir: &Path) -> PathBuf {
    dir.join(STUDY_FILE)
}

/// Reads a text file, with a one-line error naming it.
pub fn read(path: &Path) -> Result<String, SetupError> {
    fs::read_to_string(path).map_err(SetupError::file(path))
}

/// Writes `text` as a new file `path` (created with its directory; an existing
/// file is never overwritten), flushed to disk.
pub fn create_new(path: &Path, text: &str) -> Result<(), SetupError> {
    durable::create_new(path, text.as_bytes()).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            SetupError::Exists { path: path.to_path_buf(), what: "nothing was changed" }
        } else {
            SetupError::Io(e)
        }
    })
}

/// Appends `text` to the existing file `path`, flushed to disk.
pub fn append(path: &Path, text: &str) -> Result<(), SetupError> {
    Ok(durable::append(path, text.as_bytes())?)
}
