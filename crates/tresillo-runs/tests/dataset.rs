//! `tresillo dataset`'s files (issue 51): the rows read back are the rows played;
//! replayed, every row's observation is `observation::tensor` of the seat's view
//! and every hidden card's label is where the card really lies; the files are the
//! same bytes whatever the thread count and after a resume; a damaged file is one
//! line naming it; docs/DATASETS.md tables every column.

use std::path::{Path, PathBuf};
use tresillo_agents::Registry;
use tresillo_core::action::{Action, DiscardBuilder, legal_ids};
use tresillo_core::{CardSet, Decision, Rules, Seat};
use tresillo_learn::Row;
use tresillo_learn::data::{Setup, new_hand};
use tresillo_learn::features;
use tresillo_runs::dataset::{
    COLUMNS, ColKind, DatasetConfig, DatasetManifest, DatasetOptions, make, read_dataset, read_manifest,
    read_rows, shard_files,
};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tresillo-dataset-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn config(players: u8, deals: u64, explore: u32) -> DatasetConfig {
    let agents = if players == 4 { "rule,random,rule,rule" } else { "rule,rule,random" };
    DatasetConfig {
        agents: agents.split(',').map(String::from).collect(),
        rules: Rules::default(),
        players,
        seed: 51,
        deals,
        explore,
        phases: 0,
        shard_deals: 40,
    }
}

fn options(out: &Path, threads: usize) -> DatasetOptions<'static> {
    DatasetOptions {
        out: out.to_path_buf(),
        threads: Some(threads),
        resume: false,
        force: false,
        note: &|_| {},
        progress: false,
        build: None,
    }
}

/// Makes the dataset of `c` in `dir` on `threads` threads.
fn make_in(dir: &Path, c: &DatasetConfig, threads: usize) -> DatasetManifest {
    make(c, &Registry::builtin(), &options(dir, threads), vec!["test".into()]).unwrap().manifest
}

/// Every row of the dataset in `dir`, in order.
fn all_rows(dir: &Path) -> Vec<Row> {
    shard_files(dir).unwrap().iter().flat_map(|p| read_rows(p).unwrap()).collect()
}

#[test]
fn the_rows_read_back_are_the_rows_played() {
    for (players, explore) in [(3, 0), (4, 30)] {
        let c = config(players, 100, explore);
        let dir = temp(&format!("back{players}"));
        let m = make_in(&dir, &c, 2);
        assert!(m.complete);
        assert_eq!(m.shards.len(), 3, "100 deals in shards of 40");
        let rows = all_rows(&dir);
        let setup = Setup { rules: c.rules, players, seed: c.seed, explore, phases: 0 };
        let played = tresillo_learn::play_deals(&setup, &c.agents, &Registry::builtin(), 0..c.deals).unwrap();
        assert_eq!(rows.len() as u64, m.rows);
        assert!(rows == played, "the rows of {players} players read back as played");
        let (manifest, whole) = read_dataset(&dir).unwrap();
        assert!(manifest == m && whole == played, "read_dataset reads them all");
    }
}

