//! `tresillo run experiments/NAME.toml`: an experiment described in TOML, either a
//! tournament or a tune. The file has an optional top-level `description` and
//! exactly one of the tables `[tournament]` and `[tune]`:
//!
//! ```toml
//! description = "rule against two random players"
//!
//! [tournament]
//! agents = ["rule", "random", "random"]  # one spec per agent slot
//! deals = 100000
//! seed = 1
//! duplicate = true                       # default false
//! rules = "tresillo"                     # default
//! scoring = "deal"                       # default; or "session:K"
//! out = "results/rule-vs-random"         # relative to the current directory
//! threads = 2                            # optional; the output does not depend on it
//! ```
//!
//! ```toml
//! [tune]
//! agent = "rule"                         # the tuned agent, with any fixed parameters
//! params = ["entrada=36..54:3", "vuelta=38..56:3"]
//! opponents = ["rule", "rule"]
//! deals = 20000
//! seed = 7
//! method = "coordinate"                  # default; or "grid"
//! rounds = 4                             # optional, coordinate search
//! start = "rule:entrada=45"              # optional
//! max_evaluations = 1000                 # optional
//! rules = "tresillo"                     # optional
//! scoring = "deal"                       # optional
//! out = "results/tune-rule/candidates.csv"
//! threads = 2                            # optional
//! ```
//!
//! Unknown keys are refused. Every check (TOML syntax, keys, agents, parameters,
//! ranges) runs before anything is written, and errors name the file.

use crate::tournament::{self, TournamentArgs};
use crate::tune::{self, TuneArgs};
use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Arguments of `tresillo run`.
#[derive(clap::Args, Clone)]
pub struct RunArgs {
    /// The experiment file, e.g. experiments/rule-vs-random.toml.
    pub file: PathBuf,
    /// Overwrite the results of an earlier run.
    #[arg(long)]
    pub force: bool,
    /// Continue an interrupted tournament (tournaments only).
    #[arg(long)]
    pub resume: bool,
    /// Worker threads, overriding the file's `threads`.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the equivalent `tresillo tournament` or `tresillo tune` command and stop.
    #[arg(long)]
    pub dry_run: bool,
}

/// An experiment file.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ExperimentFile {
    /// What the experiment is for (not used by the runner).
    #[allow(dead_code)]
    description: Option<String>,
    tournament: Option<TournamentSection>,
    tune: Option<TuneSection>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct TournamentSection {
    agents: Vec<String>,
    deals: u64,
    seed: u64,
    #[serde(default = "default_rules")]
    rules: String,
    #[serde(default = "default_scoring")]
    scoring: String,
    #[serde(default)]
    duplicate: bool,
    out: PathBuf,
    threads: Option<usize>,
    bidding: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct TuneSection {
    agent: String,
    params: Vec<String>,
    opponents: Vec<String>,
    deals: u64,
    seed: u64,
    #[serde(default = "default_method")]
    method: String,
    rounds: Option<u32>,
    start: Option<String>,
    max_evaluations: Option<usize>,
    #[serde(default = "default_rules")]
    rules: String,
    #[serde(default = "default_scoring")]
    scoring: String,
    out: PathBuf,
    threads: Option<usize>,
    bidding: Option<String>,
}

fn default_rules() -> String {
    "tresillo".into()
}

fn default_scoring() -> String {
    "deal".into()
}

fn default_method() -> String {
    "coordinate".into()
}

/// What an experiment file asks for.
#[derive(Clone)]
pub enum Experiment {
    /// A tournament.
    Tournament(TournamentArgs),
    /// A tune.
    Tune(TuneArgs),
}

/// Reads and checks an experiment file; `a`'s flags override the file.
pub fn load(a: &RunArgs) -> Result<Experiment> {
    let path = a.file.as_path();
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading experiment {}", path.display()))?;
    // toml's message names the line and column and shows the offending text.
    let file: ExperimentFile = toml::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.to_string().trim_end()))?;
    let e = match (file.tournament, file.tune) {
        (Some(t), None) => {
            if a.resume && a.force {
                bail!("--resume and --force exclude each other");
            }
            Experiment::Tournament(TournamentArgs {
                agents: t.agents.join(","),
                deals: t.deals,
                seed: t.seed,
                out: t.out,
                threads: a.threads.or(t.threads),
                duplicate: t.duplicate,
                scoring: t.scoring,
                rules: t.rules,
                shard: None,
                resume: a.resume,
                force: a.force,
                record: None,
                bidding: t.bidding,
            })
        }
        (None, Some(t)) => {
            if a.resume {
                bail!("{}: --resume is for tournaments; a tune starts over (with --force)", path.display());
            }
            let mut args = TuneArgs {
                agent: t.agent,
                params: t.params,
                opponents: t.opponents.join(","),
                deals: t.deals,
                seed: t.seed,
                method: t.method,
                rounds: 4,
                start: t.start,
                max_evaluations: 1000,
                rules: t.rules,
                scoring: t.scoring,
                out: t.out,
                threads: a.threads.or(t.threads),
                force: a.force,
                bidding: t.bidding,
            };
            if let Some(r) = t.rounds {
                args.rounds = r;
            }
            if let Some(m) = t.max_evaluations {
                args.max_evaluations = m;
            }
            Experiment::Tune(args)
        }
        (Some(_), Some(_)) => {
            bail!("{}: has both [tournament] and [tune]; an experiment is one of them", path.display())
        }
        (None, None) => bail!("{}: has neither a [tournament] nor a [tune] table", path.display()),
    };
    check(&e).with_context(|| format!("{}: bad experiment", path.display()))?;
    Ok(e)
}

