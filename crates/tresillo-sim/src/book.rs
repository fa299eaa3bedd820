//! Deal books: the deals of a run given as a list instead of drawn from the
//! master seed, so that two runs (two agents' versions, two machines, two tools)
//! compare on exactly the same deals.
//!
//! A book is text, one deal a line (`tresillo tournament --deals-from FILE`):
//!
//! ```text
//! # comments and blank lines are skipped
//! 12345678901234                      a deal seed: the deal `tresillo deal --seed` prints
//! oA 5o 2c ... / ... / ... / heap     a dealt hand in RULES.md section 13's notation:
//!                                     seats 0, 1, 2 (nine cards each), then the heap (13)
//! ```
//!
//! Deal `i` of the run is line `i` of the book (the dealer rotates as in any
//! run; at a table of four the three hands are seated around the dealer as a
//! seed's are). A seed line plays exactly the deal of that seed, so the
//! `deal_seed` column of any run's `deals.csv` is a book of its deals. A dealt
//! line has no seed: its agents' generators are seeded by
//! `deal_seed(master seed, i)`, which is what its `deals.csv` row records in
//! `deal_seed` (the cards are the book's; `--record` keeps them).
//!
//! Parsing is strict: a line that is neither is refused with its line number
//! and the token at fault. No I/O here: the caller reads the file.
//!
//! A book is kept in a run's manifest as its lines (`deal_book`), so `--resume` and
//! `merge` play and check the same deals.

use crate::seeds::deal_for_seed;
use serde::{Deserialize, Serialize};
use tresillo_core::Deal;

/// One deal of a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookDeal {
    /// A deal seed.
    Seed(u64),
    /// A dealt hand (three hands and the heap).
    Dealt(Deal),
}

/// A book of deals, in order. In a manifest it is the list of its lines
/// (seeds as numbers, dealt hands in the notation), so a run's manifest says
/// exactly which deals it played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<BookLine>", into = "Vec<BookLine>")]
pub struct DealBook {
    deals: Vec<BookDeal>,
}

/// A book line as stored in a manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BookLine {
    /// A seed.
    Seed(u64),
    /// A dealt hand in notation.
    Dealt(String),
}

impl From<DealBook> for Vec<BookLine> {
    fn from(b: DealBook) -> Vec<BookLine> {
        b.deals
            .into_iter()
            .map(|d| match d {
                BookDeal::Seed(s) => BookLine::Seed(s),
                BookDeal::Dealt(d) => BookLine::Dealt(d.to_string()),
            })
            .collect()
    }
}

/// A deal of a stored book that is not a deal (`index`: its place, from 0).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("deal {index}: {error}")]
pub struct BookDealError {
    /// The deal's place in the book, from 0.
    pub index: usize,
    /// Why (in the message, not a source).
    pub error: DealtError,
}

