//! The study API as a server drives it: simulated participants (an agent in the
//! human's seat, one decision at a time) play their games; the games equal a
//! tournament's on the same deals and seatings; a restart in the middle of a hand
//! continues it; tokens isolate participants; bad requests change nothing.

use std::path::{Path, PathBuf};
use tresillo_agents::{AgentRng, Registry, TablePlayer, build_seated, seat_rngs};
use tresillo_core::{Decision, RuleSet, Rules};
use tresillo_sim::{Tournament, simple_config};
use tresillo_study::{NewStudy, Study, StudyError, Turn, Who, create_study, export, study_row};

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let p = std::env::temp_dir().join(format!("tresillo-study-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        Dir(p)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn new_study(dir: &Path, per: u64) -> Vec<tresillo_study::Participant> {
    create_study(
        dir,
        &NewStudy {
            title: "test".into(),
            rules: Rules::from(RuleSet::TRESILLO),
            players: 3,
            opponents: vec!["random".into(), "rule".into()],
            human_seats: vec![0, 1, 2],
            seed: 5,
            deals: 10,
            per_participant: per,
            consent: "I agree.".into(),
            participants: vec!["p1".into(), "p2".into(), "p3".into()],
        },
        &Registry::builtin(),
    )
    .unwrap()
}

/// A simulated participant: `rule` in the human's seat with the seat's generator
/// of a tournament, deciding from the view the study gives, one call each.
struct Simulated {
    agent: tresillo_agents::cheat::Seated,
    rng: Option<(u64, AgentRng)>,
}

impl Simulated {
    fn new() -> Simulated {
        Simulated { agent: build_seated("rule").unwrap(), rng: None }
    }

    fn choose(&mut self, p: &tresillo_study::Pending) -> Decision {
        let game = p.setup.game;
        if self.rng.as_ref().is_none_or(|(g, _)| *g != game) {
            self.agent.begin_hand();
            self.rng = Some((game, seat_rngs(p.setup.rng_seed)[p.setup.human_seat.index()].clone()));
        }
        let rng = &mut self.rng.as_mut().unwrap().1;
        match &mut self.agent {
            tresillo_agents::cheat::Seated::Fair(a) => a.decide(&p.view, rng).unwrap(),
            tresillo_agents::cheat::Seated::Cheat(_) => unreachable!(),
        }
    }
}

fn play_all(study: &mut Study, who: Who, sim: &mut Simulated) -> usize {
    let mut decisions = 0;
    while let Turn::Decide(p) = study.turn(who).unwrap() {
        let d = sim.choose(&p);
        study.decide(who, p.at, d).unwrap();
        decisions += 1;
    }
    decisions
}

#[test]
fn simulated_participants_play_the_tournaments_games() {
    let dir = Dir::new("tournament");
    let people = new_study(&dir.0, 10);
    let mut study = Study::open(&dir.0, Registry::builtin()).unwrap();
    for p in &people {
        let who = study.who(&p.token).unwrap();
        assert!(play_all(&mut study, who, &mut Simulated::new()) > 10 * 5);
        assert!(matches!(study.turn(who).unwrap(), Turn::Done));
        assert_eq!(study.games(who).len(), 10);
        for g in study.games(who) {
            g.replay().unwrap();
            assert!(g.agents.contains(&format!("human:{}", p.id)));
        }
    }
    // The same deals in a duplicate tournament with `rule` in slot 0: the study's
    // seatings 012, 102 and 120 are its rows, decision for decision.
    let t = Tournament::new(simple_config(["rule", "random", "rule"], 10, 5, true)).unwrap().recording(true);
    let mut agents = t.metered_agents();
    let mut rows = Vec::new();
    let mut records = Vec::new();
    for unit in 0..10 {
        let out = t.play_unit(unit, &mut agents).unwrap();
        rows.extend(out.rows.into_iter().map(|r| format!("{r:?}")));
        records.extend(out.records);
    }
    let games = study.finished_games();
    assert_eq!(games.len(), 30);
    for (setup, record, agents) in &games {
        let row = study_row(setup, record, agents).unwrap();
        let k = records
            .iter()
            .position(|r| {
                r.tournament
                    .as_ref()
                    .is_some_and(|o| o.deal == setup.deal_index && o.seating == setup.seating)
            })
            .unwrap();
        assert_eq!(
            records[k].decisions, record.decisions,
            "deal {} seating {}",
            setup.deal_index, setup.seating
        );
        assert_eq!(records[k].result, record.result);
        assert_eq!(records[k].rng_seed, record.rng_seed);
        let mut mine = format!("{row:?}");
        mine = mine.replace(&format!("\"{}\"", agents[0]), "\"rule\"");
        assert_eq!(mine, rows[k]);
    }
    let out = dir.0.join("export");
    let e = export(&study, &out, tresillo_deals::Format::Both).unwrap();
    assert_eq!((e.rows, e.deals), (30, 10));
    let csv = std::fs::read_to_string(out.join("deals.csv")).unwrap();
    assert_eq!(csv.lines().count(), 31);
    assert!(
        export(&study, &out, tresillo_deals::Format::Csv).unwrap_err().to_string().contains("already exists")
    );
}

#[test]
fn a_restart_continues_the_hand_and_the_game_is_the_same() {
    let a = Dir::new("restart-a");
    let b = Dir::new("restart-b");
    new_study(&a.0, 2);
    // The same study (the same tokens) in b.
    std::fs::create_dir_all(&b.0).unwrap();
    std::fs::copy(a.0.join("study.toml"), b.0.join("study.toml")).unwrap();
    let token = tresillo_study::StudyFile::read(&std::fs::read_to_string(a.0.join("study.toml")).unwrap())
        .unwrap()
        .participants[1]
        .token
        .clone();
    // Uninterrupted.
    let mut study = Study::open(&a.0, Registry::builtin()).unwrap();
    let who = study.who(&token).unwrap();
    play_all(&mut study, who, &mut Simulated::new());
    let whole = study.games(who).to_vec();
    // Killed after 3 decisions of the first game (the study dropped, as a
    // killed process leaves it), plus a torn last line.
    let mut sim = Simulated::new();
    let mut study = Study::open(&b.0, Registry::builtin()).unwrap();
    let who = study.who(&token).unwrap();
    let mut last = None;
    for _ in 0..3 {
        let Turn::Decide(p) = study.turn(who).unwrap() else { panic!() };
        let d = sim.choose(&p);
        study.decide(who, p.at, d).unwrap();
        last = Some(p.at);
    }
    let Turn::Decide(before) = study.turn(who).unwrap() else { panic!() };
    drop(study);
    let journal = b.0.join("games/p2.jsonl");
    let len = std::fs::metadata(&journal).unwrap().len();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"{\"game\":0,\"st"))
        .unwrap();
    let mut study = Study::open(&b.0, Registry::builtin()).unwrap();
    assert_eq!(std::fs::metadata(&journal).unwrap().len(), len, "the torn line is dropped");
    assert_eq!(study.progress()[1].decisions, before.at);
    let Turn::Decide(after) = study.turn(who).unwrap() else { panic!() };
    assert_eq!((after.at, after.view, after.request), (before.at, before.view, before.request));
    assert!(after.at > last.unwrap());
    play_all(&mut study, who, &mut sim);
    assert_eq!(study.games(who), &whole[..]);
    // And once more from the files alone.
    let study = Study::open(&b.0, Registry::builtin()).unwrap();
    assert_eq!(study.games(who), &whole[..]);
}

