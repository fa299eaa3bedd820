//! A person (or friends) against bots at one table, what `tresillo serve`'s free
//! play (tresillo-server's `game.rs`) and a human study's participant games
//! (tresillo-study's `study.rs`) have in common:
//!
//! - [`journal`]: the one journal format both write (`games/*.jsonl`: one JSON
//!   object a line, fsynced before what it holds is acknowledged), its
//!   vocabulary ([`Entry`]) and its one reader and writer ([`Journal`]), which
//!   also reads the two formats before it (the server's log format 1, the
//!   study's journals) — docs/JOURNAL.md;
//! - [`table`]: the one game loop of a hand ([`Table`]): whose turn it is, a
//!   bot's turn decided (or its bot lent out to decide without a lock), a
//!   person's decision checked on a copy of the hand, journaled, then applied,
//!   and the finished hand made into a [`HandRecord`](tresillo_sim::HandRecord).
//!
//! Why a crate of its own: the study (layer 5) and the server (layer 6, above the
//! study) both need it, and neither is the other's business: the server's free
//! play is no study, and a study must not depend on the HTTP server. Below both,
//! beside the bots and the deal books (layer 3), it depends on the engine, the
//! agents, the records (tresillo-sim) and the durable files only. Each keeps its
//! own extras on top: the server its sessions of hands, undo, takeover and
//! pacing; the study its conditions, practice deals, consent and questions.

pub mod journal;
pub mod table;

pub use journal::{Entry, FORMAT, Header, Journal, JournalError, LineError, Opened, Place, Timing};
pub use table::{BotError, HandSetup, Table, TableError};
