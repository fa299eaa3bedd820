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
}

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
    /// The rule set and its options.
    pub rules: Rules,
    /// Seats at the table: 3, or 4.
    pub players: u8,
    /// The opponents' agent specs: agent slots 1, 2 (and 3); slot 0 is the human.
    pub opponents: Vec<String>,
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
    opponents: Vec<String>,
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

impl StudyFile {
    /// Parses and checks a study file's text. Every error is one line naming the
    /// line and the key (the caller adds the file's name).
    pub fn parse(text: &str) -> Result<StudyFile, String> {
        let raw: Raw = toml::from_str(text).map_err(|e| {
            let at = e.span().map(|s| format!("{}: ", position(text, s.start))).unwrap_or_default();
            // The key of the line the error points at, when it is a `key = value` line.
            let key = e
                .span()
                .and_then(|s| text[..s.start.min(text.len())].lines().last().map(str::to_string))
                .and_then(|l| l.split('=').next().map(|k| k.trim().to_string()))
                .filter(|k| !k.is_empty() && !k.starts_with('[') && !k.contains(char::is_whitespace));
            let msg = e.message().trim().replace('\n', "; ");
            match key {
                Some(k) if !msg.contains(&format!("`{k}`")) => format!("{at}`{k}`: {msg}"),
                _ => format!("{at}{msg}"),
            }
        })?;
        let at = |table: &str, key: &str, nth: usize| {
            key_line(text, table, key, nth).map_or_else(String::new, |l| format!("line {l}: "))
        };
        let bad = |table: &str, key: &str, why: String| {
            let name = if table.is_empty() { format!("`{key}`") } else { format!("`{table}.{key}`") };
            format!("{}{name}: {why}", at(table, key, 0))
        };
        raw.rules.check_players(raw.players).map_err(|e| bad("", "players", e.to_string()))?;
        let want = usize::from(raw.players) - 1;
        if raw.opponents.len() != want {
            return Err(bad(
                "",
                "opponents",
                format!(
                    "{} agent specs for the {want} seats beside the human's at a table of {}",
                    raw.opponents.len(),
                    raw.players
                ),
            ));
        }
        if raw.human_seats.is_empty() {
            return Err(bad("", "human_seats", "names no seat".into()));
        }
        for (k, &s) in raw.human_seats.iter().enumerate() {
            if s >= raw.players {
                return Err(bad(
                    "",
                    "human_seats",
                    format!("seat {s} is not a seat of a table of {}", raw.players),
                ));
            }
            if raw.human_seats[..k].contains(&s) {
                return Err(bad("", "human_seats", format!("seat {s} is named twice")));
            }
        }
        if raw.deals_per_participant == 0 {
            return Err(bad("", "deals_per_participant", "must be at least 1".into()));
        }
        if raw.consent.trim().is_empty() {
            return Err(bad("", "consent", "is empty: say what participants agree to".into()));
        }
        let book_err = |key: &str, why: String| {
            let l = key_line(text, "book", key, 0)
                .or_else(|| text.lines().position(|l| l.trim() == "[book]").map(|i| i + 1));
            format!("{}`book.{key}`: {why}", l.map_or_else(String::new, |l| format!("line {l}: ")))
        };
        let book = match (raw.book.count, raw.book.file) {
            (Some(_), Some(_)) => {
                return Err(book_err(
                    "file",
                    "give `count` (deals from `seed`) or `file` (a deal book), not both".into(),
                ));
            }
            (None, None) => {
                return Err(book_err("count", "missing: give `count` (with `seed`) or `file`".into()));
            }
            (Some(count), None) => {
                if count == 0 || count > MAX_BOOK {
                    return Err(book_err("count", format!("{count} is not from 1 to {MAX_BOOK}")));
                }
                let Some(seed) = raw.book.seed else {
                    return Err(book_err("seed", "missing: the master seed the deals are drawn from".into()));
                };
                BookSource::Seed { seed, count }
            }
            (None, Some(path)) => {
                if path.trim().is_empty() {
                    return Err(book_err("file", "is empty".into()));
                }
                BookSource::File { path, seed: raw.book.seed.unwrap_or(0) }
            }
        };
        let mut ids: Vec<&str> = Vec::new();
        let mut tokens: Vec<&str> = Vec::new();
        for (n, p) in raw.participants.iter().enumerate() {
            let pbad = |key: &str, why: String| {
                format!("{}`participants[{n}].{key}`: {why}", at("participants", key, n))
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
        if let Some(t) = &raw.researcher_token {
            if t.len() < 32 || !t.chars().all(token_char) {
                return Err(bad(
                    "",
                    "researcher_token",
                    "must be at least 32 characters of A-Z, a-z, 0-9, _ and - (`tresillo study new` makes one)"
                        .into(),
                ));
            }
            if tokens.contains(&t.as_str()) {
                return Err(bad("", "researcher_token", "is a participant's token".into()));
            }
        }
        if let Some(c) = &raw.completion_code
            && (c.is_empty()
                || c.len() > 64
                || !c.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
        {
            return Err(bad("", "completion_code", format!("{c:?}: 1 to 64 letters, digits, `-` or `_`")));
        }
        Ok(StudyFile {
            completion_code: raw.completion_code,
            researcher_token: raw.researcher_token,
            title: raw.title,
            rules: raw.rules,
            players: raw.players,
            opponents: raw.opponents,
            human_seats: raw.human_seats.into_iter().map(Seat).collect(),
            deals_per_participant: raw.deals_per_participant,
            consent: raw.consent,
            book,
            participants: raw.participants,
        })
    }

    /// Checks that every opponent is an agent of `registry` (`text`: the file's
    /// text, for the line).
    pub fn check_agents(&self, text: &str, registry: &Registry) -> Result<(), String> {
        for spec in &self.opponents {
            if let Err(e) = registry.build_seated(spec) {
                let l =
                    key_line(text, "", "opponents", 0).map_or_else(String::new, |l| format!("line {l}: "));
                return Err(format!("{l}`opponents`: {spec:?}: {e}"));
            }
        }
        Ok(())
    }

    /// Checks that the book of `book_len` deals holds every participant's games:
    /// each (deal, human seat) place is played once at most.
    pub fn check_capacity(&self, text: &str, book_len: u64) -> Result<(), String> {
        let places = book_len.saturating_mul(self.human_seats.len() as u64);
        let need = (self.participants.len() as u64).saturating_mul(self.deals_per_participant);
        if need > places {
            let l = key_line(text, "", "deals_per_participant", 0)
                .map_or_else(String::new, |l| format!("line {l}: "));
            return Err(format!(
                "{l}`deals_per_participant`: {} participants × {} deals need {need} games, but the book's {book_len} \
                 deals × {} human seats give {places} (a deal is played from each seat once at most)",
                self.participants.len(),
                self.deals_per_participant,
                self.human_seats.len()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let f = StudyFile::parse(GOOD).unwrap();
        assert_eq!(f.players, 3);
        assert_eq!(f.human_seats, vec![Seat(0), Seat(2)]);
        assert_eq!(f.book, BookSource::Seed { seed: 7, count: 4 });
        assert_eq!(f.participants[1].id, "p2");
        f.check_agents(GOOD, &Registry::builtin()).unwrap();
        f.check_capacity(GOOD, 4).unwrap();
        let e = f.check_capacity(GOOD, 1).unwrap_err();
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
            let e = StudyFile::parse(&text).unwrap_err();
            assert!(e.starts_with(want) || e.contains(want), "{from} -> {e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let e = StudyFile::parse(
            &GOOD.replace("players", "x").replace("rules = \"tresillo\"", "rules = \"nope\""),
        )
        .unwrap_err();
        assert!(e.starts_with("line 2, column 9: `rules`:"), "{e}");
        let text = GOOD.replace("[\"rule\", \"random\"]", "[\"rule\", \"nobody\"]");
        let f = StudyFile::parse(&text).unwrap();
        let e = f.check_agents(&text, &Registry::builtin()).unwrap_err();
        assert!(e.starts_with("line 3: `opponents`: \"nobody\""), "{e}");
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
        assert_eq!(
            StudyFile::parse(&with("PILOT-7a_2")).unwrap().completion_code.as_deref(),
            Some("PILOT-7a_2")
        );
        assert_eq!(StudyFile::parse(GOOD).unwrap().completion_code, None);
        for bad in ["", "has space", "<script>"] {
            let e = StudyFile::parse(&with(bad)).unwrap_err();
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
        assert_eq!(StudyFile::parse(&with(r)).unwrap().researcher_token.as_deref(), Some(r));
        assert_eq!(StudyFile::parse(GOOD).unwrap().researcher_token, None);
        let e = StudyFile::parse(&with("short")).unwrap_err();
        assert!(e.starts_with("line 7: `researcher_token`: must be at least 32"), "{e}");
        let p = StudyFile::parse(GOOD).unwrap().participants[0].token.clone();
        let e = StudyFile::parse(&with(&p)).unwrap_err();
        assert!(e.contains("`researcher_token`: is a participant's token"), "{e}");
    }
}
