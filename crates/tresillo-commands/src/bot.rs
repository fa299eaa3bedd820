//! `tresillo bot SPEC`: one of this build's agents played as an external bot
//! (docs/PROTOCOL.md, "The toolkit's agents as bots"), the protocol read on
//! standard input and answered on standard output, so that another build seats
//! it with `ext:cmd="PATH/tresillo bot SPEC"` (`scripts/ab-builds.sh`).

use anyhow::Result;

/// Arguments of `tresillo bot`.
#[derive(clap::Args)]
pub struct BotArgs {
    /// The agent to play (`pimc`, `"ismcts:iters=200"`, `rule`; `tresillo agents`
    /// lists them), as a tournament's `--agents` names one.
    #[arg(value_name = "SPEC")]
    spec: String,
}

/// Runs `tresillo bot`: answers the toolkit's messages on standard input until
/// `bye` or the end of the input.
pub fn run(a: &BotArgs) -> Result<()> {
    let build = crate::provenance::version_text(&crate::provenance::current());
    let name = format!("tresillo bot {}", a.spec);
    // Input no hand could produce may trip an invariant of the state machine;
    // `serve` turns that into its one-line error, so the panic's own message
    // (several lines) is not printed.
    std::panic::set_hook(Box::new(|_| {}));
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    tresillo_bots::speak::serve(&crate::registry(), &a.spec, &name, &build, stdin.lock(), stdout.lock())
        .map_err(|e| anyhow::anyhow!("tresillo bot: {e}"))
}
