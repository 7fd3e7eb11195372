//! One request path for every method: progress registration, the overall cap, the 2026
//! `input_required` rounds, the retry verdicts, and the exchange (response, timeout, abort).

use super::core::{Engine, ProgressSlot};
use super::host::{fired_or_never, unless, Cancel, ProgressReceiver};
use super::transport::{Exchange, Sent};
use crate::json::{json, Map, Value};
use crate::protocol::error::{McpError, INVALID_REQUEST};
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::version::Era;
use crate::session::cache::{key_of, CACHEABLE_METHODS};
use crate::session::cache_store::CacheMode;
use crate::session::mrtr;
use crate::session::results::{next_cursor, next_page_params, result_kind, Pages, ResultKind};
use crate::session::retry::{Retry, RetryBudget};
use crate::session::stamp::{self, Outgoing};
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;
use std::task::Poll;

/// An `input_required` result of a request, as its next round reads it.
#[derive(Debug)]
pub struct Round<'a> {
    /// The request's method.
    pub method: &'a str,
    /// The request's params as the caller gave them (each retry starts from these).
    pub original: &'a Value,
    /// The `input_required` result.
    pub result: &'a Value,
    /// The round's number, from 1.
    pub number: u32,
}

/// How one call may run: its timeout, the caller's cancellation, progress.
#[derive(Clone)]
pub struct RequestOptions {
    /// Timeout for this call (restarted by progress when `reset_timeout_on_progress`).
    pub timeout_ms: u64,
    /// The caller's cancellation (its `AbortSignal`).
    pub cancel: Option<Cancel>,
    /// Receives this call's `notifications/progress` params.
    pub on_progress: Option<ProgressReceiver>,
    /// Progress restarts the timeout.
    pub reset_timeout_on_progress: bool,
    /// Hard cap on the whole call.
    pub max_total_timeout_ms: Option<u64>,
    /// How this call uses the cache (`cacheMode`; `None`: the client's `cache.mode`).
    pub cache_mode: Option<CacheMode>,
}

impl std::fmt::Debug for RequestOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestOptions")
            .field("timeout_ms", &self.timeout_ms)
            .field("cancel", &self.cancel)
            .field("on_progress", &self.on_progress.is_some())
            .field("reset_timeout_on_progress", &self.reset_timeout_on_progress)
            .field("max_total_timeout_ms", &self.max_total_timeout_ms)
            .field("cache_mode", &self.cache_mode)
            .finish()
    }
}

impl RequestOptions {
    /// Only a timeout, every other option at its default (internal requests, and a call made
    /// without options).
    pub fn with_timeout(timeout_ms: u64) -> Self {
        RequestOptions {
            timeout_ms,
            cancel: None,
            on_progress: None,
            reset_timeout_on_progress: true,
            max_total_timeout_ms: None,
            cache_mode: None,
        }
    }
}

/// Removes a progress registration when the call settles.
/// How one exchange ended.
enum Settled {
    /// Its response (or the failure that stands for it) arrived.
    Answered(Result<Value, McpError>),
    /// The call's time ran out first.
    TimedOut,
    /// The caller aborted it, with the reason it gave, if any.
    Aborted(Option<String>),
}

struct ProgressGuard<'a> {
    engine: &'a Engine,
    token: String,
}

impl Drop for ProgressGuard<'_> {
    fn drop(&mut self) {
        self.engine.progress.borrow_mut().remove(&self.token);
    }
}

/// Fires the round's callback tokens unless the round completed.
struct CancelUnlessDone {
    tokens: Vec<Cancel>,
    done: bool,
}

impl Drop for CancelUnlessDone {
    fn drop(&mut self) {
        if !self.done {
            for c in &self.tokens {
                c.fire(None);
            }
        }
    }
}

impl Engine {
    /// What a final result teaches or must pass (`ToolRegistry::after_result`), its warnings
    /// surfaced; a tool's output schema is checked by the output-schema part, loaded with the
    /// first result that needs it.
    pub(crate) async fn after_result(
        &self,
        method: &str,
        params: &Value,
        result: &mut Value,
    ) -> Result<(), McpError> {
        let schemas = if self.tools.borrow().checks_output(method, params) {
            Some(crate::parts::output_schemas::get().await?)
        } else {
            None
        };
        let era = self.era().unwrap_or(Era::Legacy);
        let warnings = self
            .tools
            .borrow_mut()
            .after_result(era, method, params, result, schemas)?;
        for warning in warnings {
            self.surface_error(McpError::warning(warning));
        }
        Ok(())
    }

