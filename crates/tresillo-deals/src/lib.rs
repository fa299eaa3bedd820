//! The files of deals, below the run directories and the human study: the deals
//! table's formats (`deals.csv`'s header, `deals.parquet`'s writers and readers,
//! [`parquet`]) and the deal books a run or a study plays ([`read_book`]). The
//! run library (tresillo-runs) and the study (tresillo-study) both write their
//! deals through it, so the study needs neither the runs nor the bots.

pub mod parquet;

pub use parquet::Format;

use std::fs::File;
use std::path::{Path, PathBuf};
use tresillo_sim::book::DealBook;

/// Why a deal book could not be read: one line naming the file (and the line
/// and the token at fault).
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be opened.
    #[error("reading the deal book {}: {error}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// What the operating system said (in the message, not a source).
        error: std::io::Error,
    },
    /// A line could not be read (too long, not UTF-8, an I/O error).
    #[error(transparent)]
    Line(#[from] tresillo_durable::lines::Error),
    /// The book as a whole is wrong (`line` 0: no deal, a bad header).
    #[error("{}: {why}", path.display())]
    Book {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// A line of the book is wrong: its token and the reason, shortened.
    #[error("{} line {line}: `{token}`: {why}", path.display())]
    Deal {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The token at fault (at most 80 characters).
        token: String,
        /// Why (at most 200 characters).
        why: String,
    },
}

/// Reads the deal book in `path` (`--deals-from`): one-line errors naming the
/// file, the line and the token ([`DealBook::parse`]).
pub fn read_book(path: &Path) -> Result<DealBook, BookError> {
    let file = File::open(path).map_err(|error| BookError::Open { path: path.to_path_buf(), error })?;
    let mut lines = tresillo_durable::lines::Lines::with_max(
        std::io::BufReader::new(file),
        path.display().to_string(),
        tresillo_durable::lines::MAX_BOOK_LINE_BYTES,
    );
    let mut text = String::new();
    while let Some((_, l)) = lines.next_line()? {
        text.push_str(&l);
        text.push('\n');
    }
    DealBook::parse(&text).map_err(|e| {
        if e.line == 0 {
            BookError::Book { path: path.to_path_buf(), why: e.why }
        } else {
            // The token at fault, and the reason (which may quote it), shortened.
            BookError::Deal {
                path: path.to_path_buf(),
                line: e.line,
                token: tresillo_durable::lines::excerpt(&e.token, 80),
                why: tresillo_durable::lines::excerpt(&e.why, 200),
            }
        }
    })
}
