//! Shared by the fuzz targets and by `tests/fuzz_corpus.rs` (which includes `checks.rs` by path),
//! so the corpus replay on stable Rust runs exactly what libFuzzer ran.
pub mod checks;