    /// Sends a request in the negotiated era and returns its final result.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        self.ensure_connected()?;
        let mut params = params.unwrap_or_else(|| json!({}));
        let mut progress_count = None;
        let _progress = opts.on_progress.clone().map(|on_progress| {
            let n = self.next_progress_token.get() + 1;
            self.next_progress_token.set(n);
            let token = format!("progress-{n}");
            if let Some(Value::Object(meta)) = params
                .as_object_mut()
                .map(|o| o.entry("_meta").or_insert_with(|| json!({})))
            {
                meta.insert("progressToken".into(), Value::String(token.clone()));
            }
            let count = Rc::new(Cell::new(0));
            if opts.reset_timeout_on_progress {
                progress_count = Some(count.clone());
            }
            self.progress
                .borrow_mut()
                .insert(token.clone(), ProgressSlot { on_progress, count });
            ProgressGuard {
                engine: self,
                token,
            }
        });
        let work = self.rounds(method, params, opts, progress_count.as_ref());
        let cap = async {
            match opts.max_total_timeout_ms {
                Some(ms) => self.host.sleep(ms).await,
                None => futures::future::pending().await,
            }
        };
        unless(work, cap).await.unwrap_or_else(|()| {
            let ms = opts.max_total_timeout_ms.unwrap_or_default();
            let mut e = McpError::timeout(method, ms);
            e.message = format!("Request timed out: {method} ran past maxTotalTimeoutMs ({ms} ms)");
            Err(e)
        })
    }

    /// A request; for a list method with `pages` (its result key and a page cap), every page
    /// from the one `params` asks for, each later page asked with the same params and its cursor
    /// (a list method without `pages` is one page).
    pub async fn request_pages(
        &self,
        method: &str,
        mut params: Option<Value>,
        pages: Option<(&str, u32)>,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        let mut acc = Pages::default();
        let first = params.clone();
        loop {
            let page = self.request(method, params, opts).await?;
            let Some((key, max_pages)) = pages else {
                self.keep_listing(method, first.as_ref(), &page);
                return Ok(page);
            };
            match acc.add(method, key, &page, max_pages)? {
                Some(c) => params = Some(next_page_params(first.as_ref(), c)),
                None => {
                    let all = acc.finish(key, page);
                    self.keep_listing(method, first.as_ref(), &all);
                    return Ok(all);
                }
            }
        }
    }

    /// The request loop: the 2026 cache, `input_required` rounds, and the retry verdicts.
    fn rounds<'a>(
        &'a self,
        method: &'a str,
        original: Value,
        opts: &'a RequestOptions,
        progress: Option<&'a Rc<Cell<u64>>>,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>> {
        async move {
            let modern = self.era() == Some(Era::Modern);
            let cache_key = key_of(method, &original);
            let cache_mode = self.cache_mode(opts);
            if modern && CACHEABLE_METHODS.contains(&method) {
                if let Some(hit) = self.cached(method, cache_key.as_deref(), cache_mode).await {
                    return Ok(hit);
                }
            }
            let mut params = original.clone();
            let mut rounds: u32 = 0;
            let mut state_only_streak = 0;
            let mut budget = RetryBudget::new(self.state.borrow().discover_stored);
            loop {
                let id = self.state.borrow_mut().next_id();
                let (mut out, session_used) = {
                    let st = self.state.borrow();
                    let out = stamp::request(&self.cfg, &st, id.clone(), method, Some(params.clone()));
                    (out, st.session_id.clone())
                };
                if modern {
                    out.headers
                        .extend(self.tools.borrow().request_headers(method, &params));
                }
                let mut result = match self.exchange(&id, &out, method, opts, progress).await {
                    Ok(r) => r,
                    Err(e) => {
                        let verdict = budget.after_failure(&e, method, &params, self.era());
                        if verdict == Retry::Fail {
                            return Err(e);
                        }
                        let work = async {
                            match &verdict {
                                Retry::RelistTools => Box::pin(self.relist_tools(opts)).await,
                                Retry::Reinitialize => {
                                    Box::pin(self.renew_legacy(session_used, &e)).await
                                }
                                Retry::Reprobe => Box::pin(self.reprobe(&e)).await,
                                Retry::Reissue | Retry::Fail => Ok(()),
                            }
                        };
                        self.retry_step(&verdict, method, &params, work).await?;
                        continue;
                    }
                };
                self.after_result(method, &params, &mut result).await?;
                if !modern {
                    return Ok(result);
                }
                match result_kind(method, &result)? {
                    ResultKind::Complete => {
                        if rounds == 0 {
                            let key = cache_key.as_deref();
                            self.keep_cached(method, key, &params, &result, cache_mode);
                        }
                        return Ok(result);
                    }
                    // A task stub: the caller waits for the task (engine::tasks).
                    ResultKind::Task => return Ok(result),
                    ResultKind::InputRequired if !mrtr::MRTR_METHODS.contains(&method) => {
                        return Err(McpError::protocol(
                            INVALID_REQUEST,
                            format!("The server answered {method} with input_required, which only tools/call, prompts/get and resources/read may return"),
                        ))
                    }
                    ResultKind::InputRequired => {}
                }
                rounds += 1;
                if rounds > self.limits.max_rounds {
                    return Err(mrtr::rounds_exceeded(method, self.limits.max_rounds));
                }
                // The round itself is the answers part's (a session whose server never asks
                // never loads it).
                let answers = crate::parts::answers::get().await?;
                let round = Round {
                    method,
                    original: &original,
                    result: &result,
                    number: rounds,
                };
                params = answers
                    .next_round(self, round, opts, &mut state_only_streak)
                    .await?;
            }
        }
        .boxed_local()
    }

    /// One `input_required` round of a request: read, its requests answered concurrently (a
    /// traced `input_required` step), or, when it asks nothing, waited out with a backoff that
    /// grows with `state_only_streak`; the params of the retry that carries the answers.
    pub(crate) async fn next_round(
        &self,
        round: Round<'_>,
        opts: &RequestOptions,
        state_only_streak: &mut usize,
    ) -> Result<Value, McpError> {
        let Round {
            method,
            original,
            result,
            number,
        } = round;
        let parsed = mrtr::parse(method, result)?;
        let responses = if parsed.requests.is_empty() {
            self.host.sleep(mrtr::backoff_ms(*state_only_streak)).await;
            *state_only_streak += 1;
            None
        } else {
            *state_only_streak = 0;
            let answering = self.answer_round(&parsed.requests, opts);
            let detail = json!({ "round": number });
            Some(
                self.step("input_required", method, original, detail, answering)
                    .await?,
            )
        };
        Ok(mrtr::retry_params(
            original,
            responses,
            parsed.request_state.as_deref(),
        ))
    }

    /// Re-reads every page of `tools/list` (the registry absorbs them), bypassing the cache.
    pub(super) async fn relist_tools(&self, opts: &RequestOptions) -> Result<(), McpError> {
        self.drop_cached("tools/list");
        let mut cursor: Option<String> = None;
        for _ in 0..100 {
            let params = cursor.map_or_else(|| json!({}), |c| json!({ "cursor": c }));
            let page = self.rounds("tools/list", params, opts, None).await?;
            match next_cursor(&page) {
                Some(c) => cursor = Some(c),
                None => return Ok(()),
            }
        }
        Ok(())
    }

    /// Answers every entry of one `input_required` round concurrently; the first failure
    /// cancels the others (their signals fire) and fails the call, as does the caller's abort.
    pub(crate) async fn answer_round(
        &self,
        requests: &[mrtr::InputRequest],
        opts: &RequestOptions,
    ) -> Result<Map<String, Value>, McpError> {
        let mut guard = CancelUnlessDone {
            tokens: requests.iter().map(|_| Cancel::new()).collect(),
            done: false,
        };
        let mut answers: Vec<_> = requests
            .iter()
            .zip(guard.tokens.iter())
            .map(|(r, cancel)| {
                Some(Box::pin(async move {
                    let key = Value::String(r.key.clone());
                    self.answer(&r.method, r.params.clone(), &key, cancel).await
                }))
            })
            .collect();
        let mut values: Vec<Value> = vec![Value::Null; requests.len()];
        let user_abort = fired_or_never(opts.cancel.as_ref());
        futures::pin_mut!(user_abort);
        let outcome = std::future::poll_fn(|cx| {
            let mut waiting = false;
            for (slot, value) in answers.iter_mut().zip(values.iter_mut()) {
                let Some(answer) = slot else { continue };
                match answer.as_mut().poll(cx) {
                    Poll::Ready(Ok(v)) => {
                        *value = v;
                        *slot = None;
                    }
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Pending => waiting = true,
                }
            }
            if !waiting {
                return Poll::Ready(Ok(()));
            }
            user_abort
                .as_mut()
                .poll(cx)
                .map(|reason| Err(McpError::aborted("an input_required round", reason)))
        })
        .await;
        guard.done = outcome.is_ok();
        outcome?;
        Ok(requests.iter().map(|r| r.key.clone()).zip(values).collect())
    }

    /// Sends one stamped request and waits for its response, its timeout, or its abort.
    pub(super) async fn exchange(
        &self,
        id: &RequestId,
        out: &Outgoing,
        method: &str,
        opts: &RequestOptions,
        progress: Option<&Rc<Cell<u64>>>,
    ) -> Result<Value, McpError> {
        let mut rx = self.inflight.borrow_mut().register(id.clone());
        let resume_headers =
            (self.era() == Some(Era::Legacy)).then(|| stamp::legacy_headers(&self.state.borrow()));
        let transport = self.transport();
        let exchange = Exchange {
            id,
            out,
            what: method,
            resume_headers: resume_headers.as_deref(),
        };
        let mut sent = Some(transport.request(exchange, self.inbox()));
        let timer = self.call_timer(opts.timeout_ms, progress);
        let user_abort = fired_or_never(opts.cancel.as_ref());
        futures::pin_mut!(timer, user_abort);
        let settled = std::future::poll_fn(|cx| {
            if let Poll::Ready(r) = rx.poll_unpin(cx) {
                return Poll::Ready(Settled::Answered(r.unwrap_or_else(|_| {
                    Err(McpError::closed_while("the request was in flight"))
                })));
            }
            if let Some(Poll::Ready(s)) = sent.as_mut().map(|s| s.poll_unpin(cx)) {
                sent = None;
                if let Ok(Some(delivered)) = rx.try_recv() {
                    return Poll::Ready(Settled::Answered(delivered));
                }
                match s {
                    Err(e) => return Poll::Ready(Settled::Answered(Err(e))),
                    // The response arrives on another stream: keep waiting for it.
                    Ok(Sent::Elsewhere) => {}
                    Ok(Sent::Answered) => {
                        return Poll::Ready(Settled::Answered(Err(McpError::protocol(
                            INVALID_REQUEST,
                            format!(
                            "The server's response stream for {method} ended without a response"
                        ),
                        ))))
                    }
                }
            }
            if timer.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Settled::TimedOut);
            }
            user_abort.as_mut().poll(cx).map(Settled::Aborted)
        })
        .await;
        let outcome = match settled {
            Settled::Answered(outcome) => outcome,
            Settled::TimedOut => {
                self.stop_answering_and_cancel(id, "timeout");
                Err(McpError::timeout(method, opts.timeout_ms))
            }
            Settled::Aborted(reason) => {
                self.stop_answering_and_cancel(id, reason.as_deref().unwrap_or("aborted"));
                Err(McpError::aborted(method, reason))
            }
        };
        self.inflight.borrow_mut().forget(id);
        outcome
    }

    /// Sleeps `ms` of request time: time while a user callback is pending does not count (a
    /// person filling a form is not a slow server), and progress restarts it. Checked in
    /// slices of at most one second.
    pub(super) async fn call_timer(&self, ms: u64, progress: Option<&Rc<Cell<u64>>>) {
        let mut remaining = ms;
        let mut seen = progress.map_or(0, |p| p.get());
        while remaining > 0 {
            let slice = remaining.min(1000);
            self.host.sleep(slice).await;
            let now = progress.map_or(0, |p| p.get());
            if now != seen {
                seen = now;
                remaining = ms;
            } else if self.callbacks_pending.get() == 0 {
                remaining -= slice;
            }
        }
    }

    /// A call that will not wait for its response any more: its pending callbacks stop and the
    /// server is told (where the era tells it).
    fn stop_answering_and_cancel(&self, id: &RequestId, reason: &str) {
        self.cancel_answering(Some(id));
        self.cancel_on_server(id, reason);
    }

    /// Legacy, and any era over a message transport: tells the server to stop working on `id`
    /// (`notifications/cancelled`); 2026 over HTTP: dropping the exchange is the cancellation.
    pub(super) fn cancel_on_server(&self, id: &RequestId, reason: &str) {
        if self.era() != Some(Era::Legacy) && !self.transport().message_based() {
            return;
        }
        let params = json!({ "requestId": id.to_value(), "reason": reason });
        let engine = self.rc();
        self.host.spawn(
            async move {
                let _ = engine.notify("notifications/cancelled", Some(params)).await;
            }
            .boxed_local(),
        );
    }
}
