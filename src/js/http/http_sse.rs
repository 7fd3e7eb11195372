//! The deprecated HTTP+SSE transport (2024-11-05): one GET stream carries every response,
//! notification and server request; messages are POSTed to the URL its `endpoint` event
//! names (same origin only). Opened as the fallback of Streamable HTTP.

pub mod part;

use crate::engine::host::within;
use crate::engine::{Exchange, Inbox, Sent, Transport};
use crate::js::host::abort::new_controller;
use crate::js::host::abort::{sleep, AbortOnDrop};
use crate::js::http::fetch::{body_reader, Head, Http};
use crate::js::http::sse_body::event_too_large;
use crate::json::Value;
use crate::protocol::error::{ErrorKind, McpError, CONNECTION_CLOSED, INVALID_REQUEST};
use crate::protocol::jsonrpc::decode;
use crate::session::stamp::Outgoing;
use crate::transport::http::{body_kind, BodyKind};
use crate::transport::sse::SseParser;
use crate::util::oneshot;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use gloo_net::http::Method;
use std::rc::Rc;
use web_sys::AbortController;

/// The HTTP+SSE transport, once its stream is open and its endpoint known.
#[derive(Debug)]
pub struct HttpSse {
    http: Rc<Http>,
    stream: AbortController,
}

impl HttpSse {
    /// GETs the URL, waits (at most `timeout_ms`) for the `endpoint` event, and keeps reading
    /// the stream into `inbox` until closed.
    pub async fn open(
        http: Rc<Http>,
        max_message_bytes: usize,
        timeout_ms: u64,
        inbox: Rc<dyn Inbox>,
    ) -> Result<HttpSse, McpError> {
        let controller = new_controller()?;
        let signal = controller.signal();
        let what = "the HTTP+SSE stream";
        let send = http.send(Method::GET, None, &[], &signal, what, None);
        let head = within(sleep(timeout_ms).boxed_local(), timeout_ms, what, send)
            .await
            .inspect_err(|_| controller.abort())?;
        if !(200..300).contains(&head.status)
            || body_kind(head.content_type.as_deref()) != BodyKind::Sse
        {
            controller.abort();
            return Err(McpError::protocol(
                INVALID_REQUEST,
                "No HTTP+SSE stream at the URL",
            ));
        }
        let (tx, rx) = oneshot::channel();
        crate::js::spawn(Box::pin(read_stream(
            head,
            AbortOnDrop::new(controller.clone()),
            max_message_bytes,
            tx,
            inbox,
        )));
        let endpoint = match rx.await {
            Ok(Ok(Value::String(endpoint))) => endpoint,
            _ => {
                return Err(McpError::protocol(
                    INVALID_REQUEST,
                    "The HTTP+SSE stream ended before its endpoint event",
                ))
            }
        };
        http.set_endpoint(&endpoint)?;
        Ok(HttpSse {
            http,
            stream: controller,
        })
    }
}

/// Reads the transport's stream: the `endpoint` event once, then every message into `inbox`;
/// when it closes after the endpoint, the session is over and waiting calls fail.
async fn read_stream(
    head: Head,
    _guard: AbortOnDrop,
    max_message_bytes: usize,
    endpoint: oneshot::Sender<crate::session::inflight::Outcome>,
    inbox: Rc<dyn Inbox>,
) {
    let mut endpoint = Some(endpoint);
    let mut parser = SseParser::new(max_message_bytes);
    let mut body = body_reader(&head);
    while let Some(Ok(chunk)) = body.next("the HTTP+SSE stream").await {
        let events = match parser.feed(&chunk) {
            Ok(events) => events,
            Err(e) => {
                // A message over maxMessageBytes is told before the session ends.
                inbox.surface_error(event_too_large(&e, "the HTTP+SSE stream"));
                break;
            }
        };
        for ev in events {
            if ev.event == "endpoint" {
                if let Some(tx) = endpoint.take() {
                    let _ = tx.send(Ok(Value::String(ev.data.trim().to_string())));
                }
            } else if !ev.data.trim().is_empty() {
                match decode(&ev.data) {
                    Ok(messages) => messages.into_iter().for_each(|m| {
                        inbox.deliver(m, None);
                    }),
                    Err(e) => inbox.surface_error(e),
                }
            }
        }
    }
    if endpoint.is_none() {
        inbox.lost(McpError::local(
            CONNECTION_CLOSED,
            ErrorKind::Network,
            "The HTTP+SSE stream closed; the session is over",
            Value::Null,
        ));
    }
}

impl Transport for HttpSse {
    fn name(&self) -> &'static str {
        "http+sse"
    }

    fn cache_scope_url(&self) -> String {
        self.http.url.clone()
    }

    fn credential(&self) -> Option<crate::util::secret::Secret> {
        self.http.credential()
    }

    fn in_browser(&self) -> bool {
        self.http.in_browser
    }

    fn request<'a>(
        &'a self,
        exchange: Exchange<'a>,
        _inbox: Rc<dyn Inbox>,
    ) -> LocalBoxFuture<'a, Result<Sent, McpError>> {
        // The POST only gets 202: the response arrives on the transport's stream.
        self.http
            .post_message(exchange.out, exchange.what)
            .map(|r| r.map(|()| Sent::Elsewhere))
            .boxed_local()
    }

    fn post<'a>(
        &'a self,
        out: &'a Outgoing,
        what: &'a str,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        self.http.post_message(out, what).boxed_local()
    }

    fn close(&self, _session_headers: Option<Vec<(String, String)>>) -> LocalBoxFuture<'_, ()> {
        self.stream.abort();
        futures::future::ready(()).boxed_local()
    }
}
