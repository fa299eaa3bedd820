//! `tresillo report`: the page's tables against the run's own files, well-formed
//! markup that references nothing outside itself, and one-line errors.

use crate::common;

use common::{TempDir, failed, ok, tresillo};
use std::fs;
use std::path::Path;

/// Parses the page as XML (it is XHTML-compatible HTML5).
fn parse(text: &str) -> roxmltree::Document<'_> {
    let opts = roxmltree::ParsingOptions { allow_dtd: true, ..roxmltree::ParsingOptions::default() };
    roxmltree::Document::parse_with_options(text, opts).expect("the report is well-formed")
}

/// The body rows of the table with this id, as cell texts.
fn table(doc: &roxmltree::Document<'_>, id: &str) -> Vec<Vec<String>> {
    let t = doc
        .descendants()
        .find(|n| n.has_tag_name("table") && n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no table {id}"));
    let body = t.children().find(|n| n.has_tag_name("tbody")).expect("tbody");
    body.children()
        .filter(|n| n.has_tag_name("tr"))
        .map(|tr| {
            tr.children().filter(|c| c.is_element()).map(|c| c.text().unwrap_or("").to_string()).collect()
        })
        .collect()
}

fn csv_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let head = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r.records().map(|x| x.unwrap().iter().map(String::from).collect()).collect();
    (head, rows)
}

fn pick(head: &[String], row: &[String], cols: &[&str]) -> Vec<String> {
    cols.iter()
        .map(|c| row[head.iter().position(|h| h == c).unwrap_or_else(|| panic!("{c}"))].clone())
        .collect()
}

/// Nothing the page loads: no scripts, images, links or frames, no `src`, no
/// `href` but in-page anchors, no `url(` or `@import` in styles, and `http` only in
/// the SVG namespace declarations (which name a namespace, and load nothing).
fn assert_self_contained(text: &str, doc: &roxmltree::Document<'_>) {
    for n in doc.descendants().filter(|n| n.is_element()) {
        let tag = n.tag_name().name();
        assert!(
            !["script", "img", "link", "iframe", "object", "embed", "image", "use"].contains(&tag),
            "<{tag}>"
        );
        for a in n.attributes() {
            assert!(a.name() != "src", "src= on <{tag}>");
            if a.name() == "href" {
                assert!(a.value().starts_with('#'), "href {} on <{tag}>", a.value());
            }
            assert!(!a.value().contains("url("), "url( in an attribute of <{tag}>");
        }
    }
    for style in doc.descendants().filter(|n| n.has_tag_name("style")) {
        let css = style.text().unwrap_or("");
        assert!(!css.contains("url(") && !css.contains("@import"), "the style loads something");
    }
    let mut rest = text;
    while let Some(i) = rest.find("http") {
        assert!(
            rest[..i].ends_with("xmlns=\""),
            "http outside a namespace declaration: {}",
            &rest[i..i + 40]
        );
        rest = &rest[i + 4..];
    }
}

