//! Shared by the fuzz targets and by `tests/fuzz_corpus.rs` and `tests/fuzz_auth_corpus.rs` (which
//! include `checks.rs` and `auth_checks.rs` by path),
//! so the corpus replay on stable Rust runs exactly what libFuzzer ran.
pub mod auth_checks;
pub mod checks;
