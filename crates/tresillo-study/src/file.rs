//! The study file (`study.toml`, docs/STUDY.md): parsed strictly, every error one
//! line naming the line and the key. No I/O here: the caller reads the text.

use serde::Deserialize;
use tresillo_agents::Registry;
use tresillo_core::{Rules, Seat};

/// The longest book a study may draw from a seed.
pub const MAX_BOOK: u64 = 1_000_000;

/// A participant: an identifier the researcher chooses (it names the
/// participant's games in exports and their journal file) and the secret token
/// that opens their games.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Participant {
    /// `[A-Za-z0-9_-]`, 1 to 64 characters, unique in the study.
    pub id: String,
    /// At least 32 characters of `[A-Za-z0-9_-]`, unique in the study.
    pub token: String,
    /// The condition the assignment gave (written by `tresillo study
    /// add-participant`); when present it must be the assignment's.
    #[serde(default)]
    pub condition: Option<String>,
}

/// A condition of the study: what a participant assigned to it plays against.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// `[A-Za-z0-9_-]`, 1 to 64 characters, unique (it names the condition's
    /// export directory).
    pub name: String,
    /// The rule set and options (the study file's `rules` unless the condition
    /// gives its own).
    pub rules: Rules,
    /// The opponents' agent specs, slots 1.. (the study file's `opponents`
    /// unless the condition gives its own).
    pub opponents: Vec<String>,
}

/// How participants are assigned to conditions: permuted blocks. Block *b*
/// (participants *b*·`block` to *b*·`block` + `block` − 1, in the study file's
/// order) holds each condition `block` / conditions times, in an order shuffled
/// by a generator seeded from `seed` and *b*; so within a block the conditions'
/// counts never differ by more than `block` / conditions, and by at most one
/// when `block` is the number of conditions (the default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// The seed of the blocks' shuffles.
    pub seed: u64,
    /// Participants per block: a multiple of the number of conditions.
    pub block: u64,
}

impl Assignment {
    /// The condition (index) of each of the first `n` participants, for `conditions`
    /// conditions. Depends only on the seed, the block and the participant's
    /// place: adding participants never changes the earlier ones'.
    #[must_use]
    pub fn assign(&self, conditions: usize, n: usize) -> Vec<usize> {
        let block = (self.block as usize).max(1);
        let mut out = Vec::with_capacity(n + block);
        let mut b = 0u64;
        while out.len() < n {
            let mut list: Vec<usize> = (0..block).map(|i| i % conditions.max(1)).collect();
            let mut state = self.seed ^ (b + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
            for i in (1..list.len()).rev() {
                let j = ((u128::from(splitmix64(&mut state)) * (i as u128 + 1)) >> 64) as usize;
                list.swap(i, j);
            }
            out.extend(list);
            b += 1;
        }
        out.truncate(n);
        out
    }

    /// The rule in words, for files and pages.
    #[must_use]
    pub fn describe(&self) -> String {
        format!("permuted blocks of {}, seed {}", self.block, self.seed)
    }
}

/// SplitMix64: the assignment's generator (fixed here, so that an assignment
/// never changes with a library's version).
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// When a question is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum When {
    /// After the consent, before the first game (a comprehension check).
    Before,
    /// After the last game, before the end page (a questionnaire).
    After,
}

/// A question of the study's questionnaire or comprehension check.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// `[A-Za-z0-9_-]`, 1 to 64 characters, unique (the export's `question`).
    pub id: String,
    /// The question as shown.
    pub text: String,
    /// The choices offered; none: a free-text answer.
    #[serde(default)]
    pub choices: Vec<String>,
    /// The correct answer (a comprehension question): one of `choices`, or for a
    /// free-text question the text (compared without case and surrounding
    /// spaces).
    #[serde(default)]
    pub answer: Option<String>,
    /// With `answer`: the participant must answer correctly to continue (a wrong
    /// answer is journaled and the question asked again); false: every answer is
    /// only recorded.
    #[serde(default)]
    pub must_be_correct: bool,
    /// When it is asked: `before` the first game or `after` the last (default).
    #[serde(default = "after")]
    pub when: When,
}

fn after() -> When {
    When::After
}

impl Question {
    /// Whether `answer` is correct (`None`: the question has no correct answer).
    #[must_use]
    pub fn correct(&self, answer: &str) -> Option<bool> {
        self.answer.as_ref().map(|a| {
            if self.choices.is_empty() { a.trim().eq_ignore_ascii_case(answer.trim()) } else { a == answer }
        })
    }
}

