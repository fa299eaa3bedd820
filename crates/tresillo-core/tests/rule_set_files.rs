//! Rule sets defined as data (`rulesets::file`, docs/RULE-SET-FILES.md): the
//! test-only `test-three` read from its file has the table the test set had as a
//! Rust static; bad files are one-line errors naming the file, line and key.

#![cfg(feature = "rule-files")]

use tresillo_core::*;

const TEST_THREE: &str = include_str!("data/test-three.toml");

#[test]
fn test_three_read_from_its_file_is_tresillo_without_vuelta_and_with_its_condiciones() {
    let spec = rule_spec_from_toml(TEST_THREE, "test-three.toml").unwrap();
    let base = RuleSet::TRESILLO.spec();
    assert_eq!(spec.name, "test-three");
    assert_eq!(spec.tables, &[Table::THREE]);
    assert_eq!(spec.contracts, &[Contract::Entrada, Contract::Solo]);
    assert_eq!(spec.takeover_in, &[Contract::Entrada]);
    assert!(spec.options.is_empty());
    let c = spec.condiciones;
    assert_eq!(
        [c.entrada, c.vuelta, c.solo, c.penetro, c.estuche, c.contra_estuche, c.primeras, c.bola],
        [1, 0, 3, 0, 2, 0, 2, 12]
    );
    // Everything else is the base's.
    assert_eq!(spec.scoring, base.scoring);
    assert_eq!(spec.words, base.words);
    assert_eq!((spec.names, spec.opponents_order), (base.names, base.opponents_order));
    assert_eq!(
        (spec.tricks, spec.forced_holds_espada, spec.surrender),
        (base.tricks, base.forced_holds_espada, base.surrender)
    );
}

#[test]
fn a_defined_set_is_registered_once_and_plays() {
    let text = TEST_THREE.replace("test-three", "test-three-file");
    let set = define_rule_set(&text, "a.toml").unwrap();
    assert_eq!(define_rule_set(&text, "again.toml").unwrap(), set, "the same text is the same set");
    assert_eq!(Rules::parse("test-three-file", &[]).unwrap().set, set);
    // Its contracts are the file's: agents asking `has_contract` (the rule agent
    // at a level won above entrada's) do not name the base's vuelta.
    let rules = Rules::from(set);
    assert_eq!(
        [Contract::Entrada, Contract::Vuelta, Contract::Solo].map(|c| rules.has_contract(c)),
        [true, false, true]
    );
    let other = text.replace("bola = 12", "bola = 11");
    let e = define_rule_set(&other, "b.toml").unwrap_err().to_string();
    assert_eq!(e, "b.toml: rule set `test-three-file` is already registered");
    // A hand of it is played and scored by its own condiciones.
    let mut h = Hand::with_rules(Rules::from(set), 3, Deal::parse(MIXED).unwrap(), Seat(0)).unwrap();
    while !h.is_done() {
        let seat = h.request().seat().unwrap();
        let d = match h.request() {
            Request::Discard { min, .. } => {
                Decision::Discard(h.hand_of(seat).iter().take(min as usize).collect())
            }
            _ => h.view(seat).legal_decisions()[0],
        };
        h.apply(d).unwrap();
    }
    let r = h.result().unwrap();
    assert!(r.contract.is_none_or(|c| c != Contract::Vuelta));
    score_deal(LedgerConfig::with_rules(Rules::from(set), 3), &r).unwrap();
}

const MIXED: &str = "1E 5E 7E 12E 6B 7B 1C 4C 4O / 2E 6E 10E 4B 2C 3C 7C 1O 2O / 3B 5B 10B 11B 6C 10C 11C 3O 11O / 12C 12O 6O 12B 11E 5O 1B 5C 7O 4E 10O 3E 2B";

#[test]
fn bad_files_are_one_line_errors_naming_file_line_and_key() {
    let with = |line: &str| format!("name = \"bad-one\"\nbase = \"tresillo\"\n{line}\n");
    let built_in: Vec<&str> = RuleSet::BUILT_IN.iter().map(|r| r.name()).collect();
    let unknown_base =
        format!("f.toml:2: `base`: unknown base `poker` (a built-in rule set: {})", built_in.join(", "));
    let cases = [
        (
            with("contracts = [\"entrada\", \"vuelta\", \"entrada\"]"),
            "f.toml:3: `contracts`: `entrada` given twice",
        ),
        (
            with("contracts = [\"solo\"]"),
            "f.toml:3: `contracts`: must keep `entrada`, tresillo's lowest contract (its forced game's)",
        ),
        (
            with("contracts = [\"entrada\", \"grand-tourne\"]"),
            "f.toml:3: `contracts`: `grand-tourne` is not among tresillo's (entrada, vuelta, solo)",
        ),
        (with("players = [5]"), "f.toml:3: `players`: tresillo is not played by 5 (its tables: 3, 4)"),
        (
            with("options = [\"show_heap\"]"),
            "f.toml:3: `options`: `show_heap` is not an option of tresillo (its options: palo_de_favor, codillo_old, penetro_all_play)",
        ),
        (
            with("takeover_in = [\"solo\"]\ncontracts = [\"entrada\"]"),
            "f.toml:3: `takeover_in`: `solo` is not among tresillo's (entrada)",
        ),
        (with("[condiciones]\nbola = -1"), "f.toml:3: `condiciones`: each from 0 to 1000 tantos"),
        (
            "name = \"Bad Name\"\nbase = \"tresillo\"\n".to_string(),
            "f.toml:1: `name`: `Bad Name` is not a rule-set name (1 to 40 of a-z, 0-9 and -)",
        ),
        ("name = \"x\"\nbase = \"poker\"\n".to_string(), unknown_base.as_str()),
    ];
    for (text, want) in cases {
        assert_eq!(rule_spec_from_toml(&text, "f.toml").unwrap_err().to_string(), want, "{text}");
    }
    // The TOML reader's own errors: an unknown key, a bad contract, bad syntax.
    let e = rule_spec_from_toml(&with("vuelta = 2"), "f.toml").unwrap_err().to_string();
    assert!(e.starts_with("f.toml:3: unknown field `vuelta`"), "{e}");
    let e = rule_spec_from_toml(&with("contracts = [\"entrad\"]"), "f.toml").unwrap_err().to_string();
    assert!(e.starts_with("f.toml:3: unknown variant `entrad`"), "{e}");
    let e = rule_spec_from_toml("name = \"x\"\nbase = ", "f.toml").unwrap_err().to_string();
    assert!(e.starts_with("f.toml:2: "), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
    let e = rule_spec_from_toml("base = \"tresillo\"\n", "f.toml").unwrap_err().to_string();
    assert!(e.contains("missing field `name`"), "{e}");
}
