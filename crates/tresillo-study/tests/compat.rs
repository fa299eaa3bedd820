//! Journals written before the shared journal format (by the study of commit
//! fb68ba9: `tests/data/journals-before-format-2`) still load and replay: four
//! participants (consent, the comprehension check answered wrong then right, a
//! practice deal, timed decisions, misclicks and tab changes, the questionnaire;
//! one left in the middle of a game, one withdrawn, one who played through
//! `decide`). The export is the one that study made, byte for byte (the CSVs,
//! the records and the book), the progress the same, the journals not rewritten;
//! the game left in the middle continues, appending to its old journal.

use std::path::{Path, PathBuf};
use tresillo_agents::{Registry, TablePlayer, build_seated, seat_rngs};
use tresillo_core::Decision;
use tresillo_study::{Format, Study, Turn, export};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/journals-before-format-2")
}

fn files(dir: &Path, under: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, under, out);
        } else {
            out.push(p.strip_prefix(under).unwrap().to_path_buf());
        }
    }
}

fn choose(p: &tresillo_study::Pending) -> Decision {
    let mut a = build_seated("rule").unwrap();
    a.begin_hand();
    let mut rng = seat_rngs(p.setup.rng_seed)[p.setup.human_seat.index()].clone();
    match &mut a {
        tresillo_agents::cheat::Seated::Fair(a) => a.decide(&p.view, &mut rng).unwrap(),
        tresillo_agents::cheat::Seated::Cheat(_) => unreachable!(),
    }
}

#[test]
fn journals_before_format_2_load_and_export_as_they_did() {
    let dir = std::env::temp_dir().join(format!("tresillo-study-compat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("games")).unwrap();
    std::fs::copy(fixture().join("study.toml"), dir.join("study.toml")).unwrap();
    let ids = ["a", "b", "c", "d"];
    for id in ids {
        let name = format!("games/{id}.jsonl");
        std::fs::copy(fixture().join(&name), dir.join(&name)).unwrap();
    }
    let study = Study::open(&dir, Registry::builtin()).unwrap();
    assert_eq!(
        format!("{:#?}\n", study.progress()),
        std::fs::read_to_string(fixture().join("progress.txt")).unwrap()
    );
    export(&study, &dir.join("export"), Format::Csv).unwrap();
    let mut want = Vec::new();
    files(&fixture().join("export"), &fixture().join("export"), &mut want);
    assert!(want.len() >= 7, "{want:?}");
    for f in &want {
        let (got, old) = (dir.join("export").join(f), fixture().join("export").join(f));
        assert_eq!(std::fs::read(&got).unwrap(), std::fs::read(&old).unwrap(), "{}", f.display());
    }
    drop(study);
    for id in ids {
        let name = format!("games/{id}.jsonl");
        assert_eq!(std::fs::read(dir.join(&name)).unwrap(), std::fs::read(fixture().join(&name)).unwrap());
    }
    // b's game continues where the journal left it, after the old lines.
    let mut study = Study::open(&dir, Registry::builtin()).unwrap();
    let b = study.who(&"b".repeat(32)).unwrap();
    let before = study.progress()[1].decisions;
    assert!(before > 0);
    while let Turn::Decide(p) = study.turn(b).unwrap() {
        let d = choose(&p);
        study.decide(b, p.at, d).unwrap();
    }
    let games = study.games(b).to_vec();
    assert_eq!(games.len(), 3);
    drop(study);
    let study = Study::open(&dir, Registry::builtin()).unwrap();
    assert_eq!(study.games(b), &games[..]);
    let old = std::fs::read(fixture().join("games/b.jsonl")).unwrap();
    assert!(std::fs::read(dir.join("games/b.jsonl")).unwrap().starts_with(&old));
    let _ = std::fs::remove_dir_all(&dir);
}
