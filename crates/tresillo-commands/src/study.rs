//! `tresillo study`: human studies as files (docs/STUDY.md). `new` writes a study
//! file with participants' tokens, `add-participant` appends one, `progress`
//! prints where each participant stands, `simulate` plays the remaining games
//! with an agent in the human's seat through the study's own API (a pilot), and
//! `export` writes the games in the tournament's schema. The web server
//! (`tresillo serve`) drives the same library for people.

use anyhow::{Result, anyhow, bail};
use std::io::Write;
use std::path::PathBuf;
use tresillo_agents::{AgentRng, TablePlayer, seat_rngs};
use tresillo_study::{NewStudy, Study, Turn};

/// Arguments of `tresillo study`.
#[derive(clap::Args)]
pub struct StudyArgs {
    #[command(subcommand)]
    command: StudyCommand,
}

#[derive(clap::Subcommand)]
enum StudyCommand {
    /// Create a study directory with its study.toml and participants' tokens (an
    /// existing study file is never overwritten).
    New(NewArgs),
    /// Add a participant with a fresh token to a study (prints the token).
    AddParticipant {
        /// The study directory.
        dir: PathBuf,
        /// The participant's id (A-Z, a-z, 0-9, _ and -).
        #[arg(long)]
        id: String,
    },
    /// Print each participant's progress (games played of assigned).
    Progress {
        /// The study directory.
        dir: PathBuf,
    },
    /// Play every participant's remaining games with an agent in the human's
    /// seat, one decision at a time through the study (a pilot of the study).
    Simulate {
        /// The study directory.
        dir: PathBuf,
        /// The agent that plays the human's seat.
        #[arg(long, default_value = "rule")]
        agent: String,
    },
    /// Write the finished games as deals.csv (and deals.parquet), records.jsonl,
    /// book.txt and manifest.json into a new directory.
    Export {
        /// The study directory.
        dir: PathBuf,
        /// The directory to create.
        #[arg(long)]
        out: PathBuf,
        /// Which files hold the rows: csv, parquet or both.
        #[arg(long, default_value = "csv", value_parser = format)]
        format: tresillo_runs::Format,
        /// Also a human baseline in OUT/baseline: every game played again by
        /// this agent in the participant's seat, on the same deal with the same
        /// opponents (`scripts/paired.py OUT 0 --across OUT/baseline 0`).
        #[arg(long, value_name = "AGENT")]
        baseline: Option<String>,
    },
}

fn format(s: &str) -> Result<tresillo_runs::Format, String> {
    match s {
        "csv" => Ok(tresillo_runs::Format::Csv),
        "parquet" => Ok(tresillo_runs::Format::Parquet),
        "both" => Ok(tresillo_runs::Format::Both),
        _ => Err("one of csv, parquet, both".into()),
    }
}

#[derive(clap::Args)]
struct NewArgs {
    /// The study directory (created).
    dir: PathBuf,
    /// A title for the researcher's page.
    #[arg(long, default_value = "")]
    title: String,
    /// The opponents' agent specs, comma-separated (agent slots 1, 2, ...).
    #[arg(long, default_value = "rule,rule")]
    opponents: String,
    /// The seats humans take, comma-separated (one pass over the book each).
    #[arg(long, default_value = "0")]
    human_seats: String,
    /// The master seed of the deal book.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    seed: u64,
    /// Deals in the book (those of `tresillo tournament --seed SEED --deals N`).
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    deals: u64,
    /// Games each participant plays.
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u64>)]
    per_participant: u64,
    /// Participants to create, named p1, p2, ...
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::non_negative::<u32>)]
    participants: u32,
    /// The consent text shown before the first game.
    #[arg(
        long,
        default_value = "I agree that my games are recorded and used for research, without my name."
    )]
    consent: String,
    /// The rule set, its options and the table size.
    #[command(flatten)]
    rules: crate::rules::RulesArgs,
}

