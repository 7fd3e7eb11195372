//! What the server sends: responses to their waiting calls, notifications to the caches,
//! progress receivers, listeners and handlers, server requests to the user's callbacks.

use super::answers::Queued;
use super::core::{count_wait, Answering, Engine};
use super::host::{unless, Cancel};
use super::transport::Inbox;
use crate::json::{json, Value};
use crate::protocol::error::{McpError, INVALID_REQUEST};
use crate::protocol::jsonrpc::{Message, RequestId};
use crate::protocol::version::Era;
use crate::session::server_requests::{
    check_request, check_result, is_registered, not_supported, route, Answerer,
};
use futures::FutureExt;

impl Inbox for Engine {
    fn deliver(&self, message: Message, carrier: Option<&RequestId>) -> bool {
        self.dispatch(message, carrier);
        carrier.is_some_and(|id| !self.inflight.borrow().contains(id))
    }

    fn surface_error(&self, error: McpError) {
        self.host.surface_error(error);
    }

    fn lost(&self, error: McpError) {
        if !self.state.borrow().closed {
            self.inflight.borrow_mut().fail_all(&error);
            self.gone(&error);
            self.host.surface_error(error);
        }
    }

    fn gave_up(&self, error: McpError) {
        self.gone(&error);
        self.host.surface_error(error);
    }
}

/// Counts a callback in progress while alive (request timers pause meanwhile).
struct CallbackPending<'a>(&'a Engine);

impl<'a> CallbackPending<'a> {
    fn new(engine: &'a Engine) -> Self {
        count_wait(&engine.callbacks_pending, true);
        CallbackPending(engine)
    }
}

impl Drop for CallbackPending<'_> {
    fn drop(&mut self) {
        count_wait(&self.0.callbacks_pending, false);
    }
}

impl Engine {
    /// Routes one incoming message; `carrier` is the request whose stream carried it.
    fn dispatch(&self, message: Message, carrier: Option<&RequestId>) {
        match message {
            Message::Result { id, result } => {
                if !self.inflight.borrow_mut().deliver(&id, Ok(result)) {
                    self.surface_error(McpError::protocol(INVALID_REQUEST, format!("Server sent a response for request id {id}, which is not in flight (unknown or duplicate); ignored")));
                }
            }
            Message::Error { id, error } => {
                let target = id.or_else(|| carrier.cloned());
                let delivered = match &target {
                    Some(t) => self.inflight.borrow_mut().deliver(t, Err(error.clone())),
                    None => false,
                };
                if !delivered {
                    self.surface_error(error);
                }
            }
            Message::Notification { method, params } => self.on_notification(&method, params),
            Message::Request { id, method, params } => {
                self.queue_server_request(id, method, params, carrier.cloned());
            }
        }
    }

    /// Applies a notification (cache, tools, progress, legacy listeners) and hands it to the
    /// handlers.
    pub fn on_notification(&self, method: &str, params: Option<Value>) {
        let p = params.as_ref().unwrap_or(&Value::Null);
        if method == "notifications/cancelled" {
            // Applied, not surfaced: the callback answering that request sees its signal fire.
            if let Some(target) = p.get("requestId").and_then(RequestId::from_value) {
                if let Some(a) = self.answering.borrow().get(&target) {
                    a.cancel.fire(None);
                }
            }
            return;
        }
        self.invalidate_cached(method, p);
        if method == "notifications/tools/list_changed" {
            self.tools.borrow_mut().clear();
        }
        self.list_announced(method);
        if self.era() == Some(Era::Legacy) {
            let listeners: Vec<_> = self
                .legacy_listeners
                .borrow()
                .iter()
                .filter_map(std::rc::Weak::upgrade)
                .collect();
            for l in listeners.iter().filter(|l| l.wants(method, p)) {
                l.push(Ok(json!({ "method": method, "params": p })));
            }
        }
        if method == "notifications/progress" {
            self.on_progress(p);
        }
        if let Some(task_id) = crate::session::tasks::notified_task(method, p) {
            self.wake_task_poller(task_id);
        }
        if method == "notifications/message" {
            self.host.log(p);
        }
        let mut n = json!({ "method": method });
        if let Some(params) = params {
            n["params"] = params;
        }
        self.host.notification(&n);
    }

