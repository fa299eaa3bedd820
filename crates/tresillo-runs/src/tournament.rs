//! A tournament's arguments checked and turned into a [`TournamentConfig`]: the
//! one validation `tresillo tournament` and the Python package's
//! `tresillo.tournament` share. Each caller names its arguments in its own words
//! ([`ArgNames`]: `--resume` on the command line, `resume` in Python); the
//! checks and the rest of the texts are the same.

use anyhow::{Result, bail};
use tresillo_agents::{BiddingCovers, Registry};
use tresillo_core::Rules;
use tresillo_sim::{Scoring, Shard, TournamentConfig};

/// What a caller calls the arguments that its messages name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgNames {
    /// Continuing an interrupted run.
    pub resume: &'static str,
    /// Replacing a finished run.
    pub force: &'static str,
    /// The equal-time budget per decision.
    pub ms_per_decision: &'static str,
}

impl ArgNames {
    /// The command line's flags.
    pub const CLI: ArgNames =
        ArgNames { resume: "--resume", force: "--force", ms_per_decision: "--ms-per-decision" };
    /// `tresillo.tournament`'s keyword arguments.
    pub const PYTHON: ArgNames =
        ArgNames { resume: "resume", force: "force", ms_per_decision: "ms_per_decision" };
}

/// Refuses `resume` with `force`: one continues the run, the other replaces it.
pub fn check_resume_force(resume: bool, force: bool, names: ArgNames) -> Result<()> {
    if resume && force {
        let ArgNames { resume: r, force: f, .. } = names;
        bail!("{r} and {f} exclude each other: {r} continues the run, {f} replaces it");
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
/// every agent that takes one. Errors name the argument in `names`' words.
pub fn tournament_config(
    args: TournamentArgs<'_>,
    registry: &Registry,
    names: ArgNames,
) -> Result<TournamentConfig> {
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
            bail!("{}: at least 1 millisecond", names.ms_per_decision);
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

    fn err(a: TournamentArgs<'_>, names: ArgNames) -> String {
        format!("{:#}", tournament_config(a, &Registry::builtin(), names).unwrap_err())
    }

    #[test]
    fn each_caller_reads_its_own_argument_names() {
        let cli = check_resume_force(true, true, ArgNames::CLI).unwrap_err().to_string();
        assert_eq!(
            cli,
            "--resume and --force exclude each other: --resume continues the run, --force replaces it"
        );
        let py = check_resume_force(true, true, ArgNames::PYTHON).unwrap_err().to_string();
        assert_eq!(py, "resume and force exclude each other: resume continues the run, force replaces it");
        assert!(check_resume_force(true, false, ArgNames::CLI).is_ok());
        let zero = TournamentArgs { ms_per_decision: Some(0), ..args() };
        assert_eq!(err(zero, ArgNames::PYTHON), "ms_per_decision: at least 1 millisecond");
    }

    #[test]
    fn the_config_is_checked_whoever_asks() {
        let c = tournament_config(args(), &Registry::builtin(), ArgNames::CLI).unwrap();
        assert_eq!(c.bidding.as_deref(), Some("rule"));
        assert_eq!(c.shard, Shard::WHOLE);
        let pimc = vec!["rule".into(), "pimc".into(), "random".into()];
        let timed = tournament_config(
            TournamentArgs { ms_per_decision: Some(5), agents: pimc, ..args() },
            &Registry::builtin(),
            ArgNames::CLI,
        )
        .unwrap();
        assert_ne!(timed.agents[1], "pimc", "{:?}", timed.agents);
        assert_eq!(timed.agents[0], "rule");
        for names in [ArgNames::CLI, ArgNames::PYTHON] {
            let bad_scoring = err(TournamentArgs { scoring: "sesion:3", ..args() }, names);
            assert_eq!(bad_scoring, "sesion:3".parse::<Scoring>().unwrap_err().to_string());
            let bad_shard = err(TournamentArgs { shard: Some("3/2"), ..args() }, names);
            assert_eq!(bad_shard, "3/2".parse::<Shard>().unwrap_err().to_string());
            let two = TournamentArgs { agents: vec!["rule".into(), "rule".into()], ..args() };
            assert!(err(two, names).contains('2'), "{names:?}");
            let unknown =
                TournamentArgs { agents: vec!["rule".into(), "rule".into(), "nope".into()], ..args() };
            assert!(err(unknown, names).contains("nope"));
        }
    }
}