/// Runs `tresillo study`.
pub fn run(a: &StudyArgs, out: &mut impl Write) -> Result<()> {
    match &a.command {
        StudyCommand::New(n) => {
            let human_seats = n
                .human_seats
                .split(',')
                .map(|s| {
                    s.trim().parse::<u8>().map_err(|_| anyhow!("--human-seats: `{s}` is not a seat number"))
                })
                .collect::<Result<Vec<_>>>()?;
            let s = NewStudy {
                title: n.title.clone(),
                rules: n.rules.parse()?,
                players: n.rules.players()?,
                opponents: tresillo_agents::split_specs(&n.opponents)
                    .map_err(|e| anyhow!("--opponents: {e}"))?,
                human_seats,
                seed: n.seed,
                deals: n.deals,
                per_participant: n.per_participant,
                consent: n.consent.clone(),
                participants: (1..=n.participants).map(|i| format!("p{i}")).collect(),
            };
            let people =
                tresillo_study::create_study(&n.dir, &s, &crate::registry()).map_err(|e| anyhow!(e))?;
            writeln!(out, "wrote {}", tresillo_study::study_file(&n.dir).display())?;
            for p in people {
                writeln!(out, "{} {}", p.id, p.token)?;
            }
        }
        StudyCommand::AddParticipant { dir, id } => {
            let token = tresillo_study::add_participant(dir, id).map_err(|e| anyhow!(e))?;
            writeln!(out, "{id} {token}")?;
        }
        StudyCommand::Progress { dir } => {
            let study = Study::open(dir, crate::registry())?;
            writeln!(out, "participant  condition     played  games  in progress")?;
            for p in study.progress() {
                if p.withdrawn {
                    writeln!(out, "{:<12} {:<12} withdrew (their data deleted)", p.id, "")?;
                    continue;
                }
                let now = if p.decisions > 0 { format!("{} decisions", p.decisions) } else { "-".into() };
                let practice = if p.practice > 0 && p.practice_played < p.practice {
                    format!(" (practice {} of {})", p.practice_played, p.practice)
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "{:<12} {:<12} {:>6} {:>6}  {now}{practice}",
                    p.id, p.condition, p.played, p.games
                )?;
            }
        }
        StudyCommand::Simulate { dir, agent } => {
            let mut study = Study::open(dir, crate::registry())?;
            let tokens: Vec<String> = study.file().participants.iter().map(|p| p.token.clone()).collect();
            let mut games = 0usize;
            for token in tokens {
                let who = study.who(&token).expect("the study's own token");
                if study.withdrawn(who) {
                    continue;
                }
                let mut player =
                    crate::registry().build_seated(agent).map_err(|e| anyhow!("--agent: {e}"))?;
                let mut rng: Option<(u64, AgentRng)> = None;
                let before = study.games(who).len();
                while let Turn::Decide(p) = study.turn(who)? {
                    if rng.as_ref().is_none_or(|(g, _)| *g != p.setup.game) {
                        player.begin_hand();
                        rng = Some((
                            p.setup.game,
                            seat_rngs(p.setup.rng_seed)[p.setup.human_seat.index()].clone(),
                        ));
                    }
                    let r = &mut rng.as_mut().expect("set above").1;
                    let d = match &mut player {
                        tresillo_agents::cheat::Seated::Fair(a) => a.decide(&p.view, r),
                        tresillo_agents::cheat::Seated::Cheat(_) => {
                            bail!("--agent: {agent} sees every hand; a participant sees only their own")
                        }
                    }
                    .map_err(|f| anyhow!("{agent} failed: {f}"))?;
                    study.decide(who, p.at, d)?;
                }
                games += study.games(who).len() - before;
            }
            writeln!(out, "played {games} games with {agent} in the human's seat")?;
        }
        StudyCommand::Export { dir, out: to, format, baseline } => {
            let study = Study::open(dir, crate::registry())?;
            let e = tresillo_study::export(&study, to, *format).map_err(|e| anyhow!(e))?;
            writeln!(out, "wrote {} rows ({} deals) to {}", e.rows, e.deals, to.display())?;
            if let Some(agent) = baseline {
                let b = to.join("baseline");
                let n = tresillo_study::export_baseline(&study, &b, agent).map_err(|e| anyhow!(e))?;
                writeln!(out, "wrote {n} rows of {agent} in the participants' seats to {}", b.display())?;
            }
        }
    }
    Ok(())
}
