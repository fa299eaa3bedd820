//! External bots: an agent that is a separate program, in any language, speaking
//! the JSON Lines protocol of docs/PROTOCOL.md over its standard input and output.
//! [`register`] adds the spec
//! `ext:cmd=PROGRAM[:ms=N][:hand_ms=N][:log=DIR][:fault=stop|rule][:cwd=DIR][:env.NAME=V][:opt.NAME=V]`
//! to a [`Registry`], and [`register_named`] a bot defined elsewhere (an experiment
//! file's `[bots.NAME]`), so a bot plays wherever an agent plays (the CLI's `play`,
//! `tournament`, `run` and `tune`, the Python package's tournaments).
//!
//! Each agent object owns one process, started at its first decision and reused
//! for every hand after (the runner builds one agent per seat slot and worker
//! thread); dropping the agent says `bye`, closes the pipe and ends the process
//! (killed after a grace period), so no process outlives its run. A bot that
//! crashes, answers late, writes something that is not a message of the protocol
//! or answers an action that is not legal fails: [`Agent::decide`] returns a
//! [`Failure`] with that line, and the run stops with it, every finished deal
//! kept. Under `fault=rule` the `rule` agent decides instead for the rest of that
//! hand (each such decision a forfeit, counted in [`Agent::take_work`]) and the bot
//! is started afresh at the next hand. A bot sees only its seat's view (RULES.md
//! section 9): the request is built from the [`PlayerView`] alone.
//!
//! The answer is read on the calling thread: `poll` with the time left, then a
//! read into a reused buffer; the request is written straight into a reused
//! buffer. No thread, channel or JSON tree sits on a decision's path.
//!
//! The process of an `ExtBot` is started at its first decision (one per agent) and
//! ended on drop (`bye`, end of input, its process group killed after 0.5 s); its exit
//! is watched while waiting, and `tresillo_agents::interrupt` makes it give up on
//! Ctrl-C. Answers are checked (id, legality, the decision limit, the hand budget); a
//! fault makes `Agent::fault` say why and the hand refuse the decision. [`BotConfig`]
//! holds the command, arguments, working directory, environment, times, fault policy
//! and options; bot options are declared in the bot's `hello` and checked, and
//! `declared_options` lists them for `tune`. The process groups still alive and the
//! forfeit warnings already issued are process-wide (ARCHITECTURE.md, "Global state"),
//! and a forfeit's warning is printed on stderr ("Library code that prints").

mod message;
pub mod speak;

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tresillo_agents::{Agent, AgentInfo, AgentRng, Failure, ParamInfo, Params, Registry, SpecError, Work};
use tresillo_core::action::DiscardBuilder;
use tresillo_core::{Decision, HandResult, PlayerView, Rules};

/// The protocol's version (docs/PROTOCOL.md): the toolkit's greeting says it.
/// Version 2 added the clock (`time` in requests) and the public state a bot may
/// ask for (`public`); a bot may answer it with any version from
/// [`OLDEST_PROTOCOL`] on (what it adds is only more fields).
pub const PROTOCOL: u32 = 2;

/// The oldest protocol a bot may say it speaks.
pub const OLDEST_PROTOCOL: u32 = 1;

/// The longest line a bot may write (bytes); a longer one is a fault.
pub const MAX_LINE: usize = 1 << 20;

/// The default time a bot has for each answer, and for its greeting.
pub const DEFAULT_MS: u64 = 10_000;

/// The most bytes of a bot's standard error kept in its log.
pub const MAX_LOG: u64 = 1 << 20;

/// Under `fault=rule`, the starts in a row that may fail (the bot exits or breaks
/// the protocol before its first answer) before the run stops.
pub const MAX_FAILED_STARTS: u32 = 3;

/// Under `fault=rule`, the forfeits reported on standard error per bot (its
/// command line, over every worker thread); later ones are only counted.
const MAX_REPORTED: u32 = 5;

/// While a bot waits for an answer, how often it looks whether the bot itself has
/// exited (its output may stay open in a child it left) and whether the run was
/// interrupted. An answer that comes is read at once, whatever this is.
const WATCH: Duration = Duration::from_millis(20);

/// How long the toolkit waits awake (reading its output without blocking) for the answer of a
/// bot that answered its previous request within this time, before it sleeps in
/// `poll`. A sleeping thread is woken by the bot's write through the scheduler (on
/// a virtual machine an idle CPU halts and must be woken by an interrupt), which
/// costs more than a fast bot's answer; awake, the answer is read as it lands.
/// A bot slower than this is waited for asleep at once (and retried awake every
/// [`RETRY_SPIN`] requests), so a thinking bot costs no spinning.
const SPIN: Duration = Duration::from_micros(50);

/// See [`SPIN`].
const RETRY_SPIN: u32 = 64;

/// On a clock, how long past the time left the toolkit waits for an answer
/// (the answer is then too late all the same: the clock decides, see
/// `tresillo_agents::clock`), so that the wait never ends before the clock does.
const CLOCK_GRACE: Duration = Duration::from_millis(5);

/// The room made in [`Process`]'s buffer for each read of the bot's output.
const READ_CHUNK: usize = 8192;

/// The process groups of the bots running now (each bot leads its own group).
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// The forfeits reported so far, per bot command line.
static REPORTED: Mutex<Vec<(String, u32)>> = Mutex::new(Vec::new());

/// Kills the process group of every bot running now, without a word to them: for
/// a process about to exit at once (a second Ctrl-C). A run that ends normally,
/// on a fault or on an interruption ends its bots itself (`bye`, then the group).
pub fn kill_all_now() {
    let live = LIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for &pid in live.iter() {
        kill_group(pid);
    }
}

/// Kills process group `pgid` (gone already: nothing to do).
fn kill_group(pgid: u32) {
    if let Some(pid) = i32::try_from(pgid).ok().and_then(rustix::process::Pid::from_raw) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

/// What a bot's fault does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFault {
    /// The run stops with one line (the default).
    Stop,
    /// The `rule` agent decides in its place for the rest of the hand (forfeits),
    /// and the bot is started afresh at the next hand.
    Rule,
}

