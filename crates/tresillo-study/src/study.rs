//! The state of a study: which game each participant plays next, their games one
//! decision at a time (opponents answering in between), every decision journaled
//! before it is acknowledged, and the finished games. What a web server calls.
//!
//! `Study` assigns (deal, seat) places, plays a participant's game one decision at a
//! time (opponents seeded as a tournament's seating), records finished games
//! (`record_game`) and reports progress; deal rows come from `tresillo_sim::deal_row`,
//! the tournament's.
//!
//! A participant's game is the table's game loop ([`Table`], shared with `tresillo
//! serve`: checked on a copy, journaled, applied, finished into a record), and
//! their journal the table's ([`Journal`], docs/JOURNAL.md); the study adds its
//! conditions, practice deals, consent, questions and withdrawal.

use crate::error::{GameError, SetupError};
use crate::file::{BookSource, FileError, MAX_ANSWER, Question, StudyFile, When};
use crate::store::files::{GAMES_DIR, read, study_file};
use crate::token::find_token;
use std::path::{Path, PathBuf};
use tresillo_agents::{Registry, seat_rngs};
use tresillo_core::{
    Deal, Decision, Hand, HandError, LedgerConfig, PlayerView, Request, Rules, Scorer, ScoringMode, Seat,
};
use tresillo_sim::book::{BookDeal, DealBook};
use tresillo_sim::{DealRow, HandRecord, Step, TournamentOrigin, deal_row, deal_seed, seating_index};
use tresillo_table::journal::{Entry, Journal, Place};
use tresillo_table::table::{HandSetup, Table, TableError};

/// A participant of an open study, found from their token ([`Study::who`]); the
/// only way to reach their games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Who(usize);

/// One game a participant plays: everything about it. `deal` holds every hand:
/// a server must never send it to the participant (send [`Pending::view`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GameSetup {
    /// The participant's id.
    pub participant: String,
    /// The participant's game, from 0.
    pub game: u64,
    /// How many games the participant plays.
    pub games: u64,
    /// The deal's index in the book (the `deal` column of the export).
    pub deal_index: u64,
    /// The deal's seed (`deal_seed` column): the book's seed, or for a dealt
    /// line the generators' seed, as a tournament on the book has it.
    pub deal_seed: u64,
    /// The cards, seated: every hand and the heap.
    pub deal: Deal,
    /// The dealer (deal index modulo the players, as in a tournament).
    pub dealer: Seat,
    /// The participant's seat.
    pub human_seat: Seat,
    /// The seating (`seating` column): the agent slot of each seat, slot 0 the
    /// participant, slots 1.. the opponents in the study file's order.
    pub seating: &'static str,
    /// Who sits in each seat: `human:ID` in the participant's, opponents' specs.
    pub agents: Vec<String>,
    /// The rule set and options.
    pub rules: Rules,
    /// Seats at the table.
    pub players: u8,
    /// The seed of the seats' generators (the opponents'): a tournament's for
    /// this deal and seating.
    pub rng_seed: u64,
    /// A practice deal (the study file's `[practice]`): played first, journaled,
    /// neither scored nor exported as a result. `deal_index` is then the
    /// practice deal's index and `deal_seed` its seed.
    pub practice: bool,
    /// The participant's condition (its name).
    pub condition: String,
}

/// The participant's decision is awaited.
#[derive(Clone, Debug)]
pub struct Pending {
    /// The game.
    pub setup: GameSetup,
    /// What the participant's seat sees (their hand and the public history).
    pub view: PlayerView,
    /// The decision asked for, with what is legal.
    pub request: Request,
    /// Decisions made so far in the game (all seats): [`Study::decide`] takes it
    /// back, so that a repeated or late request changes nothing.
    pub at: usize,
    /// The game's decisions so far (all seats; another seat's discard is secret:
    /// show its count only).
    pub steps: Vec<Step>,
}

/// Where a participant stands.
#[derive(Clone, Debug)]
pub enum Turn {
    /// Their decision is awaited.
    Decide(Box<Pending>),
    /// Every game assigned to them is played.
    Done,
}

/// What [`Study::decide`] did.
#[derive(Clone, Debug)]
pub struct Decided {
    /// The game this decision finished, if it did (its record, stored).
    pub finished: Option<Box<HandRecord>>,
    /// What comes next.
    pub next: Turn,
}

/// A participant's progress, for the researcher (no token in it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The participant's id.
    pub id: String,
    /// The participant's condition.
    pub condition: String,
    /// Games finished (scored: practice deals not counted).
    pub played: u64,
    /// Games assigned (scored).
    pub games: u64,
    /// Practice deals finished.
    pub practice_played: u64,
    /// Practice deals assigned.
    pub practice: u64,
    /// The participant withdrew (their data deleted: everything else here is 0).
    pub withdrawn: bool,
    /// Decisions made in the game in progress (0: none started).
    pub decisions: usize,
    /// When the participant last did something journaled with a time (the
    /// consent, a decision at a server, a misclick, a tab change):
    /// milliseconds since 1970; None before any.
    pub last_at: Option<u64>,
}

