//! `tresillo run experiments/NAME.toml`: an experiment described in TOML, a
//! tournament, a tune or a league. The file has an optional top-level
//! `description` and exactly one of the tables `[tournament]`, `[tune]` and
//! `[league]`:
//!
//! ```toml
//! description = "rule against two random players"
//!
//! [tournament]
//! agents = ["rule", "random", "random"]  # one spec per agent slot
//! players = 3                            # default; 4: four agents, RULES.md 12.2
//! deals = 100000
//! seed = 1
//! duplicate = true                       # default false
//! rules = "tresillo"                     # default; with options a table:
//! # rules = { name = "tresillo-house", palo_de_favor = "oros", codillo_old = true }
//! scoring = "deal"                       # default; or "session:K"
//! out = "results/rule-vs-random"         # relative to the current directory
//! threads = 2                            # optional; the output does not depend on it
//! record = "out/rule-vs-random.jsonl"    # optional: every hand as a game record
//! ```
//!
//! ```toml
//! [tune]
//! agent = "rule"                         # the tuned agent, with any fixed parameters
//! params = ["entrada=36..54:3", "vuelta=38..56:3"]
//! opponents = ["rule", "rule"]           # three with players = 4
//! players = 3                            # optional
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
//! ```toml
//! [league]
//! agents = ["random", "rule", "pimc"]    # every set of three (four) is a table
//! players = 3                            # optional
//! deals = 1000                           # per table, under every seating
//! seed = 1
//! rules = "tresillo"                     # optional
//! bidding = "rule"                       # optional, as in a tournament
//! bidding_covers = "all"                 # optional: "bidding" (default) or "all"
//! out = "results/league"
//! threads = 2                            # optional
//! ```
//!
//! `agents`/`agent`, `params`, `opponents`, `deals`, `seed` and `out` are required:
//! the seed has no default, so that a results file always says which deals it
//! played and two experiments never share deals by accident. Unknown keys are
//! refused. Every check (TOML syntax, keys, agents, parameters, ranges) runs before
//! anything is written; an error is one line naming the file, the line where there
//! is one, and every missing or unknown key at once.
//!
//! An experiment owns its outputs: running it again replaces them, but only once
//! the new run is complete. A tournament plays in `OUT.partial` (continued by
//! `--resume`, started over by `--force`) and its files are then moved into `OUT`;
//! a tune writes its CSV under a temporary name and renames it at the end (an
//! interrupted tune is likewise continued by `--resume`, started over by `--force`).

use crate::league::LeagueArgs;
use crate::rules::RulesArgs;
use crate::tournament::{self, TournamentArgs};
use crate::tune::{self, TuneArgs};
use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tresillo_bots::{BotConfig, OnFault};
use tresillo_core::Rules;