/// Replays every deal of the rows (each row's action in turn) and checks each row
/// against the hand: its seat is the one asked, its observation the tensor of the
/// seat's view, its extra values and legal actions those of the view, every card
/// it cannot see labelled with where it lies (and no other card labelled), and
/// its tantos what the hand scored.
fn check_against_replay(rows: &[Row], c: &DatasetConfig) {
    let n = c.players;
    let mut at = 0;
    let mut hidden_labels = 0;
    while at < rows.len() {
        let deal = rows[at].deal;
        let mut hand = new_hand(c.rules, n, c.seed, deal).unwrap();
        assert_eq!(rows[at].seed, tresillo_sim::deal_seed(c.seed, deal));
        let mut building = DiscardBuilder::default();
        let start = at;
        while at < rows.len() && rows[at].deal == deal {
            let r = &rows[at];
            let seat = hand.request().seat().expect("a seat to decide");
            assert_eq!(Seat(r.seat), seat, "deal {deal} row {at}: the seat asked");
            assert_eq!(r.slot, r.seat);
            let view = hand.view(seat);
            // The observation.
            let t = tresillo_env::observation::tensor(&view, building.chosen);
            let mut input = vec![0f32; features::INPUT];
            r.input(&mut input);
            assert_eq!(&input[..features::OBS], &t[..], "deal {deal} row {at}: the observation");
            let mut extra = vec![0f32; features::EXTRA];
            features::extra(&view, &mut extra);
            assert_eq!(&input[features::OBS..], &extra[..], "deal {deal} row {at}: the extra values");
            // The legal actions.
            let legal = legal_ids(&view, building);
            let from_row: Vec<usize> =
                (0..tresillo_core::action::NUM_ACTIONS).filter(|&a| r.is_legal(a)).collect();
            assert_eq!(from_row, legal, "deal {deal} row {at}: the legal actions");
            assert!(r.is_legal(usize::from(r.action)));
            // The labels.
            let known = view.known_cards();
            for card in CardSet::FULL {
                let label = r.owners[card.index()];
                if known.contains(card) {
                    assert_eq!(label, 0, "deal {deal} row {at}: {card} is known, not a label");
                    continue;
                }
                hidden_labels += 1;
                let truly = match label {
                    1..=3 => hand.hand_of(seat.plus(label, n)).contains(card),
                    4 => hand.heap_remaining().contains(card),
                    5 => (1..n).any(|k| hand.discards_of(seat.plus(k, n)).contains(card)),
                    _ => false,
                };
                assert!(truly, "deal {deal} row {at}: {card} labelled {label}, not where it lies");
            }
            // The action.
            match Action::from_id(usize::from(r.action)).expect("an action id") {
                Action::Decision(d) => hand.apply(d).unwrap(),
                Action::DiscardCard(card) => {
                    building.chosen.insert(card);
                }
                Action::DiscardDone => {
                    hand.apply(Decision::Discard(building.chosen)).unwrap();
                    building = DiscardBuilder::default();
                }
            }
            at += 1;
        }
        assert!(hand.request().seat().is_none(), "deal {deal}: the rows end the hand");
        let scores = tresillo_env::deal_scores(&hand.result().unwrap()).unwrap();
        for r in &rows[start..at] {
            assert_eq!(i64::from(r.tantos), scores[usize::from(r.seat)], "deal {deal}: the seat's tantos");
        }
    }
    assert!(hidden_labels > 0);
}

#[test]
fn replayed_rows_hold_the_views_tensor_and_the_true_places_of_hidden_cards() {
    for (players, explore) in [(3, 0), (4, 30)] {
        let c = config(players, 60, explore);
        let dir = temp(&format!("replay{players}"));
        make_in(&dir, &c, 2);
        check_against_replay(&all_rows(&dir), &c);
    }
}

/// The shard files' bytes, by name.
fn shard_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    shard_files(dir)
        .unwrap()
        .iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(p).unwrap()))
        .collect()
}

#[test]
fn the_same_bytes_whatever_the_threads_and_after_a_resume() {
    let c = config(3, 130, 10);
    let one = temp("threads1");
    let two = temp("threads2");
    let m1 = make_in(&one, &c, 1);
    let m2 = make_in(&two, &c, 2);
    assert_eq!(m1, m2, "the same manifest");
    assert_eq!(shard_bytes(&one), shard_bytes(&two), "the same shards");
    assert_eq!(shard_bytes(&one).len(), 4);
    // Without --resume or --force the dataset is refused.
    let e = make(&c, &Registry::builtin(), &options(&two, 2), vec![]).unwrap_err();
    assert!(format!("{e:#}").contains("already holds a dataset"), "{e:#}");
    // A dataset that stopped after two shards (a kill leaves at most a temporary
    // file besides them) resumes to the same files.
    for name in ["rows-00002.parquet", "rows-00003.parquet"] {
        std::fs::remove_file(two.join(name)).unwrap();
    }
    std::fs::write(two.join("rows-00002.parquet.tmp"), b"half a file").unwrap();
    let mut o = options(&two, 2);
    o.resume = true;
    let made = make(&c, &Registry::builtin(), &o, vec!["test".into()]).unwrap();
    assert_eq!(made.rows_played, m1.shards[2].rows + m1.shards[3].rows, "only the missing shards played");
    assert_eq!(made.manifest, m1);
    assert_eq!(shard_bytes(&one), shard_bytes(&two));
    assert!(!two.join("rows-00002.parquet.tmp").exists());
    assert_eq!(read_manifest(&two).unwrap(), m1);
    // A resume of other settings is refused, naming the setting.
    let other = DatasetConfig { seed: 52, ..c.clone() };
    let e = make(&other, &Registry::builtin(), &o, vec![]).unwrap_err();
    assert!(format!("{e:#}").contains("seed 51, not 52"), "{e:#}");
    // --force replaces it.
    let mut o = options(&two, 2);
    o.force = true;
    let m = make(&other, &Registry::builtin(), &o, vec!["test".into()]).unwrap().manifest;
    assert_eq!(m.seed, 52);
    assert_ne!(shard_bytes(&one), shard_bytes(&two));
}

