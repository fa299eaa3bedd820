//! End-to-end benchmarks live in `benches/`.