/// Why a study call failed. [`StudyError::is_client_error`] tells a request's
/// fault (a 4xx) from the study's.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// The study directory, file, book or a journal is bad (one line naming the
    /// file and line).
    #[error("{0}")]
    Setup(String),
    /// The study file is refused: the file, the line and the key.
    #[error("{}: {error}", path.display())]
    File {
        /// The study file.
        path: std::path::PathBuf,
        /// Why.
        error: FileError,
    },
    /// The study file changed beyond new participants while the study ran.
    #[error("{}: changed since the study was opened (only participants may be added while it runs)", .0.display())]
    Changed(std::path::PathBuf),
    /// The study file or its directory could not be read.
    #[error(transparent)]
    Read(#[from] SetupError),
    /// A file could not be written: nothing was acknowledged.
    #[error("{0}")]
    Store(String),
    /// An opponent failed or made an illegal decision.
    #[error("opponent {0}")]
    Opponent(tresillo_table::table::BotError),
    /// Every game of the participant is played.
    #[error("every game of this participant is played")]
    Finished,
    /// The decision answers another moment of the game (repeated or late).
    #[error("the game is at decision {expected}, not {given} (a repeated or late request)")]
    Stale {
        /// The `at` given.
        given: usize,
        /// The game's.
        expected: usize,
    },
    /// The decision is not legal now.
    #[error("illegal decision: {0}")]
    Illegal(HandError),
    /// A game record handed to [`Study::record_game`] is not the game expected.
    #[error("record refused: {0}")]
    Record(String),
    /// The participant's game is out of the study ([`Study::lend`]) until it is
    /// given back: another request of theirs is being answered.
    #[error("this participant's game is being played by another request")]
    Busy,
    /// The participant withdrew from the study: nothing more is recorded.
    #[error("this participant withdrew from the study (their data was deleted)")]
    Withdrawn,
}

impl StudyError {
    /// Whether the request was at fault (malformed, late or illegal: a 4xx that
    /// changed nothing), rather than the study.
    #[must_use]
    pub fn is_client_error(&self) -> bool {
        matches!(
            self,
            StudyError::Finished
                | StudyError::Stale { .. }
                | StudyError::Illegal(_)
                | StudyError::Record(_)
                | StudyError::Busy
                | StudyError::Withdrawn
        )
    }
}

struct Live {
    setup: GameSetup,
    /// The hand at the table, the opponents by seat (none in the participant's).
    table: Table,
    /// The game's record when a decision applied but not yet journaled ended it
    /// ([`Lent::think`] journals it).
    done: Option<HandRecord>,
}

impl Live {
    /// Decisions journaled before a restart (`journal` names the file in
    /// errors), played again: each opponent asked again first so that its
    /// generator and state are as they were (a deterministic opponent answers
    /// the same; the journal's answer stands).
    fn replay(&mut self, steps: Vec<Step>, journal: &Path) -> Result<(), StudyError> {
        let game = self.setup.game;
        let bad = |why: String| StudyError::Setup(format!("{}: game {game}: {why}", journal.display()));
        for step in steps {
            match self.table.replay(step, true) {
                Ok(done) => self.done = done.or(self.done.take()),
                Err(TableError::Illegal(e)) => return Err(bad(e.to_string())),
                Err(_) => return Err(bad(format!("a decision of seat {} out of turn", step.seat.0))),
            }
        }
        Ok(())
    }
}

struct Person {
    /// `None` while the game is lent ([`Study::lend`]).
    journal: Option<Journal>,
    /// The game's decisions when it was lent, while it is.
    lent: Option<usize>,
    /// The consent text the participant accepted (journaled), if they did.
    consented: Option<String>,
    finished: Vec<HandRecord>,
    /// Decisions of the game in progress read from the journal at open, played
    /// again when the participant comes back.
    pending: Vec<Step>,
    live: Option<Live>,
    /// Since when the participant's turn has been ready (the server's clock).
    turn_since: Option<std::time::Instant>,
    /// The journaled events (game, event), for the export.
    events: Vec<(u64, serde_json::Value)>,
    /// The journaled answers to the study file's questions (game, answer).
    answers: Vec<(u64, serde_json::Value)>,
    /// When the participant withdrew (ms since 1970), if they did.
    withdrawn: Option<u64>,
}

impl Person {
    fn new(journal: Journal) -> Person {
        Person {
            journal: Some(journal),
            lent: None,
            consented: None,
            finished: Vec::new(),
            pending: Vec::new(),
            live: None,
            turn_since: None,
            events: Vec::new(),
            answers: Vec::new(),
            withdrawn: None,
        }
    }

    /// Refuses a participant who withdrew, or whose game is lent.
    fn active(&self) -> Result<(), StudyError> {
        if self.withdrawn.is_some() {
            return Err(StudyError::Withdrawn);
        }
        if self.lent.is_some() {
            return Err(StudyError::Busy);
        }
        Ok(())
    }
}

/// Most events ([`Study::event`]) a participant's game keeps; past it they
/// are not journaled.
pub const MAX_EVENTS_PER_GAME: usize = 200;

/// Milliseconds since 1970 (UTC).
fn unix_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// An open study directory.
pub struct Study {
    dir: PathBuf,
    file: StudyFile,
    book: DealBook,
    /// The practice deals (empty without `[practice]`).
    practice: DealBook,
    registry: Registry,
    people: Vec<Person>,
}

impl std::fmt::Debug for Study {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Study").field("dir", &self.dir).field("participants", &self.people.len()).finish()
    }
}

/// The seating of a table of `players` with the participant (slot 0) in `human`
/// and the opponents' slots 1.. in the other seats in order.
fn seating_of(players: u8, human: Seat) -> Vec<u8> {
    let mut next = 1u8;
    (0..players)
        .map(|s| {
            if s == human.0 {
                0
            } else {
                next += 1;
                next - 1
            }
        })
        .collect()
}

impl Study {
    /// Opens the study in `dir` (its `study.toml` and the journals under
    /// `games/`), opponents built from `registry` (the CLI's: built-in agents and
    /// external bots). Every journaled game is checked against the study (deal,
    /// seat, opponents) and replayed; a game in progress continues where its last
    /// acknowledged decision left it.
    pub fn open(dir: &Path, registry: Registry) -> Result<Study, StudyError> {
        let path = study_file(dir);
        let text = read(&path)?;
        let at = |error: FileError| StudyError::File { path: path.clone(), error };
        let file = StudyFile::read(&text).map_err(at)?;
        file.check_opponents(&text, &registry).map_err(at)?;
        let book = match &file.book {
            BookSource::Seed { seed, count } => {
                DealBook::of_seeds(&(0..*count).map(|i| deal_seed(*seed, i)).collect::<Vec<_>>())
            }
            BookSource::File { path: p, .. } => {
                tresillo_deals::read_book(&dir.join(p)).map_err(|e| StudyError::Setup(format!("{e:#}")))?
            }
        };
        file.check_book_size(&text, book.len()).map_err(at)?;
        let practice = DealBook::of_seeds(
            &file.practice.map_or_else(Vec::new, |p| (0..p.count).map(|i| deal_seed(p.seed, i)).collect()),
        );
        let mut study = Study { dir: dir.to_path_buf(), file, book, practice, registry, people: Vec::new() };
        for p in 0..study.file.participants.len() {
            let person = study.load_person(p)?;
            study.people.push(person);
        }
        Ok(study)
    }

