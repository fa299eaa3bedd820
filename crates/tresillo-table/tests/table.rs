//! The table's loop and journal as the server and the study use them: a
//! decision checked on a copy and applied only after its journal took it; a hand
//! played to its end is a record that replays, and the same journal played
//! again gives the same record; a journal file written, torn and read back.

use tresillo_agents::{Registry, TablePlayer, rng_from_seed};
use tresillo_core::{Decision, RuleSet, Rules, Seat};
use tresillo_sim::{HandRecord, deal_for_seed};
use tresillo_table::journal::{Entry, Journal, Place, Timing};
use tresillo_table::table::{HandSetup, Table, TableError};

fn setup(seed: u64) -> HandSetup {
    let rules = Rules::from(RuleSet::TRESILLO);
    HandSetup {
        rules,
        players: 3,
        deal: deal_for_seed(seed).seated(rules.table(3), Seat(1)),
        dealer: Seat(1),
        agents: vec!["human".into(), "rule".into(), "random".into()],
        seed: Some(seed),
        rng_seed: seed + 1,
        tournament: None,
    }
}

fn table(seed: u64) -> Table {
    let reg = Registry::builtin();
    let bots = vec![None, Some(reg.build_seated("rule").unwrap()), Some(reg.build_seated("random").unwrap())];
    Table::new(setup(seed), bots).unwrap()
}

/// Plays the hand to its end (the person is `rule` too), journaling each step
/// into `journal`.
fn play(t: &mut Table, journal: &mut Vec<Entry>) -> HandRecord {
    let mut person = tresillo_agents::build_seated("rule").unwrap();
    person.begin_hand();
    let mut rng = rng_from_seed(3);
    loop {
        let seat = t.turn().expect("the hand ends with a record");
        let done = if t.has_bot(seat) {
            let (step, done) = t.play_bot(seat).unwrap();
            journal.push(Entry::Step { place: Place::hand(0), step, timing: None });
            done
        } else {
            let d = person.decide_at(&t.hand, seat, &mut rng).unwrap();
            t.decide(seat, d, |&step| -> Result<(), TableError> {
                let timing = Some(Timing { server_ms: 5, page_ms: None, at: 1 });
                journal.push(Entry::Step { place: Place::hand(0), step, timing });
                Ok(())
            })
            .unwrap()
        };
        if let Some(rec) = done {
            return rec;
        }
    }
}

#[test]
fn a_decision_is_checked_on_a_copy_and_applied_only_after_its_journal_took_it() {
    let mut t = table(11);
    while let Some(seat) = t.turn().filter(|&s| t.has_bot(s)) {
        t.play_bot(seat).unwrap();
    }
    let me = t.turn().unwrap();
    assert_eq!(me, Seat(0));
    let (hand, steps) = (t.hand, t.steps.clone());
    let other = Seat(1);
    let d = t.hand.view(me).legal_decisions()[0];
    assert!(matches!(t.check(other, d), Err(TableError::NotYourTurn { .. })));
    let illegal = Decision::Play(t.hand.view(me).hand().iter().next().unwrap());
    let e = t.decide(me, illegal, |_| -> Result<(), TableError> {
        panic!("an illegal decision is not journaled")
    });
    assert!(matches!(e, Err(TableError::Illegal(_))), "{e:?}");
    // The journal refuses it: nothing applied.
    let e = t.decide(me, d, |_| Err::<(), _>(TableError::Over));
    assert!(e.is_err());
    assert_eq!((t.hand, &t.steps), (hand, &steps));
    assert!(t.decide(me, d, |_| Ok::<(), TableError>(())).unwrap().is_none());
    assert_eq!(t.steps.len(), steps.len() + 1);
    // A bot lent out decides without the table and comes back.
    if let Some(seat) = t.turn().filter(|&s| t.has_bot(s)) {
        let (mut bot, mut rng, hand) = t.lend_bot(seat).unwrap();
        assert!(!t.has_bot(seat));
        let d = bot.decide_at(&hand, seat, &mut rng).unwrap();
        t.return_bot(seat, bot, rng);
        t.decide(seat, d, |_| Ok::<(), TableError>(())).unwrap();
    }
}

#[test]
fn a_hand_is_a_record_that_replays_and_its_journal_played_again_is_the_same_record() {
    let mut journal = Vec::new();
    let rec = play(&mut table(12), &mut journal);
    rec.replay().unwrap();
    assert_eq!((rec.seed, rec.rng_seed), (Some(12), Some(13)));
    assert_eq!(rec.decisions.len(), journal.len());
    // The journal written to a file and read back, played again (the bots
    // asked again), gives the same record; so does an undo to the start.
    let dir = std::env::temp_dir().join(format!("tresillo-table-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("games/g.jsonl");
    let mut j = Journal::create(&path, &serde_json::json!({"what": "a test"})).unwrap();
    j.write(&journal[..3]).unwrap();
    j.sync().unwrap();
    j.append(&journal[3..]).unwrap();
    drop(j);
    let mut text = std::fs::read(&path).unwrap();
    text.extend_from_slice(b"{\"hand\":0,\"se");
    std::fs::write(&path, &text).unwrap();
    let opened = Journal::open(&path).unwrap();
    assert_eq!(opened.header.as_ref().map(|h| h.format), Some(2));
    assert_eq!(opened.entries.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), journal);
    let mut t = table(12);
    let mut again = None;
    for (_, e) in &opened.entries {
        let Entry::Step { step, .. } = e else { panic!() };
        again = t.replay(*step, true).unwrap();
    }
    assert_eq!(again.as_ref(), Some(&rec));
    let mut t = table(12);
    for (_, e) in &opened.entries[..5] {
        let Entry::Step { step, .. } = e else { panic!() };
        t.replay(*step, false).unwrap();
    }
    t.cut(2).unwrap();
    assert_eq!(t.steps, rec.decisions[..2]);
    assert!(matches!(t.cut(3), Err(TableError::Cut { keep: 3, at: 2 })));
    // Replaced by one line (a withdrawal).
    let j = opened.journal.replace(&[Entry::Withdrawn { place: Place::game(0), ms: 5 }]).unwrap();
    drop(j);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"game\":0,\"withdrawn\":5}\n");
    let _ = std::fs::remove_dir_all(&dir);
}