#[test]
fn a_tournament_report_shows_the_summary_and_is_self_contained() {
    let dir = TempDir::new("report", "tournament");
    let run = dir.path("run");
    ok(&tresillo(&[
        "tournament",
        "--agents",
        "rule,rule:takeover=40,random",
        "--deals",
        "60",
        "--seed",
        "5",
        "--duplicate",
        "--threads",
        "2",
        "--out",
        run.to_str().unwrap(),
    ]));
    let page = dir.path("page.html");
    let printed = ok(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    // Nine charts, the paired differences of pairs.csv and the time per card
    // decision of compute.csv.
    assert!(printed.contains("11 charts from 1 run in"), "{printed}");
    let text = fs::read_to_string(&page).unwrap();
    let doc = parse(&text);
    assert_self_contained(&text, &doc);

    let (head, summary) = csv_rows(&run.join("summary.csv"));
    let agents: Vec<&Vec<String>> = summary.iter().filter(|r| r[1] == "all" && r[0] != "all").collect();
    assert_eq!(agents.len(), 3);

    // Mean tantos: every agent row of summary.csv, field for field.
    let cols = ["agent", "role", "deals", "mean_tantos", "ci95_low", "ci95_high"];
    let want: Vec<Vec<String>> =
        summary.iter().filter(|r| r[0] != "all").map(|r| pick(&head, r, &cols)).collect();
    assert_eq!(table(&doc, "run1-tantos-table"), want);

    // Declaring and success: the agents and the whole-run row.
    let cols = ["agent", "deals", "declared", "declare_rate", "forced", "entrada", "vuelta", "solo"];
    let want: Vec<Vec<String>> =
        summary.iter().filter(|r| r[1] == "all").map(|r| pick(&head, r, &cols)).collect();
    assert_eq!(table(&doc, "run1-declare-table"), want);
    let cols = ["agent", "entrada", "entrada_success", "vuelta", "vuelta_success", "solo", "solo_success"];
    let want: Vec<Vec<String>> =
        summary.iter().filter(|r| r[1] == "all").map(|r| pick(&head, r, &cols)).collect();
    assert_eq!(table(&doc, "run1-success-table"), want);

    // Outcomes: one row per agent and contract declared; the kinds of puesta
    // counted from deals.csv add up to the summary's puestas.
    let outcomes = table(&doc, "run1-outcomes-table");
    let mut k = 0;
    for a in &agents {
        for c in ["entrada", "vuelta", "solo"] {
            let n = pick(&head, a, &[c])[0].clone();
            if n == "0" {
                continue;
            }
            let row = &outcomes[k];
            k += 1;
            let want = pick(&head, a, &["agent"]);
            assert_eq!(row[0], want[0]);
            assert_eq!(row[1], c);
            let counts =
                pick(&head, a, &[c, &format!("{c}_sacado"), &format!("{c}_puesta"), &format!("{c}_codillo")]);
            assert_eq!(row[2..6], counts[..], "{} {c}", row[0]);
            let kinds: u64 = row[6..11].iter().map(|x| x.parse::<u64>().unwrap()).sum();
            assert_eq!(kinds.to_string(), row[4], "puesta kinds of {} {c}", row[0]);
        }
    }
    assert_eq!(k, outcomes.len());

    // The declarer's tricks: one count per hand declared and played.
    let tricks = table(&doc, "run1-tricks-table");
    assert_eq!(tricks.len(), 10);
    for (s, a) in agents.iter().enumerate() {
        let hands: u64 = tricks.iter().map(|r| r[s + 1].parse::<u64>().unwrap()).sum();
        let declared: u64 =
            pick(&head, a, &["entrada", "vuelta", "solo"]).iter().map(|x| x.parse::<u64>().unwrap()).sum();
        assert_eq!(hands, declared, "slot {s}");
    }
    for id in ["run1-primeras-table", "run1-surrender-table"] {
        assert_eq!(table(&doc, id).len(), 3, "{id}");
    }

    // Every chart: an SVG with its title and axis descriptions, then its table.
    let figures: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("figure")).collect();
    assert_eq!(figures.len(), 11);
    // The paired differences of pairs.csv: one row per pair of slots.
    assert_eq!(table(&doc, "run1-pairs-table").len(), 3);
    // compute.csv: one row per slot, its decisions as counted.
    let (chead, compute) = csv_rows(&run.join("compute.csv"));
    let shown: Vec<Vec<String>> = table(&doc, "run1-compute-table").iter().map(|r| r[..2].to_vec()).collect();
    let want: Vec<Vec<String>> = compute
        .iter()
        .map(|r| {
            let p = pick(&chead, r, &["slot", "agent", "decisions"]);
            vec![format!("{}:{}", p[0], p[1]), p[2].clone()]
        })
        .collect();
    assert_eq!(shown, want);
    for f in &figures {
        let svg = f.descendants().find(|n| n.has_tag_name("svg")).expect("an svg");
        let texts: Vec<&str> = svg.descendants().filter_map(|n| n.text()).map(str::trim).collect();
        assert!(
            texts.iter().any(|t| t.contains('%') || t.contains("tantos") || t.contains("milliseconds")),
            "a y axis with its unit"
        );
        assert!(f.descendants().any(|n| n.has_tag_name("table")));
    }
    // The manifest at the top.
    let manifest = table(&doc, "run1-manifest");
    assert!(manifest.iter().any(|r| r[0] == "seed" && r[1] == "5"));
    assert!(manifest.iter().any(|r| r[0] == "command" && r[1].contains("tournament --agents")));
}

