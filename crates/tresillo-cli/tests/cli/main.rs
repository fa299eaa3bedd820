//! The command line's integration tests, one module per subcommand or theme, in one
//! test binary: one compile and one link instead of one per file (CI builds them all
//! in release). Most run `target/release/tresillo` itself (`CARGO_BIN_EXE_tresillo`).

mod common;

mod analyze_cli;
mod atomic_cli;
mod bidding_cli;
mod bot_speak_cli;
mod bots_cli;
mod bots_processes;
mod bots_runs;
mod bounds_cli;
mod checksums_cli;
mod clock_cli;
mod closed_output_cli;
mod core_cli;
mod dataset_cli;
mod docs_links;
mod experiment_cli;
mod four_cli;
mod human_cli;
mod human_pty;
mod issue33_cli;
mod issue52_cli;
mod issue55_cli;
mod league_cli;
mod lhombre_cli;
mod pairs_cli;
mod parquet_cli;
mod paths_cli;
mod properties_cli;
mod protocol_doc;
mod records_cli;
mod report_cli;
mod rule_set_file_cli;
mod rules_cli;
mod runs_cli;
mod score_cli;
mod solve_cli;
mod sprt_cli;
mod study_cli;
mod tournament_cli;
mod tune_cli;