/// How to run a bot and what it is allowed.
#[derive(Clone, Debug, PartialEq)]
pub struct BotConfig {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (default: the toolkit's).
    pub cwd: Option<PathBuf>,
    /// Environment variables set for it (beside the toolkit's own).
    pub env: Vec<(String, String)>,
    /// The time for each answer (and for the greeting).
    pub limit: Duration,
    /// The time for all its answers in one hand, if limited.
    pub hand_budget: Option<Duration>,
    /// Where its standard error and its time are kept, if anywhere.
    pub log: Option<PathBuf>,
    /// What a fault does.
    pub on_fault: OnFault,
    /// Values of the options the bot declares (sent in `hello`, checked against
    /// its declaration).
    pub options: Vec<(String, f64)>,
    /// Whether a request with exactly one legal action is answered by the
    /// toolkit instead of being sent (`auto_single=true|false` in the spec);
    /// `None`: as the bot's greeting asks (`"auto_single": true`), else off.
    pub auto_single: Option<bool>,
}

impl BotConfig {
    /// A bot run as `cmd` (the program, then its arguments after spaces), with
    /// the defaults: 10 s per answer, no hand budget, no log, faults stop the run.
    #[must_use]
    pub fn new(cmd: &str) -> BotConfig {
        let mut words = cmd.split_whitespace().map(str::to_string);
        BotConfig {
            program: words.next().unwrap_or_default(),
            args: words.collect(),
            cwd: None,
            env: Vec::new(),
            limit: Duration::from_millis(DEFAULT_MS),
            hand_budget: None,
            log: None,
            on_fault: OnFault::Stop,
            options: Vec::new(),
            auto_single: None,
        }
    }

    /// The command line, for messages.
    #[must_use]
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Sets what a spec's parameters set (every key but `cmd`, `cwd` and
    /// `env.*`, which only `ext` has).
    fn apply(&mut self, p: &Params<'_>) -> Result<(), SpecError> {
        if let Some(ms) = p.int("ms", 1, 3_600_000)? {
            self.limit = Duration::from_millis(ms as u64);
        }
        if let Some(ms) = p.int("hand_ms", 1, 86_400_000)? {
            self.hand_budget = Some(Duration::from_millis(ms as u64));
        }
        if let Some(l) = p.get("log").filter(|l| !l.is_empty()) {
            self.log = Some(PathBuf::from(l));
        }
        match p.get("fault") {
            None | Some("stop") => {}
            Some("rule") => self.on_fault = OnFault::Rule,
            Some(v) => return Err(p.bad_value("fault", v, "expected stop or rule")),
        }
        match p.get("auto_single") {
            None => {}
            Some("true") => self.auto_single = Some(true),
            Some("false") => self.auto_single = Some(false),
            Some(v) => return Err(p.bad_value("auto_single", v, "expected true or false")),
        }
        for &(k, v) in p.pairs() {
            if let Some(name) = k.strip_prefix("opt.") {
                let x: f64 = v
                    .parse()
                    .ok()
                    .filter(|x: &f64| x.is_finite())
                    .ok_or_else(|| p.bad_value(k, v, "a bot option is a number"))?;
                self.options.retain(|(n, _)| n != name);
                self.options.push((name.to_string(), x));
            }
        }
        Ok(())
    }
}

/// The parameters every bot spec takes.
fn common_params() -> Vec<ParamInfo> {
    vec![
        ParamInfo { name: "ms", default: DEFAULT_MS.to_string(), help: "milliseconds for each answer" },
        ParamInfo {
            name: "hand_ms",
            default: String::new(),
            help: "milliseconds for all its answers in one hand",
        },
        ParamInfo {
            name: "log",
            default: String::new(),
            help: "a directory for the bot's standard error and time",
        },
        ParamInfo {
            name: "fault",
            default: "stop".into(),
            help: "stop: a fault stops the run; rule: the rule agent plays the rest of the hand (a forfeit)",
        },
        ParamInfo {
            name: "opt.",
            default: String::new(),
            help: "opt.NAME=V sets an option the bot declares",
        },
        ParamInfo {
            name: "auto_single",
            default: String::new(),
            help: "true: a request with one legal action is played without asking the bot; false: every \
                   request is sent; unset: as the bot's hello asks (auto_single), else every request",
        },
    ]
}

/// Registers `ext` in `registry`: `ext:cmd=PROGRAM` (an executable path; words
/// after a space are its arguments), `ms=N` (the time for each answer, default
/// 10,000), `hand_ms=N` (the time for a hand's answers), `log=DIR` (keep the bot's
/// standard error, its first MiB, in `DIR/NAME-PID.log`, and its time in
/// `DIR/NAME-PID.time`), `fault=stop|rule`, `cwd=DIR`, `env.NAME=VALUE`,
/// `opt.NAME=VALUE` (an option the bot declares).
pub fn register(registry: &mut Registry) -> Result<(), SpecError> {
    let mut params = vec![ParamInfo {
        name: "cmd",
        default: String::new(),
        help: "the program (and its arguments after spaces)",
    }];
    params.extend(common_params());
    params.push(ParamInfo { name: "cwd", default: String::new(), help: "the bot's working directory" });
    params.push(ParamInfo {
        name: "env.",
        default: String::new(),
        help: "env.NAME=V sets a variable for the bot",
    });
    let info = AgentInfo {
        name: "ext",
        help: "an external bot: a program speaking the JSON Lines protocol of docs/PROTOCOL.md",
        params,
    };
    registry.register(info, |p| {
        let cmd = p
            .get("cmd")
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| p.bad_value("cmd", "", "an external bot needs its program: ext:cmd=PATH"))?;
        let mut config = BotConfig::new(cmd);
        config.apply(p)?;
        config.cwd = p.get("cwd").filter(|c| !c.is_empty()).map(PathBuf::from);
        for &(k, v) in p.pairs() {
            if let Some(name) = k.strip_prefix("env.") {
                config.env.push((name.to_string(), v.to_string()));
            }
        }
        Ok(Box::new(ExtBot::new(config)))
    })
}

/// Registers a bot defined outside a spec (an experiment file's `[bots.NAME]`)
/// as the agent `name`, run as `config`; its spec takes `ms`, `hand_ms`, `log`,
/// `fault` and `opt.NAME`, which override the definition. Refused when the name is
/// taken.
pub fn register_named(registry: &mut Registry, name: &str, config: BotConfig) -> Result<(), SpecError> {
    // A registry's names are static; a named bot is defined once per run.
    let name: &'static str = Box::leak(name.to_string().into_boxed_str());
    let info =
        AgentInfo { name, help: "an external bot defined in the experiment file", params: common_params() };
    registry.register(info, move |p| {
        let mut c = config.clone();
        c.apply(p)?;
        Ok(Box::new(ExtBot::new(c)))
    })
}