    fn on_progress(&self, params: &Value) {
        let token = match params.get("progressToken") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => return,
        };
        let slot = self
            .progress
            .borrow()
            .get(&token)
            .map(|s| (s.on_progress.clone(), s.count.clone()));
        if let Some((on_progress, count)) = slot {
            count.set(count.get() + 1);
            on_progress(params);
        }
    }

    /// Answers one server request with the user's callback: `{}` for ping; refused when the
    /// capability was not declared or the request is malformed; the answer checked.
    /// `request_id` goes into the callback's context with a signal that fires with `cancel`.
    pub async fn answer(
        &self,
        method: &str,
        params: Value,
        request_id: &Value,
        cancel: &Cancel,
    ) -> Result<Value, McpError> {
        let answerer = route(method)?;
        if answerer == Answerer::Ping {
            return Ok(json!({}));
        }
        if !is_registered(answerer, &self.cfg.registered) {
            return Err(not_supported(answerer));
        }
        check_request(answerer, &params, &self.cfg.registered)?;
        if answerer == Answerer::Elicitation {
            // The form helpers (elicitationForm, validateElicitation) work in the callback.
            crate::parts::forms::load().await?;
        }
        let _pending = CallbackPending::new(self);
        let result = self
            .host
            .call_back(answerer, &params, request_id, cancel)
            .await?;
        check_result(answerer, &params, result)
    }

    /// Legacy: answers a queued request from the server and POSTs the response (after the
    /// previous one of its stream), unless the server cancelled it or the call whose stream
    /// carried it ended first.
    pub(crate) async fn answer_server_request(&self, queued: Queued) {
        let Queued {
            id,
            method,
            params,
            cancel,
            after,
            sent,
        } = queued;
        let request_id = id.to_value();
        // 2025-11-25: an answer to a task's request carries its related-task `_meta`.
        let related = params
            .as_ref()
            .and_then(crate::session::tasks::related_task);
        let params = params.unwrap_or_else(|| json!({}));
        let work = async {
            let answers = crate::parts::answers::get().await?;
            answers
                .answer(self, &method, params, &request_id, &cancel)
                .await
        };
        let outcome = unless(work, cancel.fired()).await.ok();
        self.answering.borrow_mut().remove(&id);
        if let Some(previous) = after {
            // Sent or never to be: either way this response's turn on the stream has come.
            let _ = previous.await;
        }
        // A request the server cancelled (or whose call ended) gets no response.
        let Some(outcome) = outcome else { return };
        let reply = match outcome {
            Ok(mut result) => {
                crate::session::tasks::echo_related_task(related, &mut result);
                Message::Result { id, result }
            }
            Err(error) => Message::Error {
                id: Some(id),
                error,
            },
        };
        if let Err(e) = self.post(&reply, "a response to a server request").await {
            self.surface_error(e);
        }
        let _ = sent.send(());
    }
}

impl Engine {
    /// Legacy: queues a JSON-RPC request from the server (src/engine/answers.rs); it is
    /// answered in order of arrival once a slot is free, and can be cancelled while waiting.
    pub(super) fn queue_server_request(
        &self,
        id: RequestId,
        method: String,
        params: Option<Value>,
        carrier: Option<RequestId>,
    ) {
        let cancel = Cancel::new();
        self.answering.borrow_mut().insert(
            id.clone(),
            Answering {
                carrier: carrier.clone(),
                cancel: cancel.clone(),
            },
        );
        self.answers
            .borrow_mut()
            .push(id, method, params, &carrier, cancel);
        self.start_answers();
    }

    /// Starts queued requests while slots are free.
    fn start_answers(&self) {
        loop {
            let Some(next) = self.answers.borrow_mut().start_next() else {
                return;
            };
            let engine = self.rc();
            self.host.spawn(
                async move {
                    // Answered by the legacy-era part: only a legacy session's streams carry
                    // server requests, and its handshake loaded that part (so this cannot fail
                    // where it is split off; where it is linked in, it never fails).
                    match crate::parts::legacy::get().await {
                        Ok(legacy) => legacy.answer_queued(&engine, next).await,
                        Err(e) => engine.surface_error(e),
                    }
                    engine.answers.borrow_mut().finished();
                    engine.start_answers();
                }
                .boxed_local(),
            );
        }
    }

    /// Server requests queued or being answered, and those being answered (legacy).
    pub fn server_requests_pending(&self) -> (usize, usize) {
        let q = self.answers.borrow();
        (q.len(), q.running())
    }
}
