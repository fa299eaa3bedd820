//! Studies as designs (issue 54): conditions with a seeded permuted-block
//! assignment, practice deals (journaled, not scored), a comprehension check and a
//! questionnaire, and withdrawal with deletion, through the library a server drives.

use std::path::{Path, PathBuf};
use tresillo_agents::Registry;
use tresillo_study::{Assignment, Study, StudyError, StudyFile, Turn, Who, export, export_baseline};

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let p = std::env::temp_dir().join(format!("tresillo-designs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const STUDY: &str = r#"title = "two conditions"
rules = "tresillo"
opponents = ["rule", "rule"]
human_seats = [0, 1, 2]
deals_per_participant = 3
consent = "I agree."
researcher_token = "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr"

[book]
seed = 5
count = 6

[practice]
seed = 99
count = 1

[assignment]
seed = 42

[[conditions]]
name = "strong"

[[conditions]]
name = "weak"
opponents = ["random", "random"]

[[questions]]
id = "trumps"
text = "Who chooses the trump suit?"
choices = ["the player who wins the auction", "the dealer"]
answer = "the player who wins the auction"
must_be_correct = true
when = "before"

[[questions]]
id = "enjoy"
text = "Did you enjoy it?"
choices = ["no", "yes"]

[[questions]]
id = "comment"
text = "Anything else?"
"#;

fn with_people(n: usize) -> String {
    let mut s = STUDY.to_string();
    for i in 1..=n {
        s.push_str(&format!(
            "\n[[participants]]\nid = \"p{i}\"\ntoken = \"token-of-participant-{i:0>12}\"\n"
        ));
    }
    s
}

fn token(i: usize) -> String {
    format!("token-of-participant-{i:0>12}")
}

/// `random` in the participant's seat: the first legal choice.
fn play_all(study: &mut Study, who: Who) -> Vec<bool> {
    let mut practice = Vec::new();
    while let Turn::Decide(p) = study.turn(who).unwrap() {
        if practice.len() as u64 <= p.setup.game {
            practice.push(p.setup.practice);
        }
        let d = p.view.legal_decisions().into_iter().next().expect("a legal decision");
        study.decide(who, p.at, d).unwrap();
    }
    practice
}

#[test]
fn permuted_blocks_are_balanced_seeded_and_stable() {
    let a = Assignment { seed: 42, block: 2 };
    let all = a.assign(2, 100);
    // Pinned: the assignment of a study never changes with the library.
    assert_eq!(all[..8], [0, 1, 0, 1, 1, 0, 0, 1]);
    for block in all.chunks(2) {
        assert_eq!(block.iter().filter(|&&c| c == 0).count(), 1, "{all:?}");
    }
    for n in 0..100 {
        assert_eq!(a.assign(2, n), all[..n], "adding participants changes no earlier one");
        let zeros = all[..n].iter().filter(|&&c| c == 0).count() as i64;
        assert!((2 * zeros - n as i64).abs() <= 1, "counts differ by more than one after {n}");
    }
    assert_ne!(Assignment { seed: 43, block: 2 }.assign(2, 100), all, "the seed shuffles");
    let three = Assignment { seed: 7, block: 6 }.assign(3, 60);
    for block in three.chunks(6) {
        for c in 0..3 {
            assert_eq!(block.iter().filter(|&&x| x == c).count(), 2);
        }
    }
}

#[test]
fn conditions_practice_questions_and_withdrawal() {
    let dir = Dir::new("design");
    std::fs::write(dir.0.join("study.toml"), with_people(4)).unwrap();
    let mut study = Study::open(&dir.0, Registry::builtin()).unwrap();
    let f = study.file().clone();
    assert_eq!(f.assigned, Assignment { seed: 42, block: 2 }.assign(2, 4));
    let who: Vec<Who> = (1..=4).map(|i| study.who(&token(i)).unwrap()).collect();
    // Before the consent no question is due; then the comprehension check.
    assert!(study.question_due(who[0]).is_none());
    study.accept_consent(who[0]).unwrap();
    assert_eq!(study.question_due(who[0]).unwrap().id, "trumps");
    assert!(matches!(study.answer(who[0], "enjoy", "yes", None), Err(StudyError::Record(_))));
    assert!(matches!(study.answer(who[0], "trumps", "nobody", None), Err(StudyError::Record(_))));
    assert_eq!(study.answer(who[0], "trumps", "the dealer", Some(900)).unwrap(), Some(false));
    assert_eq!(study.question_due(who[0]).unwrap().id, "trumps", "must be answered correctly");
    assert_eq!(study.answer(who[0], "trumps", "the player who wins the auction", None).unwrap(), Some(true));
    assert!(study.question_due(who[0]).is_none(), "the questionnaire comes after the games");
    for (i, &w) in who.iter().enumerate() {
        study.accept_consent(w).unwrap();
        let first = study.next_game(w).unwrap();
        assert!(first.practice && first.game == 0 && first.games == 4);
        let cond = &f.conditions[f.assigned[i]];
        assert_eq!(first.condition, cond.name);
        assert_eq!(first.agents[1..], cond.opponents[..], "the condition's opponents");
        assert_eq!(play_all(&mut study, w), [true, false, false, false], "the practice deal first");
    }
    // The conditions run through the book each on its own: the first of each
    // plays the same deals.
    let games = study.finished_games();
    assert_eq!(games.len(), 12, "practice deals are not results");
    assert!(games.iter().all(|(s, _, _)| !s.practice));
    let first_of = |c: usize| f.assigned.iter().position(|&a| a == c).unwrap();
    let deals = |p: usize| -> Vec<u64> {
        let id = format!("p{}", p + 1);
        games.iter().filter(|(s, _, _)| s.participant == id).map(|(s, _, _)| s.deal_index).collect()
    };
    assert_eq!(deals(first_of(0)), deals(first_of(1)));
    // The questionnaire after the games.
    assert_eq!(study.question_due(who[0]).unwrap().id, "enjoy");
    assert_eq!(study.answer(who[0], "enjoy", "yes", Some(1200)).unwrap(), None);
    assert!(matches!(study.answer(who[0], "comment", " ", None), Err(StudyError::Record(_))));
    study.answer(who[0], "comment", "good, \"fun\"\nthanks", None).unwrap();
    assert!(study.question_due(who[0]).is_none());
    // p2 withdraws: their journal is one line, their games are gone, now and
    // after a restart.
    study.withdraw(who[1]).unwrap();
    study.withdraw(who[1]).unwrap();
    let journal = std::fs::read_to_string(dir.0.join("games/p2.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 1, "{journal}");
    assert!(journal.starts_with("{\"game\":0,\"withdrawn\":"), "{journal}");
    assert!(matches!(study.turn(who[1]), Err(StudyError::Withdrawn)));
    assert!(matches!(study.accept_consent(who[1]), Err(StudyError::Withdrawn)));
    assert!(matches!(study.event(who[1], "hidden", None), Err(StudyError::Withdrawn)));
    drop(study);
    let study = Study::open(&dir.0, Registry::builtin()).unwrap();
    assert!(study.withdrawn(who[1]) && study.games(who[1]).is_empty());
    assert_eq!(study.games(who[0]).len(), 4);
    assert_eq!(study.finished_games().len(), 9);
    let out = dir.0.join("export");
    let e = export(&study, &out, tresillo_deals::Format::Csv).unwrap();
    assert_eq!(e.rows, 9);
    let read = |p: &str| std::fs::read_to_string(out.join(p)).unwrap();
    let people = read("participants.csv");
    assert!(people.contains("\np2,,true,,,\n"), "{people}");
    assert!(!read("deals.csv").contains("human:p2"));
    let manifest: serde_json::Value = serde_json::from_str(&read("manifest.json")).unwrap();
    assert_eq!(manifest["withdrawn"], serde_json::json!({"count": 1, "ids": ["p2"]}));
    assert_eq!(manifest["assignment"]["seed"], 42);
    let q = read("questionnaire.csv");
    assert_eq!(q.lines().filter(|l| l.starts_with("p1,")).count(), 4, "{q}");
    assert!(q.contains(",trumps,before,the dealer,false,"), "{q}");
    // Each condition as a directory of its own, with its baseline.
    let b = export_baseline(&study, &out.join("baseline"), "rule").unwrap();
    assert_eq!(b, 9);
    let mut rows = 0;
    for c in &f.conditions {
        let mine = read(&format!("conditions/{}/deals.csv", c.name));
        let base = read(&format!("conditions/{}/baseline/deals.csv", c.name));
        assert_eq!(mine.lines().count(), base.lines().count());
        rows += mine.lines().count() - 1;
        let ids: Vec<usize> = (0..4)
            .filter(|&p| f.assigned[p] == f.conditions.iter().position(|x| x.name == c.name).unwrap())
            .collect();
        for line in mine.lines().skip(1) {
            assert!(ids.iter().any(|p| line.contains(&format!("human:p{}", p + 1))), "{line}");
        }
    }
    assert_eq!(rows, 9);
}

#[test]
fn add_participant_writes_the_assigned_condition_and_a_changed_one_is_refused() {
    let dir = Dir::new("add");
    std::fs::write(dir.0.join("study.toml"), STUDY).unwrap();
    let mut conds = Vec::new();
    for i in 1..=4 {
        tresillo_study::add_participant(&dir.0, &format!("p{i}")).unwrap();
        let text = std::fs::read_to_string(dir.0.join("study.toml")).unwrap();
        let f = StudyFile::read(&text).unwrap();
        conds.push(f.participants[i - 1].condition.clone().unwrap());
        assert_eq!(conds[i - 1], f.conditions[f.assigned[i - 1]].name);
    }
    let text = std::fs::read_to_string(dir.0.join("study.toml")).unwrap();
    let other = if conds[3] == "weak" { "strong" } else { "weak" };
    let changed = {
        let at = text.rfind(&format!("condition = \"{}\"", conds[3])).unwrap();
        format!("{}condition = \"{other}\"\n", &text[..at])
    };
    // A study that runs while participants are added serves them in their
    // condition, and a restart gives each the same one.
    std::fs::write(dir.0.join("study.toml"), STUDY).unwrap();
    let mut study = Study::open(&dir.0, Registry::builtin()).unwrap();
    std::fs::write(dir.0.join("study.toml"), &text).unwrap();
    assert_eq!(study.reload_participants().unwrap(), 4);
    for (i, p) in study.file().participants.clone().iter().enumerate() {
        let who = study.who(&p.token).unwrap();
        assert_eq!(study.next_game(who).unwrap().condition, conds[i]);
    }
    drop(study);
    let study = Study::open(&dir.0, Registry::builtin()).unwrap();
    assert_eq!(study.progress().iter().map(|p| p.condition.clone()).collect::<Vec<_>>(), conds);
    let e = StudyFile::read(&changed).unwrap_err().to_string();
    assert!(e.contains("`participants[3].condition`") && e.contains("permuted blocks of 2, seed 42"), "{e}");
    assert!(e.starts_with("line "), "{e}");
    assert!(!Path::new(&dir.0.join("games")).exists());
}

#[test]
fn the_committed_pilot_study_file_is_a_design_of_two_conditions() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/study-pilot/study.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let f = StudyFile::read(&text).unwrap();
    f.check_opponents(&text, &Registry::builtin()).unwrap();
    let names: Vec<&str> = f.conditions.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["rule", "mixed"]);
    assert_eq!(f.assignment, Some(Assignment { seed: 42, block: 2 }));
    assert_eq!((f.practice_count(), f.questions.len()), (1, 3));
    assert!(f.participants.is_empty(), "scripts/study-pilot.sh adds them");
}