/// The built-in agents and `ext`.
#[must_use]
pub fn registry() -> Registry {
    let mut r = Registry::builtin();
    register(&mut r).expect("ext is not a built-in name");
    r
}

/// How the bot of `spec` is run: an `ext` spec (`cmd`, `ms`, `cwd`, `env.NAME`),
/// or one of the `named` bots; `None` for any other agent. The spec is read as
/// the registry reads it; a malformed one gives `None` (building it says why).
#[must_use]
pub fn bot_config(spec: &str, named: &[(String, BotConfig)]) -> Option<BotConfig> {
    let (name, pairs) = tresillo_agents::spec_parts(spec).ok()?;
    let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let mut config = if name == "ext" {
        let mut c = BotConfig::new(get("cmd")?);
        c.cwd = get("cwd").filter(|c| !c.is_empty()).map(PathBuf::from);
        c.env = pairs
            .iter()
            .filter_map(|(k, v)| k.strip_prefix("env.").map(|n| (n.to_string(), v.to_string())))
            .collect();
        c
    } else {
        named.iter().find(|(n, _)| n == name)?.1.clone()
    };
    if let Some(ms) = get("ms").and_then(|m| m.parse::<u64>().ok()) {
        config.limit = Duration::from_millis(ms);
    }
    Some(config)
}

/// What a run records of a bot, to tell later whether the same bot plays
/// (`--resume` refuses another): the agent that names it, its command, arguments
/// and working directory, a digest of its program file, and the name and version
/// its greeting declares. That is what defines its play; other files its command
/// line names (a script, a log it writes, `--log bot.log`) are not part of it: a
/// bot whose play changes says so by its declared version.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BotIdentity {
    /// The agent spec's name (`ext`, or the name of an experiment file's bot) and
    /// its label when it has one (`ext:...:name=LABEL`), as the agents list says it.
    pub agent: String,
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory, when set.
    pub cwd: Option<String>,
    /// `(file, BLAKE3 digest in hex)` for the program (found on `PATH` when it
    /// has no `/`). A run of an older version may list its script and other
    /// files its command line named too; they are not compared.
    pub files: Vec<(String, String)>,
    /// The name and version its greeting declared when the run started; absent
    /// when it did not greet then (the run's own fault policy met it) or in a
    /// run of an older version (then only its command and program are compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<Declared>,
}

/// What a bot says it is in its greeting: its `name` and `version`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Declared {
    /// Its `name` (empty when it declares none).
    pub name: String,
    /// Its `version` (empty when it declares none).
    pub version: String,
}

impl std::fmt::Display for Declared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = if self.name.is_empty() { "no name" } else { &self.name };
        if self.version.is_empty() {
            write!(f, "{name}, no version")
        } else {
            write!(f, "{name} {}", self.version)
        }
    }
}

impl BotConfig {
    /// The bot's [`BotIdentity`] as agent `agent`: its program file is read now,
    /// and the bot is started and greeted for `rules` at `players` (then ended)
    /// for the name and version it declares.
    #[must_use]
    pub fn identity(&self, agent: &str, rules: Rules, players: u8) -> BotIdentity {
        let base = self.cwd.clone().unwrap_or_default();
        let mut files = Vec::new();
        let program = if self.program.contains('/') {
            Some(base.join(&self.program))
        } else {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths).map(|d| d.join(&self.program)).find(|p| p.is_file())
            })
        };
        if let Some(path) = program
            && path.is_file()
            && let Ok(bytes) = std::fs::read(&path)
        {
            files.push((path.display().to_string(), blake3::hash(&bytes).to_hex().to_string()));
        }
        let mut bot = ExtBot::new(BotConfig { options: Vec::new(), log: None, ..self.clone() });
        let declared = bot
            .spawn(rules, players)
            .ok()
            .map(|()| Declared { name: bot.name.clone(), version: bot.version.clone() });
        BotIdentity {
            agent: agent.to_string(),
            program: self.program.clone(),
            args: self.args.clone(),
            cwd: self.cwd.as_ref().map(|c| c.display().to_string()),
            files,
            declared,
        }
    }
}

/// The bots among `specs` (each agent spec once, in order) and their identities,
/// each bot greeted for `rules` at `players`; `named`: the bots an experiment
/// file defines.
#[must_use]
pub fn identities<'a>(
    specs: impl IntoIterator<Item = &'a str>,
    named: &[(String, BotConfig)],
    rules: Rules,
    players: u8,
) -> Vec<BotIdentity> {
    let mut out: Vec<BotIdentity> = Vec::new();
    for spec in specs {
        if let Some(c) = bot_config(spec, named) {
            let agent = match tresillo_agents::spec_label(spec) {
                label if label != spec => label.to_string(),
                _ => spec_name(spec),
            };
            if out.iter().any(|o| o.agent == agent && o.program == c.program && o.args == c.args) {
                continue;
            }
            out.push(c.identity(&agent, rules, players));
        }
    }
    out
}

/// What differs between the bots a run recorded (`old`) and the bots of its
/// resumption (`new`), in a few words; `None` when they are the same.
#[must_use]
pub fn identity_change(old: &[BotIdentity], new: &[BotIdentity]) -> Option<String> {
    for n in new {
        let Some(o) = old.iter().find(|o| o.agent == n.agent && o.program == n.program && o.args == n.args)
        else {
            let was = old.iter().find(|o| o.agent == n.agent);
            return Some(match was {
                Some(o) => format!(
                    "`{}` was `{}`, now `{}`",
                    n.agent,
                    command_of(&o.program, &o.args),
                    command_of(&n.program, &n.args)
                ),
                None => format!("`{}` (`{}`) did not play in it", n.agent, command_of(&n.program, &n.args)),
            });
        };
        if o.cwd != n.cwd {
            return Some(format!(
                "`{}` ran in {}, now in {}",
                n.agent,
                o.cwd.as_deref().unwrap_or("the toolkit's directory"),
                n.cwd.as_deref().unwrap_or("the toolkit's directory")
            ));
        }
        // The program: the first file either lists (older runs list more).
        match (o.files.first(), n.files.first()) {
            (Some((p, d)), Some((q, e))) if p == q && d != e => {
                return Some(format!("`{}`: its program {q} has changed", n.agent));
            }
            (Some((p, _)), Some((q, _))) if p != q => {
                return Some(format!("`{}`: its program was {p}, now {q}", n.agent));
            }
            (Some((p, _)), None) => return Some(format!("`{}`: its program {p} is gone", n.agent)),
            _ => {}
        }
        // Its declared name and version, when both runs saw a greeting (a bot
        // that does not greet now meets the run's fault policy when it plays).
        if let (Some(d), Some(e)) = (&o.declared, &n.declared)
            && d != e
        {
            return Some(format!("`{}` declared itself {d}, now {e}", n.agent));
        }
    }
    let same = |o: &BotIdentity, n: &BotIdentity| {
        o.agent == n.agent && o.program == n.program && o.args == n.args && o.cwd == n.cwd
    };
    // None: the same bots, their program and declared name and version unchanged.
    old.iter()
        .find(|o| !new.iter().any(|n| same(o, n)))
        .map(|o| format!("`{}` played in it and does not now", o.agent))
}