#[test]
fn without_deals_csv_the_page_says_what_is_missing() {
    let dir = TempDir::new("report", "nodeals");
    let a = dir.path("a/run");
    // A name with markup in it: escaped everywhere it is shown (headings, tables, SVG).
    let b = dir.path("b&<1>");
    for (d, agents) in [(&a, "rule,rule,random"), (&b, "random,rule,rule")] {
        ok(&tresillo(&["tournament", "--agents", agents, "--deals", "20", "--out", d.to_str().unwrap()]));
        fs::remove_file(d.join("deals.csv")).unwrap();
    }
    let page = dir.path("page.html");
    let printed =
        ok(&tresillo(&["report", a.to_str().unwrap(), b.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    // Six charts per run (the paired differences and the compute among them) and one across them.
    assert!(printed.contains("13 charts from 2 runs"), "{printed}");
    let text = fs::read_to_string(&page).unwrap();
    let doc = parse(&text);
    assert_self_contained(&text, &doc);
    assert_eq!(text.matches("has no deals.csv").count(), 2);
    let across = table(&doc, "across-table");
    assert_eq!(across.len(), 6);
    let (head, summary) = csv_rows(&b.join("summary.csv"));
    let want = pick(&head, &summary[0], &["agent", "deals", "mean_tantos", "ci95_low", "ci95_high"]);
    assert_eq!(across[0][0], "run");
    assert_eq!(across[3][0], "b&<1>");
    assert!(!text.contains("b&<1>") && text.contains("b&amp;&lt;1&gt;"));
    assert_eq!(across[3][1..], want[..]);
}

#[test]
fn a_tuning_report_shows_every_candidate_and_marks_the_best() {
    let dir = TempDir::new("report", "tune");
    let out = dir.path("tune/cands.csv");
    ok(&tresillo(&[
        "tune",
        "--param",
        "entrada=42,45",
        "--param",
        "takeover=40,60",
        "--method",
        "grid",
        "--deals",
        "10",
        "--out",
        out.to_str().unwrap(),
    ]));
    let page = dir.path("page.html");
    // The directory and the CSV itself both name the run.
    for input in [dir.path("tune"), out.clone()] {
        ok(&tresillo(&["report", input.to_str().unwrap(), "--out", page.to_str().unwrap()]));
        let text = fs::read_to_string(&page).unwrap();
        let doc = parse(&text);
        assert_self_contained(&text, &doc);
        let (_, rows) = csv_rows(&out);
        assert_eq!(table(&doc, "run1-candidates"), rows);
        // Two charts per parameter (means, and paired differences from the start):
        // the two values, the other parameter at the best's.
        assert_eq!(doc.descendants().filter(|n| n.has_tag_name("figure")).count(), 4);
        for p in 0..2 {
            let means = table(&doc, &format!("run1-param{p}-table"));
            let paired = table(&doc, &format!("run1-param{p}-paired-table"));
            assert_eq!(means.len(), 2);
            assert_eq!(paired.len(), 2);
            for (m, d) in means.iter().zip(&paired) {
                let row = rows.iter().find(|r| r[0] == m[1]).expect("a candidate of the CSV");
                assert_eq!(m[2..5], row[3..6], "mean and interval of {}", m[1]);
                assert_eq!(d[2..5], row[7..10], "paired difference of {}", m[1]);
            }
        }
        let manifest: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.path("tune/cands.manifest.json")).unwrap()).unwrap();
        let best = manifest["best"]["spec"].as_str().unwrap();
        let facts = table(&doc, "run1-manifest");
        assert!(facts.iter().any(|r| r[0] == "best" && r[1].starts_with(best)));
        assert!(text.contains(">\nbest\n</text>"), "the legend names the best point");
    }
}

#[test]
fn a_confirmation_run_is_one_chart_of_every_candidate() {
    let dir = TempDir::new("report", "confirm");
    let out = dir.path("cands.csv");
    let args =
        ["tune", "--param", "entrada=42", "--param", "takeover=40", "--method", "grid", "--deals", "10"];
    ok(&tresillo(&[&args[..], &["--out", out.to_str().unwrap()]].concat()));
    let page = dir.path("page.html");
    ok(&tresillo(&["report", out.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    let text = fs::read_to_string(&page).unwrap();
    let doc = parse(&text);
    assert_eq!(doc.descendants().filter(|n| n.has_tag_name("figure")).count(), 1);
    let (_, rows) = csv_rows(&out);
    let shown = table(&doc, "run1-candidates-chart-table");
    assert_eq!(shown.len(), rows.len());
    for (s, r) in shown.iter().zip(&rows) {
        assert_eq!(s[1], r[0]);
        assert_eq!(s[2..], [&r[3..6], &r[7..10]].concat()[..]);
    }
}

#[test]
fn bad_inputs_are_one_line_errors_naming_the_file_and_line() {
    let dir = TempDir::new("report", "bad");
    let page = dir.path("page.html");
    let page = page.to_str().unwrap();
    let one_line = |err: &str| assert_eq!(err.trim_end().lines().count(), 1, "{err}");

    // Two runs of one name are told apart by their paths.
    let twice = [dir.path("x/run"), dir.path("y/run")];
    for d in &twice {
        ok(&tresillo(&["tournament", "--deals", "5", "--out", d.to_str().unwrap()]));
    }
    ok(&tresillo(&["report", twice[0].to_str().unwrap(), twice[1].to_str().unwrap(), "--out", page]));
    let text = fs::read_to_string(page).unwrap();
    let across = table(&parse(&text), "across-table");
    assert_eq!(across[0][0], twice[0].display().to_string());
    assert_eq!(across[3][0], twice[1].display().to_string());
    fs::remove_file(page).unwrap();

    let tune = dir.path("t/cands.csv");
    ok(&tresillo(&[
        "tune",
        "--param",
        "entrada=42,45",
        "--method",
        "grid",
        "--deals",
        "5",
        "--out",
        tune.to_str().unwrap(),
    ]));
    let good = fs::read_to_string(&tune).unwrap();
    let mut lines: Vec<String> = good.lines().map(String::from).collect();
    let mut fields: Vec<&str> = lines[1].split(',').collect();
    fields[2] = "x";
    lines[1] = fields.join(",");
    fs::write(&tune, lines.join("\n") + "\n").unwrap();
    let err = failed(&tresillo(&["report", tune.to_str().unwrap(), "--out", page]));
    assert!(err.contains("cands.csv line 2: column mean_tantos: \"x\" is not a number"), "{err}");
    one_line(&err);
    fs::write(&tune, &good).unwrap();
    fs::remove_file(dir.path("t/cands.manifest.json")).unwrap();
    let err = failed(&tresillo(&["report", tune.to_str().unwrap(), "--out", page]));
    assert!(err.contains("cands.manifest.json is missing"), "{err}");
    one_line(&err);
    fs::remove_dir_all(dir.path("t")).unwrap();

    let err = failed(&tresillo(&["report", dir.0.to_str().unwrap(), "--out", page]));
    assert!(err.contains("not a run directory"), "{err}");
    let csv = twice[0].join("summary.csv");
    let before = fs::read(&csv).unwrap();
    let err = failed(&tresillo(&["report", twice[0].to_str().unwrap(), "--out", csv.to_str().unwrap()]));
    assert!(err.contains("name a file ending in .html"), "{err}");
    assert_eq!(fs::read(&csv).unwrap(), before, "the CSV is untouched");
    one_line(&err);
    let err = failed(&tresillo(&["report", dir.path("nowhere").to_str().unwrap(), "--out", page]));
    assert!(err.contains("nowhere: no such file or directory"), "{err}");

    let run = dir.path("run");
    ok(&tresillo(&["tournament", "--deals", "10", "--out", run.to_str().unwrap()]));
    let summary = run.join("summary.csv");
    let good = fs::read_to_string(&summary).unwrap();
    let mut lines: Vec<String> = good.lines().map(String::from).collect();
    lines[1] = lines[1].replacen(",10,", ",ten,", 1);
    fs::write(&summary, lines.join("\n") + "\n").unwrap();
    let err = failed(&tresillo(&["report", run.to_str().unwrap(), "--out", page]));
    assert!(err.contains("summary.csv line 2: column deals: \"ten\" is not a number"), "{err}");
    one_line(&err);
    fs::write(&summary, good.replacen("agent,role", "agent,rank", 1)).unwrap();
    let err = failed(&tresillo(&["report", run.to_str().unwrap(), "--out", page]));
    assert!(err.contains("summary.csv line 1: not the header"), "{err}");
    one_line(&err);
    fs::write(&summary, &good).unwrap();

    let deals = run.join("deals.csv");
    let text = fs::read_to_string(&deals).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[4] = lines[4].split(',').take(5).collect::<Vec<_>>().join(",");
    fs::write(&deals, lines.join("\n") + "\n").unwrap();
    let err = failed(&tresillo(&["report", run.to_str().unwrap(), "--out", page]));
    assert!(err.contains("deals.csv line 5:"), "{err}");
    one_line(&err);
    fs::remove_file(&deals).unwrap();

    fs::write(run.join("manifest.json"), "{\"tool\": 1").unwrap();
    let err = failed(&tresillo(&["report", run.to_str().unwrap(), "--out", page]));
    assert!(err.contains("manifest.json: not a tresillo manifest"), "{err}");
    one_line(&err);
    assert!(!Path::new(page).exists(), "nothing written after an error");
}

#[test]
fn a_shard_is_reported_as_one() {
    let dir = TempDir::new("report", "shard");
    let run = dir.path("s1");
    ok(&tresillo(&["tournament", "--deals", "20", "--shard", "1/2", "--out", run.to_str().unwrap()]));
    let page = dir.path("page.html");
    ok(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    let text = fs::read_to_string(&page).unwrap();
    let facts = table(&parse(&text), "run1-manifest");
    let deals = &facts.iter().find(|r| r[0] == "deals").unwrap()[1];
    assert!(deals.starts_with("10 (deal indices 10 to 19, shard 1/2 of the run)"), "{deals}");
}

/// The column `name` of a deals.csv row.
fn col<'a>(head: &[String], row: &'a [String], name: &str) -> &'a str {
    &row[head.iter().position(|h| h == name).unwrap_or_else(|| panic!("{name}"))]
}

#[test]
fn a_four_player_report_counts_penetros_drop_outs_and_positions_from_deals_csv() {
    let dir = TempDir::new("report", "four");
    let run = dir.path("run");
    ok(&tresillo(&[
        "tournament",
        "--players",
        "4",
        "--agents",
        "rule,random,rule,random",
        "--deals",
        "12",
        "--seed",
        "3",
        "--duplicate",
        "--out",
        run.to_str().unwrap(),
    ]));
    let page = dir.path("page.html");
    let printed = ok(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    assert!(printed.contains("12 charts from 1 run in"), "{printed}");
    let text = fs::read_to_string(&page).unwrap();
    let doc = parse(&text);
    assert_self_contained(&text, &doc);
    let manifest = table(&doc, "run1-manifest");
    assert!(manifest.iter().any(|r| r[0] == "seating" && r[1].contains("all 24 seatings")), "{manifest:?}");
    assert!(manifest.iter().any(|r| r[0] == "players" && r[1].starts_with('4')), "{manifest:?}");

    // The summary's four slots, each in three roles.
    let (shead, summary) = csv_rows(&run.join("summary.csv"));
    let cols = ["agent", "role", "deals", "mean_tantos", "ci95_low", "ci95_high"];
    let want: Vec<Vec<String>> =
        summary.iter().filter(|r| r[0] != "all").map(|r| pick(&shead, r, &cols)).collect();
    assert_eq!(want.len(), 12);
    assert_eq!(table(&doc, "run1-tantos-table"), want);

    // Penetros and drop-outs, counted again here from the rows.
    let (head, rows) = csv_rows(&run.join("deals.csv"));
    assert_eq!(rows.len(), 12 * 24);
    let mut want = [[0u64; 5]; 4];
    for r in &rows {
        let seating: Vec<usize> = col(&head, r, "seating").bytes().map(|b| usize::from(b - b'0')).collect();
        let dealer: usize = col(&head, r, "dealer").parse().unwrap();
        want[seating[dealer]][0] += 1;
        if col(&head, r, "penetro") == "1" {
            want[seating[dealer]][1] += 1;
            if col(&head, r, "contract").is_empty() {
                want[seating[dealer]][2] += 1;
            } else {
                for (seat, slot) in seating.iter().enumerate().filter(|(s, _)| *s != dealer) {
                    want[*slot][3] += 1;
                    want[*slot][4] += u64::from(col(&head, r, "dropped_out") == seat.to_string());
                }
            }
        }
    }
    let got = table(&doc, "run1-penetro-table");
    assert_eq!(got.len(), 4);
    for (slot, row) in got.iter().enumerate() {
        let counts: Vec<u64> = row[1..].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(counts, want[slot], "slot {slot}: {row:?}");
    }
    assert_eq!(want.iter().map(|w| w[0]).sum::<u64>(), rows.len() as u64, "one dealer per row");
    assert!(want.iter().any(|w| w[1] > 0), "a penetro in 12 deals under 24 seatings");

    // Positions: every slot played every position equally often over the 24 seatings.
    let positions = table(&doc, "run1-positions-table");
    assert_eq!(positions.len(), 16);
    for p in &positions {
        assert_eq!(p[2], (12 * 6).to_string(), "{p:?}");
    }
    let names: Vec<&str> = positions[..4].iter().map(|p| p[1].as_str()).collect();
    assert_eq!(names, ["dealer", "mano", "medio", "postre"]);

    // Contracts by name: every hand with a declarer, once.
    let declared = rows.iter().filter(|r| !col(&head, r, "declarer").is_empty()).count() as u64;
    let named = table(&doc, "run1-named-table");
    let total: u64 =
        named.iter().flat_map(|r| r[1..].iter().step_by(2)).map(|x| x.parse::<u64>().unwrap()).sum();
    assert_eq!(total, declared);
    assert!(named.iter().any(|r| r[0] == "penetro" || r[0] == "penetro given up at once"), "{named:?}");
}

#[test]
fn hombre_and_lhombre_reports_name_their_contracts_and_units() {
    let dir = TempDir::new("report", "families");
    for (name, opts, unit, contracts) in [
        (
            "hombre",
            vec!["--rule-option", "gascarille=true"],
            "points",
            vec!["obligation", "gascarille", "simple game"],
        ),
        ("hombre", vec!["--rule-option", "hombre-chips=true"], "chips", vec!["simple game"]),
        ("lhombre", vec![], "tantos", vec!["game", "spades game", "nolo ouvert"]),
    ] {
        let run = dir.path(&format!("{name}-{unit}"));
        let mut args = vec![
            "tournament",
            "--rules",
            name,
            "--agents",
            "rule,random,rule",
            "--deals",
            "40",
            "--duplicate",
            "--out",
            run.to_str().unwrap(),
        ];
        args.extend(&opts);
        ok(&tresillo(&args));
        let page = dir.path(&format!("{name}-{unit}.html"));
        ok(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
        let text = fs::read_to_string(&page).unwrap();
        let doc = parse(&text);
        let manifest = table(&doc, "run1-manifest");
        assert!(manifest.iter().any(|r| r[0] == "results in" && r[1].starts_with(unit)), "{manifest:?}");
        let named = table(&doc, "run1-named-table");
        for c in &contracts {
            assert!(named.iter().any(|r| r[0] == *c), "{name} {unit}: {c} in {named:?}");
        }
        assert!(named.iter().all(|r| r[0] != "entrada"), "{name}: the rule set's own names: {named:?}");
        if name == "lhombre" {
            assert!(text.contains("game, spades game, nolo") && text.contains("sacado is a win"), "{text}");
        }
        // Won never exceeds declared.
        for r in &named {
            for k in (1..r.len()).step_by(2) {
                assert!(r[k + 1].parse::<u64>().unwrap() <= r[k].parse::<u64>().unwrap(), "{r:?}");
            }
        }
    }
}

#[test]
fn a_deals_csv_of_an_older_version_is_still_reported() {
    // Written before the four-player and hombre columns existed.
    let dir = TempDir::new("report", "old");
    let run = dir.path("run");
    ok(&tresillo(&[
        "tournament",
        "--deals",
        "6",
        "--seed",
        "2",
        "--duplicate",
        "--out",
        run.to_str().unwrap(),
    ]));
    let csv = fs::read_to_string(run.join("deals.csv")).unwrap();
    let cut = csv.lines().next().unwrap().split(',').position(|h| h == "players").unwrap();
    let old: String =
        csv.lines().map(|l| l.split(',').take(cut).collect::<Vec<_>>().join(",") + "\n").collect();
    let page = dir.path("new.html");
    ok(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    let new_page = fs::read_to_string(&page).unwrap();
    fs::write(run.join("deals.csv"), &old).unwrap();
    // The manifest of an older run counts the bytes of its own deals.csv.
    let m = fs::read_to_string(run.join("manifest.json")).unwrap();
    let mut mv: serde_json::Value = serde_json::from_str(&m).unwrap();
    mv["csv_bytes"] = old.len().into();
    mv.as_object_mut().unwrap().remove("crc32"); // an older run records no checksums
    fs::write(run.join("manifest.json"), serde_json::to_string_pretty(&mv).unwrap()).unwrap();
    ok(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    assert_eq!(fs::read_to_string(&page).unwrap(), new_page);
    // A bad token is one line naming the file, the line and the token.
    let bad = old.replacen(",tresillo,", ",tresilo,", 3);
    let first = bad.lines().position(|l| l.contains(",tresilo,")).unwrap() + 1;
    fs::write(run.join("deals.csv"), bad).unwrap();
    let err = failed(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(&format!("deals.csv line {first}: rule set \"tresilo\"")), "{err}");
}

#[test]
fn a_compute_csv_without_the_inference_columns_is_still_reported() {
    // Written before `weighted`, `ess_mean` and `fallbacks` were appended.
    let dir = TempDir::new("report", "oldcompute");
    let run = dir.path("run");
    ok(&tresillo(&["tournament", "--deals", "6", "--seed", "2", "--out", run.to_str().unwrap()]));
    let page = dir.path("new.html");
    ok(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    let new_page = fs::read_to_string(&page).unwrap();
    let csv = fs::read_to_string(run.join("compute.csv")).unwrap();
    let cut = csv.lines().next().unwrap().split(',').position(|h| h == "card_ms_p99").unwrap() + 1;
    assert_eq!(
        csv.lines().next().unwrap().split(',').skip(cut).collect::<Vec<_>>(),
        ["weighted", "ess_mean", "fallbacks", "startup_s"]
    );
    let old: String =
        csv.lines().map(|l| l.split(',').take(cut).collect::<Vec<_>>().join(",") + "\n").collect();
    fs::write(run.join("compute.csv"), &old).unwrap();
    ok(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    assert_eq!(fs::read_to_string(&page).unwrap(), new_page);
    // A header cut elsewhere is still refused.
    let short: String =
        csv.lines().map(|l| l.split(',').take(cut + 1).collect::<Vec<_>>().join(",") + "\n").collect();
    fs::write(run.join("compute.csv"), short).unwrap();
    let err = failed(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    assert!(err.contains("not the header of a compute.csv"), "{err}");
}

#[test]
fn tuning_runs_with_rule_options_and_four_players_are_reported() {
    let dir = TempDir::new("report", "tune-rules");
    for (name, args, facts) in [
        (
            "chips",
            vec!["--rules", "hombre", "--rule-option", "hombre-chips=true"],
            [("rule set", "hombre hombre-chips=true"), ("results in", "chips"), ("players", "3")],
        ),
        (
            "four",
            vec!["--players", "4", "--opponents", "rule,random,random"],
            [
                ("rule set", "tresillo"),
                ("deals per candidate", "4 (each under all 24 seatings"),
                ("players", "4"),
            ],
        ),
    ] {
        let csv = dir.path(&format!("{name}/c.csv"));
        let mut a = vec!["tune", "--param", "entrada=40,50", "--method", "grid", "--deals", "4", "--out"];
        a.push(csv.to_str().unwrap());
        a.extend(&args);
        ok(&tresillo(&a));
        let page = dir.path(&format!("{name}.html"));
        ok(&tresillo(&["report", csv.to_str().unwrap(), "--out", page.to_str().unwrap()]));
        let text = fs::read_to_string(&page).unwrap();
        let manifest = table(&parse(&text), "run1-manifest");
        for (k, v) in facts {
            assert!(
                manifest.iter().any(|r| r[0] == k && r[1].starts_with(v)),
                "{name}: {k} {v}: {manifest:?}"
            );
        }
    }
}

/// Issue 20, item 4: a complete run whose deals.csv was cut short at a row boundary
/// (it still parses) is refused, in one line naming the file, not drawn from.
#[test]
fn a_truncated_deals_csv_is_refused() {
    let dir = TempDir::new("report", "cut");
    let run = dir.path("run");
    ok(&tresillo(&["tournament", "--deals", "30", "--duplicate", "--out", run.to_str().unwrap()]));
    let csv = fs::read_to_string(run.join("deals.csv")).unwrap();
    let keep: String = csv.lines().take(40).map(|l| format!("{l}\n")).collect();
    fs::write(run.join("deals.csv"), keep).unwrap();
    let page = dir.path("page.html");
    let err = failed(&tresillo(&["report", run.to_str().unwrap(), "--out", page.to_str().unwrap()]));
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("deals.csv") && err.contains("truncated"), "{err}");
    assert!(!page.exists(), "nothing written after an error");
}