#[test]
fn tokens_isolate_and_bad_requests_change_nothing() {
    let dir = Dir::new("isolation");
    let people = new_study(&dir.0, 1);
    let mut study = Study::open(&dir.0, Registry::builtin()).unwrap();
    assert_eq!(study.who("nope"), None);
    let mut wrong = people[0].token.clone();
    wrong.pop();
    wrong.push('x');
    assert_eq!(study.who(&wrong), None);
    let w0 = study.who(&people[0].token).unwrap();
    let w1 = study.who(&people[1].token).unwrap();
    assert_ne!(w0, w1);
    assert_eq!(study.id(w1), "p2");
    let Turn::Decide(p) = study.turn(w0).unwrap() else { panic!() };
    let journal = dir.0.join("games/p1.jsonl");
    let size = |j: &Path| std::fs::metadata(j).map(|m| m.len()).unwrap_or(0);
    let before = size(&journal);
    // A stale `at`, then an illegal decision: refused, nothing journaled.
    let d = Simulated::new().choose(&p);
    let e = study.decide(w0, p.at + 1, d).unwrap_err();
    assert!(matches!(e, StudyError::Stale { .. }) && e.is_client_error(), "{e}");
    let illegal = tresillo_core::Decision::Play(p.view.hand().iter().next().unwrap());
    let e = study.decide(w0, p.at, illegal).unwrap_err();
    assert!(matches!(e, StudyError::Illegal(_)) && e.is_client_error(), "{e}");
    assert_eq!(size(&journal), before);
    // The other participant's game is untouched by all this.
    assert_eq!(study.progress()[1].decisions, 0);
    play_all(&mut study, w0, &mut Simulated::new());
    assert_eq!(study.games(w0).len(), 1);
    assert!(study.games(w1).is_empty());
    let e = study.decide(w0, 0, d).unwrap_err();
    assert!(matches!(e, StudyError::Finished), "{e}");
    // record_game: a server's own table stores the next game; another deal is refused.
    let Some(setup) = study.next_game(w1) else { panic!() };
    let mut other = study.games(w0)[0].clone();
    let e = study.record_game(w1, other.clone()).unwrap_err();
    assert!(e.is_client_error() && e.to_string().contains("game 0 of p2"), "{e}");
    other.agents = setup.agents.clone();
    assert!(study.record_game(w1, other).is_err());
}