/// The practice deals every participant plays first (not scored, not exported
/// as results; journaled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Practice {
    /// The master seed of the practice deals (deal *i* is deal *i* of `tresillo
    /// tournament --seed SEED`).
    pub seed: u64,
    /// How many (1 to [`MAX_PRACTICE`]).
    pub count: u64,
}

/// The most practice deals a study may declare.
pub const MAX_PRACTICE: u64 = 20;

/// The longest answer a free-text question takes (bytes).
pub const MAX_ANSWER: usize = 2000;

/// Where the study's deals come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookSource {
    /// `count` deals drawn from the master `seed` as a tournament draws them
    /// (`tresillo tournament --seed SEED --deals COUNT` plays the same deals).
    Seed {
        /// The master seed.
        seed: u64,
        /// How many deals.
        count: u64,
    },
    /// A deal book file (`--deals-from`), relative to the study file; `seed`
    /// seeds the generators of its dealt lines, as `--seed` does.
    File {
        /// The path as written in the study file.
        path: String,
        /// The master seed.
        seed: u64,
    },
}

impl BookSource {
    /// The master seed.
    #[must_use]
    pub fn seed(&self) -> u64 {
        match self {
            BookSource::Seed { seed, .. } | BookSource::File { seed, .. } => *seed,
        }
    }
}

/// A parsed and checked study file.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyFile {
    /// A title for the researcher's page.
    pub title: String,
    /// The rule set and its options (the conditions' default).
    pub rules: Rules,
    /// Seats at the table: 3, or 4.
    pub players: u8,
    /// The opponents' agent specs: agent slots 1, 2 (and 3); slot 0 is the
    /// human (the conditions' default; empty when every condition gives its own).
    pub opponents: Vec<String>,
    /// The conditions (one, named `main`, when the file declares none).
    pub conditions: Vec<Condition>,
    /// How participants are assigned to conditions (with two or more).
    pub assignment: Option<Assignment>,
    /// Each participant's condition (an index of `conditions`), in the
    /// participants' order.
    pub assigned: Vec<usize>,
    /// The practice deals, if any.
    pub practice: Option<Practice>,
    /// The questionnaire and comprehension check, in the order asked.
    pub questions: Vec<Question>,
    /// The seats humans take, one pass over the book each (docs/STUDY.md).
    pub human_seats: Vec<Seat>,
    /// Games each participant plays.
    pub deals_per_participant: u64,
    /// The consent text shown before the first game.
    pub consent: String,
    /// The deal book.
    pub book: BookSource,
    /// The participants, in order (the order assigns their deals).
    pub participants: Vec<Participant>,
    /// The secret that opens the researcher's page of `tresillo serve --study`
    /// (progress and export); none: no researcher's page.
    pub researcher_token: Option<String>,
    /// The code a participant is shown once every game is played, to give a
    /// crowdsourcing site as proof of completion (`completion_code`; letters,
    /// digits, `-` and `_`, at most 64).
    pub completion_code: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    title: String,
    rules: Rules,
    #[serde(default = "three")]
    players: u8,
    #[serde(default)]
    opponents: Option<Vec<String>>,
    #[serde(default)]
    conditions: Vec<RawCondition>,
    #[serde(default)]
    assignment: Option<RawAssignment>,
    #[serde(default)]
    practice: Option<Practice>,
    #[serde(default)]
    questions: Vec<Question>,
    #[serde(default = "seat_zero")]
    human_seats: Vec<u8>,
    deals_per_participant: u64,
    consent: String,
    book: RawBook,
    #[serde(default)]
    participants: Vec<Participant>,
    #[serde(default)]
    researcher_token: Option<String>,
    #[serde(default)]
    completion_code: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCondition {
    name: String,
    #[serde(default)]
    rules: Option<Rules>,
    #[serde(default)]
    opponents: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAssignment {
    seed: Option<u64>,
    #[serde(default)]
    block: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBook {
    seed: Option<u64>,
    count: Option<u64>,
    file: Option<String>,
}

fn three() -> u8 {
    3
}

fn seat_zero() -> Vec<u8> {
    vec![0]
}

/// `line L, column C` of byte offset `at`.
fn position(text: &str, at: usize) -> String {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {column}")
}

/// The line (from 1) of `key = ...` in table `table` (`""`: the top level); for
/// an array of tables, in its `nth` element.
fn key_line(text: &str, table: &str, key: &str, nth: usize) -> Option<usize> {
    let mut current = String::new();
    // Headers `[[table]]` seen so far, and whether the current table is one.
    let mut seen = 0usize;
    let mut array = false;
    for (i, l) in text.lines().enumerate() {
        let l = l.split('#').next().unwrap_or("").trim();
        if let Some(name) = l.strip_prefix("[[").and_then(|r| r.strip_suffix("]]")) {
            current = name.trim().to_string();
            array = true;
            if current == table {
                seen += 1;
            }
        } else if let Some(name) = l.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            current = name.trim().to_string();
            array = false;
        } else if current == table && (!array || seen == nth + 1) {
            let k = l.split('=').next().unwrap_or("").trim().trim_matches('"');
            if k == key && l.contains('=') {
                return Some(i + 1);
            }
        }
    }
    None
}

/// An identifier or token character.
fn token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// A TOML error as one line: its line, the key of that line, the message.
fn toml_error(text: &str, e: &toml::de::Error) -> FileError {
    let at = e.span().map(|s| format!("{}: ", position(text, s.start))).unwrap_or_default();
    // The key of the line the error points at, when it is a `key = value` line.
    let key = e
        .span()
        .and_then(|s| text[..s.start.min(text.len())].lines().last().map(str::to_string))
        .and_then(|l| l.split('=').next().map(|k| k.trim().to_string()))
        .filter(|k| !k.is_empty() && !k.starts_with('[') && !k.contains(char::is_whitespace));
    let msg = e.message().trim().replace('\n', "; ");
    FileError::Toml(match key {
        Some(k) if !msg.contains(&format!("`{k}`")) => format!("{at}`{k}`: {msg}"),
        _ => format!("{at}{msg}"),
    })
}

/// The one-line error of `key` (of `table`, or the top level when empty).
fn bad(text: &str, table: &str, key: &str, why: String) -> FileError {
    let name = if table.is_empty() { key.to_string() } else { format!("{table}.{key}") };
    FileError::Key { line: key_line(text, table, key, 0), key: name, why }
}

/// Why a study file is refused: one line naming its line (when known) and key
/// (the caller adds the file's name).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// Not TOML, or not the study file's shape: the reader's words, after the
    /// line and the key.
    #[error("{0}")]
    Toml(String),
    /// A key whose value is refused (`key`: as the file names it, with its table).
    #[error("{}`{key}`: {why}", line.map_or_else(String::new, |l| format!("line {l}: ")))]
    Key {
        /// The line of the key, from 1, when it is found.
        line: Option<usize>,
        /// The key (`book.count`, `participants[2].token`).
        key: String,
        /// Why.
        why: String,
    },
}

