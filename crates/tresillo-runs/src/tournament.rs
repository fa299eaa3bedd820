//! A tournament's arguments checked and turned into a [`TournamentConfig`]: the
//! one validation `tresillo tournament` and the Python package's
//! `tresillo.tournament` share. Its messages, and the run library's, name the
//! command line's flags; [`python_words`] shows any of them in the words of
//! `tresillo.tournament`'s keyword arguments (the one table of both).

use crate::error::{Result, bail};
use tresillo_agents::{BiddingCovers, Registry};
use tresillo_core::Rules;
use tresillo_sim::{Scoring, Shard, TournamentConfig};

/// The command line's flags in the run library's messages, each with the words
/// of `tresillo.tournament` (longest first: `--resume/--force` before `--resume`).
pub const PYTHON_WORDS: &[(&str, &str)] = &[
    ("--resume/--force", "resume=True or force=True"),
    ("--resume", "resume=True"),
    ("--force", "force=True"),
    ("--record ", "record="),
    ("--record", "record"),
    ("--format ", "format="),
    ("--format", "format"),
    ("--threads", "threads"),
    ("--ms-per-decision", "ms_per_decision"),
];

/// A message of the run library, which names the command line's flags, in the
/// words of `tresillo.tournament`'s arguments ([`PYTHON_WORDS`]).
#[must_use]
pub fn python_words(msg: &str) -> String {
    let mut out = msg.to_string();
    for (flag, arg) in PYTHON_WORDS {
        out = out.replace(flag, arg);
    }
    out
}

/// Refuses `resume` with `force`: one continues the run, the other replaces it.
pub fn check_resume_force(resume: bool, force: bool) -> Result<()> {
    if resume && force {
        bail!("--resume and --force exclude each other: --resume continues the run, --force replaces it");
    }
    Ok(())
}

/// A tournament's arguments as given (the texts not parsed yet).
#[derive(Clone, Debug)]
pub struct TournamentArgs<'a> {
    /// One agent spec (or registered name) per agent slot.
    pub agents: Vec<String>,
    /// Seats at the table.
    pub players: u8,
    /// Deals to play (the whole run).
    pub deals: u64,
    /// The master seed.
    pub seed: u64,
    /// The rule set with its options.
    pub rules: Rules,
    /// `deal` or `session:K`.
    pub scoring: &'a str,
    /// Every deal under every seating.
    pub duplicate: bool,
    /// `K/N`, or the whole run.
    pub shard: Option<&'a str>,
    /// The agent that makes every seat's bidding decisions.
    pub bidding: Option<&'a str>,
    /// Which decisions `bidding` covers.
    pub bidding_covers: BiddingCovers,
    /// The equal-time budget per decision, in ms (at least 1).
    pub ms_per_decision: Option<u32>,
}

/// The configuration `args` describe, checked against `registry` (each agent
/// spec, the table, the rule set, the bidding agent); a time budget is given to
/// every agent that takes one. Errors name the command line's flags
/// ([`python_words`] for Python's).
pub fn tournament_config(args: TournamentArgs<'_>, registry: &Registry) -> Result<TournamentConfig> {
    let mut config = TournamentConfig {
        agents: args.agents,
        players: args.players,
        deals: args.deals,
        seed: args.seed,
        rules: args.rules,
        scoring: args.scoring.parse::<Scoring>()?,
        duplicate: args.duplicate,
        shard: match args.shard {
            Some(s) => s.parse::<Shard>()?,
            None => Shard::WHOLE,
        },
        bidding: args.bidding.map(|b| b.trim().to_string()),
        bidding_covers: args.bidding_covers,
    };
    if let Some(ms) = args.ms_per_decision {
        if ms == 0 {
            bail!("--ms-per-decision: at least 1 millisecond");
        }
        config.with_time_budget(ms, registry)?;
    }
    config.validate_with(registry)?;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args<'a>() -> TournamentArgs<'a> {
        TournamentArgs {
            agents: vec!["rule".into(), "pimc:worlds=4".into(), "random".into()],
            players: 3,
            deals: 10,
            seed: 1,
            rules: Rules::default(),
            scoring: "deal",
            duplicate: true,
            shard: None,
            bidding: Some(" rule "),
            bidding_covers: BiddingCovers::default(),
            ms_per_decision: None,
        }
    }

    fn err(a: TournamentArgs<'_>) -> String {
        format!("{:#}", tournament_config(a, &Registry::builtin()).unwrap_err())
    }

    #[test]
    fn messages_name_the_flags_and_read_in_pythons_words() {
        let cli = check_resume_force(true, true).unwrap_err().to_string();
        assert_eq!(
            cli,
            "--resume and --force exclude each other: --resume continues the run, --force replaces it"
        );
        assert_eq!(
            python_words(&cli),
            "resume=True and force=True exclude each other: resume=True continues the run, force=True replaces it"
        );
        assert!(check_resume_force(true, false).is_ok());
        let zero = TournamentArgs { ms_per_decision: Some(0), ..args() };
        assert_eq!(python_words(&err(zero)), "ms_per_decision: at least 1 millisecond");
        assert_eq!(
            python_words("use --force, or --resume/--force"),
            "use force=True, or resume=True or force=True"
        );
    }

    #[test]
    fn the_config_is_checked_whoever_asks() {
        let c = tournament_config(args(), &Registry::builtin()).unwrap();
        assert_eq!(c.bidding.as_deref(), Some("rule"));
        assert_eq!(c.shard, Shard::WHOLE);
        let pimc = vec!["rule".into(), "pimc".into(), "random".into()];
        let timed = tournament_config(
            TournamentArgs { ms_per_decision: Some(5), agents: pimc, ..args() },
            &Registry::builtin(),
        )
        .unwrap();
        assert_ne!(timed.agents[1], "pimc", "{:?}", timed.agents);
        assert_eq!(timed.agents[0], "rule");
        let bad_scoring = err(TournamentArgs { scoring: "sesion:3", ..args() });
        assert_eq!(bad_scoring, "sesion:3".parse::<Scoring>().unwrap_err().to_string());
        let bad_shard = err(TournamentArgs { shard: Some("3/2"), ..args() });
        assert_eq!(bad_shard, "3/2".parse::<Shard>().unwrap_err().to_string());
        let two = TournamentArgs { agents: vec!["rule".into(), "rule".into()], ..args() };
        assert!(err(two).contains('2'));
        let unknown = TournamentArgs { agents: vec!["rule".into(), "rule".into(), "nope".into()], ..args() };
        assert!(err(unknown).contains("nope"));
    }
}
