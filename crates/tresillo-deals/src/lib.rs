//! The files of deals, below the run directories and the human study: the deals
//! table's formats (`deals.csv`'s header, `deals.parquet`'s writers and readers,
//! [`parquet`]) and the deal books a run or a study plays ([`read_book`]). The
//! run library (tresillo-runs) and the study (tresillo-study) both write their
//! deals through it, so the study needs neither the runs nor the bots.

pub mod parquet;

pub use parquet::Format;

use anyhow::{Context, Result};
use std::fs::File;
use std::path::Path;
use tresillo_sim::book::DealBook;

/// Reads the deal book in `path` (`--deals-from`): one-line errors naming the
/// file, the line and the token ([`DealBook::parse`]).
pub fn read_book(path: &Path) -> Result<DealBook> {
    let file = File::open(path).with_context(|| format!("reading the deal book {}", path.display()))?;
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
            anyhow::anyhow!("{}: {}", path.display(), e.why)
        } else {
            // The token at fault, and the reason (which may quote it), shortened.
            let token = tresillo_durable::lines::excerpt(&e.token, 80);
            let why = tresillo_durable::lines::excerpt(&e.why, 200);
            anyhow::anyhow!("{} line {}: `{token}`: {why}", path.display(), e.line)
        }
    })
}
