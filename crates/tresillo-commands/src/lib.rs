//! Every subcommand of the `tresillo` command line, as a library: the binary
//! (package tresillo-cli, told the commit it is built from by tresillo-provenance)
//! runs [`main_with`]; the Python package ships that binary as its command. It
//! does I/O, as do the run-directory library `tresillo-runs` (which writes run
//! directories for it) and the stores of the server and of the study; the engine
//! crates do none.
//!
//! A closed output ends a subcommand quietly (`tresillo tune ... 2>&1 | head -1`):
//! the Rust runtime ignores SIGPIPE, so a write to a closed pipe returns
//! `BrokenPipe`. Standard output is written through `?`, and `main` takes a
//! `BrokenPipe` error for success; standard error (progress lines, notes, the
//! error line) is written with [`note!`], which ignores a failed write, never with
//! `eprintln!`, which panics on it (the lints below refuse the `print` macros). A
//! run whose reader went away thus still finishes and writes its files. (Resetting
//! SIGPIPE to its default would need `unsafe` and would kill a long run at its
//! next progress line, losing the output it was about to write.)
//!
//! Every command takes every rule set at three and four players (`report`, `play
//! --human` and `bench deals` included, as does `scripts/analyze.py`); the one refusal
//! is the core's `Rules::check_players`, for a table size the rule set does not have.
#![deny(clippy::print_stdout, clippy::print_stderr)]

/// Writes a line to standard error, like `eprintln!`, but without panicking when
/// standard error is closed (the line is then dropped).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod analyze;
mod args;
mod bench;
mod bot;
mod bot_check;
mod calibrate;
mod dataset;
mod evaluate;
mod experiment;
#[cfg(test)]
mod fuzz;
mod human;
mod league;
mod narrate;
mod perft;
mod play;
mod properties;
pub mod provenance;
mod replay;
mod report;
mod rules;
mod score;
mod score_hombre;
mod score_log;
mod serve;
mod solve;
mod sprt;
mod study;
mod tournament;
mod train;
mod tune;
#[cfg(test)]
mod words_golden;

use anyhow::{Context, Result};

/// The bots an experiment file defines (`[bots.NAME]`), set once by `tresillo run`
/// before anything is built.
static NAMED_BOTS: std::sync::OnceLock<Vec<(String, tresillo_bots::BotConfig)>> = std::sync::OnceLock::new();

/// The bots an experiment file defines (none outside `tresillo run`).
fn named_bots() -> &'static [(String, tresillo_bots::BotConfig)] {
    NAMED_BOTS.get().map_or(&[], Vec::as_slice)
}

/// The agents the command line seats: the built-in ones, external bots
/// (`ext:cmd=PROGRAM`, docs/PROTOCOL.md) and the experiment file's named bots.
/// The external bots among a run's agents and bidding agent, as its manifest
/// records them (a spec that does not parse has none: the run refuses it later);
/// each bot is started and greeted for `rules` at `players` for its declared
/// name and version.
fn bot_identities(
    agents: &str,
    bidding: Option<&str>,
    rules: tresillo_core::Rules,
    players: u8,
) -> Vec<tresillo_bots::BotIdentity> {
    let specs = tresillo_agents::split_specs(agents).unwrap_or_default();
    tresillo_bots::identities(specs.iter().map(String::as_str).chain(bidding), named_bots(), rules, players)
}

