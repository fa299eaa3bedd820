//! Human studies (issue 38; docs/STUDY.md): people play fixed deals against
//! bots, and their games are compared with bots' on the same deals.
//!
//! A study directory holds `study.toml` ([`StudyFile`]: the deal book, the rule
//! set, the seats humans take, the opponents, the games per participant, a
//! consent text and the participants with their secret tokens) and `games/`, one
//! journal per participant. [`Study`] is the state a web server drives:
//!
//! ```no_run
//! use tresillo_study::{Study, Turn};
//! let mut study = Study::open("my-study".as_ref(), tresillo_agents::Registry::builtin())?;
//! let who = study.who("a participant's token").expect("a known token");
//! if let Turn::Decide(p) = study.turn(who)? {
//!     // Show p.view and p.request; when the participant chooses `d`:
//!     let d = choose(&p.view, &p.request);
//!     let done = study.decide(who, p.at, d)?;
//! }
//! # fn choose(_: &tresillo_core::PlayerView, _: &tresillo_core::Request) -> tresillo_core::Decision { unimplemented!() }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every decision is in the participant's journal, flushed to disk, before
//! [`Study::decide`] returns; [`Study::open`] after a crash continues each game
//! from its last acknowledged decision. [`export`] writes the finished games in
//! the tournament's schema (`deals.csv`, `deals.parquet`) with their records.
//!
//! Only the `store` module touches files.

mod error;
mod file;
mod store;
mod study;
mod token;

pub use error::{GameError, SetupError};
pub use file::{
    Assignment, BookSource, Condition, FileError, MAX_ANSWER, MAX_BOOK, MAX_PRACTICE, Participant, Practice,
    Question, StudyFile, When,
};
pub use store::export::{Exported, export, export_baseline};
pub use store::files::{GAMES_DIR, STUDY_FILE, study_file};
pub use study::{Decided, GameSetup, Lent, Pending, Progress, Study, StudyError, Turn, Who, study_row};
pub use token::{find_token, new_token};
/// The formats [`export`] writes (the tournament's: `deals.csv`, `deals.parquet`).
pub use tresillo_deals::Format;

use std::path::Path;
use tresillo_agents::Registry;
use tresillo_core::Rules;

/// What `tresillo study new` puts in a new study file.
#[derive(Clone, Debug)]
pub struct NewStudy {
    /// A title.
    pub title: String,
    /// The rule set and options.
    pub rules: Rules,
    /// Seats at the table.
    pub players: u8,
    /// The opponents' specs (slots 1..).
    pub opponents: Vec<String>,
    /// The seats humans take.
    pub human_seats: Vec<u8>,
    /// The book's master seed.
    pub seed: u64,
    /// The book's deals.
    pub deals: u64,
    /// Games per participant.
    pub per_participant: u64,
    /// The consent text.
    pub consent: String,
    /// Participant ids (tokens are made for them).
    pub participants: Vec<String>,
}

fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn participant_block(id: &str, token: &str, condition: Option<&str>) -> String {
    let mut b = format!("\n[[participants]]\nid = {}\ntoken = \"{token}\"\n", quoted(id));
    if let Some(c) = condition {
        b.push_str(&format!("condition = {}\n", quoted(c)));
    }
    b
}

/// The text of a new study file (each participant given a fresh token), checked
/// by parsing it back.
pub fn new_study_text(s: &NewStudy) -> Result<String, SetupError> {
    let rules = toml::Value::try_from(s.rules)?;
    let list = |v: Vec<String>| format!("[{}]", v.join(", "));
    let mut text = format!(
        "# A study of tresillo (docs/STUDY.md). The tokens below are secrets: each opens\n\
         # one participant's games. Keep this file private.\n\
         title = {}\n\
         rules = {rules}\n\
         players = {}\n\
         # Agent specs in slots 1.. (slot 0 is the participant), as `tresillo tournament --agents`.\n\
         opponents = {}\n\
         # The seats humans take: one pass over the book per seat.\n\
         human_seats = {}\n\
         deals_per_participant = {}\n\
         consent = {}\n\
         # Opens the researcher's page of `tresillo serve --study` (progress, export).\n\
         researcher_token = \"{}\"\n\
         \n\
         [book]\n\
         # The deals of `tresillo tournament --seed {} --deals {}`.\n\
         seed = {}\n\
         count = {}\n",
        quoted(&s.title),
        s.players,
        list(s.opponents.iter().map(|o| quoted(o)).collect()),
        list(s.human_seats.iter().map(u8::to_string).collect()),
        s.per_participant,
        quoted(&s.consent),
        new_token()?,
        s.seed,
        s.deals,
        s.seed,
        s.deals,
    );
    for id in &s.participants {
        text.push_str(&participant_block(id, &new_token()?, None));
    }
    StudyFile::read(&text)?;
    Ok(text)
}

/// Creates study directory `dir` with a new study file (refused when one
/// exists), after checking its opponents against `registry` and that the book
/// holds every participant's games. Returns each participant's id and token.
pub fn create_study(dir: &Path, s: &NewStudy, registry: &Registry) -> Result<Vec<Participant>, SetupError> {
    let text = new_study_text(s)?;
    let file = StudyFile::read(&text)?;
    file.check_opponents(&text, registry)?;
    file.check_book_size(&text, s.deals)?;
    store::files::create_new(&study_file(dir), &text)?;
    Ok(file.participants)
}

/// The number of deals in the study's book (a book file is read).
fn book_len(dir: &Path, file: &StudyFile) -> Result<u64, SetupError> {
    match &file.book {
        BookSource::Seed { count, .. } => Ok(*count),
        BookSource::File { path, .. } => Ok(tresillo_deals::read_book(&dir.join(path))?.len()),
    }
}

/// Adds participant `id` with a fresh token at the end of `dir`'s study file (the
/// file is appended to, flushed to disk, never rewritten), when the book holds
/// their games too. In a study of several conditions the block names the
/// condition the assignment gives them (`condition = "..."`). Returns the token.
pub fn add_participant(dir: &Path, id: &str) -> Result<String, SetupError> {
    let path = study_file(dir);
    let text = store::files::read(&path)?;
    let before =
        StudyFile::read(&text).map_err(|error| SetupError::StudyFile { path: path.clone(), error })?;
    let token = new_token()?;
    let condition = (before.conditions.len() > 1).then(|| before.next_condition().to_string());
    let mut block = participant_block(id, &token, condition.as_deref());
    if !text.ends_with('\n') && !text.is_empty() {
        block.insert(0, '\n');
    }
    let longer = format!("{text}{block}");
    let participant = |error| SetupError::Participant { path: path.clone(), id: id.to_string(), error };
    let file = StudyFile::read(&longer).map_err(participant)?;
    file.check_book_size(&longer, book_len(dir, &file)?).map_err(participant)?;
    store::files::append(&path, &block)?;
    Ok(token)
}
