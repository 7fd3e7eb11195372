//! The steps inside a request that a tracer shows as child spans of the request's span: a
//! retry (and why), an `input_required` round. Each is told to the host as a start and an end
//! ([`super::Host::trace`]) with the `traceparent` the request carries in `params._meta` (the facade
//! puts it there), which names the request's span. Without a tracer (`Host::tracing` false)
//! nothing is built: one branch per step.

use super::core::Engine;
use crate::json::{json, Map, Value};
use crate::protocol::error::McpError;
use crate::session::retry::Retry;
use crate::session::stamp::traceparent_of;
use std::future::Future;

/// What hears the steps of a transport's requests (the JS host's `trace` events).
pub type StepHook = std::rc::Rc<dyn Fn(&Value)>;

/// Whether a step begins or ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepPhase {
    /// The step begins.
    Start,
    /// The step ended (with its error, if it failed).
    End,
}

impl StepPhase {
    /// The JS spelling.
    pub fn name(self) -> &'static str {
        match self {
            StepPhase::Start => "start",
            StepPhase::End => "end",
        }
    }
}

/// One step of a request, as the `trace` event's detail: `{ type, phase, method,
/// traceparent?, …detail, error? }`.
pub fn step_event(
    kind: &str,
    phase: StepPhase,
    method: &str,
    traceparent: Option<&str>,
    detail: Value,
    error: Option<&McpError>,
) -> Value {
    let mut event = Map::new();
    event.insert("type".into(), kind.into());
    event.insert("phase".into(), phase.name().into());
    event.insert("method".into(), method.into());
    if let Some(tp) = traceparent {
        event.insert("traceparent".into(), tp.into());
    }
    if let Value::Object(more) = detail {
        event.extend(more);
    }
    if let Some(e) = error {
        event.insert("errorCode".into(), e.code.into());
        event.insert("error".into(), e.message.clone().into());
    }
    Value::Object(event)
}

/// What a retry verdict is called in its step (`None`: no retry).
pub fn retry_reason(verdict: &Retry) -> Option<&'static str> {
    match verdict {
        Retry::RelistTools => Some("relist_tools"),
        Retry::Reinitialize => Some("reinitialize"),
        Retry::Reprobe => Some("reprobe"),
        Retry::Reissue => Some("reissue"),
        Retry::Fail => None,
    }
}

impl Engine {
    /// Runs `work` as the step `kind` of the request `method` (asked with `params`), told to a
    /// tracing host as a start and an end.
    pub(super) async fn step<T>(
        &self,
        kind: &str,
        method: &str,
        params: &Value,
        detail: Value,
        work: impl Future<Output = Result<T, McpError>>,
    ) -> Result<T, McpError> {
        if !self.host.tracing() {
            return work.await;
        }
        let tp = traceparent_of(Some(params));
        let tp = tp.as_deref();
        let start = step_event(kind, StepPhase::Start, method, tp, detail.clone(), None);
        self.host.trace(&start);
        let out = work.await;
        let end = step_event(kind, StepPhase::End, method, tp, detail, out.as_ref().err());
        self.host.trace(&end);
        out
    }

    /// The retry `verdict` after a failed exchange, as a step with its reason.
    pub(super) async fn retry_step(
        &self,
        verdict: &Retry,
        method: &str,
        params: &Value,
        work: impl Future<Output = Result<(), McpError>>,
    ) -> Result<(), McpError> {
        let reason = retry_reason(verdict).unwrap_or("none");
        self.step("retry", method, params, json!({ "reason": reason }), work)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::error::ErrorKind;

    #[test]
    fn a_step_event_names_its_request_and_span() {
        let e = step_event(
            "input_required",
            StepPhase::Start,
            "tools/call",
            Some("00-aa-bb-01"),
            json!({ "round": 1 }),
            None,
        );
        assert_eq!(
            e,
            json!({ "type": "input_required", "phase": "start", "method": "tools/call",
                    "traceparent": "00-aa-bb-01", "round": 1 })
        );
    }

    #[test]
    fn an_ended_step_carries_its_error_code() {
        let err = McpError::local(-32000, ErrorKind::Network, "gone", Value::Null);
        let e = step_event(
            "retry",
            StepPhase::End,
            "tools/list",
            None,
            json!({}),
            Some(&err),
        );
        assert_eq!(e["errorCode"], -32000);
        assert_eq!(e["error"], "gone");
        assert!(e.get("traceparent").is_none());
    }

    #[test]
    fn every_retry_verdict_but_fail_has_a_reason() {
        assert_eq!(retry_reason(&Retry::Reissue), Some("reissue"));
        assert_eq!(retry_reason(&Retry::RelistTools), Some("relist_tools"));
        assert_eq!(retry_reason(&Retry::Fail), None);
    }
}
