//! HTTP: `fetch` and its `Response` (redirects, body reader, status errors), the authorization
//! seam's HTTP side (`seam`: `Http::send`), the Streamable HTTP transport, the deprecated
//! HTTP+SSE transport and SSE bodies as JSON-RPC messages.

pub mod fetch;
pub mod http_sse;
pub mod json_body;
pub mod resumable;
pub mod seam;
pub mod sse_body;
pub mod streamable_http;
