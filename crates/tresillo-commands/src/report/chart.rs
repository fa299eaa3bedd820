//! Category charts drawn with plotters' SVG backend: grouped bars, stacked bars, or
//! means with 95% confidence bars, one group per category and one colour per series.
//!
//! Text is emitted as SVG `<text>` elements in the browser's sans-serif font;
//! plotters is built without font support, so nothing is read from the system.

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::ops::Range;

/// How the series are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Side-by-side bars from zero.
    Bars,
    /// Bars stacked on each other (shares that add up).
    Stacked,
    /// A marker at the value with its 95% confidence bar.
    Points,
}

/// The marker of a series drawn as points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A larger filled triangle (to single out a point, such as the best).
    Triangle,
    /// No marker: a line through the values, across the whole plot (a bound
    /// or threshold drawn as a line, not as dots).
    Line,
}

/// One series: a value (and for points an interval) per category.
pub struct Series {
    /// Its legend entry.
    pub name: String,
    /// One value per category; `None` leaves a gap.
    pub values: Vec<Option<f64>>,
    /// Interval ends per category (points only).
    pub ci: Vec<Option<(f64, f64)>>,
    /// Its colour.
    pub color: RGBColor,
    /// Its marker (points only).
    pub marker: Marker,
}

impl Series {
    /// A series without intervals, coloured by its position `i`.
    pub fn new(name: &str, i: usize, values: Vec<Option<f64>>) -> Series {
        Series { name: name.to_string(), ci: Vec::new(), values, color: color(i), marker: Marker::Circle }
    }
}

/// A chart: title, axis descriptions with units, categories, series.
pub struct Chart {
    /// The title drawn above the plot.
    pub title: String,
    /// What the categories are.
    pub x_desc: String,
    /// What the values are, with their unit.
    pub y_desc: String,
    /// The category labels, left to right.
    pub categories: Vec<String>,
    /// The series.
    pub series: Vec<Series>,
    /// How they are drawn.
    pub kind: Kind,
}

/// A colour-blind-safe palette (Okabe and Ito).
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(120, 120, 120),
];

/// The `i`-th colour of the palette.
pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// The colour reserved for a highlighted point.
pub const HIGHLIGHT: RGBColor = RGBColor(213, 94, 0);

const HEIGHT: u32 = 400;
/// The height of a line of the key under the plot.
const KEY_LINE: u32 = 22;
const LEGEND_WIDTH: u32 = 280;
const FONT: &str = "sans-serif";

/// Shortens `s` to at most `n` characters, marking the cut with an ellipsis.
pub fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).collect::<String>() + "\u{2026}"
    }
}

/// The category axis: `n` categories centred on 0, 1, ..., n - 1, a tick on each.
struct Categories {
    n: usize,
    inner: RangedCoordf64,
}

impl Categories {
    fn new(n: usize) -> Categories {
        Categories { n, inner: (-0.5..n as f64 - 0.5).into() }
    }
}

impl Ranged for Categories {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() { Vec::new() } else { (0..self.n).map(|i| i as f64).collect() }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}

/// The value range to draw: every value and interval end, zero for bars, padded.
fn y_range(c: &Chart) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    let mut see = |v: f64| {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    };
    match c.kind {
        Kind::Stacked => {
            for k in 0..c.categories.len() {
                see(c.series.iter().filter_map(|s| s.values.get(k).copied().flatten()).sum());
            }
        }
        Kind::Bars | Kind::Points => {
            for s in &c.series {
                s.values.iter().flatten().for_each(|v| see(*v));
                s.ci.iter().flatten().for_each(|(a, b)| {
                    see(*a);
                    see(*b);
                });
            }
        }
    }
    if c.kind != Kind::Points {
        see(0.0);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let span = if hi > lo { hi - lo } else { lo.abs().max(1.0) };
    let pad = span * 0.08;
    let lo = if c.kind != Kind::Points && lo >= 0.0 { 0.0 } else { lo - pad };
    (lo, hi + pad)
}

fn y_label(v: f64, span: f64) -> String {
    let decimals = if span >= 20.0 {
        0
    } else if span >= 2.0 {
        1
    } else if span >= 0.2 {
        2
    } else {
        3
    };
    let s = format!("{v:.decimals$}");
    // A minus sign, not a hyphen, and no "-0".
    if s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        s.trim_start_matches('-').to_string()
    } else {
        s.replace('-', "\u{2212}")
    }
}

