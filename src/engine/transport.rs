//! The transport seam: how the engine reaches a server. Streamable HTTP and the deprecated
//! HTTP+SSE transport implement it over fetch (`js::streamable_http`, `js::http_sse`); any
//! transport written in JavaScript (a `MessagePort`, a window, stdio, an in-memory pair) is
//! reached through `js::js_transport`, and `tests/support/memory_transport.rs` implements it
//! natively.

use crate::protocol::error::McpError;
use crate::protocol::jsonrpc::{Message, RequestId};
use crate::session::stamp::Outgoing;
use crate::util::secret::Secret;
use futures::future::LocalBoxFuture;
use std::rc::{Rc, Weak};

/// Where a transport delivers what the server sends.
pub trait Inbox {
    /// Takes one message; `carrier` is the request whose response stream carried it. Returns
    /// true once `carrier`'s response has been delivered (the reader may stop).
    fn deliver(&self, message: Message, carrier: Option<&RequestId>) -> bool;
    /// A fault no call would see (a reconnecting stream, an unparsable event).
    fn surface_error(&self, error: McpError);
    /// The stream that carried every response closed: fail what is waiting.
    fn lost(&self, error: McpError);
    /// The stream of what the server sends outside requests could not be resumed (its
    /// reconnect schedule ran out): the connection is gone for good.
    fn gave_up(&self, error: McpError) {
        self.surface_error(error);
    }
}

/// How a request's exchange ended on the transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// The response (or the end of its stream) came back on the request's own exchange.
    Answered,
    /// The response will arrive separately, through the [`Inbox`] (HTTP+SSE, message ports).
    Elsewhere,
}

/// The transport's first answer to a handshake request, whatever its status.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstReply {
    /// HTTP status (200 for transports without one).
    pub status: u16,
    /// The legacy `Mcp-Session-Id` the server issued, if any.
    pub session_id: Option<String>,
    /// The response (result or error) in the body, if there was one.
    pub message: Option<Message>,
}

/// A request to send: the stamped message and what its exchange needs.
#[derive(Debug, Clone, Copy)]
pub struct Exchange<'a> {
    /// The request's id (its response is delivered for it).
    pub id: &'a RequestId,
    /// The stamped message.
    pub out: &'a Outgoing,
    /// What to call it in errors (the method).
    pub what: &'a str,
    /// Legacy: the headers to resume its stream with (`Last-Event-ID` added); `None` when a
    /// broken stream cannot be resumed (2026 re-issues the request instead).
    pub resume_headers: Option<&'a [(String, String)]>,
}

/// A way to reach an MCP server.
pub trait Transport {
    /// Its name in `client.transport` (`"streamable-http"`, `"http+sse"`, ...).
    fn name(&self) -> &'static str;
    /// True where a refused CORS preflight can hide behind a network failure (browsers).
    fn in_browser(&self) -> bool {
        false
    }
    /// What the app's cache store keys this server by: its URL (a JS transport: its name;
    /// the server's identity tells such servers apart).
    fn cache_scope_url(&self) -> String {
        self.name().to_string()
    }
    /// The `Authorization` value requests go with now, if any (the cache keys private
    /// results by its fingerprint, never by the value).
    fn credential(&self) -> Option<Secret> {
        None
    }
    /// True for transports that carry bare JSON-RPC messages (a `MessagePort`, stdio, an
    /// in-memory pair): no HTTP status, no session, no stream to close, so a probe nobody
    /// answers means an older server, and cancelling is `notifications/cancelled` in both eras.
    fn message_based(&self) -> bool {
        false
    }
    /// Gives the transport the engine's inbox, for what the server sends outside any request
    /// (held weakly: the engine owns the transport). Called once, when the engine is made.
    fn attach(&self, _inbox: Weak<dyn Inbox>) {}
    /// Sends a handshake request (`server/discover`, `initialize`) and returns the first
    /// reply whatever its status; `None` when this transport has no statuses (the engine then
    /// uses [`Transport::request`]).
    fn first_reply<'a>(
        &'a self,
        _out: &'a Outgoing,
        _what: &'a str,
        _inbox: Rc<dyn Inbox>,
    ) -> Option<LocalBoxFuture<'a, Result<FirstReply, McpError>>> {
        None
    }
    /// Sends a request and delivers everything its exchange carries to `inbox`, until its
    /// response was delivered or the exchange ended. Dropping the future abandons it.
    fn request<'a>(
        &'a self,
        exchange: Exchange<'a>,
        inbox: Rc<dyn Inbox>,
    ) -> LocalBoxFuture<'a, Result<Sent, McpError>>;
    /// Sends a message that gets no response (a notification, a response to the server).
    fn post<'a>(
        &'a self,
        out: &'a Outgoing,
        what: &'a str,
    ) -> LocalBoxFuture<'a, Result<(), McpError>>;
    /// Starts receiving what the server sends outside any request (the legacy GET stream),
    /// with these session headers, until [`Transport::stop_listening`] or close.
    fn listen(&self, _headers: Vec<(String, String)>, _inbox: Rc<dyn Inbox>) {}
    /// Stops what [`Transport::listen`] started.
    fn stop_listening(&self) {}
    /// The transport to fall back to when the server refused `initialize` the way an older
    /// transport's server does (the deprecated HTTP+SSE transport), opened; `None` if none.
    fn fallback(
        &self,
        _inbox: Rc<dyn Inbox>,
    ) -> Option<LocalBoxFuture<'_, Result<Rc<dyn Transport>, McpError>>> {
        None
    }
    /// Closes: stops every stream; with `session_headers`, ends the legacy session (DELETE).
    fn close(&self, session_headers: Option<Vec<(String, String)>>) -> LocalBoxFuture<'_, ()>;
}