impl StudyFile {
    /// Parses and checks a study file's text. Every error is one line naming the
    /// line and the key (the caller adds the file's name).
    pub fn read(text: &str) -> Result<StudyFile, FileError> {
        let raw: Raw = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        raw.rules.check_players(raw.players).map_err(|e| bad(text, "", "players", e.to_string()))?;
        let want = usize::from(raw.players) - 1;
        let count_err = |n: usize| {
            format!("{n} agent specs for the {want} seats beside the human's at a table of {}", raw.players)
        };
        if let Some(o) = &raw.opponents
            && o.len() != want
        {
            return Err(bad(text, "", "opponents", count_err(o.len())));
        }
        let conditions = Self::conditions(text, &raw, want, &count_err)?;
        let assignment = Self::assignment(text, &raw, conditions.len())?;
        if let Some(p) = &raw.practice
            && (p.count == 0 || p.count > MAX_PRACTICE)
        {
            return Err(FileError::Key {
                line: key_line(text, "practice", "count", 0),
                key: "practice.count".into(),
                why: format!("{} is not from 1 to {MAX_PRACTICE}", p.count),
            });
        }
        Self::check_questions(text, &raw.questions)?;
        Self::check_table(text, &raw)?;
        let book = Self::book(text, &raw.book)?;
        let tokens = Self::check_participants(text, &raw.participants)?;
        let assigned = Self::check_assigned(text, &raw.participants, &conditions, assignment)?;
        Self::check_researcher(text, &raw, &tokens)?;
        Ok(StudyFile {
            completion_code: raw.completion_code,
            researcher_token: raw.researcher_token,
            title: raw.title,
            rules: raw.rules,
            players: raw.players,
            opponents: raw.opponents.unwrap_or_default(),
            conditions,
            assignment,
            assigned,
            practice: raw.practice,
            questions: raw.questions,
            human_seats: raw.human_seats.into_iter().map(Seat).collect(),
            deals_per_participant: raw.deals_per_participant,
            consent: raw.consent,
            book,
            participants: raw.participants,
        })
    }

