//! Moving bytes: the incremental SSE parser (pure) and Streamable HTTP rules; the fetch-based
//! HTTP client itself lives in `js::http` because it needs wasm-bindgen.

pub mod http;
pub mod sse;