    /// Participant `p`'s journal read and checked against the study.
    fn load_person(&self, p: usize) -> Result<Person, StudyError> {
        let id = &self.file.participants[p].id;
        let jpath = self.dir.join(GAMES_DIR).join(format!("{id}.jsonl"));
        let opened = Journal::open(&jpath).map_err(|e| StudyError::Setup(e.to_string()))?;
        if opened.header.is_some() {
            return Err(StudyError::Setup(format!(
                "{}:1: a header in a participant's journal",
                jpath.display()
            )));
        }
        let (journal, entries) = (opened.journal, opened.entries);
        let mut person = Person::new(journal);
        let total = self.total_games();
        for (line, entry) in entries {
            let bad = |why: String| StudyError::Setup(format!("{}:{line}: {why}", jpath.display()));
            if person.withdrawn.is_some() {
                return Err(bad("a line after the participant's withdrawal".into()));
            }
            let next = person.finished.len() as u64;
            let game = entry.place().game_or_0();
            match &entry {
                Entry::Step { .. } | Entry::Record { .. } => {}
                Entry::Consent { text, .. } => {
                    person.consented = Some(text.clone());
                    continue;
                }
                Entry::Event { event, .. } => {
                    person.events.push((game, event.clone()));
                    continue;
                }
                Entry::Answer { answer, .. } => {
                    person.answers.push((game, answer.clone()));
                    continue;
                }
                Entry::Withdrawn { ms, .. } => {
                    if line != 1 {
                        return Err(bad("a withdrawal after other lines (it replaces the journal)".into()));
                    }
                    person.withdrawn = Some(*ms);
                    continue;
                }
                Entry::Undo { .. } => return Err(bad("an undo in a participant's journal".into())),
            }
            if game != next || next >= total {
                return Err(bad(format!(
                    "game {game}, but the participant's next game is {next} of {total}"
                )));
            }
            match entry {
                Entry::Step { step, .. } => person.pending.push(step),
                Entry::Record { record, .. } => {
                    if !person.pending.is_empty() && person.pending != record.decisions {
                        return Err(bad("the record's decisions are not the journaled ones".into()));
                    }
                    self.check_record(p, game, &record).map_err(|e| bad(e.to_string()))?;
                    person.finished.push(*record);
                    person.pending.clear();
                }
                Entry::Consent { .. }
                | Entry::Event { .. }
                | Entry::Answer { .. }
                | Entry::Withdrawn { .. }
                | Entry::Undo { .. } => {
                    unreachable!("taken above")
                }
            }
        }
        Ok(person)
    }

    /// Reads the study file again and takes in the participants added since it
    /// was read ([`crate::add_participant`] appends them): their tokens work from
    /// now on. Everything else in the file must be as it was, and the
    /// participants read before must still be its first ones (ids and tokens);
    /// otherwise nothing changes and the error says what differs. Returns how
    /// many participants were added.
    pub fn reload_participants(&mut self) -> Result<usize, StudyError> {
        let path = study_file(&self.dir);
        let text = read(&path)?;
        let at = |error: FileError| StudyError::File { path: path.clone(), error };
        let file = StudyFile::read(&text).map_err(at)?;
        let known = self.file.participants.len();
        let mut same = file.clone();
        same.participants.truncate(known);
        same.assigned.truncate(known);
        if same != self.file {
            return Err(StudyError::Changed(path));
        }
        file.check_book_size(&text, self.book.len()).map_err(at)?;
        let added = file.participants.len() - known;
        let old = std::mem::replace(&mut self.file, file);
        let mut people = Vec::with_capacity(added);
        for p in known..self.file.participants.len() {
            match self.load_person(p) {
                Ok(person) => people.push(person),
                Err(e) => {
                    self.file = old;
                    return Err(e);
                }
            }
        }
        self.people.extend(people);
        Ok(added)
    }

    /// The study file as read.
    #[must_use]
    pub fn file(&self) -> &StudyFile {
        &self.file
    }

    /// The study's directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The deal book.
    #[must_use]
    pub fn book(&self) -> &DealBook {
        &self.book
    }

    /// The consent text, shown before the first game.
    #[must_use]
    pub fn consent(&self) -> &str {
        &self.file.consent
    }

    /// Whether the participant accepted the consent text (journaled by
    /// [`Study::accept_consent`]).
    #[must_use]
    pub fn consented(&self, who: Who) -> bool {
        self.people[who.0].consented.is_some()
    }

    /// The participant accepts the consent text: journaled (with the text as it
    /// is now) and flushed to disk before it returns. Accepting again changes
    /// nothing.
    pub fn accept_consent(&mut self, who: Who) -> Result<(), StudyError> {
        let person = &mut self.people[who.0];
        person.active()?;
        if person.consented.is_some() {
            return Ok(());
        }
        let text = self.file.consent.clone();
        let game = person.finished.len() as u64;
        let event = serde_json::json!({"kind": "consent", "at": unix_ms()});
        person
            .journal_mut()?
            .append(&[
                Entry::Consent { place: Place::game(game), text: text.clone() },
                Entry::Event { place: Place::game(game), event: event.clone() },
            ])
            .map_err(store)?;
        person.consented = Some(text);
        person.events.push((game, event));
        Ok(())
    }