    /// The `[assignment]` of `n` conditions: none for one condition, a seed
    /// (and a block size, a multiple of `n`) for several.
    fn assignment(text: &str, raw: &Raw, n: usize) -> Result<Option<Assignment>, FileError> {
        match (&raw.assignment, n) {
            (None, 1) => Ok(None),
            (None, _) => {
                let l = text.lines().position(|l| l.trim() == "[[conditions]]").map(|i| i + 1);
                Err(FileError::Key {
                    line: l,
                    key: "assignment".into(),
                    why: format!(
                        "missing: give `[assignment]` with `seed` (participants are assigned to the {n} conditions \
                         by permuted blocks from an explicit seed)"
                    ),
                })
            }
            (Some(a), n) => {
                let aerr = |key: &str, why: String| {
                    let l = key_line(text, "assignment", key, 0)
                        .or_else(|| text.lines().position(|l| l.trim() == "[assignment]").map(|i| i + 1));
                    FileError::Key { line: l, key: format!("assignment.{key}"), why }
                };
                let Some(seed) = a.seed else {
                    return Err(aerr("seed", "missing: the seed of the assignment's shuffles".into()));
                };
                let block = a.block.unwrap_or(n as u64);
                if block == 0 || block % n as u64 != 0 || block > 1000 {
                    return Err(aerr(
                        "block",
                        format!("{block} is not a multiple of the {n} conditions from {n} to 1000"),
                    ));
                }
                Ok(Some(Assignment { seed, block }))
            }
        }
    }

    /// The human seats, the deals per participant and the consent text.
    fn check_table(text: &str, raw: &Raw) -> Result<(), FileError> {
        if raw.human_seats.is_empty() {
            return Err(bad(text, "", "human_seats", "names no seat".into()));
        }
        for (k, &s) in raw.human_seats.iter().enumerate() {
            if s >= raw.players {
                return Err(bad(
                    text,
                    "",
                    "human_seats",
                    format!("seat {s} is not a seat of a table of {}", raw.players),
                ));
            }
            if raw.human_seats[..k].contains(&s) {
                return Err(bad(text, "", "human_seats", format!("seat {s} is named twice")));
            }
        }
        if raw.deals_per_participant == 0 {
            return Err(bad(text, "", "deals_per_participant", "must be at least 1".into()));
        }
        if raw.consent.trim().is_empty() {
            return Err(bad(text, "", "consent", "is empty: say what participants agree to".into()));
        }
        Ok(())
    }

    /// The `[book]`: deals drawn from a seed, or a deal book's file.
    fn book(text: &str, raw: &RawBook) -> Result<BookSource, FileError> {
        let book_err = |key: &str, why: String| {
            let l = key_line(text, "book", key, 0)
                .or_else(|| text.lines().position(|l| l.trim() == "[book]").map(|i| i + 1));
            FileError::Key { line: l, key: format!("book.{key}"), why }
        };
        match (raw.count, &raw.file) {
            (Some(_), Some(_)) => Err(book_err(
                "file",
                "give `count` (deals from `seed`) or `file` (a deal book), not both".into(),
            )),
            (None, None) => Err(book_err("count", "missing: give `count` (with `seed`) or `file`".into())),
            (Some(count), None) => {
                if count == 0 || count > MAX_BOOK {
                    return Err(book_err("count", format!("{count} is not from 1 to {MAX_BOOK}")));
                }
                let Some(seed) = raw.seed else {
                    return Err(book_err("seed", "missing: the master seed the deals are drawn from".into()));
                };
                Ok(BookSource::Seed { seed, count })
            }
            (None, Some(path)) => {
                if path.trim().is_empty() {
                    return Err(book_err("file", "is empty".into()));
                }
                Ok(BookSource::File { path: path.clone(), seed: raw.seed.unwrap_or(0) })
            }
        }
    }