#[test]
fn a_journal_that_does_not_fit_the_study_is_refused_with_its_line() {
    let dir = Dir::new("corrupt");
    let people = new_study(&dir.0, 1);
    let mut study = Study::open(&dir.0, Registry::builtin()).unwrap();
    let who = study.who(&people[0].token).unwrap();
    play_all(&mut study, who, &mut Simulated::new());
    drop(study);
    let journal = dir.0.join("games/p1.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let n = text.lines().count();
    // Another participant's copy of the journal: another deal and seat.
    std::fs::write(dir.0.join("games/p2.jsonl"), &text).unwrap();
    let e = Study::open(&dir.0, Registry::builtin()).unwrap_err().to_string();
    assert!(e.contains(&format!("p2.jsonl:{n}: ")) && e.contains("game 0 of p2"), "{e}");
    std::fs::write(dir.0.join("games/p2.jsonl"), "{\"game\": 0}\n").unwrap();
    let e = Study::open(&dir.0, Registry::builtin()).unwrap_err().to_string();
    assert!(
        e.contains(
            "p2.jsonl:1: a journal line holds one of `step`, `record`, `consent`, `event`, `answer` or"
        ),
        "{e}"
    );
}

#[test]
fn the_example_study_opens_and_assigns_disjoint_deals() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/study");
    let study = Study::open(&dir, Registry::builtin()).unwrap();
    let mut places = Vec::new();
    for p in &study.file().participants {
        let who = study.who(&p.token).unwrap();
        let next = study.next_game(who).unwrap();
        assert_eq!((next.game, next.games), (0, 4));
        for g in 0..4 {
            places.push((next.deal_index + g, next.human_seat));
        }
    }
    places.sort();
    places.dedup();
    assert_eq!(places.len(), 12);
    assert!(!dir.join("games").exists(), "opening writes nothing");
}