#[test]
fn a_damaged_or_foreign_file_is_one_line_naming_it() {
    let dir = temp("damaged");
    make_in(&dir, &config(3, 40, 0), 1);
    let p = dir.join("rows-00000.parquet");
    let bytes = std::fs::read(&p).unwrap();
    let one_line = |path: &Path, want: &str| {
        let e = format!("{:#}", read_rows(path).unwrap_err());
        assert!(e.contains(&path.display().to_string()) && e.contains(want), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    };
    // Truncated.
    std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
    one_line(&p, "not a readable Parquet file");
    // Its pages damaged (the footer whole).
    let mut bad = bytes.clone();
    for b in &mut bad[100..bytes.len() / 2] {
        *b = 0x5a;
    }
    std::fs::write(&p, &bad).unwrap();
    one_line(&p, "unreadable rows");
    // Not Parquet at all, and missing.
    std::fs::write(&p, b"deal,seat\n1,2\n").unwrap();
    one_line(&p, "not a readable Parquet file");
    one_line(&dir.join("nothing.parquet"), "nothing.parquet");
    // A Parquet file of other columns: a tournament's deals.parquet.
    let run = temp("damaged-run");
    let mut o = tresillo_runs::RunOptions::new(&run);
    o.format = tresillo_runs::Format::Parquet;
    o.progress = false;
    tresillo_runs::run(&tresillo_sim::simple_config(["rule", "rule", "rule"], 10, 1, false), &o, vec![])
        .unwrap();
    one_line(&run.join("deals.parquet"), "not a dataset file");
}

/// docs/DATASETS.md's table names every column with its type, in order.
#[test]
fn the_documented_table_gives_every_column_its_type() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/DATASETS.md")).unwrap();
    let listed: Vec<(String, String)> = doc
        .lines()
        .skip_while(|l| !l.starts_with("| `rules`"))
        .take_while(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            (
                cells[0].trim_start_matches("| ").trim_matches('`').to_string(),
                cells[1].trim_matches('`').to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = COLUMNS.iter().map(|c| (c.name.to_string(), c.kind.name())).collect();
    assert_eq!(listed, want);
    assert!(COLUMNS.iter().any(|c| c.kind == ColKind::Fixed(52)));
}

#[test]
fn read_dataset_refuses_a_damaged_shard_or_an_unfinished_dataset() {
    let dir = temp("read-dataset");
    make_in(&dir, &config(3, 50, 0), 1);
    let p = dir.join("rows-00001.parquet");
    let mut bytes = std::fs::read(&p).unwrap();
    let at = bytes.len() / 3;
    bytes[at] ^= 0x10;
    std::fs::write(&p, &bytes).unwrap();
    let e = format!("{:#}", read_dataset(&dir).unwrap_err());
    assert!(e.contains(&p.display().to_string()) && e.contains("do not match"), "{e}");
    assert_eq!(e.lines().count(), 1);
    std::fs::remove_file(&p).unwrap();
    let e = format!("{:#}", read_dataset(&dir).unwrap_err());
    assert!(e.contains("rows-00001.parquet"), "{e}");
    let mut m = read_manifest(&dir).unwrap();
    m.complete = false;
    std::fs::write(dir.join("manifest.json"), serde_json::to_string(&m).unwrap()).unwrap();
    let e = format!("{:#}", read_dataset(&dir).unwrap_err());
    assert!(e.contains("unfinished") && e.contains("--resume"), "{e}");
}

#[test]
fn phases_keep_the_rows_of_those_requests_only() {
    let all = temp("phases-all");
    let c = config(3, 60, 20);
    make_in(&all, &c, 2);
    let some = temp("phases-some");
    let bids =
        DatasetConfig { phases: tresillo_learn::data::phase_mask("bid,declare").unwrap(), ..c.clone() };
    let m = make_in(&some, &bids, 2);
    assert_eq!(m.phases, ["bid", "declare"]);
    let kept: Vec<Row> = all_rows(&all).into_iter().filter(|r| r.phase <= 1).collect();
    assert!(!kept.is_empty() && all_rows(&some) == kept);
}