    /// The participants' ids and tokens (unique, well formed); their tokens.
    fn check_participants<'a>(
        text: &str,
        participants: &'a [Participant],
    ) -> Result<Vec<&'a str>, FileError> {
        let mut ids: Vec<&str> = Vec::new();
        let mut tokens: Vec<&str> = Vec::new();
        for (n, p) in participants.iter().enumerate() {
            let pbad = |key: &str, why: String| FileError::Key {
                line: key_line(text, "participants", key, n),
                key: format!("participants[{n}].{key}"),
                why,
            };
            if p.id.is_empty() || p.id.len() > 64 || !p.id.chars().all(token_char) {
                return Err(pbad(
                    "id",
                    format!("{:?} is not 1 to 64 characters of A-Z, a-z, 0-9, _ and -", p.id),
                ));
            }
            if ids.contains(&p.id.as_str()) {
                return Err(pbad("id", format!("{:?} is another participant's id", p.id)));
            }
            if p.token.len() < 32 || !p.token.chars().all(token_char) {
                return Err(pbad(
                    "token",
                    "must be at least 32 characters of A-Z, a-z, 0-9, _ and - (`tresillo study add-participant` makes one)"
                        .into(),
                ));
            }
            if tokens.contains(&p.token.as_str()) {
                return Err(pbad("token", "is another participant's token".into()));
            }
            ids.push(&p.id);
            tokens.push(&p.token);
        }
        Ok(tokens)
    }

    /// Each participant's condition under the assignment; a `condition` a
    /// participant's line names must be that one.
    fn check_assigned(
        text: &str,
        participants: &[Participant],
        conditions: &[Condition],
        assignment: Option<Assignment>,
    ) -> Result<Vec<usize>, FileError> {
        let assigned = assignment
            .map_or_else(|| vec![0; participants.len()], |a| a.assign(conditions.len(), participants.len()));
        for (n, (p, &c)) in participants.iter().zip(&assigned).enumerate() {
            if let Some(named) = &p.condition
                && *named != conditions[c].name
            {
                let how =
                    assignment.map_or_else(|| "the study's one condition".to_string(), |a| a.describe());
                return Err(FileError::Key {
                    line: key_line(text, "participants", "condition", n),
                    key: format!("participants[{n}].condition"),
                    why: format!("{named:?}, but the assignment ({how}) gives {:?}", conditions[c].name),
                });
            }
        }
        Ok(assigned)
    }

    /// The researcher's token (not a participant's) and the completion code.
    fn check_researcher(text: &str, raw: &Raw, tokens: &[&str]) -> Result<(), FileError> {
        if let Some(t) = &raw.researcher_token {
            if t.len() < 32 || !t.chars().all(token_char) {
                return Err(bad(
                    text,
                    "",
                    "researcher_token",
                    "must be at least 32 characters of A-Z, a-z, 0-9, _ and - (`tresillo study new` makes one)"
                        .into(),
                ));
            }
            if tokens.contains(&t.as_str()) {
                return Err(bad(text, "", "researcher_token", "is a participant's token".into()));
            }
        }
        if let Some(c) = &raw.completion_code
            && (c.is_empty()
                || c.len() > 64
                || !c.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
        {
            return Err(bad(
                text,
                "",
                "completion_code",
                format!("{c:?}: 1 to 64 letters, digits, `-` or `_`"),
            ));
        }
        Ok(())
    }

    /// The conditions of the raw file: its `[[conditions]]`, each with the top
    /// level's rules and opponents unless it gives its own, or one condition
    /// `main` of the top level's.
    fn conditions(
        text: &str,
        raw: &Raw,
        want: usize,
        count_err: &dyn Fn(usize) -> String,
    ) -> Result<Vec<Condition>, FileError> {
        if raw.conditions.is_empty() {
            let Some(o) = &raw.opponents else {
                return Err(FileError::Key {
                    line: None,
                    key: "opponents".into(),
                    why: "missing: the opponents' agent specs (or `[[conditions]]` with theirs)".into(),
                });
            };
            return Ok(vec![Condition { name: "main".into(), rules: raw.rules, opponents: o.clone() }]);
        }
        let mut out: Vec<Condition> = Vec::new();
        for (n, c) in raw.conditions.iter().enumerate() {
            let cbad = |key: &str, why: String| {
                let l =
                    key_line(text, "conditions", key, n).or_else(|| key_line(text, "conditions", "name", n));
                FileError::Key { line: l, key: format!("conditions[{n}].{key}"), why }
            };
            if c.name.is_empty() || c.name.len() > 64 || !c.name.chars().all(token_char) {
                return Err(cbad(
                    "name",
                    format!("{:?} is not 1 to 64 characters of A-Z, a-z, 0-9, _ and -", c.name),
                ));
            }
            if out.iter().any(|o| o.name == c.name) {
                return Err(cbad("name", format!("{:?} is another condition's name", c.name)));
            }
            let rules = c.rules.unwrap_or(raw.rules);
            rules.check_players(raw.players).map_err(|e| cbad("rules", e.to_string()))?;
            let Some(opponents) = c.opponents.clone().or_else(|| raw.opponents.clone()) else {
                return Err(cbad("opponents", "missing (and no `opponents` at the top level)".into()));
            };
            if opponents.len() != want {
                return Err(cbad("opponents", count_err(opponents.len())));
            }
            out.push(Condition { name: c.name.clone(), rules, opponents });
        }
        Ok(out)
    }

    /// Checks the questions: ids, texts, choices and answers.
    fn check_questions(text: &str, questions: &[Question]) -> Result<(), FileError> {
        for (n, q) in questions.iter().enumerate() {
            let qbad = |key: &str, why: String| {
                let l = key_line(text, "questions", key, n).or_else(|| key_line(text, "questions", "id", n));
                FileError::Key { line: l, key: format!("questions[{n}].{key}"), why }
            };
            if q.id.is_empty() || q.id.len() > 64 || !q.id.chars().all(token_char) {
                return Err(qbad(
                    "id",
                    format!("{:?} is not 1 to 64 characters of A-Z, a-z, 0-9, _ and -", q.id),
                ));
            }
            if questions[..n].iter().any(|o| o.id == q.id) {
                return Err(qbad("id", format!("{:?} is another question's id", q.id)));
            }
            if q.text.trim().is_empty() {
                return Err(qbad("text", "is empty".into()));
            }
            if q.choices.len() == 1 || q.choices.len() > 20 {
                return Err(qbad(
                    "choices",
                    format!("{} choices: give 2 to 20, or none for a free text", q.choices.len()),
                ));
            }
            for (k, c) in q.choices.iter().enumerate() {
                if c.trim().is_empty() || c.len() > 200 {
                    return Err(qbad("choices", format!("choice {k} is empty or longer than 200 bytes")));
                }
                if q.choices[..k].contains(c) {
                    return Err(qbad("choices", format!("{c:?} is named twice")));
                }
            }
            match &q.answer {
                Some(a) if !q.choices.is_empty() && !q.choices.contains(a) => {
                    return Err(qbad("answer", format!("{a:?} is not one of the choices")));
                }
                Some(a) if a.trim().is_empty() => return Err(qbad("answer", "is empty".into())),
                None if q.must_be_correct => {
                    return Err(qbad("must_be_correct", "needs the correct `answer`".into()));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The condition of participant `p` (their index in the file).
    #[must_use]
    pub fn condition_of(&self, p: usize) -> &Condition {
        &self.conditions[self.assigned[p]]
    }

    /// Practice deals each participant plays first.
    #[must_use]
    pub fn practice_count(&self) -> u64 {
        self.practice.map_or(0, |p| p.count)
    }

    /// The condition the assignment gives the next participant appended to the
    /// file (`tresillo study add-participant` writes it in their block).
    #[must_use]
    pub fn next_condition(&self) -> &str {
        let n = self.participants.len();
        let c = self.assignment.map_or(0, |a| a.assign(self.conditions.len(), n + 1)[n]);
        &self.conditions[c].name
    }

    /// Checks that every opponent of every condition is an agent of `registry`
    /// (`text`: the file's text, for the line).
    pub fn check_opponents(&self, text: &str, registry: &Registry) -> Result<(), FileError> {
        for (n, c) in self.conditions.iter().enumerate() {
            for spec in &c.opponents {
                if let Err(e) = registry.build_seated(spec) {
                    let own = key_line(text, "conditions", "opponents", n);
                    let (l, key) = match own {
                        Some(l) => (Some(l), format!("conditions[{n}].opponents")),
                        None => (key_line(text, "", "opponents", 0), "opponents".to_string()),
                    };
                    return Err(FileError::Key { line: l, key, why: format!("{spec:?}: {e}") });
                }
            }
        }
        Ok(())
    }

    /// Checks that the book of `book_len` deals holds every participant's games:
    /// each (deal, human seat) place is played once at most.
    /// Each condition runs through the book on its own: the participants of a
    /// condition share its places.
    pub fn check_book_size(&self, text: &str, book_len: u64) -> Result<(), FileError> {
        let places = book_len.saturating_mul(self.human_seats.len() as u64);
        for (c, cond) in self.conditions.iter().enumerate() {
            let people = self.assigned.iter().filter(|&&a| a == c).count() as u64;
            let need = people.saturating_mul(self.deals_per_participant);
            if need > places {
                let l = key_line(text, "", "deals_per_participant", 0);
                let of = if self.conditions.len() > 1 {
                    format!(" of condition {:?}", cond.name)
                } else {
                    String::new()
                };
                return Err(FileError::Key {
                    line: l,
                    key: "deals_per_participant".into(),
                    why: format!(
                        "{people} participants{of} × {} deals need {need} games, but the book's {book_len} deals × {} \
                         human seats give {places} (a deal is played from each seat once at most)",
                        self.deals_per_participant,
                        self.human_seats.len()
                    ),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The study file's text parsed and checked, its error as its message.
    fn parse(text: &str) -> Result<StudyFile, String> {
        StudyFile::read(text).map_err(|e| e.to_string())
    }

    const GOOD: &str = r#"title = "t"
rules = "tresillo"
opponents = ["rule", "random"]
human_seats = [0, 2]
deals_per_participant = 2
consent = "I agree."

[book]
seed = 7
count = 4

[[participants]]
id = "p1"
token = "abcdefghijklmnopqrstuvwxyz012345"

[[participants]]
id = "p2"
token = "bbcdefghijklmnopqrstuvwxyz012345"
"#;

    #[test]
    fn a_good_file_parses() {
        let f = parse(GOOD).unwrap();
        assert_eq!(f.players, 3);
        assert_eq!(f.human_seats, vec![Seat(0), Seat(2)]);
        assert_eq!(f.book, BookSource::Seed { seed: 7, count: 4 });
        assert_eq!(f.participants[1].id, "p2");
        f.check_opponents(GOOD, &Registry::builtin()).unwrap();
        f.check_book_size(GOOD, 4).unwrap();
        let e = f.check_book_size(GOOD, 1).unwrap_err().to_string();
        assert!(
            e.starts_with("line 5: `deals_per_participant`: 2 participants × 2 deals need 4 games"),
            "{e}"
        );
    }

    /// Each bad file gives one line naming the line and the key.
    #[test]
    fn bad_files_name_the_line_and_key() {
        let cases: [(&str, &str, &str); 12] = [
            (
                "consent = \"I agree.\"",
                "consent = \"I agree.\"\ncolour = 1",
                "line 7, column 1: unknown field `colour`",
            ),
            ("count = 4", "count = \"4\"", "line 10, column 9: `count`: invalid type"),
            ("count = 4", "count = 0", "line 10: `book.count`: 0 is not from 1 to"),
            ("count = 4", "file = \"b.txt\"\ncount = 4", "line 10: `book.file`: give `count`"),
            ("seed = 7\n", "", "`book.seed`: missing"),
            ("[\"rule\", \"random\"]", "[\"rule\"]", "line 3: `opponents`: 1 agent specs for the 2 seats"),
            ("[0, 2]", "[0, 3]", "line 4: `human_seats`: seat 3 is not a seat"),
            ("[0, 2]", "[2, 2]", "line 4: `human_seats`: seat 2 is named twice"),
            (
                "deals_per_participant = 2",
                "deals_per_participant = 0",
                "line 5: `deals_per_participant`: must be",
            ),
            (
                "id = \"p2\"",
                "id = \"p1\"",
                "line 17: `participants[1].id`: \"p1\" is another participant's id",
            ),
            ("id = \"p2\"", "id = \"../x\"", "line 17: `participants[1].id`: \"../x\" is not"),
            (
                "token = \"bbcdefghijklmnopqrstuvwxyz012345\"",
                "token = \"short\"",
                "line 18: `participants[1].token`",
            ),
        ];
        for (from, to, want) in cases {
            let text = GOOD.replacen(from, to, 1);
            assert_ne!(text, GOOD, "{from}");
            let e = parse(&text).unwrap_err();
            assert!(e.starts_with(want) || e.contains(want), "{from} -> {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let e = parse(&GOOD.replace("players", "x").replace("rules = \"tresillo\"", "rules = \"nope\""))
            .unwrap_err();
        assert!(e.starts_with("line 2, column 9: `rules`:"), "{e}");
        let text = GOOD.replace("[\"rule\", \"random\"]", "[\"rule\", \"nobody\"]");
        let f = parse(&text).unwrap();
        let e = f.check_opponents(&text, &Registry::builtin()).unwrap_err().to_string();
        assert!(e.starts_with("line 3: `opponents`: \"nobody\""), "{e}");
    }

    /// A study of two conditions, practice deals and questions: each bad value
    /// one line naming the line and the key.
    #[test]
    fn designs_are_checked_with_their_line_and_key() {
        let design = GOOD.replacen(
            "consent = \"I agree.\"",
            "consent = \"I agree.\"\n[practice]\nseed = 3\ncount = 1\n[assignment]\nseed = 42\n\
             [[conditions]]\nname = \"a\"\n[[conditions]]\nname = \"b\"\nopponents = [\"random\", \"random\"]\n\
             [[questions]]\nid = \"q\"\ntext = \"Which?\"\nchoices = [\"x\", \"y\"]\nanswer = \"x\"\n\
             must_be_correct = true\nwhen = \"before\"\n",
            1,
        );
        let f = parse(&design).unwrap();
        assert_eq!(f.conditions.len(), 2);
        assert_eq!(f.conditions[0].opponents, ["rule", "random"], "the top level's by default");
        assert_eq!(f.conditions[1].opponents, ["random", "random"]);
        assert_eq!(f.assignment, Some(Assignment { seed: 42, block: 2 }));
        assert_eq!(f.practice_count(), 1);
        assert_eq!(f.questions[0].when, When::Before);
        assert_eq!(f.questions[0].correct("y"), Some(false));
        f.check_opponents(&design, &Registry::builtin()).unwrap();
        let cases: [(&str, &str, &str); 11] = [
            (
                "name = \"b\"",
                "name = \"a\"",
                "line 15: `conditions[1].name`: \"a\" is another condition's name",
            ),
            ("name = \"b\"", "name = \"b/c\"", "line 15: `conditions[1].name`: \"b/c\" is not"),
            ("[\"random\", \"random\"]", "[\"random\"]", "line 16: `conditions[1].opponents`: 1 agent specs"),
            ("[assignment]\nseed = 42\n", "", "`assignment`: missing"),
            ("seed = 42", "seed = 42\nblock = 3", "line 12: `assignment.block`: 3 is not a multiple"),
            ("count = 1\n[assign", "count = 0\n[assign", "line 9: `practice.count`: 0 is not from 1 to 20"),
            (
                "answer = \"x\"",
                "answer = \"z\"",
                "line 21: `questions[0].answer`: \"z\" is not one of the choices",
            ),
            ("answer = \"x\"\n", "", "`questions[0].must_be_correct`: needs the correct `answer`"),
            ("choices = [\"x\", \"y\"]", "choices = [\"x\"]", "line 20: `questions[0].choices`: 1 choices"),
            ("when = \"before\"", "when = \"first\"", "line 23, column 8: `when`: unknown variant `first`"),
            ("text = \"Which?\"", "text = \" \"", "line 19: `questions[0].text`: is empty"),
        ];
        for (from, to, want) in cases {
            let text = design.replacen(from, to, 1);
            assert_ne!(text, design, "{from}");
            let e = parse(&text).unwrap_err();
            assert!(e.starts_with(want) || e.contains(want), "{from} -> {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let text = design.replacen("[\"random\", \"random\"]", "[\"random\", \"nobody\"]", 1);
        let e = parse(&text).unwrap().check_opponents(&text, &Registry::builtin()).unwrap_err().to_string();
        assert!(e.starts_with("line 16: `conditions[1].opponents`: \"nobody\""), "{e}");
        // Without conditions the top level's opponents are needed.
        let e = parse(&GOOD.replacen("opponents = [\"rule\", \"random\"]\n", "", 1)).unwrap_err();
        assert!(e.contains("`opponents`: missing"), "{e}");
    }

    #[test]
    fn a_completion_code_is_read_and_checked() {
        let with = |c: &str| {
            GOOD.replacen(
                "consent = \"I agree.\"",
                &format!("consent = \"I agree.\"\ncompletion_code = \"{c}\""),
                1,
            )
        };
        assert_eq!(parse(&with("PILOT-7a_2")).unwrap().completion_code.as_deref(), Some("PILOT-7a_2"));
        assert_eq!(parse(GOOD).unwrap().completion_code, None);
        for bad in ["", "has space", "<script>"] {
            let e = parse(&with(bad)).unwrap_err();
            assert!(e.contains("completion_code") && !e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn the_researcher_token_is_checked_like_a_participant_token() {
        let with = |t: &str| {
            GOOD.replacen(
                "consent = \"I agree.\"",
                &format!("consent = \"I agree.\"\nresearcher_token = \"{t}\""),
                1,
            )
        };
        let r = "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr";
        assert_eq!(parse(&with(r)).unwrap().researcher_token.as_deref(), Some(r));
        assert_eq!(parse(GOOD).unwrap().researcher_token, None);
        let e = parse(&with("short")).unwrap_err();
        assert!(e.starts_with("line 7: `researcher_token`: must be at least 32"), "{e}");
        let p = parse(GOOD).unwrap().participants[0].token.clone();
        let e = parse(&with(&p)).unwrap_err();
        assert!(e.contains("`researcher_token`: is a participant's token"), "{e}");
    }
}
