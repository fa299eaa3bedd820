//! The questions and the decisions' labels of both surfaces, the terminal's
//! `play --human` (`human.rs`) and the browser's play page
//! (`tresillo_server::view`), pinned by a golden file: every question and label
//! met on random walks through hands of every built-in rule set, at each of its
//! table sizes, with each option on in turn. A change of wording shows as a diff
//! of `tests/golden/questions-and-labels.txt`; rewrite it with
//! `TRESILLO_UPDATE_GOLDEN=1 cargo test -p tresillo-commands words_golden`.

use crate::human;
use std::collections::BTreeSet;
use tresillo_core::{Hand, OptionKind, PlayerView, Request, RuleSet, Rules, Seat};

/// The golden file, from the crate's root.
const GOLDEN: &str = "tests/golden/questions-and-labels.txt";

/// Deals walked in each configuration.
const DEALS: u64 = 150;

/// Each rule set with no option, then with each option on (a flag `true`, a suit
/// `oros`, a count one above its default), where the set takes it alone.
fn configurations(set: RuleSet) -> Vec<(String, Rules)> {
    let mut out = vec![(set.name().to_string(), Rules::parse(set.name(), &[]).expect("a built-in set"))];
    for o in set.spec().options {
        let value = match o.kind {
            OptionKind::Flag => "true".to_string(),
            OptionKind::Suit => "oros".to_string(),
            OptionKind::Count { default, max, .. } => (default + 1).min(max).to_string(),
        };
        if let Ok(r) = Rules::parse(set.name(), &[(o.name, &value)]) {
            out.push((format!("{} {}={value}", set.name(), o.name), r));
        }
    }
    out
}

/// The request's kind: its variant's name.
fn kind(req: Request) -> String {
    if let Request::Ask { question, .. } = req {
        return format!("Ask({question})");
    }
    let s = format!("{req:?}");
    s.split([' ', '{', '(']).next().unwrap_or_default().to_string()
}

/// Every line the surfaces show for `view`: the question, and each choice's text.
fn lines(config: &str, view: &PlayerView, out: &mut BTreeSet<String>) {
    let req = view.request();
    let k = kind(req);
    let p = view.public();
    let term = human::prompt_line(view);
    let page = tresillo_server::page_question(view);
    out.insert(format!("{config} | {k} | question | terminal: {term} | page: {page}"));
    if let Request::Discard { .. } = req {
        let prompt = human::discard_prompt(view);
        out.insert(format!("{config} | {k} | prompt | terminal: {prompt}"));
        return;
    }
    let choices = human::choices(view);
    for c in choices {
        let page = tresillo_server::page_label(&c.decision, p);
        out.insert(format!("{config} | {k} | {:?} | terminal: {} | page: {page}", c.decision, c.text));
    }
}

/// A deterministic walk: each decision drawn from the legal ones by a linear
/// congruential stream seeded by the deal (the first legal one, a pass, in every
/// auction of every third deal).
fn walk(config: &str, rules: Rules, players: u8, seed: u64, out: &mut BTreeSet<String>) {
    let table = rules.table(players);
    let dealer = Seat((seed % u64::from(players)) as u8);
    let deal = tresillo_agents::deal_for_seed(seed).seated(table, dealer);
    let mut hand = Hand::with_rules(rules, players, deal, dealer).expect("a legal deal");
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    while let Some(seat) = hand.request().seat() {
        let view = hand.view(seat);
        lines(&format!("{config} @{players}"), &view, out);
        let legal = view.legal_decisions();
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        // Every third deal everybody passes, for the forced games and the penetro.
        let pass = seed.is_multiple_of(3) && matches!(view.request(), Request::Bid { .. });
        let d = if pass { legal[0] } else { legal[((x >> 33) % legal.len() as u64) as usize] };
        hand.apply(d).expect("a legal decision");
    }
}

#[test]
fn questions_and_labels_match_the_golden_file() {
    let mut out = BTreeSet::new();
    for set in RuleSet::BUILT_IN {
        for (config, rules) in configurations(set) {
            // An option of the penetro (`penetro_all_play`) only at its table.
            for table in set.spec().tables.iter().filter(|t| rules.check_players(t.players).is_ok()) {
                for seed in 0..DEALS {
                    walk(&config, rules, table.players, seed, &mut out);
                }
            }
        }
    }
    let got: String = out.into_iter().map(|l| l + "\n").collect();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("TRESILLO_UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("the golden directory");
        std::fs::write(&path, &got).expect("the golden file written");
    }
    let want = std::fs::read_to_string(&path).expect("the golden file (TRESILLO_UPDATE_GOLDEN=1 writes it)");
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(
            g,
            w,
            "line {} of {GOLDEN} differs: a new rule set or changed words? rewrite the file with \
             TRESILLO_UPDATE_GOLDEN=1 cargo test --release -p tresillo-commands words_golden, and review its diff",
            i + 1
        );
    }
    assert_eq!(got.lines().count(), want.lines().count(), "{GOLDEN}: line counts differ");
}