/// The labels drawn on the category axis, and the key that explains them when
/// they are codes. A label is drawn as written when every label fits the width
/// of its category (about 8.5 pixels a character, at most 16) and they stay
/// distinct; otherwise every category is drawn as a short code (`#1`, `#2`,
/// ...) and the key under the plot gives each code's full label, so labels
/// never run into each other or read alike, at any number of categories.
/// Numbers (a parameter's values) are drawn as written.
fn axis_labels(categories: &[String], slot_px: u32) -> (Vec<String>, Vec<(String, String)>) {
    let fit = ((f64::from(slot_px) / 8.5) as usize).clamp(3, 16);
    let numeric = categories.iter().all(|s| s.parse::<f64>().is_ok());
    let fits = categories.iter().all(|s| s.chars().count() <= fit);
    let mut seen = std::collections::BTreeSet::new();
    let distinct = categories.iter().all(|s| seen.insert(s.as_str()));
    if numeric || (fits && distinct) {
        return (categories.to_vec(), Vec::new());
    }
    let codes: Vec<String> = (1..=categories.len()).map(|i| format!("#{i}")).collect();
    let key = codes.iter().cloned().zip(categories.iter().cloned()).collect();
    (codes, key)
}

/// The label of the category at `v`: at most about 20 labels on an axis (every
/// k-th beyond that), numbers with a minus sign.
fn category_label(labels: &[String], v: f64) -> String {
    let i = v.round();
    let step = labels.len().div_ceil(20).max(1);
    if (v - i).abs() > 1e-9 || i < 0.0 || !(i as usize).is_multiple_of(step) {
        return String::new();
    }
    labels.get(i as usize).map_or_else(String::new, |s| {
        if s.parse::<f64>().is_ok() { s.replacen('-', "\u{2212}", 1) } else { shorten(s, 16) }
    })
}

fn draw_err<E: std::fmt::Display>(title: &str) -> impl Fn(E) -> anyhow::Error + '_ {
    move |e| anyhow!("drawing the chart \"{title}\": {e}")
}

/// The key under the plot: each code and its full label, one a line.
fn draw_key(
    bottom: &DrawingArea<SVGBackend<'_>, Shift>,
    c: &Chart,
    key: &[(String, String)],
    width: u32,
) -> Result<()> {
    let err = draw_err(&c.title);
    let chars = ((width - 70) as f64 / 8.0) as usize;
    for (j, (code, full)) in key.iter().enumerate() {
        let y = 6 + (KEY_LINE * j as u32) as i32;
        bottom
            .draw(&Text::new(code.clone(), (14, y), (FONT, 15).into_font().style(FontStyle::Bold)))
            .map_err(&err)?;
        bottom.draw(&Text::new(shorten(full, chars), (56, y), (FONT, 15))).map_err(&err)?;
    }
    Ok(())
}

/// The legend beside the plot: each series that draws something, its marker and name.
fn draw_legend(side: &DrawingArea<SVGBackend<'_>, Shift>, c: &Chart, shown: &[&Series]) -> Result<()> {
    let err = draw_err(&c.title);
    side.draw(&Text::new("Legend", (8, 44), (FONT, 17).into_font().style(FontStyle::Bold))).map_err(&err)?;
    for (j, s) in shown.iter().enumerate() {
        let y = 72 + 28 * j as i32;
        match (c.kind, s.marker) {
            (Kind::Points, Marker::Circle) => side.draw(&Circle::new((16, y + 7), 5, s.color.filled())),
            (Kind::Points, Marker::Triangle) => {
                side.draw(&TriangleMarker::new((16, y + 7), 8, s.color.filled()))
            }
            (Kind::Points, Marker::Line) => {
                side.draw(&PathElement::new(vec![(6, y + 7), (26, y + 7)], s.color.stroke_width(2)))
            }
            _ => side.draw(&Rectangle::new([(9, y), (23, y + 14)], s.color.filled())),
        }
        .map_err(&err)?;
        side.draw(&Text::new(shorten(&s.name, 30), (30, y - 1), (FONT, 16))).map_err(&err)?;
    }
    Ok(())
}