/// Checks everything that can be checked before running.
fn check(e: &Experiment) -> Result<()> {
    match e {
        Experiment::Tournament(t) => {
            t.config()?;
            anyhow::ensure!(t.threads != Some(0), "threads must be at least 1");
        }
        Experiment::Tune(t) => {
            t.check()?;
        }
    }
    Ok(())
}

/// Quotes a word for a POSIX shell when it needs it.
fn quote(w: &str) -> String {
    let plain = !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b"_./:=,+-@%".contains(&b));
    if plain { w.to_string() } else { format!("'{}'", w.replace('\'', r"'\''")) }
}

fn path_str(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn flag(c: &mut Vec<String>, k: &str, v: impl Into<String>) {
    c.push(k.into());
    c.push(v.into());
}

/// The `tresillo` command line equivalent to an experiment.
#[must_use]
pub fn command(e: &Experiment) -> Vec<String> {
    let mut c: Vec<String> = vec!["tresillo".into()];
    match e {
        Experiment::Tournament(t) => {
            c.push("tournament".into());
            flag(&mut c, "--agents", &t.agents);
            flag(&mut c, "--deals", t.deals.to_string());
            flag(&mut c, "--seed", t.seed.to_string());
            flag(&mut c, "--rules", &t.rules);
            flag(&mut c, "--scoring", &t.scoring);
            if t.duplicate {
                c.push("--duplicate".into());
            }
            flag(&mut c, "--out", path_str(&t.out));
            if let Some(n) = t.threads {
                flag(&mut c, "--threads", n.to_string());
            }
            if t.resume {
                c.push("--resume".into());
            }
            if t.force {
                c.push("--force".into());
            }
        }
        Experiment::Tune(t) => {
            c.push("tune".into());
            flag(&mut c, "--agent", &t.agent);
            for p in &t.params {
                flag(&mut c, "--param", p);
            }
            flag(&mut c, "--opponents", &t.opponents);
            flag(&mut c, "--deals", t.deals.to_string());
            flag(&mut c, "--seed", t.seed.to_string());
            flag(&mut c, "--method", &t.method);
            flag(&mut c, "--rounds", t.rounds.to_string());
            if let Some(s) = &t.start {
                flag(&mut c, "--start", s);
            }
            flag(&mut c, "--max-evaluations", t.max_evaluations.to_string());
            flag(&mut c, "--rules", &t.rules);
            flag(&mut c, "--scoring", &t.scoring);
            flag(&mut c, "--out", path_str(&t.out));
            if let Some(n) = t.threads {
                flag(&mut c, "--threads", n.to_string());
            }
            if t.force {
                c.push("--force".into());
            }
        }
    }
    c
}

/// Runs `tresillo run`; returns what to print.
pub fn run(a: &RunArgs, command_line: Vec<String>) -> Result<String> {
    let e = load(a)?;
    if a.dry_run {
        let words: Vec<String> = command(&e).iter().map(|w| quote(w)).collect();
        return Ok(format!("{}\n", words.join(" ")));
    }
    let what = || format!("experiment {}", a.file.display());
    match &e {
        Experiment::Tournament(t) => tournament::run(t, command_line).with_context(what),
        Experiment::Tune(t) => tune::run(t, command_line).with_context(what),
    }
}