#[test]
fn consent_is_journaled_once_and_remembered_and_the_researcher_token_opens_only_itself() {
    let dir = Dir::new("consent");
    let people = new_study(&dir.0, 1);
    let mut study = Study::open(&dir.0, Registry::builtin()).unwrap();
    let who = study.who(&people[0].token).unwrap();
    assert!(!study.consented(who));
    study.accept_consent(who).unwrap();
    study.accept_consent(who).unwrap();
    assert!(study.consented(who));
    let other = study.who(&people[1].token).unwrap();
    assert!(!study.consented(other));
    let r = study.file().researcher_token.clone().expect("study new writes one");
    assert!(study.is_researcher(&r));
    assert!(!study.is_researcher(&people[0].token));
    assert!(study.who(&r).is_none());
    drop(study);
    let journal = std::fs::read_to_string(dir.0.join("games/p1.jsonl")).unwrap();
    // The consent and its time (an event), once.
    let lines: Vec<&str> = journal.lines().collect();
    assert_eq!(lines.len(), 2, "{journal}");
    assert_eq!(lines[0], "{\"game\":0,\"consent\":\"I agree.\"}");
    assert!(lines[1].starts_with("{\"game\":0,\"event\":\"consent\",\"at\":"), "{journal}");
    let mut study = Study::open(&dir.0, Registry::builtin()).unwrap();
    assert!(study.consented(who));
    // A consent line does not disturb the games that follow it.
    play_all(&mut study, who, &mut Simulated::new());
    drop(study);
    let study = Study::open(&dir.0, Registry::builtin()).unwrap();
    assert_eq!(study.games(who).len(), 1);
}

#[test]
fn the_baseline_plays_each_finished_game_again_with_the_agent_in_the_participants_seat() {
    let dir = Dir::new("baseline");
    let people = new_study(&dir.0, 2);
    let mut study = Study::open(&dir.0, Registry::builtin()).unwrap();
    for p in &people {
        let who = study.who(&p.token).unwrap();
        study.accept_consent(who).unwrap();
        play_all(&mut study, who, &mut Simulated::new());
    }
    let out = dir.0.join("export");
    export(&study, &out, tresillo_deals::Format::Csv).unwrap();
    let n = tresillo_study::export_baseline(&study, &out.join("baseline"), "rule").unwrap();
    let read = |p: &Path| -> Vec<Vec<String>> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(|l| l.split(',').map(String::from).collect())
            .collect()
    };
    let people_rows = read(&out.join("deals.csv"));
    let bot_rows = read(&out.join("baseline/deals.csv"));
    assert_eq!(n, people_rows.len() - 1);
    assert_eq!(people_rows.len(), bot_rows.len());
    assert_eq!(people_rows[0], bot_rows[0], "one schema");
    let col = |name: &str| people_rows[0].iter().position(|c| c == name).unwrap();
    // The same deal, seed and seating, row by row; the agent in slot 0.
    for (a, b) in people_rows[1..].iter().zip(&bot_rows[1..]) {
        for c in ["deal", "deal_seed", "seating", "players"] {
            assert_eq!(a[col(c)], b[col(c)], "{c}");
        }
        assert!(a[col("agent0")].starts_with("human"), "{a:?}");
        assert_eq!(b[col("agent0")], "rule");
    }
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("baseline/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["csv_bytes"], std::fs::metadata(out.join("baseline/deals.csv")).unwrap().len());
    // Written once: a second baseline into the same directory is refused.
    assert!(tresillo_study::export_baseline(&study, &out.join("baseline"), "rule").is_err());
    // An agent that does not exist: a one-line reason.
    let e =
        tresillo_study::export_baseline(&study, &dir.0.join("b2"), "nosuchagent").unwrap_err().to_string();
    assert!(e.contains("nosuchagent") && !e.contains('\n'), "{e}");
}