fn registry() -> tresillo_agents::Registry {
    let mut r = tresillo_bots::registry();
    let read: tresillo_learn::ModelReader = std::sync::Arc::new(|path: &str| std::fs::read(path));
    tresillo_learn::register(&mut r, read).expect("the learned models' names are free");
    for (name, config) in named_bots() {
        tresillo_bots::register_named(&mut r, name, config.clone()).expect("checked when the file was read");
    }
    r
}
use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Simulation and AI research toolkit for Tresillo (Hombre, L'Hombre).
#[derive(Parser)]
#[command(name = "tresillo", version = provenance::long_version(), about)]
struct Cli {
    /// Register the rule set defined in FILE (TOML, docs/RULE-SET-FILES.md)
    /// before the command runs, so that `--rules NAME` and the records and runs
    /// of that set know it; repeatable. Replaying or resuming its records needs
    /// the same flag.
    #[arg(long = "rule-set", value_name = "FILE", global = true)]
    rule_set: Vec<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

/// Registers the rule sets of `--rule-set` files.
fn register_rule_sets(files: &[std::path::PathBuf]) -> Result<()> {
    for path in files {
        tresillo_runs::register_rule_set_file(path).map_err(|e| anyhow::anyhow!("--rule-set: {e}"))?;
    }
    Ok(())
}

#[derive(Subcommand)]
enum Command {
    /// Print the deal for a seed (hands in seat order, then the heap from its top).
    Deal {
        /// The deal seed.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
        seed: u64,
    },
    /// Count legal card-play sequences from a deal (tricks resolved).
    Perft(perft::PerftArgs),
    /// Play one hand with the given agents and print it, or sit at the table
    /// yourself against two of them, three at four players (`--human SEAT`).
    Play(play::PlayArgs),
    /// Solve a card-play position exactly: the class (sacado, puesta, codillo, or
    /// those of `--goal`) each legal card of the leader leads to, then the value the
    /// declarer can force.
    Solve(solve::SolveArgs),
    /// Measure the engine's speed.
    Bench(bench::BenchArgs),
    /// Train a network on played deals (card locations, a policy, an action-value)
    /// and write it as a model file (docs/LEARNING.md).
    Train(train::TrainArgs),
    /// Measure a trained model on fresh deals: a locations model against the
    /// exact sampler and the soft rule model, a policy or value model's agreement
    /// with the agents' actions.
    Evaluate(evaluate::EvaluateArgs),
    /// Find the `worlds` (pimc) or `iters` (ismcts) whose decisions cost a given
    /// CPU time each over whole games on this machine, measured as a duplicate
    /// tournament charges them, and print that reproducible spec (equal-compute
    /// experiments written down).
    Calibrate(calibrate::CalibrateArgs),
    /// Keep the score of a session from a JSON Lines log.
    Score(score::ScoreArgs),
    /// List every agent with its parameters.
    Agents,
    /// Is agent A better than agent B? Duplicate deals in batches until a
    /// sequential test (SPRT) decides, at stated error rates.
    Sprt(sprt::SprtArgs),
    /// Check an external bot (docs/PROTOCOL.md) on hands of every rule set:
    /// protocol errors, illegal answers, time per answer.
    BotCheck(bot_check::BotCheckArgs),
    /// Play one of this build's agents as an external bot (docs/PROTOCOL.md):
    /// the protocol on standard input and output, for another build to seat as
    /// `ext:cmd="PATH/tresillo bot SPEC"` (a two-build A/B test).
    Bot(bot::BotArgs),
    /// List every rule set with its options, their defaults and the section of
    /// RULES.md each implements.
    Rules,
    /// Print a file format's definition as JSON, for readers in other languages:
    /// `deals`, the columns of deals.csv and deals.parquet (name, kind, nullable) and
    /// each contract's family (docs/deals-columns.json holds the same); `dataset`,
    /// the columns of `tresillo dataset`'s files.
    Schema {
        /// The format.
        #[arg(value_enum)]
        format: SchemaFormat,
    },
    /// Play many deals in parallel; write deals.csv, summary.csv and manifest.json.
    Tournament(tournament::TournamentArgs),
    /// Play deals and write one row per decision (the seat's observation, the
    /// legal actions, the action taken, where the hidden cards lie, the seat's
    /// score) as Parquet shards, for training (docs/DATASETS.md).
    Dataset(dataset::DatasetArgs),
    /// Merge finished shards of one run into a single run directory.
    Merge(tournament::MergeArgs),
    /// Check run directories against their manifests' checksums (a tournament,
    /// `run` or `merge` output, a league, an `sprt --out`): every file there, every
    /// byte as written. Exit 0 with one `ok` line each, 2 naming the first bad file.
    Verify {
        /// The run directories.
        #[arg(required = true)]
        dirs: Vec<std::path::PathBuf>,
    },
    /// Rank many agents: every set of three (four) of them a duplicate table on
    /// the same deals; ratings with 95% intervals and the pairwise matrix.
    League(league::LeagueArgs),
    /// Search an agent's numeric parameters for the best mean tantos against fixed
    /// opponents; write every candidate to a CSV and print the best spec last.
    Tune(tune::TuneArgs),
    /// Run an experiment described in a TOML file (a tournament or a tune).
    Run(experiment::RunArgs),
    /// Print recorded hands trick by trick (checking them), or play again the hand
    /// of a deals.csv row from its seeds.
    Replay(replay::ReplayArgs),
    /// Judge every card decision of recorded hands with the exact solver (and PIMC):
    /// which cards changed the outcome, and what would have kept it.
    Analyze(analyze::AnalyzeArgs),
    /// Draw tournament directories and tuning runs as one self-contained HTML page
    /// with charts.
    Report(report::ReportArgs),
    /// Measure Long et al.'s game-tree properties (leaf correlation, bias,
    /// disambiguation) and PIMC's error against the oracle (docs/PROPERTIES.md).
    Properties(properties::PropertiesArgs),
    /// Human studies: a study file with participants' tokens, progress, a
    /// simulated pilot, and the export of the games (docs/STUDY.md).
    Study(study::StudyArgs),
    /// Play in the browser against bots: a web server on 127.0.0.1 (every asset
    /// embedded), games kept in `--records DIR` and resumed after a restart
    /// (docs/SERVE.md).
    Serve(serve::ServeArgs),
}

/// The formats `tresillo schema` prints.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum SchemaFormat {
    /// deals.csv and deals.parquet (`tresillo_sim::schema`).
    Deals,
    /// The rows-NNNNN.parquet files of `tresillo dataset` (docs/DATASETS.md).
    Dataset,
}

/// `n` and a noun, in the plural unless `n` is 1: `1 run`, `2 runs`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// The command line as typed, with the program named by its file name only
/// (`tresillo`, not `/home/me/.cargo/bin/tresillo` or `target/release/tresillo`), so
/// that manifests do not depend on where the binary is.
/// The arguments [`main_with`] was called with (those of the process for the
/// binary, those of the `tresillo` command for the Python package's).
static ARGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

fn command_line() -> Vec<String> {
    let mut args: Vec<String> = ARGS.get().cloned().unwrap_or_else(|| std::env::args().collect());
    if let Some(first) = args.first_mut()
        && let Some(name) = std::path::Path::new(first.as_str()).file_stem()
    {
        *first = name.to_string_lossy().into_owned();
    }
    args
}

fn run(cli: Cli) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    register_rule_sets(&cli.rule_set)?;
    match cli.command {
        Command::Deal { seed } => {
            writeln!(out, "{}", tresillo_sim::deal_for_seed(seed))?;
        }
        Command::Perft(a) => perft::run(&a, &mut out)?,
        Command::Play(a) => play::run(&a, &mut out)?,
        Command::Solve(a) => solve::run(&a, &mut out)?,
        Command::Bench(a) => bench::run(&a, &mut out)?,
        Command::Train(a) => train::run(&a, &mut out)?,
        Command::Evaluate(a) => evaluate::run(&a, &mut out)?,
        Command::Calibrate(a) => calibrate::run(&a, &mut out)?,
        Command::Score(a) => score::run(&a)?,
        Command::Tournament(a) => {
            let table = tournament::run(&a, command_line())?;
            write!(out, "{table}")?;
        }
        Command::Dataset(a) => dataset::run(&a, command_line(), &mut out)?,
        Command::Merge(a) => {
            let table = tournament::merge(&a, command_line())?;
            write!(out, "{table}")?;
        }
        Command::Verify { dirs } => {
            for d in &dirs {
                writeln!(out, "{}", tresillo_runs::verify::verify(d)?.line)?;
            }
        }
        Command::League(a) => {
            let ranking = league::run(&a, command_line())?;
            write!(out, "{ranking}")?;
        }
        Command::Tune(a) => {
            let report = tune::run(&a, command_line())?;
            write!(out, "{report}")?;
        }
        Command::Run(a) => {
            let report = experiment::run(&a, command_line())?;
            write!(out, "{report}")?;
        }
        Command::Rules => rules::list(&mut out)?,
        Command::Schema { format: SchemaFormat::Deals } => {
            out.write_all(tresillo_sim::schema::json().as_bytes())?
        }
        Command::Schema { format: SchemaFormat::Dataset } => {
            out.write_all(tresillo_runs::dataset::schema_json().as_bytes())?
        }
        Command::Replay(a) => replay::run(&a, &mut out)?,
        Command::Analyze(a) => analyze::run(&a, &mut out)?,
        Command::Report(a) => {
            let line = report::run(&a)?;
            write!(out, "{line}")?;
        }
        Command::BotCheck(a) => bot_check::run(&a, &mut out)?,
        Command::Bot(a) => bot::run(&a)?,
        Command::Properties(a) => properties::run(&a, &mut out)?,
        Command::Study(a) => study::run(&a, &mut out)?,
        Command::Sprt(a) => sprt::run(&a, &mut out)?,
        Command::Serve(a) => serve::run(&a, &mut out)?,
        Command::Agents => {
            for a in registry().infos() {
                writeln!(out, "{:<10} {}", a.name, a.help)?;
                for p in a.params {
                    writeln!(out, "    {:<14} default {:<8} {}", p.name, p.default, p.help)?;
                }
            }
            writeln!(
                out,
                "every agent also takes name=LABEL (its label in tables) and tc=BASE+INC or tc=HANDS/BASE+INC \
                 (a clock in seconds, with time forfeits to rule; docs/CLI.md, \"Clocks\"; not reproducible)"
            )?;
        }
    }
    out.flush().context("writing output")?;
    Ok(())
}

