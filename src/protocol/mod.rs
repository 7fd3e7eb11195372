//! What MCP means on the wire: JSON-RPC envelope, revisions and eras, capabilities, errors.

pub mod capabilities;
pub mod error;
pub mod header_value;
pub mod jsonrpc;
pub mod model;
pub mod tool_headers;
pub mod version;

pub use error::{ErrorKind, McpError};
pub use jsonrpc::{Message, RequestId};
pub use version::Era;
