//! Every file the study touches, and nothing else here decides anything: the
//! study file (created without overwriting, participants appended), each
//! participant's journal (appended and flushed to disk before a decision is
//! acknowledged) and the export directory.
//!
//! A torn last line of a journal is dropped on open; every write goes through the
//! durable-file functions; the export directory holds `deals.csv`/`deals.parquet` and
//! records.

pub mod export;
pub mod files;
pub mod journal;
