//! Criterion micro-benchmarks of the SSE parser and JSON-RPC decode (`cargo bench --bench parsers`;
//! Cargo.toml's `[[bench]]` points here). The benchmarks themselves are in criterion_parsers.rs.
//! Native only: criterion is a native-only dev-dependency, and the wasm target (built by
//! `cargo clippy --all-targets --target wasm32-unknown-unknown`) gets an empty main.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
include!("criterion_parsers.rs");
