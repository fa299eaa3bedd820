//! The study file on disk: read, created without overwriting, appended to.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

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
pub fn read_text(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Flushes the directory `dir` to disk, so that a file created or renamed in it
/// survives a crash.
pub fn sync_dir(dir: &Path) -> Result<(), String> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| format!("{}: {e}", dir.display()))
}

/// Writes `text` as a new file `path` (created with its directory; an existing
/// file is never overwritten), flushed to disk.
pub fn create_new(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let mut f = OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            format!("{}: already exists (nothing was changed)", path.display())
        } else {
            format!("{}: {e}", path.display())
        }
    })?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        sync_dir(parent)?;
    }
    Ok(())
}

/// Appends `text` to the existing file `path`, flushed to disk.
pub fn append(path: &Path, text: &str) -> Result<(), String> {
    let mut f = OpenOptions::new().append(true).open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    f.write_all(text.as_bytes()).and_then(|()| f.sync_all()).map_err(|e| format!("{}: {e}", path.display()))
}