/// Arguments of `tresillo run`.
#[derive(clap::Args, Clone)]
pub struct RunArgs {
    /// The experiment file, e.g. experiments/rule-vs-random.toml.
    pub file: PathBuf,
    /// Overwrite the results of an earlier run.
    #[arg(long)]
    pub force: bool,
    /// Continue an interrupted tournament or tune.
    #[arg(long)]
    pub resume: bool,
    /// Worker threads, overriding the file's `threads`.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::threads)]
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
    /// External bots by name (`[bots.NAME]`), read by [`bots`].
    bots: Option<toml::Table>,
    league: Option<LeagueSection>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct LeagueSection {
    agents: Vec<String>,
    #[serde(default = "default_players")]
    players: u8,
    deals: u64,
    seed: u64,
    #[serde(default)]
    rules: Rules,
    bidding: Option<String>,
    out: PathBuf,
    threads: Option<usize>,
    bidding_covers: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct TournamentSection {
    agents: Vec<String>,
    #[serde(default = "default_players")]
    players: u8,
    deals: u64,
    seed: u64,
    #[serde(default)]
    rules: Rules,
    #[serde(default = "default_scoring")]
    scoring: String,
    #[serde(default)]
    duplicate: bool,
    out: PathBuf,
    threads: Option<usize>,
    bidding: Option<String>,
    bidding_covers: Option<String>,
    record: Option<PathBuf>,
    /// `--ms-per-decision`: an equal time budget for the search agents.
    ms_per_decision: Option<u32>,
    /// `--format`: which files hold the rows (`csv`, `parquet`, `both`).
    #[serde(default)]
    format: tresillo_runs::Format,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct TuneSection {
    agent: String,
    params: Vec<String>,
    opponents: Vec<String>,
    #[serde(default = "default_players")]
    players: u8,
    deals: u64,
    seed: u64,
    #[serde(default = "default_method")]
    method: String,
    rounds: Option<u32>,
    start: Option<String>,
    max_evaluations: Option<usize>,
    #[serde(default)]
    rules: Rules,
    #[serde(default = "default_scoring")]
    scoring: String,
    out: PathBuf,
    threads: Option<usize>,
    bidding: Option<String>,
    bidding_covers: Option<String>,
    confirm: Option<u64>,
}

/// A table's `bidding_covers` key as the command line's `--bidding-covers`.
fn covers(path: &Path, table: &str, word: Option<&str>) -> Result<Option<tresillo_agents::BiddingCovers>> {
    word.map(|w| w.parse().map_err(|e| anyhow::anyhow!("{}: [{table}] bidding_covers: {e}", path.display())))
        .transpose()
}

fn default_players() -> u8 {
    3
}

fn default_scoring() -> String {
    "deal".into()
}

fn default_method() -> String {
    "coordinate".into()
}

/// The keys of each table: (key, required).
const TOP_KEYS: [(&str, bool); 5] =
    [("description", false), ("tournament", false), ("tune", false), ("bots", false), ("league", false)];
const BOT_KEYS: [(&str, bool); 8] = [
    ("cmd", true),
    ("args", false),
    ("cwd", false),
    ("env", false),
    ("ms", false),
    ("hand_ms", false),
    ("fault", false),
    ("log", false),
];
const LEAGUE_KEYS: [(&str, bool); 9] = [
    ("agents", true),
    ("players", false),
    ("deals", true),
    ("seed", true),
    ("rules", false),
    ("bidding", false),
    ("out", true),
    ("threads", false),
    ("bidding_covers", false),
];
const TOURNAMENT_KEYS: [(&str, bool); 14] = [
    ("agents", true),
    ("players", false),
    ("deals", true),
    ("seed", true),
    ("rules", false),
    ("scoring", false),
    ("duplicate", false),
    ("out", true),
    ("threads", false),
    ("bidding", false),
    ("bidding_covers", false),
    ("record", false),
    ("ms_per_decision", false),
    ("format", false),
];
const TUNE_KEYS: [(&str, bool); 17] = [
    ("agent", true),
    ("params", true),
    ("opponents", true),
    ("players", false),
    ("deals", true),
    ("seed", true),
    ("method", false),
    ("rounds", false),
    ("start", false),
    ("max_evaluations", false),
    ("rules", false),
    ("scoring", false),
    ("out", true),
    ("threads", false),
    ("bidding", false),
    ("bidding_covers", false),
    ("confirm", false),
];

/// `line L, column C` of a byte offset.
fn position(text: &str, at: usize) -> String {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {column}")
}

/// The line of `key = ...` in `table` (`""` for the top level), if it is found.
fn key_line(text: &str, table: &str, key: &str) -> Option<usize> {
    let mut current = "";
    for (i, l) in text.lines().enumerate() {
        let l = l.trim();
        if let Some(name) = l.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            current = name.trim();
        } else if current == table {
            let k = l.split('=').next().unwrap_or("").trim().trim_matches('"');
            if l.contains('=') && k == key {
                return Some(i + 1);
            }
        }
    }
    None
}

/// Every unknown and missing key of a table, in one phrase.
fn key_problems(text: &str, name: &str, t: &toml::Table, keys: &[(&str, bool)]) -> Vec<String> {
    let mut out = Vec::new();
    let label = if name.is_empty() { "the top level".to_string() } else { format!("[{name}]") };
    let unknown: Vec<String> = t
        .keys()
        .filter(|k| !keys.iter().any(|(x, _)| x == k))
        .map(|k| match key_line(text, name, k) {
            Some(l) => format!("`{k}` (line {l})"),
            None => format!("`{k}`"),
        })
        .collect();
    if !unknown.is_empty() {
        let known: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
        out.push(format!(
            "unknown field{} {} in {label} (known: {})",
            if unknown.len() == 1 { "" } else { "s" },
            unknown.join(", "),
            known.join(", ")
        ));
    }
    let missing: Vec<String> =
        keys.iter().filter(|(k, req)| *req && !t.contains_key(*k)).map(|(k, _)| format!("`{k}`")).collect();
    if !missing.is_empty() {
        out.push(format!(
            "missing field{} {} in {label}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        ));
    }
    out
}

/// [`parse`] for the fuzz tests ([`crate::fuzz`]).
#[cfg(test)]
pub(crate) fn parse_for_fuzz(text: &str) -> Result<()> {
    parse(text).map(|_| ())
}

/// Parses an experiment file; every error is one line (the caller names the file).
fn parse(text: &str) -> Result<ExperimentFile> {
    let one_line = |e: toml::de::Error| {
        let at = e.span().map(|s| format!("{}: ", position(text, s.start))).unwrap_or_default();
        anyhow::anyhow!("{at}{}", e.message().trim().replace('\n', "; "))
    };
    let table: toml::Table = toml::from_str(text).map_err(one_line)?;
    let mut problems = key_problems(text, "", &table, &TOP_KEYS);
    for (name, keys) in
        [("tournament", &TOURNAMENT_KEYS[..]), ("tune", &TUNE_KEYS[..]), ("league", &LEAGUE_KEYS[..])]
    {
        match table.get(name) {
            Some(toml::Value::Table(t)) => problems.extend(key_problems(text, name, t, keys)),
            Some(_) => problems.push(format!("`{name}` must be a table: [{name}]")),
            None => {}
        }
    }
    match table.get("bots") {
        Some(toml::Value::Table(bots)) => {
            for (name, t) in bots {
                match t {
                    toml::Value::Table(t) => {
                        problems.extend(key_problems(text, &format!("bots.{name}"), t, &BOT_KEYS))
                    }
                    _ => problems.push(format!("`bots.{name}` must be a table: [bots.{name}]")),
                }
            }
        }
        Some(_) => problems.push("`bots` must be a table of bots: [bots.NAME]".into()),
        None => {}
    }
    if !problems.is_empty() {
        bail!("{}", problems.join("; "));
    }
    // The keys are right: what is left are wrong values, located by toml.
    toml::from_str(text).map_err(|e| {
        let key = e
            .span()
            .and_then(|s| text[..s.start.min(text.len())].lines().last().map(str::to_string))
            .and_then(|l| l.split('=').next().map(|k| k.trim().to_string()))
            .filter(|k| !k.is_empty() && !k.starts_with('['));
        let e = one_line(e);
        match key {
            Some(k) => anyhow::anyhow!("{e} (`{k}`)"),
            None => e,
        }
    })
}

/// The bots of a `[bots]` table (keys already checked): each becomes an agent
/// named after its table, run as its keys say.
fn bots(text: &str, bots: &toml::Table) -> Result<Vec<(String, BotConfig)>> {
    let mut out = Vec::new();
    let builtin = tresillo_bots::registry();
    for (name, t) in bots {
        let table = format!("bots.{name}");
        let at = |key: &str| key_line(text, &table, key).map_or_else(String::new, |l| format!(" (line {l})"));
        let bad = |key: &str, why: &str| anyhow::anyhow!("[{table}] `{key}`{}: {why}", at(key));
        let t = t.as_table().expect("checked");
        let string = |key: &str| -> Result<Option<String>> {
            match t.get(key) {
                None => Ok(None),
                Some(toml::Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(bad(key, "expected a string")),
            }
        };
        let millis = |key: &str| -> Result<Option<Duration>> {
            match t.get(key) {
                None => Ok(None),
                Some(toml::Value::Integer(n)) if (1..=86_400_000).contains(n) => {
                    Ok(Some(Duration::from_millis(*n as u64)))
                }
                Some(_) => Err(bad(key, "expected milliseconds, 1 to 86400000")),
            }
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            bail!("[{table}]: a bot's name is letters, digits, - and _");
        }
        if builtin.info(name).is_some() {
            bail!("[{table}]: `{name}` is already an agent's name; name the bot otherwise");
        }
        let cmd =
            string("cmd")?.filter(|c| !c.trim().is_empty()).ok_or_else(|| bad("cmd", "the bot's program"))?;
        let mut c = BotConfig { args: Vec::new(), ..BotConfig::new(&cmd) };
        c.program = cmd;
        match t.get("args") {
            None => {}
            Some(toml::Value::Array(a)) => {
                for v in a {
                    c.args.push(
                        v.as_str().ok_or_else(|| bad("args", "expected a list of strings"))?.to_string(),
                    );
                }
            }
            Some(_) => return Err(bad("args", "expected a list of strings")),
        }
        c.cwd = string("cwd")?.map(PathBuf::from);
        c.log = string("log")?.map(PathBuf::from);
        match t.get("env") {
            None => {}
            Some(toml::Value::Table(e)) => {
                for (k, v) in e {
                    let v = v.as_str().ok_or_else(|| bad("env", &format!("`{k}`: expected a string")))?;
                    c.env.push((k.clone(), v.to_string()));
                }
            }
            Some(_) => return Err(bad("env", "expected a table of strings: env = { NAME = \"value\" }")),
        }
        if let Some(ms) = millis("ms")? {
            c.limit = ms;
        }
        c.hand_budget = millis("hand_ms")?;
        c.on_fault = match string("fault")?.as_deref() {
            None | Some("stop") => OnFault::Stop,
            Some("rule") => OnFault::Rule,
            Some(_) => return Err(bad("fault", "expected \"stop\" or \"rule\"")),
        };
        out.push((name.clone(), c));
    }
    Ok(out)
}

/// What an experiment file asks for.
#[derive(Clone)]
pub enum Experiment {
    /// A tournament.
    Tournament(TournamentArgs),
    /// A tune.
    Tune(TuneArgs),
    /// A league.
    League(LeagueArgs),
}

/// Reads and checks an experiment file; `a`'s flags override the file.
pub fn load(a: &RunArgs) -> Result<Experiment> {
    let path = a.file.as_path();
    let file = std::fs::File::open(path).with_context(|| format!("reading experiment {}", path.display()))?;
    let text = tresillo_runs::lines::read_small(file, &path.display().to_string())?;
    let file = parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if let Some(b) = &file.bots {
        let named = bots(&text, b).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let _ = crate::NAMED_BOTS.set(named.clone());
        if crate::NAMED_BOTS.get() != Some(&named) {
            bail!("{}: the bots of one experiment file only are defined in one run", path.display());
        }
    }
    if a.resume && a.force {
        bail!("--resume and --force exclude each other");
    }
    let e = match (file.tournament, file.tune, file.league) {
        (None, None, Some(l)) => Experiment::League(LeagueArgs {
            agents: l.agents.join(","),
            deals: l.deals,
            seed: l.seed,
            out: l.out,
            threads: a.threads.or(l.threads),
            rules: RulesArgs { players: l.players, ..RulesArgs::from_rules(&l.rules) },
            shard: None,
            resume: a.resume,
            force: a.force,
            bidding: l.bidding,
            bidding_covers: covers(path, "league", l.bidding_covers.as_deref())?,
            deals_from: None,
            quiet: false,
        }),
        (Some(t), None, None) => Experiment::Tournament(TournamentArgs {
            agents: t.agents.join(","),
            deals: t.deals,
            seed: t.seed,
            out: t.out,
            threads: a.threads.or(t.threads),
            duplicate: t.duplicate,
            scoring: t.scoring,
            rules: RulesArgs { players: t.players, ..RulesArgs::from_rules(&t.rules) },
            shard: None,
            resume: a.resume,
            force: a.force,
            record: t.record,
            bidding: t.bidding,
            bidding_covers: covers(path, "tournament", t.bidding_covers.as_deref())?,
            ms_per_decision: t.ms_per_decision,
            format: t.format,
            deals_from: None,
            quiet: false,
        }),
        (None, Some(t), None) => {
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
                rules: RulesArgs { players: t.players, ..RulesArgs::from_rules(&t.rules) },
                scoring: t.scoring,
                out: t.out,
                threads: a.threads.or(t.threads),
                force: a.force,
                resume: a.resume,
                replace: false,
                bidding: t.bidding,
                bidding_covers: covers(path, "tune", t.bidding_covers.as_deref())?,
                confirm: t.confirm,
            };
            if let Some(r) = t.rounds {
                args.rounds = r;
            }
            if let Some(m) = t.max_evaluations {
                args.max_evaluations = m;
            }
            Experiment::Tune(args)
        }
        (None, None, None) => {
            bail!("{}: has neither a [tournament] nor a [tune] nor a [league] table", path.display())
        }
        (t, u, l) => {
            let tables: Vec<&str> =
                [(t.is_some(), "[tournament]"), (u.is_some(), "[tune]"), (l.is_some(), "[league]")]
                    .into_iter()
                    .filter_map(|(present, name)| present.then_some(name))
                    .collect();
            bail!("{}: has both {}; an experiment is one of them", path.display(), tables.join(" and "))
        }
    };
    check(&e).with_context(|| format!("{}: bad experiment", path.display()))?;
    Ok(e)
}

/// Checks everything that can be checked before running.
fn check(e: &Experiment) -> Result<()> {
    match e {
        Experiment::Tournament(t) => {
            t.config()?;
            if let Some(n) = t.threads {
                crate::args::check_threads(n, "threads")?;
            }
        }
        Experiment::Tune(t) => {
            t.check()?;
        }
        Experiment::League(l) => {
            l.config()?;
            if let Some(n) = l.threads {
                crate::args::check_threads(n, "threads")?;
            }
        }
    }
    Ok(())
}

/// Quotes a word for a POSIX shell when it needs it.
pub(crate) fn quote(w: &str) -> String {
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

/// `--threads`, `--resume` and `--force`, as given.
fn run_flags(c: &mut Vec<String>, threads: Option<usize>, resume: bool, force: bool) {
    if let Some(n) = threads {
        flag(c, "--threads", n.to_string());
    }
    if resume {
        c.push("--resume".into());
    }
    if force {
        c.push("--force".into());
    }
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
            c.extend(t.rules.words());
            flag(&mut c, "--scoring", &t.scoring);
            if t.duplicate {
                c.push("--duplicate".into());
            }
            if let Some(b) = &t.bidding {
                flag(&mut c, "--bidding", b);
            }
            if let Some(w) = t.bidding_covers {
                flag(&mut c, "--bidding-covers", w.as_str());
            }
            flag(&mut c, "--out", path_str(&t.out));
            if let Some(r) = &t.record {
                flag(&mut c, "--record", path_str(r));
            }
            if let Some(ms) = t.ms_per_decision {
                flag(&mut c, "--ms-per-decision", ms.to_string());
            }
            run_flags(&mut c, t.threads, t.resume, t.force);
        }
        Experiment::Tune(t) => {
            c.push("tune".into());
            flag(&mut c, "--agent", &t.agent);
            for p in &t.params {
                flag(&mut c, "--param", p);
            }
            flag(&mut c, "--opponents", &t.opponents);
            if let Some(b) = &t.bidding {
                flag(&mut c, "--bidding", b);
            }
            if let Some(w) = t.bidding_covers {
                flag(&mut c, "--bidding-covers", w.as_str());
            }
            flag(&mut c, "--deals", t.deals.to_string());
            flag(&mut c, "--seed", t.seed.to_string());
            flag(&mut c, "--method", &t.method);
            flag(&mut c, "--rounds", t.rounds.to_string());
            if let Some(s) = &t.start {
                flag(&mut c, "--start", s);
            }
            flag(&mut c, "--max-evaluations", t.max_evaluations.to_string());
            if let Some(n) = t.confirm {
                flag(&mut c, "--confirm", n.to_string());
            }
            c.extend(t.rules.words());
            flag(&mut c, "--scoring", &t.scoring);
            flag(&mut c, "--out", path_str(&t.out));
            run_flags(&mut c, t.threads, t.resume, t.force);
        }
        Experiment::League(l) => {
            c.push("league".into());
            flag(&mut c, "--agents", &l.agents);
            flag(&mut c, "--deals", l.deals.to_string());
            flag(&mut c, "--seed", l.seed.to_string());
            c.extend(l.rules.words());
            if let Some(b) = &l.bidding {
                flag(&mut c, "--bidding", b);
            }
            if let Some(w) = l.bidding_covers {
                flag(&mut c, "--bidding-covers", w.as_str());
            }
            flag(&mut c, "--out", path_str(&l.out));
            run_flags(&mut c, l.threads, l.resume, l.force);
        }
    }
    c
}

/// Whether the experiment seats a bot its file defines (`[bots.NAME]`).
fn uses_named_bots(e: &Experiment) -> bool {
    let named = crate::named_bots();
    let lists: Vec<&str> = match e {
        Experiment::Tournament(t) => vec![t.agents.as_str(), t.bidding.as_deref().unwrap_or("")],
        Experiment::Tune(t) => {
            vec![t.agent.as_str(), t.opponents.as_str(), t.bidding.as_deref().unwrap_or("")]
        }
        Experiment::League(l) => vec![l.agents.as_str(), l.bidding.as_deref().unwrap_or("")],
    };
    lists.iter().flat_map(|l| tresillo_agents::split_specs(l).unwrap_or_default()).any(|spec| {
        tresillo_agents::spec_parts(&spec).is_ok_and(|(name, _)| named.iter().any(|(n, _)| n == name))
    })
}

/// Runs `tresillo run`; returns what to print.
pub fn run(a: &RunArgs, command_line: Vec<String>) -> Result<String> {
    let e = load(a)?;
    if a.dry_run {
        // The paths `run` refuses before any work, refused here too.
        if let Experiment::Tournament(t) = &e {
            tresillo_runs::check_record_path(t.record.as_deref(), &t.out)
                .with_context(|| format!("experiment {}", a.file.display()))?;
        }
        if uses_named_bots(&e) {
            // A bot of `[bots.NAME]` has no name on a command line: the file is the command.
            let mut c = vec!["tresillo".to_string(), "run".into(), path_str(&a.file)];
            run_flags(&mut c, a.threads, a.resume, a.force);
            let words: Vec<String> = c.iter().map(|w| quote(w)).collect();
            return Ok(format!(
                "# its bots ([bots.NAME]) cannot be named on a command line: run the experiment file\n{}\n",
                words.join(" ")
            ));
        }
        let words: Vec<String> = command(&e).iter().map(|w| quote(w)).collect();
        return Ok(format!("{}\n", words.join(" ")));
    }
    let what = || format!("experiment {}", a.file.display());
    match &e {
        Experiment::Tournament(t) => tournament::run_experiment(t, command_line).with_context(what),
        // An experiment replaces its own earlier results (renamed over them at the
        // end), but an interrupted search only with --force (--resume continues it).
        Experiment::Tune(t) => {
            tune::run(&TuneArgs { replace: true, ..t.clone() }, command_line).with_context(what)
        }
        // A league run again keeps its complete tables (it continues); --force
        // replaces them.
        Experiment::League(l) => crate::league::run(l, command_line).with_context(what),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields serde knows for a section: those its unknown-field error lists.
    fn serde_fields<T: serde::de::DeserializeOwned + std::fmt::Debug>() -> Vec<String> {
        let err = toml::from_str::<T>("probe_not_a_field = 1").unwrap_err().to_string();
        let list = &err[err.find("expected one of").expect(&err)..];
        list.split('`').skip(1).step_by(2).map(String::from).collect()
    }

    #[test]
    fn the_key_lists_are_the_sections_fields() {
        let keys = |k: &[(&str, bool)]| k.iter().map(|(k, _)| k.to_string()).collect::<Vec<_>>();
        assert_eq!(serde_fields::<TournamentSection>(), keys(&TOURNAMENT_KEYS));
        assert_eq!(serde_fields::<TuneSection>(), keys(&TUNE_KEYS));
        assert_eq!(serde_fields::<LeagueSection>(), keys(&LEAGUE_KEYS));
        assert_eq!(serde_fields::<ExperimentFile>(), keys(&TOP_KEYS));
        // The required keys alone make a section that parses.
        let minimal = "[tournament]\nagents = []\ndeals = 1\nseed = 1\nout = 'o'\n";
        toml::from_str::<ExperimentFile>(minimal).unwrap();
        let minimal = "[tune]\nagent = 'rule'\nparams = []\nopponents = []\ndeals = 1\nseed = 1\nout = 'o'\n";
        toml::from_str::<ExperimentFile>(minimal).unwrap();
        let minimal = "[league]\nagents = []\ndeals = 1\nseed = 1\nout = 'o'\n";
        toml::from_str::<ExperimentFile>(minimal).unwrap();
        for (k, required) in TOURNAMENT_KEYS.iter().chain(&TUNE_KEYS).chain(&LEAGUE_KEYS) {
            assert_eq!(
                *required,
                ["agents", "agent", "params", "opponents", "deals", "seed", "out"].contains(k),
                "{k}"
            );
        }
    }
}
