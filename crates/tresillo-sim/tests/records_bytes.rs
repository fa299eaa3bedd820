//! Records keep their bytes across the engine's redesigns: the hands in
//! `data/records-before-questions.jsonl` were written by the engine before the
//! yes/no questions became `Decision::Answer` (commit 3b656e4; every rule set and
//! table, `random` and `rule` seats, hombre with gascarille and contrabola). Each
//! still reads, replays to its stored result, and writes back byte for byte.

use tresillo_sim::HandRecord;

#[test]
fn records_written_before_the_question_redesign_replay_and_keep_their_bytes() {
    let text = include_str!("data/records-before-questions.jsonl");
    let mut answered = 0;
    for (i, line) in text.lines().enumerate() {
        let rec: HandRecord = serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let hand = rec.replay().unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        assert_eq!(hand.result().as_ref(), Some(&rec.result), "line {}", i + 1);
        assert_eq!(serde_json::to_string(&rec).unwrap(), line, "line {} changed its bytes", i + 1);
        answered +=
            rec.decisions.iter().filter(|s| matches!(s.act, tresillo_core::Decision::Answer(..))).count();
    }
    assert!(answered >= 40, "the file holds yes/no answers ({answered})");
}
