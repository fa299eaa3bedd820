//! `tresillo score` (being written).
/// Arguments of `tresillo score`.
#[derive(clap::Args)]
pub struct ScoreArgs {}
/// Runs `tresillo score`.
pub fn run(_a: &ScoreArgs) -> anyhow::Result<()> {
    anyhow::bail!("not yet")
}
