//! The JS boundary: reading arguments and option objects, the exported `McpError`, and JSON
//! values to and from JS.

pub mod awaited;
pub mod error;
pub mod held;
pub mod interop;
pub mod options;
pub mod task_options;
