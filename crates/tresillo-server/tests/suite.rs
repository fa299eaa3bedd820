//! tresillo-server's integration tests, compiled as one test binary: `cargo test -p
//! tresillo-server --test suite` runs them all, `cargo test -p tresillo-server --test
//! suite MODULE::` one file's. Each file of tests/ is a module here, not a binary of
//! its own: each of the three compiled the HTTP stack's generic code again (38 CPU s
//! of a release build, CI's, against about 18 for one). The package sets `autotests
//! = false`, so a new file must be declared here; `scripts/check-test-files.py` (run by CI)
//! fails until it is.

mod api;
mod compat;
mod guard;
mod limits;
mod replay;
mod study;
mod table;
