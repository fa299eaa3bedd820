//! No code: see this crate's Cargo.toml. Its dependencies set the features that
//! every build of the workspace resolves for the procedural macros' `syn`, so
//! that one release build of the dependencies serves the command line, the
//! examples and the Python extension.
