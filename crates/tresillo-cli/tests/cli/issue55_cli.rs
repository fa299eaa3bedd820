//! Issue 55: a testing lab. SPRT shows its evidence (W/D/L, LOS, Elo and each
//! look's compute in the output, the progress lines and sprt.json; the report
//! draws the bounds as lines); Elo beside tantos.

use crate::common;
use common::{TempDir, failed, ok};
use std::process::Command;

/// `sprt --out`: the evidence is printed, shown in each progress line, kept in
/// sprt.json per look (equal to the look's pairs.csv), checked by `verify`, and
/// the report draws the bounds as lines across the chart.
#[test]
fn sprt_shows_its_evidence_and_the_report_draws_the_bounds_as_lines() {
    let d = TempDir::new("issue55", "sprt");
    let dir = d.path("t");
    let o = Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["sprt", "--agents", "rule,rule:surrender=20,random", "--batch", "100", "--max-deals", "200"])
        .args(["--margin", "0.001", "--out", dir.to_str().unwrap(), "--threads", "2"])
        .output()
        .unwrap();
    let out = ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(out.contains("evidence: 0:rule won ") && out.contains("likelihood of superiority"), "{out}");
    assert!(out.contains(" Elo "), "{out}");
    let progress = err.lines().find(|l| l.contains("100 deals:")).expect("a progress line per look");
    assert!(progress.contains("W/D/L ") && progress.contains(" LOS ") && progress.contains(" Elo "), "{err}");
    assert!(err.contains("look 0: 0:rule ") && err.contains("decisions in"), "the look's compute: {err}");
    let text = std::fs::read_to_string(dir.join("sprt.json")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The first look's evidence is its pairs.csv row for slots 0 and 1.
    let look = &state["looks"][0];
    let pairs = std::fs::read_to_string(dir.join("looks/look-00000/pairs.csv")).unwrap();
    let row: Vec<&str> = pairs.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(
        look["wdl"],
        serde_json::json!([
            row[9].parse::<u64>().unwrap(),
            row[10].parse::<u64>().unwrap(),
            row[11].parse::<u64>().unwrap()
        ]),
        "{look} {pairs}"
    );
    assert!((look["los"].as_f64().unwrap() - row[8].parse::<f64>().unwrap()).abs() < 6e-5, "{look} {pairs}");
    assert!((look["elo"].as_f64().unwrap() - row[12].parse::<f64>().unwrap()).abs() < 0.06, "{look} {pairs}");
    assert!(look["compute"]["decisions"][0].as_u64().unwrap() > 0, "{look}");
    assert_eq!(state["evidence"]["wdl"], state["looks"][state["looks"].as_array().unwrap().len() - 1]["wdl"]);
    ok(&Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["verify", dir.to_str().unwrap()])
        .output()
        .unwrap());
    // The report: the bounds are lines (a polyline in the bound's colour), not dots.
    let page = d.path("r.html");
    ok(&Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["report", dir.to_str().unwrap(), "--out", page.to_str().unwrap()])
        .output()
        .unwrap());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(r##"<polyline fill="none" opacity="1" stroke="#D55E00" stroke-width="2""##),
        "a line"
    );
    assert!(
        !html.contains(r##"<circle"##) || !html.contains(r##"fill="#D55E00""##),
        "no dots for the bounds"
    );
    assert!(html.contains("Elo A over B (95% CI)") && html.contains("likelihood of superiority"), "evidence");
    // Edited counts are refused by verify, naming them.
    let mut edited = state.clone();
    edited["looks"][0]["wdl"][0] = serde_json::json!(look["wdl"][0].as_u64().unwrap() + 1);
    std::fs::write(dir.join("sprt.json"), serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    let err = failed(
        &Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["verify", dir.to_str().unwrap()])
            .output()
            .unwrap(),
    );
    assert!(err.contains("W/D/L"), "{err}");
}

/// `tune --method spsa`: every parameter moves at once; the manifest records each
/// iteration, `scripts/check-spsa.py` redoes them from the CSV on its own, the
/// same confirmation and verdict as the other methods follow, and a killed
/// search resumed gives the same files.
#[test]
fn spsa_tunes_every_parameter_at_once_and_a_script_redoes_its_steps() {
    let d = TempDir::new("issue55", "spsa");
    let out = d.path("spsa.csv");
    let tune = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tresillo"))
            .args(["tune", "--agent", "rule", "--method", "spsa", "--rounds", "4", "--deals", "60"])
            .args([
                "--param",
                "entrada=33..57:4",
                "--param",
                "surrender=16..40:4",
                "--param",
                "vienen=0..24:4",
            ])
            .args(["--confirm", "120", "--seed", "5", "--out", out.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap()
    };
    let printed = ok(&tune(&[]));
    assert!(printed.contains("4 iterations of two candidates, then the point it ended at"), "{printed}");
    assert!(printed.contains("verdict: "), "the same verdict: {printed}");
    let manifest_path = d.path("spsa.manifest.json");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    assert_eq!(m["method"], "spsa");
    let steps = m["spsa"]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 4, "{m}");
    assert_eq!(steps[0]["delta"].as_array().unwrap().len(), 3, "a sign per parameter: {m}");
    assert!(m["recommendation"]["decision"].is_string(), "{m}");
    let script = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/check-spsa.py");
    let o = Command::new("python3").arg(&script).arg(&out).output().expect("python3");
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("4 iterations of 3 parameters redone"));
    // An edited mean is found by the script.
    let csv = std::fs::read_to_string(&out).unwrap();
    let first = csv.lines().nth(2).unwrap().to_string();
    let cells: Vec<&str> = first.split(',').collect();
    let mean_col = csv.lines().next().unwrap().split(',').position(|c| c == "mean_tantos").unwrap();
    let edited: Vec<String> =
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == mean_col { format!("{:.4}", c.parse::<f64>().unwrap() + 5.0) } else { c.to_string() }
            })
            .collect();
    std::fs::write(d.path("bad.csv"), csv.replace(&first, &edited.join(","))).unwrap();
    std::fs::copy(&manifest_path, d.path("bad.manifest.json")).unwrap();
    let o = Command::new("python3").arg(&script).arg(d.path("bad.csv")).output().unwrap();
    assert!(!o.status.success(), "an edited mean passes: {}", String::from_utf8_lossy(&o.stdout));
    // Deterministic: a second search writes the same candidates.
    let again = d.path("again.csv");
    ok(&Command::new(env!("CARGO_BIN_EXE_tresillo"))
        .args(["tune", "--agent", "rule", "--method", "spsa", "--rounds", "4", "--deals", "60"])
        .args(["--param", "entrada=33..57:4", "--param", "surrender=16..40:4", "--param", "vienen=0..24:4"])
        .args(["--confirm", "120", "--seed", "5", "--out", again.to_str().unwrap()])
        .output()
        .unwrap());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), csv);
}
