//! Generic tools with no MCP meaning: the floor under `protocol` (imports nothing of the crate
//! but `json`).

pub mod base64;
pub mod lock;
pub mod number;
pub mod oneshot;
pub mod quote;
pub mod secret;
pub mod small_map;
