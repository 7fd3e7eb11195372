//! HTTP: `fetch` and its `Response` (redirects, body reader, status errors), the Streamable HTTP
//! transport, the deprecated HTTP+SSE transport and SSE bodies as JSON-RPC messages.

pub mod fetch;
pub mod http_sse;
pub mod json_body;
pub mod sse_body;
pub mod streamable_http;
