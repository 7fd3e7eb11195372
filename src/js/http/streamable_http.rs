//! The Streamable HTTP transport over fetch: every message is a POST whose body (JSON or SSE)
//! carries the response; legacy sessions add the standalone GET stream, resumption with
//! `Last-Event-ID` (both read by `resumable`, a part of the lean module), and DELETE on close.
//! Falls back to the deprecated HTTP+SSE transport.

use crate::engine::host::within;
use crate::engine::{Exchange, FirstReply, Inbox, Sent, Transport};
use crate::js::host::abort::new_controller;
use crate::js::host::abort::{sleep, AbortOnDrop};
use crate::js::http::fetch::{read_text, status_error, Http};
use crate::js::http::json_body::read_messages;
use crate::js::http::resumable::{self, Resumable, Resuming};
use crate::js::http::sse_body::read_sse_messages;
use crate::protocol::error::McpError;
use crate::protocol::jsonrpc::{decode, Message};
use crate::session::reconnect::Backoff;
use crate::session::stamp::Outgoing;
use crate::transport::http::{accepted_for_request, body_kind, unexpected_content_type, BodyKind};
use crate::transport::sse::SseParser;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use gloo_net::http::Method;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::AbortController;

/// How long a session DELETE on close may take.
const DELETE_TIMEOUT_MS: u64 = 5_000;

/// Streamable HTTP (the default transport).
#[derive(Debug)]
pub struct StreamableHttp {
    http: Rc<Http>,
    max_message_bytes: usize,
    /// The `reconnection` option: the schedule's first delay and cap.
    backoff: Backoff,
    /// How long opening the fallback transport's stream may take.
    open_timeout_ms: u64,
    /// The standalone GET stream, while one runs.
    listening: RefCell<Option<AbortController>>,
}

impl StreamableHttp {
    /// The transport for `http`'s URL; broken streams reconnect on `backoff`'s schedule.
    pub fn new(
        http: Http,
        max_message_bytes: usize,
        backoff: Backoff,
        open_timeout_ms: u64,
    ) -> Self {
        StreamableHttp {
            http: Rc::new(http),
            max_message_bytes,
            backoff,
            open_timeout_ms,
            listening: RefCell::new(None),
        }
    }

    async fn first_reply_inner(
        &self,
        out: &Outgoing,
        what: &str,
        inbox: Rc<dyn Inbox>,
    ) -> Result<FirstReply, McpError> {
        let (head, _guard) = self.http.post(out, what).await?;
        let status = head.status;
        if status == 401 {
            // Never a handshake answer: the server wants authorization (and `auth` is absent,
            // or the flow would have handled it). The same `unauthorized` error as any request.
            let challenge = head.header("www-authenticate");
            let signs_in = self.http.signs_in();
            return Err(crate::js::host::challenges::unauthorized(challenge, what, signs_in).await);
        }
        let is_sse = (200..300).contains(&status)
            && body_kind(head.content_type.as_deref()) == BodyKind::Sse;
        let message = if is_sse {
            let mut found = None;
            let mut parser = SseParser::new(self.max_message_bytes);
            read_sse_messages(&head, what, &mut parser, &mut |m| match m {
                Message::Result { .. } | Message::Error { .. } => {
                    found = Some(m);
                    true
                }
                other => {
                    inbox.deliver(other, None);
                    false
                }
            })
            .await?;
            found
        } else {
            let text = read_text(&head, self.max_message_bytes, what)
                .await
                .unwrap_or_default();
            decode(&text).ok().and_then(|msgs| {
                msgs.into_iter()
                    .find(|m| matches!(m, Message::Result { .. } | Message::Error { .. }))
            })
        };
        Ok(FirstReply {
            status,
            session_id: head.session_id(),
            message,
        })
    }

