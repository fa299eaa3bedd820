//! The `tresillo` binary: the commands of `tresillo_commands`, told the commit
//! this binary is built from (`tresillo_cli`, from the build script).

fn main() -> std::process::ExitCode {
    tresillo_commands::main(tresillo_cli::current())
}