impl TryFrom<Vec<BookLine>> for DealBook {
    type Error = BookDealError;
    fn try_from(lines: Vec<BookLine>) -> Result<DealBook, BookDealError> {
        let deals = lines
            .into_iter()
            .enumerate()
            .map(|(index, l)| match l {
                BookLine::Seed(s) => Ok(BookDeal::Seed(s)),
                BookLine::Dealt(t) => {
                    dealt(&t).map(BookDeal::Dealt).map_err(|error| BookDealError { index, error })
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(DealBook { deals })
    }
}

/// A line of a book that is not a deal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: `{token}`: {why}")]
pub struct BookError {
    /// The line number (from 1).
    pub line: usize,
    /// The token at fault.
    pub token: String,
    /// Why.
    pub why: String,
}

/// Why a line is not a dealt hand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealtError {
    /// Not four parts separated by `/`.
    #[error("a dealt hand is three hands and the heap, `h0 / h1 / h2 / heap` ({0} parts)")]
    Parts(usize),
    /// A part that is not cards, or cards that are not a deal.
    #[error(transparent)]
    Notation(#[from] tresillo_core::NotationError),
}

fn dealt(text: &str) -> Result<Deal, DealtError> {
    if text.split('/').count() != 4 {
        return Err(DealtError::Parts(text.split('/').count()));
    }
    Ok(Deal::parse(text)?)
}

impl DealBook {
    /// A book of these seeds.
    #[must_use]
    pub fn of_seeds(seeds: &[u64]) -> DealBook {
        DealBook { deals: seeds.iter().map(|&s| BookDeal::Seed(s)).collect() }
    }

    /// Parses a book's text (see the module documentation).
    pub fn parse(text: &str) -> Result<DealBook, BookError> {
        let mut deals = Vec::new();
        for (k, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |token: &str, why: String| BookError { line: k + 1, token: token.to_string(), why };
            if line.contains('/') {
                // The token at fault: the card the parser names, else the line.
                let d = dealt(line).map_err(|why| {
                    let why = why.to_string();
                    let token = line
                        .split(|c: char| c.is_whitespace() || c == '/')
                        .find(|t| !t.is_empty() && why.contains(&format!("`{t}`")))
                        .unwrap_or(line);
                    err(token, why)
                })?;
                deals.push(BookDeal::Dealt(d));
            } else {
                let mut tokens = line.split_whitespace();
                let tok = tokens.next().unwrap_or("");
                if let Some(extra) = tokens.next() {
                    return Err(err(extra, "one deal a line: a seed, or `h0 / h1 / h2 / heap`".into()));
                }
                let seed = tok.parse::<u64>().map_err(|_| {
                    err(
                        tok,
                        "not a deal seed (an integer from 0 to 18446744073709551615) nor a dealt hand".into(),
                    )
                })?;
                deals.push(BookDeal::Seed(seed));
            }
        }
        if deals.is_empty() {
            return Err(BookError { line: 0, token: String::new(), why: "the book holds no deal".into() });
        }
        Ok(DealBook { deals })
    }

    /// Its deals.
    #[must_use]
    pub fn deals(&self) -> &[BookDeal] {
        &self.deals
    }

    /// How many deals it holds.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.deals.len() as u64
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.deals.is_empty()
    }

    /// Deal `i` of a run of master seed `master` on this book: the seed of its
    /// row (the deal's seed, or for a dealt hand `deal_seed(master, i)`, the
    /// generators' seed) and its cards (three hands and the heap).
    #[must_use]
    pub fn deal(&self, master: u64, i: u64) -> (u64, Deal) {
        match &self.deals[i as usize] {
            BookDeal::Seed(s) => (*s, deal_for_seed(*s)),
            BookDeal::Dealt(d) => (crate::seeds::deal_seed(master, i), *d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn books_read_seeds_and_dealt_hands_strictly() {
        let d = deal_for_seed(7).to_string();
        let b = DealBook::parse(&format!("# a book\n7\n\n  {d}  # seed 7 dealt out\n42\n")).unwrap();
        assert_eq!(b.len(), 3);
        assert_eq!(b.deal(1, 0), (7, deal_for_seed(7)));
        assert_eq!(b.deal(1, 1).1, deal_for_seed(7));
        assert_eq!(b.deal(1, 1).0, crate::seeds::deal_seed(1, 1));
        // Through a manifest and back.
        let json = serde_json::to_string(&b).unwrap();
        assert_eq!(serde_json::from_str::<DealBook>(&json).unwrap(), b);
        let e = DealBook::parse("1\n2x\n").unwrap_err();
        assert_eq!((e.line, e.token.as_str()), (2, "2x"));
        let e = DealBook::parse("1 2\n").unwrap_err();
        assert_eq!((e.line, e.token.as_str()), (1, "2"));
        let e = DealBook::parse("18446744073709551616\n").unwrap_err();
        assert_eq!(e.token, "18446744073709551616");
        let bad = d.replacen('/', "", 1);
        assert_eq!(DealBook::parse(&bad).unwrap_err().line, 1);
        assert!(DealBook::parse("# nothing\n").is_err());
        assert!(e.to_string().starts_with("line 1: `18446744073709551616`: "));
    }
}