    /// Journals what the page saw the participant do beyond decisions
    /// (`misclick` on an illegal `card`, the tab `hidden` or `visible`), with
    /// the time, flushed to disk; at most [`MAX_EVENTS_PER_GAME`] a game (past
    /// it nothing is written).
    pub fn event(&mut self, who: Who, kind: &str, card: Option<&str>) -> Result<(), StudyError> {
        if !matches!(kind, "misclick" | "hidden" | "visible") {
            return Err(StudyError::Record(format!("unknown event `{kind}`: misclick, hidden or visible")));
        }
        let person = &mut self.people[who.0];
        person.active()?;
        let game = person.finished.len() as u64;
        if person.events.iter().filter(|(g, _)| *g == game).count() >= MAX_EVENTS_PER_GAME {
            return Ok(());
        }
        let mut event = serde_json::json!({"kind": kind, "at": unix_ms()});
        if let Some(live) = &person.live {
            event["decision"] = live.table.steps.len().into();
        }
        if let Some(c) = card {
            event["card"] = c.into();
        }
        person
            .journal_mut()?
            .append(&[Entry::Event { place: Place::game(game), event: event.clone() }])
            .map_err(store)?;
        person.events.push((game, event));
        Ok(())
    }

    /// Every participant's journaled events (participant id, game, event), in
    /// order: the export's `events.csv`.
    #[must_use]
    pub fn events(&self) -> Vec<(&str, u64, &serde_json::Value)> {
        self.people
            .iter()
            .enumerate()
            .flat_map(|(p, person)| {
                let id = self.file.participants[p].id.as_str();
                person.events.iter().map(move |(g, e)| (id, *g, e))
            })
            .collect()
    }

    /// Every participant's journaled answers (participant index, game,
    /// answer), in order: the export's `questionnaire.csv`.
    #[must_use]
    pub fn answers(&self) -> Vec<(usize, u64, &serde_json::Value)> {
        self.people
            .iter()
            .enumerate()
            .flat_map(|(p, person)| person.answers.iter().map(move |(g, a)| (p, *g, a)))
            .collect()
    }

    /// Whether the participant withdrew.
    #[must_use]
    pub fn withdrawn(&self, who: Who) -> bool {
        self.people[who.0].withdrawn.is_some()
    }

    /// The participant withdraws: their journal is replaced, atomically and
    /// durably, by one line saying when they withdrew, so their games, answers
    /// and events are deleted from the study's storage; from now on nothing of
    /// theirs is recorded (their calls get [`StudyError::Withdrawn`]) and an
    /// export lists only their id among the withdrawn. Withdrawing again changes
    /// nothing. Exports made before are not touched (docs/STUDY.md).
    pub fn withdraw(&mut self, who: Who) -> Result<(), StudyError> {
        let person = &mut self.people[who.0];
        if person.withdrawn.is_some() {
            return Ok(());
        }
        if person.lent.is_some() {
            return Err(StudyError::Busy);
        }
        let at = unix_ms();
        let old = person.journal.take().ok_or(StudyError::Busy)?;
        let path = old.path().to_path_buf();
        match old.replace(&[Entry::Withdrawn { place: Place::game(0), ms: at }]) {
            Ok(journal) => {
                *person = Person::new(journal);
                person.withdrawn = Some(at);
                Ok(())
            }
            Err(e) => {
                // The file is as it was (the replacement is atomic): keep it.
                let opened = Journal::open(&path).map_err(store)?;
                person.journal = Some(opened.journal);
                Err(store(e))
            }
        }
    }

    /// The question the participant must answer now, if any: after the consent,
    /// each `before` question until it is answered (correctly, when it must be);
    /// after the last game, each `after` question likewise. A server shows it
    /// before the next game or the end page ([`Study::turn`] does not wait for
    /// it: `tresillo study simulate` answers none).
    #[must_use]
    pub fn question_due(&self, who: Who) -> Option<&Question> {
        let person = &self.people[who.0];
        if person.withdrawn.is_some() || person.consented.is_none() {
            return None;
        }
        let done = person.finished.len() as u64 >= self.total_games();
        self.file.questions.iter().find(|q| {
            (q.when == When::Before || done)
                && !person.answers.iter().any(|(_, a)| {
                    a["question"] == q.id.as_str() && (!q.must_be_correct || a["correct"] == true)
                })
        })
    }

    /// The participant answers question `question` (the one [`Study::question_due`]
    /// gives): a choice of its, or for a free-text question a text of 1 to
    /// [`MAX_ANSWER`] bytes. Journaled with its time (and `page_ms`, from the
    /// question shown to the answer by the page's clock) and whether it is
    /// correct, flushed to disk. Returns whether it is correct (`None`: the
    /// question has no correct answer).
    pub fn answer(
        &mut self,
        who: Who,
        question: &str,
        answer: &str,
        page_ms: Option<u64>,
    ) -> Result<Option<bool>, StudyError> {
        self.people[who.0].active()?;
        let Some(q) = self.question_due(who) else {
            return Err(StudyError::Record(format!("question `{question}` is not asked now")));
        };
        if q.id != question {
            return Err(StudyError::Record(format!(
                "question `{question}` is not asked now (`{}` is)",
                q.id
            )));
        }
        if q.choices.is_empty() {
            if answer.trim().is_empty() || answer.len() > MAX_ANSWER {
                return Err(StudyError::Record(format!("an answer is 1 to {MAX_ANSWER} bytes of text")));
            }
        } else if !q.choices.iter().any(|c| c == answer) {
            return Err(StudyError::Record(format!("{answer:?} is not a choice of question `{question}`")));
        }
        let correct = q.correct(answer);
        let mut a =
            serde_json::json!({"question": question, "answer": answer, "correct": correct, "at": unix_ms()});
        if let Some(ms) = page_ms {
            a["page_ms"] = ms.into();
        }
        let person = &mut self.people[who.0];
        let game = person.finished.len() as u64;
        person
            .journal_mut()?
            .append(&[Entry::Answer { place: Place::game(game), answer: a.clone() }])
            .map_err(store)?;
        person.answers.push((game, a));
        Ok(correct)
    }