fn command_of(program: &str, args: &[String]) -> String {
    std::iter::once(program).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ")
}

/// The name an agent spec shows (its `name=` label when it has one, else its
/// agent name).
fn spec_name(spec: &str) -> String {
    spec.split(':').next().unwrap_or("").trim().to_string()
}

/// An option a bot declares in its greeting.
#[derive(Clone, Debug, PartialEq)]
pub struct BotOption {
    /// Its name.
    pub name: String,
    /// Whether it takes integers only.
    pub int: bool,
    /// The least value.
    pub min: f64,
    /// The greatest value.
    pub max: f64,
    /// The value it takes when none is set.
    pub default: f64,
}

/// Starts the bot `config` describes, greets it for `rules` at `players`, and
/// returns the options it declares; the process then ends. For `tune`, which starts a bot's options at their defaults.
pub fn declared_options(config: &BotConfig, rules: Rules, players: u8) -> Result<Vec<BotOption>, StartError> {
    let mut bot = ExtBot::new(BotConfig { options: Vec::new(), ..config.clone() });
    bot.spawn(rules, players).map_err(|f| StartError { who: bot.who(), why: f.why })?;
    Ok(bot.declared.clone())
}

/// Why a bot could not be started and greeted ([`declared_options`]).
#[derive(Debug, thiserror::Error)]
#[error("external bot {who}: {why}")]
pub struct StartError {
    /// The bot, as messages name it.
    pub who: String,
    /// What happened.
    pub why: String,
}

/// A line of the protocol that breaks it (what a bot wrote, or what the toolkit
/// sent to a bot played by `tresillo bot`), said in one line: each is told
/// apart only by its words, which name the line's fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ProtocolError(pub String);

impl From<String> for ProtocolError {
    fn from(why: String) -> ProtocolError {
        ProtocolError(why)
    }
}

impl From<&str> for ProtocolError {
    fn from(why: &str) -> ProtocolError {
        ProtocolError(why.to_string())
    }
}

impl From<ProtocolError> for Fault {
    fn from(e: ProtocolError) -> Fault {
        Fault { why: e.0, fatal: false }
    }
}

/// A fault: what happened, and whether it stops the run whatever `fault=` says
/// (a bad option value, a bot that never starts).
struct Fault {
    why: String,
    fatal: bool,
}

impl From<String> for Fault {
    fn from(why: String) -> Fault {
        Fault { why, fatal: false }
    }
}

impl From<&str> for Fault {
    fn from(why: &str) -> Fault {
        Fault { why: why.to_string(), fatal: false }
    }
}

/// A running bot process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// Bytes read from its output and not yet taken as lines; `taken` of them
    /// belong to the line handed out last.
    buf: Vec<u8>,
    taken: usize,
    /// Requests until the next wait awake ([`SPIN`]): 0 while the bot answers
    /// within it.
    sleepy: u32,
}

