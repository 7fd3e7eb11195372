//! The Streamable HTTP transport over fetch: every message is a POST whose body (JSON or SSE)
//! carries the response; legacy sessions add the standalone GET stream, resumption with
//! `Last-Event-ID`, and DELETE on close. Falls back to the deprecated HTTP+SSE transport.

use crate::engine::host::{unless, within};
use crate::engine::trace::StepPhase;
use crate::engine::{Exchange, FirstReply, Inbox, Sent, Transport};
use crate::js::host::abort::new_controller;
use crate::js::host::abort::{sleep, AbortOnDrop, SignalLink};
use crate::js::http::fetch::{read_text, status_error, Head, Http};
use crate::js::http::json_body::read_messages;
use crate::js::http::sse_body::{is_too_large, read_sse_messages};
use crate::json::json;
use crate::protocol::error::{ErrorKind, McpError, INVALID_REQUEST};
use crate::protocol::jsonrpc::{decode, Message};
use crate::session::reconnect::{self, Backoff, Reconnect};
use crate::session::retry::{resume_listen_stream, resume_request_stream, Resume};
use crate::session::stamp::Outgoing;
use crate::transport::http::{accepted_for_request, body_kind, unexpected_content_type, BodyKind};
use crate::transport::sse::SseParser;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use gloo_net::http::Method;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::{AbortController, AbortSignal};

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

/// How a resumable stream carries on after it ends or breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resuming {
    /// A legacy request's stream: resumed from its newest event id, a bounded number of
    /// times in a row; anything else is the request's error.
    Request,
    /// The standalone GET stream: reconnected (from the newest event id, if any) until
    /// stopped; 404/405/406 mean the server offers none.
    Listen,
}

/// Reads an SSE stream (`first`, or a GET opened here) and keeps it going across breaks with
/// GET + `Last-Event-ID` on the schedule of `session::reconnect`; the one loop behind request
/// resumption and the GET stream.
struct Resumable<'a> {
    http: &'a Http,
    max_message_bytes: usize,
    backoff: Backoff,
    what: &'a str,
    /// The session headers every reconnect sends.
    headers: &'a [(String, String)],
    mode: Resuming,
    signal: &'a AbortSignal,
    inbox: &'a dyn Inbox,
    /// The request's span (request resumption), for the tracer's `reconnect` steps.
    traceparent: Option<&'a str>,
}

impl Resumable<'_> {
    async fn read(
        &self,
        first: Option<Head>,
        deliver: &mut dyn FnMut(Message) -> bool,
    ) -> Result<(), McpError> {
        let Resumable {
            http,
            max_message_bytes,
            backoff,
            what,
            headers,
            mode,
            signal,
            inbox,
            traceparent,
        } = *self;
        let mut opening = first.is_none();
        let mut first = first;
        let limit = (mode == Resuming::Request).then_some(reconnect::RESUME_ATTEMPTS);
        let mut schedule = Reconnect::with_backoff(limit, backoff);
        let mut last_id: Option<String> = None;
        let mut retry: Option<u64> = None;
        let mut failure: Option<McpError> = None;
        loop {
            if let Some(head) = first.take() {
                let mut parser = SseParser::new(max_message_bytes);
                let opened = js_sys::Date::now();
                let read = read_sse_messages(&head, what, &mut parser, deliver).await;
                retry = parser.retry_ms().or(retry);
                let newer = parser.last_event_id().map(str::to_string);
                let Err(e) = read else { return Ok(()) };
                if mode == Resuming::Listen {
                    // A message over maxMessageBytes is told (once); the stream then reopens.
                    if is_too_large(&e) {
                        inbox.surface_error(e);
                    }
                    if js_sys::Date::now() - opened >= reconnect::HEALTHY_STREAM_MS {
                        schedule.reset();
                    }
                    last_id = newer.or(last_id);
                } else {
                    if newer.is_some() && newer != last_id {
                        last_id = newer;
                        schedule.reset();
                    }
                    if let Resume::Fail(e) = resume_request_stream(e.clone(), last_id.as_deref()) {
                        return Err(e);
                    }
                    failure = Some(e);
                }
            }
            if signal.aborted() {
                return Ok(());
            }
            // The first GET of the standalone stream goes out at once; reconnects wait.
            let reconnecting = !std::mem::take(&mut opening);
            let delay = if reconnecting {
                schedule.next_delay(retry)
            } else {
                Some(0)
            };
            let Some(delay) = delay else {
                let e = failure.unwrap_or_else(|| McpError::protocol(INVALID_REQUEST, what));
                return Err(e.with_suffix(format!(
                    " (gave up after {} attempts to resume from event {})",
                    schedule.attempts(),
                    last_id
                        .as_deref()
                        .map_or_else(|| "(none)".into(), crate::util::quote::quoted)
                )));
            };
            if delay > 0 {
                let (stopped, _link) = SignalLink::new(signal.clone());
                if unless(sleep(delay), stopped.fired()).await.is_err() {
                    return Ok(());
                }
            }
            let mut with_id = headers.to_vec();
            if mode == Resuming::Listen {
                with_id.push(("Cache-Control".into(), "no-store".into()));
            }
            let from = match mode {
                Resuming::Request => Resume::From(last_id.clone().unwrap_or_default()),
                Resuming::Listen => resume_listen_stream(last_id.as_deref()),
            };
            if let Resume::From(id) = &from {
                with_id.push(("Last-Event-ID".into(), id.clone()));
            }
            let attempt = json!({ "attempt": schedule.attempts() });
            if reconnecting {
                let detail = attempt.clone();
                http.step(
                    "reconnect",
                    StepPhase::Start,
                    what,
                    traceparent,
                    detail,
                    None,
                );
            }
            let sent = http
                .send(Method::GET, None, &with_id, signal, what, traceparent)
                .await;
            if reconnecting {
                let error = sent.as_ref().err();
                http.step(
                    "reconnect",
                    StepPhase::End,
                    what,
                    traceparent,
                    attempt,
                    error,
                );
            }
            let head = match sent {
                Ok(h) => h,
                Err(e) if e.kind() == Some(ErrorKind::Aborted) || signal.aborted() => {
                    return match mode {
                        Resuming::Listen => Ok(()),
                        Resuming::Request => Err(e),
                    }
                }
                Err(e) => {
                    match mode {
                        Resuming::Listen => inbox.surface_error(e),
                        Resuming::Request if e.kind() == Some(ErrorKind::Network) => {
                            failure = Some(e)
                        }
                        Resuming::Request => return Err(e),
                    }
                    continue;
                }
            };
            let is_stream = (200..300).contains(&head.status)
                && body_kind(head.content_type.as_deref()) == BodyKind::Sse;
            if is_stream {
                first = Some(head);
                continue;
            }
            if mode == Resuming::Listen && (404..=406).contains(&head.status) {
                return Ok(());
            }
            // One read of the refusal for both modes.
            let e = status_error(http, &head, what, headers).await;
            match mode {
                Resuming::Listen => inbox.surface_error(e),
                Resuming::Request => {
                    return Err(e.with_context(format!(
                        "Could not resume the stream of {what} from event {}",
                        last_id
                            .as_deref()
                            .map_or_else(|| "(none)".into(), crate::util::quote::quoted)
                    )));
                }
            }
        }
    }
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
                    resumable.read(Some(head), &mut deliver).await?
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
            if let Err(e) = resumable.read(None, &mut deliver).await {
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