    /// Whether `token` is the study's researcher token (`researcher_token` in the
    /// study file; compared in constant time). Always false without one.
    #[must_use]
    pub fn is_researcher(&self, token: &str) -> bool {
        self.file.researcher_token.as_deref().is_some_and(|t| find_token([t], token).is_some())
    }

    /// The participant whose token is `token` (compared in constant time with
    /// every participant's), or `None`.
    #[must_use]
    pub fn who(&self, token: &str) -> Option<Who> {
        find_token(self.file.participants.iter().map(|p| p.token.as_str()), token).map(Who)
    }

    /// The participant's id.
    #[must_use]
    pub fn id(&self, who: Who) -> &str {
        &self.file.participants[who.0].id
    }

    /// Game `game` of participant `p` (docs/STUDY.md, "Which deals"): place
    /// `p * K + game` of the sequence that runs through the book once per human
    /// seat.
    fn setup(&self, p: usize, game: u64) -> GameSetup {
        let f = &self.file;
        let k = f.deals_per_participant;
        let practice = f.practice_count();
        let cond = f.condition_of(p);
        let (deal_index, human, (seed, deal)) = if game < practice {
            let seed = f.practice.map_or(0, |x| x.seed);
            (game, f.human_seats[0], self.practice.deal(seed, game))
        } else {
            // The participant's rank among their condition's: each condition
            // runs through the book on its own.
            let rank = f.assigned[..p].iter().filter(|&&a| a == f.assigned[p]).count() as u64;
            let n = self.book.len();
            let place = rank * k + (game - practice);
            let deal_index = place % n;
            (deal_index, f.human_seats[(place / n) as usize], self.book.deal(f.book.seed(), deal_index))
        };
        let dealer = Seat((deal_index % u64::from(f.players)) as u8);
        let deal = deal.seated(cond.rules.table(f.players), dealer);
        let seating = seating_of(f.players, human);
        let name = tresillo_sim::seating_name(&seating);
        let index = seating_index(name).expect("a seating of the table");
        let agents = self.slot_agents(p);
        GameSetup {
            participant: f.participants[p].id.clone(),
            game,
            games: k + practice,
            deal_index,
            deal_seed: seed,
            deal,
            dealer,
            human_seat: human,
            seating: name,
            agents: seating.iter().map(|&s| agents[usize::from(s)].clone()).collect(),
            rules: cond.rules,
            players: f.players,
            rng_seed: tresillo_sim::seating_rng_seed(seed, index),
            practice: game < practice,
            condition: cond.name.clone(),
        }
    }

    /// Games each participant plays: the practice deals, then the scored.
    fn total_games(&self) -> u64 {
        self.file.practice_count() + self.file.deals_per_participant
    }

    /// The agents by slot for participant `p`: `human:ID`, then their
    /// condition's opponents.
    fn slot_agents(&self, p: usize) -> Vec<String> {
        std::iter::once(format!("human:{}", self.file.participants[p].id))
            .chain(self.file.condition_of(p).opponents.iter().cloned())
            .collect()
    }

    /// The game the participant plays next (whether started or not), or `None`
    /// when every game is played. Its `deal` is secret (see [`GameSetup`]).
    #[must_use]
    pub fn next_game(&self, who: Who) -> Option<GameSetup> {
        let person = &self.people[who.0];
        let played = person.finished.len() as u64;
        (person.withdrawn.is_none() && played < self.total_games()).then(|| self.setup(who.0, played))
    }

    /// The participant's finished games, in order (their own only).
    #[must_use]
    pub fn games(&self, who: Who) -> &[HandRecord] {
        &self.people[who.0].finished
    }

    /// Every participant's progress, in the study file's order.
    #[must_use]
    pub fn progress(&self) -> Vec<Progress> {
        self.people
            .iter()
            .zip(&self.file.participants)
            .enumerate()
            .map(|(p, (person, part))| Progress {
                id: part.id.clone(),
                condition: self.file.condition_of(p).name.clone(),
                played: (person.finished.len() as u64).saturating_sub(self.file.practice_count()),
                games: self.file.deals_per_participant,
                practice_played: (person.finished.len() as u64).min(self.file.practice_count()),
                practice: self.file.practice_count(),
                withdrawn: person.withdrawn.is_some(),
                decisions: person.lent.unwrap_or_else(|| {
                    person.live.as_ref().map_or(person.pending.len(), |l| l.table.steps.len())
                }),
                last_at: person.events.iter().filter_map(|(_, e)| e["at"].as_u64()).max(),
            })
            .collect()
    }

    /// Where the participant stands: their decision awaited in the game in
    /// progress, or the next game started (opponents deciding until the
    /// participant's turn, each of their decisions journaled), or [`Turn::Done`].
    pub fn turn(&mut self, who: Who) -> Result<Turn, StudyError> {
        loop {
            if !self.ensure_live(who.0)? {
                return Ok(Turn::Done);
            }
            self.advance(who.0)?;
            let person = &mut self.people[who.0];
            if let Some(live) = &person.live {
                let seat = live.setup.human_seat;
                let t = &live.table;
                if t.turn() == Some(seat) {
                    person.turn_since.get_or_insert_with(std::time::Instant::now);
                }
                return Ok(Turn::Decide(Box::new(Pending {
                    setup: live.setup.clone(),
                    view: t.hand.view(seat),
                    request: t.hand.request(),
                    at: t.steps.len(),
                    steps: t.steps.clone(),
                })));
            }
            // The game ended without the participant's decision (a seat that sat
            // out): the next one.
        }
    }

