//! Bounded readers of line inputs (records, `score` sessions, experiment files):
//! a line longer than [`MAX_LINE_BYTES`] (an endless line, such as `/dev/zero`) is
//! one error naming the file and line, read in bounded memory, never an attempt to
//! hold it whole. A UTF-8 byte order mark before the first line is skipped, as the
//! TOML reader skips it.
//!
//! **Inputs are bounded before they are parsed.** `tresillo_runs::lines` reads every
//! line input with a 1 MiB line limit (and small whole files with a 4 MiB limit);
//! output paths pass `check_output_file` / `check_run_dir` before any work.

use std::io::{self, BufRead, Read};

/// Why a line input could not be read; each message is one line naming the
/// input (and the line).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading line `line` of the input `name` failed.
    #[error("{name}:{line}: {error}")]
    Read {
        /// The input.
        name: String,
        /// The line being read, from 1.
        line: usize,
        /// What the operating system said (in the message, not a source).
        error: io::Error,
    },
    /// Line `line` is longer than `max` bytes.
    #[error(
        "{name}:{line}: the line is longer than {max} bytes (not a line of this input; a truncated or binary file?)"
    )]
    TooLong {
        /// The input.
        name: String,
        /// The line, from 1.
        line: usize,
        /// The most bytes a line may hold.
        max: usize,
    },
    /// Line `line` is not UTF-8 from its byte `byte` (from 1) on.
    #[error("{name}:{line}: not UTF-8 text (byte {byte} of the line)")]
    LineNotUtf8 {
        /// The input.
        name: String,
        /// The line, from 1.
        line: usize,
        /// The first byte of the line that is not UTF-8, from 1.
        byte: usize,
    },
    /// Reading the small file `name` failed.
    #[error("reading {name}: {error}")]
    ReadSmall {
        /// The input.
        name: String,
        /// What the operating system said (in the message, not a source).
        error: io::Error,
    },
    /// The small file `name` is larger than [`MAX_FILE_BYTES`].
    #[error("{name}: larger than {MAX_FILE_BYTES} bytes; not a file this command reads")]
    TooLarge {
        /// The input.
        name: String,
    },
    /// The small file `name` is not UTF-8 on its line `line`.
    #[error("{name}:{line}: not UTF-8 text")]
    NotUtf8 {
        /// The input.
        name: String,
        /// The line, from 1.
        line: usize,
    },
}

/// A line input's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The longest line a line input may hold (1 MiB; a hand record is a few
/// kilobytes).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The largest whole-file input (an experiment file): 4 MiB.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The longest line of a deal book (`--deals-from`): a deal is a seed or four
/// short hands; 64 KiB leaves room for any comment.
pub const MAX_BOOK_LINE_BYTES: usize = 64 << 10;

/// `text` cut to at most `max` characters for an error message, with how long it
/// was when cut (`abc... (10485760 bytes)`): a bad input is not echoed whole.
#[must_use]
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}... ({} bytes)", &text[..at], text.len()),
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The lines of `reader`, each at most `max` bytes, numbered from 1; errors name
/// the input (`name`) and the line.
pub struct Lines<R> {
    reader: R,
    name: String,
    line: usize,
    max: usize,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, called `name` in messages, at most
    /// [`MAX_LINE_BYTES`] each.
    pub fn new(reader: R, name: impl Into<String>) -> Lines<R> {
        Lines::with_max(reader, name, MAX_LINE_BYTES)
    }

    /// The lines of `reader`, at most `max` bytes each.
    pub fn with_max(reader: R, name: impl Into<String>, max: usize) -> Lines<R> {
        Lines { reader, name: name.into(), line: 0, max }
    }

    /// The next line without its end (`\n` or `\r\n`) and its number, or `None`
    /// at the end of the input.
    pub fn next_line(&mut self) -> Result<Option<(usize, String)>> {
        let mut bytes = Vec::new();
        let n = self.line + 1;
        let mut ended = false;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(Error::Read { name: self.name.clone(), line: n, error }),
            };
            if buf.is_empty() {
                break;
            }
            let (take, used, end) = match buf.iter().position(|b| *b == b'\n') {
                Some(i) => (i, i + 1, true),
                None => (buf.len(), buf.len(), false),
            };
            if bytes.len() + take > self.max {
                return Err(Error::TooLong { name: self.name.clone(), line: n, max: self.max });
            }
            bytes.extend_from_slice(&buf[..take]);
            self.reader.consume(used);
            if end {
                ended = true;
                break;
            }
        }
        if bytes.is_empty() && !ended {
            return Ok(None);
        }
        self.line = n;
        if n == 1 && bytes.starts_with(BOM) {
            bytes.drain(..BOM.len());
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        match String::from_utf8(bytes) {
            Ok(s) => Ok(Some((n, s))),
            Err(e) => Err(Error::LineNotUtf8 {
                name: self.name.clone(),
                line: n,
                byte: e.utf8_error().valid_up_to() + 1,
            }),
        }
    }
}

/// The whole of `reader` as text, line by line within the bounds of [`Lines`]
/// (lines joined by `\n`, so line numbers stay those of the input).
pub fn read_text(reader: impl BufRead, name: &str) -> Result<String> {
    let mut lines = Lines::new(reader, name);
    let mut text = String::new();
    while let Some((_, l)) = lines.next_line()? {
        text.push_str(&l);
        text.push('\n');
    }
    Ok(text)
}

/// The whole of a small file (an experiment file) as text: refused in one line
/// when it holds more than [`MAX_FILE_BYTES`] or is not UTF-8; a byte order mark
/// is skipped.
pub fn read_small(reader: impl Read, name: &str) -> Result<String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| Error::ReadSmall { name: name.to_string(), error })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::TooLarge { name: name.to_string() });
    }
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1;
            Err(Error::NotUtf8 { name: name.to_string(), line })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Result<Vec<(usize, String)>> {
        let mut l = Lines::with_max(input, "f", max);
        let mut v = Vec::new();
        while let Some(x) = l.next_line()? {
            v.push(x);
        }
        Ok(v)
    }

    #[test]
    fn lines_are_numbered_and_ends_and_a_bom_are_dropped() {
        let v = all(b"\xEF\xBB\xBFa\r\n\nb", 10).unwrap();
        assert_eq!(v, [(1, "a".into()), (2, String::new()), (3, "b".into())]);
        assert!(all(b"", 10).unwrap().is_empty());
    }

    #[test]
    fn an_endless_line_is_one_error_naming_it() {
        let e = all(b"ok\n0123456789x\n", 10).unwrap_err().to_string();
        assert!(e.starts_with("f:2: the line is longer than 10 bytes"), "{e}");
        // An endless input: refused after the bound, not read whole.
        let mut endless = std::io::BufReader::new(std::io::repeat(0));
        let e = Lines::new(&mut endless, "zero").next_line().unwrap_err().to_string();
        assert!(e.starts_with("zero:1: the line is longer than"), "{e}");
        let e = read_small(std::io::repeat(b'a'), "big").unwrap_err().to_string();
        assert!(e.starts_with("big: larger than"), "{e}");
        let e = all(b"a\n\xff\n", 10).unwrap_err().to_string();
        assert!(e.starts_with("f:2: not UTF-8"), "{e}");
    }
}
