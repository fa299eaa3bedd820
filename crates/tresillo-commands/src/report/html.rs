//! The page's markup: escaping, tables, figures. The page is XHTML-compatible
//! HTML5 (every element closed, only the five XML entities), so an XML parser
//! reads it too.

use std::fmt::Write as _;

/// Escapes text for element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A table of strings with a header row; numeric columns are right-aligned.
pub struct Table {
    /// The `id` attribute (tests find tables by it).
    pub id: String,
    /// The column names.
    pub head: Vec<String>,
    /// The rows, each as long as `head`.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with these column names.
    pub fn new(id: &str, head: &[&str]) -> Table {
        Table { id: id.to_string(), head: head.iter().map(|s| s.to_string()).collect(), rows: Vec::new() }
    }

    /// Adds a row.
    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.head.len(), "table {}", self.id);
        self.rows.push(cells);
    }

    /// The markup.
    pub fn html(&self) -> String {
        let numeric = |s: &str| !s.is_empty() && s.parse::<f64>().is_ok();
        let mut s = format!("<table id=\"{}\">\n<thead><tr>", esc(&self.id));
        for h in &self.head {
            let _ = write!(s, "<th>{}</th>", esc(h));
        }
        s.push_str("</tr></thead>\n<tbody>\n");
        for r in &self.rows {
            s.push_str("<tr>");
            for c in r {
                if numeric(c) {
                    let _ = write!(s, "<td class=\"num\">{}</td>", esc(c));
                } else {
                    let _ = write!(s, "<td>{}</td>", esc(c));
                }
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody>\n</table>\n");
        s
    }
}

/// A chart with its explanation and the table of the numbers it draws.
pub fn figure(id: &str, svg: &str, note: &str, table: &Table) -> String {
    format!(
        "<figure id=\"{}\">\n<div class=\"chart\">{}</div>\n<figcaption>{}</figcaption>\n{}</figure>\n",
        esc(id),
        svg,
        esc(note),
        table.html()
    )
}

/// A note in place of a chart that cannot be drawn from the inputs.
pub fn missing(text: &str) -> String {
    format!("<p class=\"missing\">{}</p>\n", esc(text))
}

/// Key-value pairs as a two-column table.
pub fn facts(id: &str, pairs: &[(&str, String)]) -> String {
    let mut s = format!("<table class=\"facts\" id=\"{}\">\n<tbody>\n", esc(id));
    for (k, v) in pairs {
        let _ = writeln!(s, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(v));
    }
    s.push_str("</tbody>\n</table>\n");
    s
}

const STYLE: &str = "
body { font-family: sans-serif; margin: 2em auto; max-width: 1140px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; }
h2 { margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
h3 { margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
thead th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.facts th { background: #f7f7f7; font-weight: normal; white-space: nowrap; }
table.facts td { font-family: monospace; }
figure { margin: 1em 0 2em 0; }
figcaption { font-size: 0.9em; color: #444; margin: 0.3em 0; }
div.chart svg { max-width: 100%; height: auto; }
p.missing { background: #fff6e0; border-left: 4px solid #e0a000; padding: 0.5em 1em; }
nav li { margin: 0.2em 0; }
code { font-size: 0.95em; }
";

/// The whole page around `body`.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        esc(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(esc("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
    }

    #[test]
    fn tables_escape_cells_and_align_numbers() {
        let mut t = Table::new("t", &["x<y", "n"]);
        t.row(vec!["<script>".into(), "-0.5".into()]);
        let h = t.html();
        assert!(h.contains("<th>x&lt;y</th>"));
        assert!(h.contains("<td>&lt;script&gt;</td><td class=\"num\">-0.5</td>"));
        assert!(!h.contains("<script>"));
    }
}
