//! Every file the study touches, and nothing else here decides anything: the
//! study file (created without overwriting, participants appended) and the
//! export directory. Each participant's journal is the table's journal
//! (`tresillo_table::journal`, shared with `tresillo serve`: appended and
//! flushed to disk before a decision is acknowledged, a torn last line dropped
//! on open).
//!
//! Every write goes through the durable-file functions; the export directory
//! holds `deals.csv`/`deals.parquet` and records.

pub mod export;
pub mod files;
