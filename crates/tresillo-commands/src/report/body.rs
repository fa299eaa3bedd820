//! The page's body, built section by section, counting its charts.

use super::chart::{self, Chart};
use super::html::{Table, figure};
use anyhow::Result;

/// Builds the body section by section and counts the charts.
#[derive(Default)]
pub struct Body {
    pub html: String,
    pub charts: usize,
}

impl Body {
    /// Renders `c` as a figure with its `note` and the `table` under it.
    pub fn chart(&mut self, id: &str, c: &Chart, note: &str, table: &Table) -> Result<()> {
        let svg = chart::render(c)?;
        self.html.push_str(&figure(id, &svg, note, table));
        self.charts += 1;
        Ok(())
    }
}
