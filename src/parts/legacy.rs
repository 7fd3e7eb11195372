//! The legacy-era part: the `initialize` handshake (with its fallback to HTTP+SSE), the renewal
//! of an expired legacy session (`engine::connect`) and the answering of the requests a legacy
//! stream carries from the server, in their stream's order (`engine::inbound`; each answered by
//! the answers part), loaded when a session turns out to be of the legacy era (`mode: "legacy"`,
//! or a `server/discover` probe the server answered as a legacy one). A session with a 2026
//! server never needs it.

use crate::engine::answers::Queued;
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
    /// [`Engine::answer_server_request`]: a queued server request answered and its response
    /// sent after the previous one of its stream.
    fn answer_queued<'a>(&self, engine: &'a Engine, queued: Queued) -> LocalBoxFuture<'a, ()>;
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

    fn answer_queued<'a>(&self, engine: &'a Engine, queued: Queued) -> LocalBoxFuture<'a, ()> {
        engine.answer_server_request(queued).boxed_local()
    }
}

super::part!(legacy, "the legacy-era part", Legacy, Part);
