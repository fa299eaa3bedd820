//! The `tresillo` binary: the commands of `tresillo_commands`, told the commit
//! this binary is built from (`tresillo_provenance`, from its build script).

fn main() -> std::process::ExitCode {
    tresillo_commands::main(tresillo_provenance::current())
}