/// Draws the chart and returns its SVG markup.
pub fn render(c: &Chart) -> Result<String> {
    let n = c.categories.len().max(1);
    // The legend lists the series that draw something, when there are several.
    let shown: Vec<&Series> = c.series.iter().filter(|s| s.values.iter().any(Option::is_some)).collect();
    let legend = shown.len() > 1;
    let per_category = match c.kind {
        Kind::Stacked => 110,
        _ => 30 + 24 * c.series.len() as u32,
    };
    let plot_width = (n as u32 * per_category + 110).clamp(560, 880);
    let width = plot_width + if legend { LEGEND_WIDTH } else { 0 };
    let (labels, key) = axis_labels(&c.categories, (plot_width - 110) / n as u32);
    let height = HEIGHT + if key.is_empty() { 0 } else { 16 + KEY_LINE * key.len() as u32 };
    let err = draw_err(&c.title);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(&err)?;
        let (top, bottom) = root.split_vertically(HEIGHT);
        let (plot, side) = top.split_horizontally(plot_width);
        draw_key(&bottom, c, &key, width)?;
        let (lo, hi) = y_range(c);
        let x = Categories::new(n);
        let mut chart = ChartBuilder::on(&plot)
            .caption(&c.title, (FONT, 24))
            .margin(12)
            .x_label_area_size(52)
            .y_label_area_size(92)
            .build_cartesian_2d(x, lo..hi)
            .map_err(&err)?;
        let labels = &labels;
        let span = hi - lo;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .bold_line_style(BLACK.mix(0.15))
            .x_labels(n)
            .y_labels(8)
            .x_desc(c.x_desc.as_str())
            .y_desc(c.y_desc.as_str())
            .label_style((FONT, 16))
            .axis_desc_style((FONT, 17))
            .x_label_formatter(&|v: &f64| category_label(labels, *v))
            .y_label_formatter(&|v: &f64| y_label(*v, span))
            .draw()
            .map_err(&err)?;
        if lo < 0.0 && hi > 0.0 {
            let zero = PathElement::new(vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)], BLACK.mix(0.6));
            chart.draw_series(std::iter::once(zero)).map_err(&err)?;
        }
        let m = c.series.len().max(1) as f64;
        let group = 0.76;
        let slot = group / m;
        match c.kind {
            Kind::Bars => {
                for (j, s) in c.series.iter().enumerate() {
                    let left = -group / 2.0 + j as f64 * slot;
                    let bars = s.values.iter().enumerate().filter_map(|(k, v)| {
                        v.map(|v| {
                            let x0 = k as f64 + left + slot * 0.06;
                            Rectangle::new([(x0, 0.0), (x0 + slot * 0.88, v)], s.color.filled())
                        })
                    });
                    chart.draw_series(bars).map_err(&err)?;
                }
            }
            Kind::Stacked => {
                let mut base = vec![0.0; n];
                for s in &c.series {
                    let mut bars = Vec::new();
                    for (k, v) in s.values.iter().enumerate() {
                        if let Some(v) = v {
                            let x0 = k as f64 - 0.3;
                            bars.push(Rectangle::new(
                                [(x0, base[k]), (x0 + 0.6, base[k] + v)],
                                s.color.filled(),
                            ));
                            base[k] += v;
                        }
                    }
                    chart.draw_series(bars).map_err(&err)?;
                }
            }
            Kind::Points => {
                // Side by side only where several series have a point in one category.
                let dodge = (0..n).any(|k| {
                    c.series
                        .iter()
                        .filter(|s| s.marker != Marker::Line && s.values.get(k).copied().flatten().is_some())
                        .count()
                        > 1
                });
                for (j, s) in c.series.iter().enumerate() {
                    if s.marker == Marker::Line {
                        // From the plot's left edge to its right, through each value.
                        let mut pts: Vec<(f64, f64)> = s
                            .values
                            .iter()
                            .enumerate()
                            .filter_map(|(k, v)| v.map(|v| (k as f64, v)))
                            .collect();
                        if let (Some(&(_, first)), Some(&(_, last))) = (pts.first(), pts.last()) {
                            pts.insert(0, (-0.5, first));
                            pts.push((n as f64 - 0.5, last));
                        }
                        let line = PathElement::new(pts, s.color.stroke_width(2));
                        chart.draw_series(std::iter::once(line)).map_err(&err)?;
                        continue;
                    }
                    let dx = if dodge { -group / 2.0 + (j as f64 + 0.5) * slot } else { 0.0 };
                    let bars = s.ci.iter().enumerate().filter_map(|(k, ci)| {
                        let (a, b) = (*ci)?;
                        let v = s.values.get(k).copied().flatten()?;
                        Some(ErrorBar::new_vertical(k as f64 + dx, a, v, b, s.color.stroke_width(2), 12))
                    });
                    chart.draw_series(bars).map_err(&err)?;
                    let points =
                        s.values.iter().enumerate().filter_map(|(k, v)| v.map(|v| (k as f64 + dx, v)));
                    match s.marker {
                        Marker::Circle => chart
                            .draw_series(points.map(|p| Circle::new(p, 5, s.color.filled())))
                            .map_err(&err)?,
                        Marker::Triangle | Marker::Line => chart
                            .draw_series(points.map(|p| TriangleMarker::new(p, 12, s.color.filled())))
                            .map_err(&err)?,
                    };
                }
            }
        }
        if legend {
            draw_legend(&side, c, &shown)?;
        }
        root.present().map_err(&err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(kind: Kind, series: Vec<Series>) -> Chart {
        Chart {
            title: "T & <t>".into(),
            x_desc: "agent".into(),
            y_desc: "tantos per deal".into(),
            categories: vec!["a".into(), "b".into()],
            series,
            kind,
        }
    }

    #[test]
    fn draws_titles_labels_and_legend_as_svg_text() {
        let s = vec![
            Series::new("one", 0, vec![Some(1.0), Some(2.0)]),
            Series::new("two", 1, vec![Some(3.0), None]),
        ];
        let svg = render(&chart(Kind::Bars, s)).unwrap();
        assert!(svg.starts_with("<svg"));
        for text in ["T &amp; &lt;t&gt;", "agent", "tantos per deal", "one", "two", "Legend"] {
            assert!(
                svg.contains(&format!(">\n{text}\n</text>")) || svg.contains(&format!(">{text}</text>")),
                "{text}"
            );
        }
    }

    #[test]
    fn a_single_series_has_no_legend() {
        let s = vec![Series::new("only", 0, vec![Some(1.0), Some(-2.0)])];
        let svg = render(&chart(Kind::Bars, s)).unwrap();
        assert!(!svg.contains("Legend") && !svg.contains("only"));
    }

    #[test]
    fn the_legend_leaves_out_series_without_values() {
        let s =
            vec![Series::new("drawn", 0, vec![Some(1.0), None]), Series::new("empty", 1, vec![None, None])];
        let svg = render(&chart(Kind::Points, s)).unwrap();
        assert!(!svg.contains("Legend") && !svg.contains("empty"));
        let s =
            vec![Series::new("one", 0, vec![Some(1.0), None]), Series::new("two", 1, vec![None, Some(2.0)])];
        let svg = render(&chart(Kind::Points, s)).unwrap();
        assert!(svg.contains("Legend") && svg.contains("two"));
    }

    #[test]
    fn ranges_cover_intervals_and_zero_for_bars() {
        let mut s = Series::new("m", 0, vec![Some(1.0), Some(2.0)]);
        s.ci = vec![Some((0.5, 1.5)), Some((1.0, 3.0))];
        let (lo, hi) = y_range(&chart(Kind::Points, vec![s]));
        assert!(lo < 0.5 && lo > 0.0 && hi > 3.0);
        let (lo, _) = y_range(&chart(Kind::Bars, vec![Series::new("b", 0, vec![Some(1.0), Some(2.0)])]));
        assert_eq!(lo, 0.0);
        let stacked = vec![
            Series::new("x", 0, vec![Some(0.6), Some(0.5)]),
            Series::new("y", 1, vec![Some(0.4), Some(0.5)]),
        ];
        let (_, hi) = y_range(&chart(Kind::Stacked, stacked));
        assert!(hi >= 1.0);
    }

    #[test]
    fn category_labels_thin_out_and_use_a_minus_sign() {
        let few: Vec<String> = ["-4", "0", "a long agent specification"].map(String::from).to_vec();
        assert_eq!(category_label(&few, 0.0), "\u{2212}4");
        assert_eq!(category_label(&few, 2.0), "a long agent sp\u{2026}");
        assert_eq!(category_label(&few, 0.5), "");
        let many: Vec<String> = (0..45).map(|i| i.to_string()).collect();
        let shown = (0..45).filter(|i| !category_label(&many, *i as f64).is_empty()).count();
        assert_eq!(shown, 15);
    }

    #[test]
    fn long_or_alike_labels_become_codes_with_a_key() {
        // Two pairs whose labels begin alike (issue 33): both were drawn as
        // `0:pimc:worlds=1…`. Now each is a code and the key under the plot
        // gives its full label.
        let mut c = chart(Kind::Points, vec![Series::new("d", 0, vec![Some(1.0), Some(-1.0)])]);
        c.categories = vec!["0:pimc:worlds=16 - 1:rule".into(), "0:pimc:worlds=12 - 1:rule".into()];
        let svg = render(&c).unwrap();
        for text in ["#1", "#2", "0:pimc:worlds=16 - 1:rule", "0:pimc:worlds=12 - 1:rule"] {
            assert!(
                svg.contains(&format!(">\n{text}\n</text>")) || svg.contains(&format!(">{text}</text>")),
                "{text}"
            );
        }
        assert!(!svg.contains('\u{2026}'), "no label cut short");
        // At any number of categories the codes stay distinct; short labels are drawn as written.
        let many: Vec<String> = (0..40).map(|i| format!("agent-{i}:spec=long")).collect();
        let (shown, key) = axis_labels(&many, 10);
        assert_eq!(key.len(), 40);
        assert_eq!(shown.iter().collect::<std::collections::BTreeSet<_>>().len(), 40);
        let few: Vec<String> = ["rule", "random"].map(String::from).to_vec();
        assert_eq!(axis_labels(&few, 200), (few.clone(), Vec::new()));
    }

    #[test]
    fn axis_labels_use_a_minus_sign_and_no_negative_zero() {
        assert_eq!(y_label(-0.5, 1.0), "\u{2212}0.50");
        assert_eq!(y_label(-0.0001, 1.0), "0.00");
        assert_eq!(y_label(25.0, 50.0), "25");
    }
}