    async fn request_inner(&self, x: Exchange<'_>, inbox: Rc<dyn Inbox>) -> Result<Sent, McpError> {
        let (head, guard) = self.http.post(x.out, x.what).await?;
        let signal = guard.signal();
        if head.status == 202 {
            return Err(accepted_for_request(x.what));
        }
        if !(200..300).contains(&head.status) {
            return Err(status_error(&self.http, &head, x.what, &x.out.headers).await);
        }
        let mut deliver = |m: Message| inbox.deliver(m, Some(x.id));
        match body_kind(head.content_type.as_deref()) {
            BodyKind::Json => {
                for m in read_messages(&head, self.max_message_bytes, x.what).await? {
                    deliver(m);
                }
                guard.disarm();
            }
            BodyKind::Sse => match x.resume_headers {
                Some(headers) => {
                    let resumable = Resumable {
                        http: &self.http,
                        max_message_bytes: self.max_message_bytes,
                        backoff: self.backoff,
                        what: x.what,
                        headers,
                        mode: Resuming::Request,
                        signal: &signal,
                        inbox: &*inbox,
                        traceparent: x.out.traceparent.as_deref(),
                    };
                    let streams = resumable::get().await?;
                    streams.read(&resumable, Some(head), &mut deliver).await?
                }
                None => {
                    let mut parser = SseParser::new(self.max_message_bytes);
                    read_sse_messages(&head, x.what, &mut parser, &mut deliver).await?
                }
            },
            BodyKind::Unexpected(kind) => return Err(unexpected_content_type(&kind, x.what)),
        }
        Ok(Sent::Answered)
    }
}

impl Transport for StreamableHttp {
    fn name(&self) -> &'static str {
        "streamable-http"
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

    fn first_reply<'a>(
        &'a self,
        out: &'a Outgoing,
        what: &'a str,
        inbox: Rc<dyn Inbox>,
    ) -> Option<LocalBoxFuture<'a, Result<FirstReply, McpError>>> {
        Some(self.first_reply_inner(out, what, inbox).boxed_local())
    }

    fn request<'a>(
        &'a self,
        exchange: Exchange<'a>,
        inbox: Rc<dyn Inbox>,
    ) -> LocalBoxFuture<'a, Result<Sent, McpError>> {
        self.request_inner(exchange, inbox).boxed_local()
    }

    fn post<'a>(
        &'a self,
        out: &'a Outgoing,
        what: &'a str,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        self.http.post_message(out, what).boxed_local()
    }

    fn listen(&self, headers: Vec<(String, String)>, inbox: Rc<dyn Inbox>) {
        let Ok(controller) = new_controller() else {
            return;
        };
        if let Some(old) = self.listening.replace(Some(controller.clone())) {
            old.abort();
        }
        let (http, max, backoff) = (self.http.clone(), self.max_message_bytes, self.backoff);
        crate::js::spawn(Box::pin(async move {
            let guard = AbortOnDrop::new(controller);
            let signal = guard.signal();
            let what = "the GET stream";
            let mut deliver = |m: Message| inbox.deliver(m, None);
            let resumable = Resumable {
                http: &http,
                max_message_bytes: max,
                backoff,
                what,
                headers: &headers,
                mode: Resuming::Listen,
                signal: &signal,
                inbox: &*inbox,
                traceparent: None,
            };
            let read = match resumable::get().await {
                Ok(streams) => streams.read(&resumable, None, &mut deliver).await,
                Err(e) => Err(e),
            };
            if let Err(e) = read {
                inbox.gave_up(e);
            }
        }));
    }

    fn stop_listening(&self) {
        if let Some(c) = self.listening.take() {
            c.abort();
        }
    }

    fn fallback(
        &self,
        inbox: Rc<dyn Inbox>,
    ) -> Option<LocalBoxFuture<'_, Result<Rc<dyn Transport>, McpError>>> {
        let (http, max, timeout) = (
            self.http.clone(),
            self.max_message_bytes,
            self.open_timeout_ms,
        );
        Some(
            async move {
                let part = crate::js::http::http_sse::part::get().await?;
                part.open(http, max, timeout, inbox).await
            }
            .boxed_local(),
        )
    }

    fn close(&self, session_headers: Option<Vec<(String, String)>>) -> LocalBoxFuture<'_, ()> {
        self.stop_listening();
        async move {
            let Some(headers) = session_headers else {
                return;
            };
            let Ok(controller) = new_controller() else {
                return;
            };
            let guard = AbortOnDrop::new(controller);
            let signal = guard.signal();
            let what = "session DELETE";
            let send = self
                .http
                .send(Method::DELETE, None, &headers, &signal, what, None);
            // Best effort: 405 and failures are fine, a hang is cut.
            let timer = sleep(DELETE_TIMEOUT_MS).boxed_local();
            let _ = within(timer, DELETE_TIMEOUT_MS, what, send).await;
        }
        .boxed_local()
    }
}
