//! The HTTP+SSE part (`crate::parts`): this transport, loaded with the first fallback to it.

use super::HttpSse;
use crate::engine::{Inbox, Transport};
use crate::js::http::fetch::Http;
use crate::protocol::error::McpError;
use futures::future::{FutureExt, LocalBoxFuture};
use std::rc::Rc;

/// What the part does.
pub trait HttpSseFallback {
    /// Opens the HTTP+SSE stream at `http`'s URL and waits for its `endpoint` event.
    fn open(
        &self,
        http: Rc<Http>,
        max_message_bytes: usize,
        timeout_ms: u64,
        inbox: Rc<dyn Inbox>,
    ) -> LocalBoxFuture<'static, Result<Rc<dyn Transport>, McpError>>;
}

struct Part;

impl HttpSseFallback for Part {
    fn open(
        &self,
        http: Rc<Http>,
        max_message_bytes: usize,
        timeout_ms: u64,
        inbox: Rc<dyn Inbox>,
    ) -> LocalBoxFuture<'static, Result<Rc<dyn Transport>, McpError>> {
        HttpSse::open(http, max_message_bytes, timeout_ms, inbox)
            .map(|r| r.map(|t| Rc::new(t) as Rc<dyn Transport>))
            .boxed_local()
    }
}

crate::parts::part!(http_sse, "the HTTP+SSE part", HttpSseFallback, Part);