/// Catches SIGINT and SIGTERM. For a command that plays tournaments or checks a
/// bot (`graceful`), the first signal asks the run to stop
/// ([`tresillo_agents::interrupt`]): the deals in progress end, every finished deal
/// is kept, each external bot is told `bye` and its process group ended, and the
/// command exits with status 130. A second signal, or one to another command, ends
/// the bots' process groups and exits at once (130).
fn catch_signals(graceful: bool) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return; // the default: the signal ends the process
    };
    std::thread::spawn(move || {
        let mut first = graceful;
        for _ in signals.forever() {
            if first {
                first = false;
                tresillo_agents::interrupt::request_stop();
                note!(
                    "interrupted: finishing the deals in progress and ending the bots (again to quit at once)"
                );
                continue;
            }
            tresillo_bots::kill_all_now();
            std::process::exit(130);
        }
    });
}

/// The `tresillo` command: parses `args` (the program's name first) and runs the
/// subcommand; returns the exit status (0, or 2 after a one-line `error: ...` on
/// standard error; clap's own errors and `--help` exit the process). The binary
/// calls it with its arguments, the Python package's `tresillo` command with
/// its own; `build` is the build running it (`--version`, every manifest's
/// `build`), known to the caller's package and not to this one.
pub fn main_with(args: Vec<std::ffi::OsString>, build: provenance::Build) -> u8 {
    provenance::set(build);
    let cli = Cli::parse_from(&args);
    let _ = ARGS.set(args.iter().map(|a| a.to_string_lossy().into_owned()).collect());
    catch_signals(matches!(
        cli.command,
        Command::Tournament(_)
            | Command::Dataset(_)
            | Command::Run(_)
            | Command::League(_)
            | Command::Tune(_)
            | Command::Sprt(_)
            | Command::BotCheck(_)
    ));
    match run(cli) {
        Ok(()) => 0,
        Err(e)
            if e.chain().any(|c| {
                matches!(c.downcast_ref(), Some(tresillo_sim::SimError::Interrupted))
                    || c.downcast_ref::<tresillo_runs::RunError>()
                        .is_some_and(tresillo_runs::RunError::is_interrupted)
            }) =>
        {
            note!("error: interrupted; every finished deal is kept (`--resume` continues a run)");
            130
        }
        Err(e) => {
            // A closed pipe (`tresillo ... | head`) is not an error.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return 0;
            }
            // One line whatever the message quotes from outside (a token, a name).
            note!("error: {}", tresillo_core::printable(&format!("{e:#}")));
            2
        }
    }
}

/// The binary's entry point ([`main_with`] on the process's arguments).
pub fn main(build: provenance::Build) -> ExitCode {
    ExitCode::from(main_with(std::env::args_os().collect(), build))
}
