//! A legacy session's resumable SSE streams (2026 removed resumption): a request's stream resumed
//! with GET + `Last-Event-ID` after a break, and the standalone GET stream kept open, both on the
//! schedule of `session::reconnect`. A part of the lean module (`crate::parts`), loaded with the
//! first such stream: a session of the 2026 era never needs it.

use crate::engine::host::unless;
use crate::engine::trace::StepPhase;
use crate::engine::Inbox;
use crate::js::host::abort::{sleep, SignalLink};
use crate::js::http::fetch::{status_error, Head, Http};
use crate::js::http::sse_body::{is_too_large, read_sse_messages};
use crate::json::json;
use crate::protocol::error::{ErrorKind, McpError, INVALID_REQUEST};
use crate::protocol::jsonrpc::Message;
use crate::session::reconnect::{self, Backoff, Reconnect};
use crate::session::retry::{resume_listen_stream, resume_request_stream, Resume};
use crate::transport::http::{body_kind, BodyKind};
use crate::transport::sse::SseParser;
use futures::future::{FutureExt, LocalBoxFuture};
use gloo_net::http::Method;
use web_sys::AbortSignal;

/// How a resumable stream carries on after it ends or breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resuming {
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
pub struct Resumable<'a> {
    /// Where the GETs go.
    pub http: &'a Http,
    /// The largest message read (`maxMessageBytes`).
    pub max_message_bytes: usize,
    /// The `reconnection` option's first delay and cap.
    pub backoff: Backoff,
    /// What the stream carries, as errors name it.
    pub what: &'a str,
    /// The session headers every reconnect sends.
    pub headers: &'a [(String, String)],
    /// A request's stream or the standalone GET stream.
    pub mode: Resuming,
    /// Stops the stream (the request ended, or the session closed).
    pub signal: &'a AbortSignal,
    /// Where the GET stream's errors are told.
    pub inbox: &'a dyn Inbox,
    /// The request's span (request resumption), for the tracer's `reconnect` steps.
    pub traceparent: Option<&'a str>,
}

impl Resumable<'_> {
    /// Reads the stream (`first`, or a GET opened here) and keeps it going across breaks.
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

/// What the part does.
pub trait ResumableStreams {
    /// [`Resumable::read`]: the stream read, and resumed or reopened across breaks.
    fn read<'a>(
        &self,
        stream: &'a Resumable<'a>,
        first: Option<Head>,
        deliver: &'a mut dyn FnMut(Message) -> bool,
    ) -> LocalBoxFuture<'a, Result<(), McpError>>;
}

struct Part;

impl ResumableStreams for Part {
    fn read<'a>(
        &self,
        stream: &'a Resumable<'a>,
        first: Option<Head>,
        deliver: &'a mut dyn FnMut(Message) -> bool,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        stream.read(first, deliver).boxed_local()
    }
}

crate::parts::part!(
    resumable_streams,
    "the resumable-streams part",
    ResumableStreams,
    Part
);
