//! Every Markdown link in the repository points to a file that exists inside the
//! repository (links to web pages and to anchors of the same page are not checked).

use pulldown_cmark::{Event, Parser, Tag};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The Markdown files under `dir`, skipping build outputs and hidden folders.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            if !(name.starts_with('.') || name == "target" || name == "out" || name == "runs") {
                markdown_files(&p, out);
            }
        } else if name.ends_with(".md") {
            out.push(p);
        }
    }
}

#[test]
fn markdown_links_point_to_files_in_the_repository() {
    let root = root();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("docs/RULES.md")), "the rules are in the repository");
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for ev in Parser::new(&text) {
            let (Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. })) = ev
            else {
                continue;
            };
            let url = dest_url.as_ref();
            if url.contains("://") || url.starts_with('#') || url.starts_with("mailto:") {
                continue;
            }
            let path = url.split('#').next().unwrap();
            let target = f.parent().unwrap().join(path);
            checked += 1;
            match target.canonicalize() {
                Ok(t) if t.starts_with(&root) => {}
                Ok(t) => {
                    broken.push(format!("{}: `{url}` leaves the repository ({})", f.display(), t.display()))
                }
                Err(_) => broken.push(format!("{}: `{url}` does not exist", f.display())),
            }
        }
    }
    assert!(checked > 10, "only {checked} links found: is the parser working?");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
