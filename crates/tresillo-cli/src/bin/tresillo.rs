//! The `tresillo` binary: the command line of the library `tresillo_cli` (whose
//! root is `main.rs`, so that the Python package can run the same command).

fn main() -> std::process::ExitCode {
    tresillo_cli::main()
}