    /// The participant's decision `d`, given at decision `at` of the game (from
    /// [`Pending::at`]). It is checked (the participant's turn, that moment,
    /// legal), journaled and flushed to disk, then the opponents answer until the
    /// participant's next turn. A refused decision changes nothing.
    pub fn decide(&mut self, who: Who, at: usize, d: Decision) -> Result<Decided, StudyError> {
        let Turn::Decide(_) = self.turn(who)? else {
            return Err(StudyError::Finished);
        };
        let mut out = self.lend_decision(who, at, d)?;
        out.think();
        let finished = self.give_back(out)?;
        let next = self.turn(who)?;
        Ok(Decided { finished, next })
    }

    /// The participant's game taken out of the study so that its opponents think
    /// without it (a server holds the study's lock only to lend and to give
    /// back): `None` when it is the participant's turn or every game is played,
    /// else the game, whose opponents decide in [`Lent::think`]. Until
    /// [`Study::give_back`], the participant's calls get [`StudyError::Busy`];
    /// other participants are served. A game to rebuild from the journal after a
    /// restart is lent at its start, and [`Lent::think`] plays its journaled
    /// decisions again first (its opponents asked again without the study).
    pub fn lend(&mut self, who: Who) -> Result<Option<Lent>, StudyError> {
        let person = &self.people[who.0];
        if person.withdrawn.is_some() {
            return Err(StudyError::Withdrawn);
        }
        if person.lent.is_none()
            && person.live.is_none()
            && !person.pending.is_empty()
            && let Some(live) = self.start_live(who.0)?
        {
            let steps = std::mem::take(&mut self.people[who.0].pending);
            self.people[who.0].live = Some(live);
            return Ok(Some(self.take(who, None, steps)));
        }
        if !self.ensure_live(who.0)? {
            return Ok(None);
        }
        let live = self.people[who.0].live.as_ref().expect("a live game");
        if live.table.turn() == Some(live.setup.human_seat) {
            return Ok(None);
        }
        Ok(Some(self.take(who, None, Vec::new())))
    }

    /// As [`Study::decide`] without running the opponents: the decision `d` at
    /// decision `at` is checked (the participant's turn, that moment, legal) and
    /// the game lent with it; [`Lent::think`] journals it (flushed to disk) with
    /// the opponents' answers, and [`Study::give_back`] takes the game back. A
    /// refused decision changes nothing. Call [`Study::lend`] (and think) first if
    /// the opponents may be to move.
    pub fn lend_decision(&mut self, who: Who, at: usize, d: Decision) -> Result<Lent, StudyError> {
        self.lend_with(who, at, d, None)
    }

    /// [`Study::lend_decision`] with the page's own measure of the time taken
    /// (`page_ms`): a `decision` event is journaled with the decision (its
    /// `server_ms` from the moment [`Study::turn`] first gave this turn).
    pub fn lend_decision_timed(
        &mut self,
        who: Who,
        at: usize,
        d: Decision,
        page_ms: Option<u64>,
    ) -> Result<Lent, StudyError> {
        self.lend_with(who, at, d, Some(page_ms))
    }

    /// [`Study::lend_decision`], journaling a `decision` event when `timed`
    /// (a person's decision at a server; `study simulate` journals none, so
    /// that its journals are the same at every run).
    fn lend_with(
        &mut self,
        who: Who,
        at: usize,
        d: Decision,
        timed: Option<Option<u64>>,
    ) -> Result<Lent, StudyError> {
        if !self.ensure_live(who.0)? {
            return Err(StudyError::Finished);
        }
        let live = self.people[who.0].live.as_mut().expect("a live game");
        let seat = live.setup.human_seat;
        let t = &live.table;
        if t.turn() != Some(seat) || at != t.steps.len() {
            return Err(StudyError::Stale { given: at, expected: t.steps.len() });
        }
        let next = t.check(seat, d).map_err(|e| match e {
            TableError::Illegal(e) => StudyError::Illegal(e),
            _ => StudyError::Stale { given: at, expected: t.steps.len() },
        })?;
        let since = self.people[who.0].turn_since.take();
        let mut lent = self.take(who, Some((Step { seat, act: d }, next)), Vec::new());
        if let Some(page_ms) = timed {
            let mut event = serde_json::json!({"kind": "decision", "decision": at, "at": unix_ms(),
                "server_ms": since.map(|t| t.elapsed().as_millis() as u64)});
            if let Some(p) = page_ms {
                event["page_ms"] = p.into();
            }
            lent.entries
                .push(Entry::Event { place: Place::game(lent.live.setup.game), event: event.clone() });
            self.people[who.0].events.push((lent.live.setup.game, event));
        }
        Ok(lent)
    }

    /// Takes participant `who`'s live game and journal out (`first`: the
    /// participant's decision, and the hand after it; `replay`: journaled
    /// decisions not yet played in the live game, for [`Lent::think`]).
    fn take(&mut self, who: Who, first: Option<(Step, Hand)>, replay: Vec<Step>) -> Lent {
        let person = &mut self.people[who.0];
        let mut live = person.live.take().expect("a live game");
        let journal = person.journal.take().expect("a participant not lent has a journal");
        let before: Vec<Step> = live.table.steps.iter().chain(&replay).copied().collect();
        person.lent = Some(before.len());
        let mut entries = Vec::new();
        if let Some((step, hand)) = first {
            live.done = live.table.apply(hand, step);
            entries.push(Entry::Step { place: Place::game(live.setup.game), step, timing: None });
        }
        Lent { who, live, journal, before, replay, entries, outcome: None }
    }

    /// Takes back a game lent by [`Study::lend`] or [`Study::lend_decision`]
    /// after [`Lent::think`]: returns the finished game's record, or the
    /// opponent's failure or the journal's. When the journal could not be
    /// written, the game is rebuilt from what was journaled before it was lent
    /// (nothing unacknowledged stays).
    pub fn give_back(&mut self, lent: Lent) -> Result<Option<Box<HandRecord>>, StudyError> {
        let Lent { who, live, journal, before, outcome, .. } = lent;
        let person = &mut self.people[who.0];
        person.journal = Some(journal);
        person.lent = None;
        match outcome.unwrap_or(Err(StudyError::Busy)) {
            Ok(Some(rec)) => {
                person.finished.push((*rec).clone());
                Ok(Some(rec))
            }
            Ok(None) => {
                person.live = Some(live);
                Ok(None)
            }
            Err(e @ StudyError::Opponent(_)) => {
                person.live = Some(live);
                Err(e)
            }
            Err(e) => {
                person.pending = before;
                Err(e)
            }
        }
    }