impl Process {
    /// The next line of the bot's output (without its newline), waiting at most
    /// `wait`. Err(None) when the time ran out.
    fn line(&mut self, wait: Duration) -> Result<&[u8], Option<String>> {
        self.buf.drain(..self.taken);
        self.taken = 0;
        let deadline = Instant::now() + wait;
        let mut scanned = 0;
        loop {
            if let Some(i) = self.buf[scanned..].iter().position(|&b| b == b'\n') {
                let end = scanned + i;
                self.taken = end + 1;
                return Ok(&self.buf[..end]);
            }
            scanned = self.buf.len();
            if scanned > MAX_LINE {
                return Err(Some(format!("wrote a line longer than {MAX_LINE} bytes")));
            }
            // What has come (the output does not block: nothing there is `None`).
            if self.fill()? {
                continue;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if scanned == 0 {
                // The first wait of an answer: awake for a moment, if the bot is fast.
                if self.sleepy > 0 {
                    self.sleepy -= 1;
                } else if self.spin(SPIN.min(left))? {
                    continue;
                } else {
                    self.sleepy = RETRY_SPIN;
                }
            }
            match self.wait_readable(left.min(WATCH)) {
                Ok(true) => {}
                Ok(false) => {
                    if tresillo_agents::interrupt::stop_requested() {
                        return Err(Some(INTERRUPTED.into()));
                    }
                    // The bot itself exited (its output may be held open by a child
                    // it left): a crash, found now rather than at the time limit. An
                    // answer written just before it exited is still read.
                    if let Ok(Some(status)) = self.child.try_wait() {
                        if !self.wait_readable(Duration::ZERO).unwrap_or(false) {
                            return Err(Some(format!("exited ({status}) without answering")));
                        }
                    } else if left <= WATCH {
                        return Err(None);
                    } else {
                        continue;
                    }
                }
                Err(e) => return Err(Some(format!("waiting for its output: {e}"))),
            }
        }
    }

    /// Reads what the bot's output holds now into `buf`, without waiting (the
    /// pipe does not block): whether anything came. Its end is an error.
    fn fill(&mut self) -> Result<bool, Option<String>> {
        loop {
            self.buf.reserve(READ_CHUNK);
            match rustix::io::read(&self.stdout, rustix::buffer::spare_capacity(&mut self.buf)) {
                Ok(0) => {
                    // Whether it exited too, or closed its output and runs on: a
                    // process that exits closes its output a moment before it can
                    // be reaped, so it is given that moment (up to 200 ms).
                    let mut exited = None;
                    for _ in 0..40 {
                        if let Ok(Some(status)) = self.child.try_wait() {
                            exited = Some(status);
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    let what = match exited {
                        Some(status) => format!("closed its output (exited, {status})"),
                        None => "closed its output but is still running".into(),
                    };
                    return Err(Some(if self.buf.is_empty() {
                        what
                    } else {
                        format!("{what} in the middle of a line")
                    }));
                }
                Ok(_) => return Ok(true),
                Err(rustix::io::Errno::AGAIN) => return Ok(false),
                Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(Some(format!("reading its output: {e}"))),
            }
        }
    }
}

impl Process {
    /// Reads the bot's output without sleeping for at most `wait`: whether
    /// anything came (into `buf`). Each try is one non-blocking `read`, which
    /// takes the answer as it lands. (Not yielding between tries: `sched_yield`
    /// enters the scheduler each time, which cost more than the try; the wait is
    /// bounded by [`SPIN`].)
    fn spin(&mut self, wait: Duration) -> Result<bool, Option<String>> {
        let t0 = Instant::now();
        loop {
            if self.fill()? {
                return Ok(true);
            }
            if t0.elapsed() >= wait {
                return Ok(false);
            }
            std::hint::spin_loop();
        }
    }

    /// Whether the bot's output has something to read (or was closed) within `wait`.
    fn wait_readable(&self, wait: Duration) -> Result<bool, rustix::io::Errno> {
        let timeout = rustix::event::Timespec::try_from(wait)
            .unwrap_or(rustix::event::Timespec { tv_sec: i64::MAX, tv_nsec: 0 });
        let mut fds = [rustix::event::PollFd::new(&self.stdout, rustix::event::PollFlags::IN)];
        loop {
            match rustix::event::poll(&mut fds, Some(&timeout)) {
                Ok(n) => return Ok(n > 0),
                Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// The fault of a bot stopped by an interruption of the run.
const INTERRUPTED: &str = "stopped: the run was interrupted";

/// An external bot (see the crate documentation).
pub struct ExtBot {
    config: BotConfig,
    process: Option<Process>,
    /// The bot's name from its greeting.
    pub name: String,
    /// The version its greeting declares (empty when none).
    pub version: String,
    /// The options it declared in its greeting.
    pub declared: Vec<BotOption>,
    /// Whether requests with one legal action are played without asking it
    /// (the spec's `auto_single`, else its greeting's).
    pub auto_single: bool,
    /// Requests with one legal action played without asking it (of the
    /// current process).
    pub auto_played: u64,
    /// Whether each request carries the hand's public state (`public`), as the
    /// bot's greeting asks (`"public": true`; `tresillo bot` does).
    pub public: bool,
    /// On a clock (`tc=`): the time left before the decision, the time its
    /// requests have taken so far (a discard is asked card by card), and
    /// whether the last wait ended at the clock.
    clock: Option<tresillo_agents::clock::TimeLeft>,
    clock_used: Duration,
    clock_out: bool,
    /// Requests sent so far (their ids).
    next_id: u64,
    /// Hands begun; whether the current one was announced to the bot.
    hands: u64,
    announced: bool,
    /// A fault that stops the run.
    fault: Option<Failure>,
    /// Under `fault=rule`: who decides after a fault, whether it does for the
    /// rest of this hand, the forfeits not yet taken, the failed starts in a row,
    /// (the forfeits reported are counted per bot, in `REPORTED`).
    fallback: Option<Box<dyn Agent>>,
    forfeiting: bool,
    forfeits: u64,
    /// Wall nanoseconds spent starting the process (and reading its hello)
    /// since the last [`Agent::take_startup_ns`].
    startup_ns: u64,
    failed_starts: u32,
    /// The request being written (reused).
    out: String,
    /// Time spent on answers in the current hand.
    hand_used: Duration,
    /// Total time spent waiting for answers (of the current process).
    pub waited: Duration,
    /// Requests answered (by the current process).
    pub requests: u64,
    /// The longest wait for one answer (of the current process).
    pub longest: Duration,
    /// Time spent writing requests into the buffer (of the current process).
    pub encode: Duration,
    /// Time spent parsing and checking answers (of the current process; also
    /// within `waited`).
    pub decode: Duration,
}

impl ExtBot {
    /// A bot run as `config` says; not started yet.
    #[must_use]
    pub fn new(config: BotConfig) -> ExtBot {
        let fallback = (config.on_fault == OnFault::Rule)
            .then(|| tresillo_agents::build_agent("rule").expect("the rule agent is built in"));
        ExtBot {
            config,
            process: None,
            name: String::new(),
            version: String::new(),
            declared: Vec::new(),
            auto_single: false,
            auto_played: 0,
            public: false,
            clock: None,
            clock_used: Duration::ZERO,
            clock_out: false,
            next_id: 0,
            hands: 0,
            announced: false,
            fault: None,
            fallback,
            forfeiting: false,
            forfeits: 0,
            startup_ns: 0,
            failed_starts: 0,
            out: String::with_capacity(2048),
            hand_used: Duration::ZERO,
            waited: Duration::ZERO,
            requests: 0,
            longest: Duration::ZERO,
            encode: Duration::ZERO,
            decode: Duration::ZERO,
        }
    }

    /// The bot as messages name it: its name (once greeted) and command.
    fn who(&self) -> String {
        let cmd = self.config.command_line();
        if self.name.is_empty() { cmd } else { format!("{} ({cmd})", self.name) }
    }

    fn spawn(&mut self, rules: Rules, players: u8) -> Result<(), Fault> {
        let c = &self.config;
        let mut command = Command::new(&c.program);
        command.args(&c.args).stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(if c.log.is_some() { Stdio::piped() } else { Stdio::null() });
        if let Some(dir) = &c.cwd {
            command.current_dir(dir);
        }
        command.envs(c.env.iter().map(|(k, v)| (k, v)));
        // Its own process group: whatever it starts is ended with it, and a Ctrl-C
        // at the terminal reaches the toolkit alone, which ends its bots in order.
        command.process_group(0);
        let mut child =
            command.spawn().map_err(|e| format!("could not start `{}`: {e}", c.command_line()))?;
        LIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(child.id());
        let stdin = child.stdin.take().ok_or("no standard input")?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        if let (Some(dir), Some(err)) = (&c.log, child.stderr.take()) {
            let path = dir.join(format!("{}-{}.log", sanitize(&c.program), child.id()));
            std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
            let mut file =
                std::fs::File::create(&path).map_err(|e| format!("creating {}: {e}", path.display()))?;
            std::thread::spawn(move || {
                let mut err = err;
                let _ = std::io::copy(&mut (&mut err).take(MAX_LOG), &mut file);
                // Past the bound the rest is read and dropped, so the bot never blocks on it.
                let _ = std::io::copy(&mut err, &mut std::io::sink());
            });
        }
        // Its output is read without blocking ([`Process::fill`]); waits are `poll`s.
        rustix::io::ioctl_fionbio(&stdout, true).map_err(|e| format!("setting up its output: {e}"))?;
        self.process =
            Some(Process { child, stdin, stdout, buf: Vec::with_capacity(READ_CHUNK), taken: 0, sleepy: 0 });
        self.waited = Duration::ZERO;
        self.longest = Duration::ZERO;
        self.requests = 0;
        let hello = message::hello(rules, players, &self.config);
        self.send_line(&format!("{hello}\n"))?;
        let answer = self.receive(true)?;
        // The start-up's pace is not the bot's: its first answer is waited for awake.
        if let Some(p) = self.process.as_mut() {
            p.sleepy = 0;
        }
        let v: serde_json::Value = tresillo_sim::json::from_str(&answer)
            .map_err(|e| format!("greeting is not JSON ({e}): {}", excerpt(&answer)))?;
        if v["type"] != "hello" {
            return Err(format!("answered the greeting with {}", excerpt(&answer)).into());
        }
        if v["protocol"]
            .as_u64()
            .is_some_and(|n| !(u64::from(OLDEST_PROTOCOL)..=u64::from(PROTOCOL)).contains(&n))
        {
            return Err(format!(
                "speaks protocol {} (this is protocol {PROTOCOL}, and speaks to bots of {OLDEST_PROTOCOL} to {PROTOCOL})",
                v["protocol"]
            )
            .into());
        }
        // Printed in messages: its control characters escaped (a name cannot recolour
        // the terminal or forge an `error:` line).
        self.name = tresillo_core::printable(v["name"].as_str().unwrap_or("bot")).into_owned();
        self.version = tresillo_core::printable(&match &v["version"] {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        })
        .into_owned();
        if !matches!(v["auto_single"], serde_json::Value::Null | serde_json::Value::Bool(_)) {
            return Err(Fault {
                why: format!("its greeting's auto_single is not true or false: {}", v["auto_single"]),
                fatal: true,
            });
        }
        self.auto_single = self.config.auto_single.unwrap_or(v["auto_single"] == true);
        if !matches!(v["public"], serde_json::Value::Null | serde_json::Value::Bool(_)) {
            return Err(Fault {
                why: format!("its greeting's public is not true or false: {}", v["public"]),
                fatal: true,
            });
        }
        self.public = v["public"] == true;
        self.auto_played = 0;
        self.declared = declared(&v["options"]).map_err(|why| Fault { why: why.0, fatal: true })?;
        for (k, x) in &self.config.options {
            check_option(&self.declared, k, *x).map_err(|why| Fault { why: why.0, fatal: true })?;
        }
        // The start-up is not an answer's time.
        self.waited = Duration::ZERO;
        self.clock_used = Duration::ZERO;
        self.longest = Duration::ZERO;
        self.hand_used = Duration::ZERO;
        self.encode = Duration::ZERO;
        self.decode = Duration::ZERO;
        Ok(())
    }

    fn send_line(&mut self, line: &str) -> Result<(), Fault> {
        let p = self.process.as_mut().ok_or("not running")?;
        p.stdin.write_all(line.as_bytes()).and_then(|()| p.stdin.flush()).map_err(|e| {
            Fault::from(match p.child.try_wait() {
                Ok(Some(status)) => format!("exited ({status})"),
                _ => format!("closed its input ({e})"),
            })
        })
    }

    /// The next line, within the limit of an answer (and of the hand's budget,
    /// except for the greeting).
    fn receive(&mut self, greeting: bool) -> Result<String, Fault> {
        let (t0, left) = self.wait_for(greeting);
        let p = self.process.as_mut().ok_or("not running")?;
        let r = p.line(left).map(|l| std::str::from_utf8(l).map(str::to_string));
        self.account(t0);
        match r {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(_)) => Err("wrote bytes that are not UTF-8".into()),
            Err(e) => Err(self.read_fault(e, left)),
        }
    }

    /// When a wait begins and how long it may last.
    fn wait_for(&self, greeting: bool) -> (Instant, Duration) {
        // On a clock the answer may take the time left on it (and `ms` does not apply).
        let limit = match &self.clock {
            Some(c) if !greeting => self.clock_now(c).left + CLOCK_GRACE,
            _ => self.config.limit,
        };
        let budget = if greeting { None } else { self.config.hand_budget };
        (Instant::now(), budget.map_or(limit, |b| b.saturating_sub(self.hand_used).min(limit)))
    }

    fn account(&mut self, t0: Instant) {
        let took = t0.elapsed();
        self.waited += took;
        self.hand_used += took;
        self.clock_used += took;
        self.longest = self.longest.max(took);
    }

    fn read_fault(&mut self, e: Option<String>, left: Duration) -> Fault {
        let limit = self.config.limit;
        if let (None, Some(c)) = (&e, &self.clock)
            && left >= self.clock_now(c).left
        {
            self.clock_out = true;
            return format!("used up its clock ({} ms left) without answering", c.left.as_millis()).into();
        }
        match e {
            Some(e) if e.starts_with("exited") || e == INTERRUPTED => e.into(),
            Some(e) => {
                let p = self.process.as_mut().expect("running");
                // Give an exiting bot a moment to be reaped, for its status.
                std::thread::sleep(Duration::from_millis(2));
                match p.child.try_wait() {
                    Ok(Some(status)) => format!("{e} ({status})").into(),
                    _ => e.into(),
                }
            }
            None if left < limit => format!(
                "used up its time for the hand ({} ms) without answering",
                self.config.hand_budget.map_or(0, |b| b.as_millis())
            )
            .into(),
            None => format!("gave no answer within its limit of {} ms", limit.as_millis()).into(),
        }
    }

    /// One request and its answer: an action id, checked against `legal`.
    fn ask(
        &mut self,
        view: &PlayerView,
        discard: DiscardBuilder,
        legal: &[usize],
        seed: u64,
    ) -> Result<usize, Fault> {
        if let Some(c) = &self.clock
            && self.clock_now(c).left.is_zero()
        {
            // The clock ran out within this decision (a discard asked card by card).
            self.clock_out = true;
            return Err(format!("used up its clock ({} ms) within a discard", c.left.as_millis()).into());
        }
        self.next_id += 1;
        let id = self.next_id;
        let mut out = std::mem::take(&mut self.out);
        let t_encode = Instant::now();
        message::request(&mut out, id, view, discard, legal, seed);
        if let Some(c) = &self.clock {
            message::append_clock(&mut out, &self.clock_now(c));
        }
        if self.public {
            message::append_public(&mut out, view);
        }
        self.encode += t_encode.elapsed();
        let sent = self.send_line(&out);
        self.out = out;
        sent?;
        let (t0, left) = self.wait_for(false);
        let p = self.process.as_mut().ok_or("not running")?;
        let r = p.line(left).map(|line| {
            let t_decode = Instant::now();
            (parse_answer(line, id, legal), t_decode)
        });
        self.account(t0);
        let r = r.map(|(answer, t_decode)| {
            self.decode += t_decode.elapsed();
            answer
        });
        let a = match r {
            Ok(answer) => answer?,
            Err(e) => return Err(self.read_fault(e, left)),
        };
        self.requests += 1;
        Ok(a)
    }

    fn decide_checked(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Fault> {
        if self.process.is_none() {
            let p = view.public();
            let t0 = Instant::now();
            let started = self.spawn(p.game_rules(), p.players);
            self.startup_ns += u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX);
            if let Err(f) = started {
                self.failed_starts += 1;
                if self.failed_starts >= MAX_FAILED_STARTS && self.config.on_fault == OnFault::Rule {
                    return Err(Fault {
                        why: format!(
                            "failed to start {} times in a row; the last time: {}",
                            self.failed_starts, f.why
                        ),
                        fatal: true,
                    });
                }
                return Err(f);
            }
            self.failed_starts = 0;
        }
        if !self.announced {
            self.announced = true;
            let m = message::hand(self.hands, view);
            self.send_line(&format!("{m}\n"))?;
        }
        tresillo_env::decide_by_actions(view, |discard, legal| {
            // Drawn even when the request is not sent: the seat's generator
            // moves as it would, so the rest of the hand is the same.
            let seed = rand_core::RngCore::next_u64(rng);
            if self.auto_single && legal.len() == 1 {
                self.auto_played += 1;
                return Ok(legal[0]);
            }
            self.ask(view, discard, legal, seed)
        })
    }

    /// Ends the process: `bye`, its input closed, a grace period to exit, then
    /// its process group killed (what it started, and itself if still there); its
    /// time goes to the log directory.
    fn end_process(&mut self) {
        let Some(mut p) = self.process.take() else { return };
        let pgid = p.child.id();
        if let Some(dir) = &self.config.log {
            let path = dir.join(format!("{}-{}.time", sanitize(&self.config.program), p.child.id()));
            let _ = std::fs::write(path, format!("{}\n", self.time_line()));
        }
        let _ = writeln!(p.stdin, "{{\"type\":\"bye\"}}");
        drop(p.stdin);
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = p.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // The group goes, the bot's children with it (a bot that forked, or that
        // keeps running after `bye`).
        kill_group(pgid);
        let _ = p.child.wait();
        LIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner).retain(|&g| g != pgid);
    }

    /// One line on the time the bot used: requests, mean and longest answer.
    #[must_use]
    pub fn time_line(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let mean = if self.requests > 0 { ms(self.waited) / self.requests as f64 } else { 0.0 };
        format!(
            "{} requests answered in {:.3} s: {mean:.3} ms mean, {:.3} ms longest",
            self.requests,
            self.waited.as_secs_f64(),
            ms(self.longest)
        )
    }
}

/// How the toolkit reads a bot's answer `line` to request `id` with the `legal`
/// action ids ([`parse_answer`]): the action id, or why the line is refused in
/// one line. Public for the fuzz tests and for tools that check a bot's output.
pub fn read_answer(line: &[u8], id: u64, legal: &[usize]) -> Result<usize, ProtocolError> {
    parse_answer(line, id, legal).map_err(|f| ProtocolError(f.why))
}

/// The action a bot's answer `line` names, checked: a message `action` for
/// request `id`, with one of the `legal` ids; a key given twice is refused.
fn parse_answer(line: &[u8], id: u64, legal: &[usize]) -> Result<usize, Fault> {
    #[derive(serde::Deserialize)]
    struct Answer<'a> {
        #[serde(rename = "type", borrow)]
        kind: std::borrow::Cow<'a, str>,
        id: Option<serde_json::Value>,
        action: Option<serde_json::Value>,
    }
    let text = || String::from_utf8_lossy(line).into_owned();
    let Ok(line_str) = std::str::from_utf8(line) else {
        return Err("wrote bytes that are not UTF-8".into());
    };
    tresillo_sim::json::from_str::<serde::de::IgnoredAny>(line_str)
        .map_err(|e| format!("wrote a line that is not an answer ({e}): {}", excerpt(&text())))?;
    let v: Answer<'_> = serde_json::from_str(line_str)
        .map_err(|e| format!("wrote a line that is not an answer ({e}): {}", excerpt(&text())))?;
    if v.kind != "action" {
        return Err(format!("answered request {id} with {}", excerpt(&text())).into());
    }
    let got = v.id.as_ref().and_then(serde_json::Value::as_u64);
    if got != Some(id) {
        let shown = v.id.map_or_else(|| "none".to_string(), |x| x.to_string());
        return Err(format!("answered request {shown} instead of request {id}").into());
    }
    let a = v.action.as_ref().and_then(serde_json::Value::as_u64);
    let Some(a) = a.and_then(|a| usize::try_from(a).ok()) else {
        return Err(format!("gave no action id: {}", excerpt(&text())).into());
    };
    if !legal.contains(&a) {
        return Err(format!("answered action {a}, which is not legal (legal: {legal:?})").into());
    }
    Ok(a)
}

/// The options a bot's greeting declares (`options`, a list; absent: none).
fn declared(v: &serde_json::Value) -> Result<Vec<BotOption>, ProtocolError> {
    let Some(list) = v.as_array() else {
        return if v.is_null() {
            Ok(Vec::new())
        } else {
            Err("its greeting's options are not a list".into())
        };
    };
    list.iter()
        .map(|o| {
            let name = o["name"].as_str().ok_or_else(|| format!("declares an option without a name: {o}"))?;
            let int = match o["type"].as_str() {
                Some("int") => true,
                Some("float") => false,
                _ => {
                    return Err(format!("declares option `{name}` with a type other than int or float: {o}"));
                }
            };
            let num = |k: &str| {
                o[k].as_f64().ok_or_else(|| format!("declares option `{name}` without a number `{k}`"))
            };
            let (min, max, default) = (num("min")?, num("max")?, num("default")?);
            if !(min <= default && default <= max) {
                return Err(format!("declares option `{name}` with its default outside {min}..{max}"));
            }
            Ok(BotOption { name: name.to_string(), int, min, max, default })
        })
        .collect::<Result<_, String>>()
        .map_err(ProtocolError)
}

/// Whether `value` is allowed for option `name` of `declared`.
fn check_option(declared: &[BotOption], name: &str, value: f64) -> Result<(), ProtocolError> {
    let Some(o) = declared.iter().find(|o| o.name == name) else {
        let known: Vec<&str> = declared.iter().map(|o| o.name.as_str()).collect();
        return Err(format!(
            "option `{name}` is not one it declares (it declares: {})",
            if known.is_empty() { "none".into() } else { known.join(", ") }
        )
        .into());
    };
    if o.int && value.fract() != 0.0 {
        return Err(format!("option `{name}` takes integers, not {value}").into());
    }
    if value < o.min || value > o.max {
        return Err(format!("option `{name}` = {value} is outside its range {}..{}", o.min, o.max).into());
    }
    Ok(())
}

/// The first 120 characters of a line, for a message.
fn excerpt(line: &str) -> String {
    let s: String = line.chars().take(120).collect();
    if s.len() < line.len() { format!("{s:?}...") } else { format!("{s:?}") }
}

fn sanitize(program: &str) -> String {
    let base = program.rsplit('/').next().unwrap_or(program);
    base.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

impl Agent for ExtBot {
    fn name(&self) -> &str {
        "ext"
    }

    fn new_hand(&mut self) {
        self.hands += 1;
        self.announced = false;
        self.hand_used = Duration::ZERO;
        self.forfeiting = false;
        if let Some(f) = &mut self.fallback {
            f.new_hand();
        }
    }

    fn decide(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        if self.fault.is_none() && tresillo_agents::interrupt::stop_requested() {
            self.fault = Some(Failure::new(format!("external bot {}: {INTERRUPTED}", self.who())));
        }
        if let Some(f) = &self.fault {
            // A bot that failed once is not asked again.
            return Err(f.clone());
        }
        if self.forfeiting {
            return self.forfeit(view, rng);
        }
        match self.decide_checked(view, rng) {
            Ok(d) => Ok(d),
            Err(f) if std::mem::take(&mut self.clock_out) => {
                // Lost on time: the clock (its wrapper) decides what follows; the
                // process, whose answer may still come, goes, and a fresh one
                // starts at the next decision asked of it.
                self.end_process();
                Err(Failure::new(format!("external bot {}: {}", self.who(), f.why)))
            }
            Err(f) => {
                let line = format!("external bot {}: {}", self.who(), f.why);
                if self.fallback.is_none() || f.fatal || tresillo_agents::interrupt::stop_requested() {
                    let failure = Failure::new(line);
                    self.fault = Some(failure.clone());
                    return Err(failure);
                }
                // The process is in an unknown state: it goes, and a fresh one
                // starts at the next hand.
                self.end_process();
                self.forfeiting = true;
                let reported = {
                    let mut all = REPORTED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    let cmd = self.config.command_line();
                    let i = all.iter().position(|(c, _)| *c == cmd).unwrap_or_else(|| {
                        all.push((cmd, 0));
                        all.len() - 1
                    });
                    all[i].1 += 1;
                    all[i].1
                };
                if reported <= MAX_REPORTED {
                    let more = if reported == MAX_REPORTED {
                        " (further forfeits of this bot are only counted)"
                    } else {
                        ""
                    };
                    eprintln!(
                        "warning: {line}, at seat {} in its hand {}: the rule agent plays the rest of the hand (forfeits), the bot restarts at the next hand{more}",
                        view.seat().0,
                        self.hands
                    );
                }
                self.forfeit(view, rng)
            }
        }
    }

    fn end_hand(&mut self, result: &HandResult) {
        if let Some(f) = &mut self.fallback {
            f.end_hand(result);
        }
        if self.process.is_some() && self.fault.is_none() && self.announced && !self.forfeiting {
            // A bot gone by now is found out at its next request.
            let _ = self.send_line(&format!("{}\n", message::result(self.hands, result)));
        }
    }

    fn take_work(&mut self) -> Work {
        Work { forfeits: std::mem::take(&mut self.forfeits), ..Work::default() }
    }

    fn take_startup_ns(&mut self) -> u64 {
        std::mem::take(&mut self.startup_ns)
    }

    fn set_time(&mut self, time: &tresillo_agents::clock::TimeLeft) {
        self.clock = Some(*time);
        self.clock_used = Duration::ZERO;
    }
}

impl ExtBot {
    /// The clock `c` set before this decision, less what its requests took so far.
    fn clock_now(&self, c: &tresillo_agents::clock::TimeLeft) -> tresillo_agents::clock::TimeLeft {
        tresillo_agents::clock::TimeLeft { left: c.left.saturating_sub(self.clock_used), ..*c }
    }

    /// The fallback's decision in the bot's place, counted.
    fn forfeit(&mut self, view: &PlayerView, rng: &mut AgentRng) -> Result<Decision, Failure> {
        self.forfeits += 1;
        self.fallback.as_mut().expect("fault=rule has a fallback").decide(view, rng)
    }

    /// Why the bot stopped answering, once it has (it is not asked again): the
    /// failure its last [`Agent::decide`] returned.
    #[must_use]
    pub fn fault(&self) -> Option<&Failure> {
        self.fault.as_ref()
    }
}

impl Drop for ExtBot {
    fn drop(&mut self) {
        self.end_process();
    }
}
