//! The legacy-era part: the `initialize` handshake (with its fallback to HTTP+SSE) and the renewal
//! of an expired legacy session (`engine::connect`), loaded when a session turns out to be of the
//! legacy era (`mode: "legacy"`, or a `server/discover` probe the server answered as a legacy
//! one). A session with a 2026 server never needs it.

use crate::engine::Engine;
use crate::json::Value;
use crate::protocol::error::McpError;
use futures::future::{FutureExt, LocalBoxFuture};

/// What the part does.
pub trait Legacy {
    /// [`Engine::initialize`]: `initialize`, then `notifications/initialized`.
    fn initialize<'a>(
        &self,
        engine: &'a Engine,
        meta: Option<&'a Value>,
    ) -> LocalBoxFuture<'a, Result<(), McpError>>;
    /// [`Engine::reinitialize`]: a new session after the server answered 404 for `expired`.
    fn reinitialize<'a>(
        &self,
        engine: &'a Engine,
        expired: Option<String>,
        why: &'a McpError,
    ) -> LocalBoxFuture<'a, Result<(), McpError>>;
}

struct Part;

impl Legacy for Part {
    fn initialize<'a>(
        &self,
        engine: &'a Engine,
        meta: Option<&'a Value>,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        engine.initialize(meta).boxed_local()
    }

    fn reinitialize<'a>(
        &self,
        engine: &'a Engine,
        expired: Option<String>,
        why: &'a McpError,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        engine.reinitialize(expired, why).boxed_local()
    }
}

super::part!(legacy, "the legacy-era part", Legacy, Part);