    /// Stores a game the caller played itself (a server with its own table) as
    /// the participant's next game: it must be that game (deal, dealer, seats'
    /// agents, rule set) and replay (docs/RECORDS.md). Refused while a game is in
    /// progress through [`Study::turn`]. The stored record gets the study's
    /// `seed` and `tournament` coordinates.
    pub fn record_game(&mut self, who: Who, mut record: HandRecord) -> Result<(), StudyError> {
        let person = &self.people[who.0];
        person.active()?;
        if person.live.as_ref().is_some_and(|l| !l.table.steps.is_empty()) || !person.pending.is_empty() {
            return Err(StudyError::Record("a game is in progress through the study's own table".into()));
        }
        let game = person.finished.len() as u64;
        if game >= self.total_games() {
            return Err(StudyError::Finished);
        }
        let setup = self.setup(who.0, game);
        record.seed = self.seed_of(&setup);
        record.tournament = self.origin_of(&setup);
        self.check_record(who.0, game, &record)?;
        let person = &mut self.people[who.0];
        person
            .journal_mut()?
            .append(&[Entry::Record { place: Place::game(game), record: Box::new(record.clone()) }])
            .map_err(store)?;
        person.live = None;
        person.finished.push(record);
        Ok(())
    }

    /// The record's `seed`: the deal's, unless the book line is a dealt hand.
    fn seed_of(&self, s: &GameSetup) -> Option<u64> {
        if s.practice {
            return Some(s.deal_seed);
        }
        match self.book.deals()[s.deal_index as usize] {
            BookDeal::Seed(_) => Some(s.deal_seed),
            BookDeal::Dealt(_) => None,
        }
    }

    /// The record's `tournament` coordinates: the book's seed, the deal and the
    /// seating (none for a practice deal, which is no deal of the book).
    fn origin_of(&self, s: &GameSetup) -> Option<TournamentOrigin> {
        (!s.practice).then(|| TournamentOrigin {
            master_seed: self.file.book.seed(),
            deal: s.deal_index,
            seating: s.seating.to_string(),
        })
    }

    /// Checks that `record` is game `game` of participant `p` and replays.
    fn check_record(&self, p: usize, game: u64, record: &HandRecord) -> Result<(), StudyError> {
        let s = self.setup(p, game);
        let bad = |why: String| Err(StudyError::Record(format!("game {game} of {}: {why}", s.participant)));
        let rules = record.game_rules().map_err(|e| StudyError::Record(e.to_string()))?;
        if rules != s.rules || record.players != s.players {
            return bad("another rule set or table".into());
        }
        if record.deal != s.deal || record.dealer != s.dealer {
            return bad(format!("not the deal of book line {} with dealer {}", s.deal_index, s.dealer.0));
        }
        if record.agents != s.agents {
            return bad(format!("seats {:?}, but the study seats {:?}", record.agents, s.agents));
        }
        record.replay().map_err(|e| StudyError::Record(format!("game {game} of {}: {e}", s.participant)))?;
        Ok(())
    }

    /// Makes sure participant `p` has a live game (started, or rebuilt from the
    /// journal, its opponents asked again here); `false` when every game is
    /// played.
    fn ensure_live(&mut self, p: usize) -> Result<bool, StudyError> {
        self.people[p].active()?;
        if self.people[p].live.is_some() {
            return Ok(true);
        }
        let Some(mut live) = self.start_live(p)? else { return Ok(false) };
        let steps = std::mem::take(&mut self.people[p].pending);
        live.replay(steps, self.people[p].journal_mut()?.path())?;
        self.people[p].live = Some(live);
        Ok(true)
    }

    /// Participant `p`'s next game at its start (the decisions journaled before a
    /// restart not played yet: [`Live::replay`]); `None` when every game is
    /// played.
    fn start_live(&self, p: usize) -> Result<Option<Live>, StudyError> {
        let game = self.people[p].finished.len() as u64;
        if game >= self.total_games() {
            return Ok(None);
        }
        let setup = self.setup(p, game);
        let mut seats = Vec::with_capacity(usize::from(setup.players));
        for (seat, spec) in setup.agents.iter().enumerate() {
            seats.push(if seat == setup.human_seat.index() {
                None
            } else {
                Some(
                    self.registry
                        .build_seated(spec)
                        .map_err(|e| StudyError::Setup(format!("opponent {spec:?}: {e}")))?,
                )
            });
        }
        let hand = HandSetup {
            rules: setup.rules,
            players: setup.players,
            deal: setup.deal,
            dealer: setup.dealer,
            agents: setup.agents.clone(),
            seed: self.seed_of(&setup),
            rng_seed: setup.rng_seed,
            tournament: self.origin_of(&setup),
        };
        let table = Table::new(hand, seats)
            .map_err(|e| StudyError::Setup(format!("deal {}: {e}", setup.deal_index)))?;
        Ok(Some(Live { setup, table, done: None }))
    }

    /// The opponents decide until the participant's turn or the end of the hand
    /// (the game lent and given back, the study held throughout).
    fn advance(&mut self, p: usize) -> Result<Option<Box<HandRecord>>, StudyError> {
        match self.lend(Who(p))? {
            None => Ok(None),
            Some(mut lent) => {
                lent.think();
                self.give_back(lent)
            }
        }
    }

