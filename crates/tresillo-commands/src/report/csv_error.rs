//! One-line errors for the CSV files a report reads: the file, the line and
//! what is wrong.

use std::path::Path;

/// `e` as one line naming `file` and the line.
pub(super) fn csv_error(file: &Path, e: &csv::Error) -> anyhow::Error {
    match e.position() {
        Some(p) => anyhow::anyhow!("{} line {}: {}", file.display(), p.line(), e.kind_message()),
        None => anyhow::anyhow!("{}: {e}", file.display()),
    }
}

/// The message of a CSV error without the position csv puts in its own text.
trait KindMessage {
    fn kind_message(&self) -> String;
}

impl KindMessage for csv::Error {
    fn kind_message(&self) -> String {
        match self.kind() {
            csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
                format!("{len} fields where the header has {expected_len}")
            }
            csv::ErrorKind::Deserialize { err, .. } => match err.field() {
                Some(f) => format!("field {}: {}", f + 1, err.kind()),
                None => err.kind().to_string(),
            },
            csv::ErrorKind::Utf8 { err, .. } => format!("invalid UTF-8 in field {}", err.field() + 1),
            _ => self.to_string(),
        }
    }
}
