//! The exported API: `Client`, `ClientGroup`, the elicitation form helpers, `listen()`'s async
//! iterable and the TypeScript declarations.

pub mod client;
pub mod forms;
pub mod group;
pub mod listen;
pub mod types;