    /// Every finished scored game (practice deals left out) with its export
    /// row's agents (by slot), ordered as a tournament orders its rows: by deal,
    /// then seating.
    #[must_use]
    pub fn finished_games(&self) -> Vec<(GameSetup, &HandRecord, Vec<String>)> {
        let mut out = Vec::new();
        for (p, person) in self.people.iter().enumerate() {
            for (g, rec) in person.finished.iter().enumerate().skip(self.file.practice_count() as usize) {
                out.push((self.setup(p, g as u64), rec, self.slot_agents(p)));
            }
        }
        out.sort_by_key(|(s, _, _)| (s.deal_index, seating_index(s.seating)));
        out
    }
}

impl Study {
    /// The human baseline's games: every finished game of [`Study::finished_games`]
    /// played again on its deal, dealer and seating with `agent` (an agent spec)
    /// in the participant's seat and the same opponents with the same generators,
    /// so that a row of the participant and a row of the agent are on the same
    /// deal in the same seat (`tresillo study export --baseline`).
    ///
    /// # Errors
    /// An agent that cannot be built or fails, as a one-line reason.
    pub fn baseline_games(
        &self,
        agent: &str,
    ) -> Result<Vec<(GameSetup, HandRecord, Vec<String>)>, GameError> {
        let mut out = Vec::new();
        for (setup, _, slots) in self.finished_games() {
            let mut seats = Vec::with_capacity(usize::from(setup.players));
            for (seat, spec) in setup.agents.iter().enumerate() {
                let spec = if seat == setup.human_seat.index() { agent } else { spec.as_str() };
                seats.push(
                    self.registry
                        .build_seated(spec)
                        .map_err(|error| GameError::Agent { spec: spec.to_string(), error })?,
                );
            }
            let mut hand = Hand::with_rules(setup.rules, setup.players, setup.deal, setup.dealer)
                .map_err(|error| GameError::Deal { deal: setup.deal_index, error })?;
            let mut rngs = seat_rngs(setup.rng_seed);
            let mut steps = Vec::new();
            let result = tresillo_agents::play_hand_with(&mut hand, &mut seats, &mut rngs, |h, d| {
                if let Some(seat) = h.request().seat() {
                    steps.push(Step { seat, act: *d });
                }
            })
            .map_err(|error| GameError::Play { deal: setup.deal_index, error })?;
            let mut agents = setup.agents.clone();
            agents[setup.human_seat.index()] = agent.to_string();
            let mut rec = HandRecord::new(setup.rules.set, setup.deal, setup.dealer, agents, steps, result);
            rec.set_rules(&setup.rules);
            rec.rng_seed = Some(setup.rng_seed);
            let mut slots = slots;
            slots[0] = agent.to_string();
            out.push((setup, rec, slots));
        }
        Ok(out)
    }
}

impl Person {
    fn journal_mut(&mut self) -> Result<&mut Journal, StudyError> {
        self.journal.as_mut().ok_or(StudyError::Busy)
    }
}

/// A participant's game out of its [`Study`] ([`Study::lend`],
/// [`Study::lend_decision`]): [`Lent::think`] needs no lock; give it back with
/// [`Study::give_back`].
pub struct Lent {
    who: Who,
    live: Live,
    journal: Journal,
    /// The game's decisions when it was lent (journaled).
    before: Vec<Step>,
    /// Journaled decisions [`Lent::think`] plays again first (a game rebuilt
    /// after a restart: [`Study::lend`]).
    replay: Vec<Step>,
    /// What [`Lent::think`] journals.
    entries: Vec<Entry>,
    outcome: Option<Result<Option<Box<HandRecord>>, StudyError>>,
}

impl std::fmt::Debug for Lent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lent").field("who", &self.who).field("at", &self.live.table.steps.len()).finish()
    }
}

impl Lent {
    /// The participant.
    #[must_use]
    pub fn who(&self) -> Who {
        self.who
    }

    /// The opponents decide until the participant's turn or the end of the hand;
    /// the participant's decision (if lent with one), the opponents' and the
    /// record (at the end) are journaled with one flush. Thinking twice does
    /// nothing more.
    pub fn think(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let steps = std::mem::take(&mut self.replay);
        if let Err(e) = self.live.replay(steps, self.journal.path()) {
            self.outcome = Some(Err(e));
            return;
        }
        let live = &mut self.live;
        let place = Place::game(live.setup.game);
        let mut failure = None;
        while let Some(seat) = live.table.turn() {
            if !live.table.has_bot(seat) {
                break;
            }
            match live.table.play_bot(seat) {
                Ok((step, done)) => {
                    self.entries.push(Entry::Step { place, step, timing: None });
                    live.done = done;
                }
                Err(f) => {
                    failure = Some(f);
                    break;
                }
            }
        }
        let finished = live.done.take().map(Box::new);
        if let Some(rec) = &finished {
            self.entries.push(Entry::Record { place, record: rec.clone() });
        }
        self.outcome = Some(match self.journal.append(&self.entries).map_err(store) {
            Err(e) => Err(e),
            Ok(()) => match failure {
                Some(f) => Err(StudyError::Opponent(f)),
                None => Ok(finished),
            },
        });
    }
}

/// A journal that could not be written or read again: nothing was acknowledged.
fn store(e: impl std::fmt::Display) -> StudyError {
    StudyError::Store(e.to_string())
}

/// The `deals.csv` row of a finished study game (the tournament's schema):
/// `agents` by slot (slot 0 `human:ID`), scored from a fresh ledger as a
/// tournament scores per deal.
pub fn study_row<'a>(
    setup: &GameSetup,
    record: &HandRecord,
    agents: &'a [String],
) -> Result<DealRow<'a>, GameError> {
    let mut ledger = LedgerConfig::with_rules(setup.rules, setup.players);
    ledger.deals = 1;
    let score = Scorer::new(ScoringMode::Deal, ledger).and_then(|mut s| s.apply(&record.result)).map_err(
        |error| GameError::Score { game: setup.game, participant: setup.participant.clone(), error },
    )?;
    let seating: Vec<u8> = setup.seating.bytes().map(|b| b - b'0').collect();
    Ok(deal_row(agents, setup.deal_index, setup.deal_seed, &seating, &record.result, &score))
}
