//! What to do after an exchange failed: the retry policies of one call, as verdicts. The
//! engine only carries them out; every rule (and its once-per-call budget) lives here.

use crate::json::Value;
use crate::protocol::error::{
    ErrorKind, McpError, HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY,
    UNSUPPORTED_PROTOCOL_VERSION,
};
use crate::protocol::model::initialize::{supported_strings, UnsupportedVersionData};
use crate::protocol::model::view;
use crate::protocol::version::{best_mutual_modern, Era};
use crate::session::reconnect::is_stream_break;

/// What the engine does after one failed exchange of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Retry {
    /// 2026: the `Mcp-Param-*` headers disagreed with the server's view of the tool (-32020):
    /// re-list the tools, then send the call again.
    RelistTools,
    /// Legacy: the session expired (HTTP 404): start a new session, then send the call again.
    Reinitialize,
    /// 2026: the response stream broke: send the same call again with a new id.
    Reissue,
    /// 2026: the server refused a session adopted from a stored `server/discover` result
    /// (`discoverResult`): probe it again, then send the call again.
    Reprobe,
    /// Nothing helps: the call fails with the error.
    Fail,
}

/// The retries one call has used; each policy applies at most once per call.
#[derive(Debug, Clone, Default)]
pub struct RetryBudget {
    relisted: bool,
    reinitialized: bool,
    reissued: bool,
    version_retried: bool,
    /// The session was adopted from a stored discover result and not yet re-probed.
    stored_discover: bool,
}

impl RetryBudget {
    /// The budget of one call; `stored_discover` when the session was adopted from a stored
    /// `server/discover` result, which a refusal sends back to the probe (once).
    pub fn new(stored_discover: bool) -> Self {
        RetryBudget {
            stored_discover,
            ..Default::default()
        }
    }

    /// Decides what follows `error` for a `method` call with `params` in `era`, and spends
    /// the budget of the policy it picks.
    pub fn after_failure(
        &mut self,
        error: &McpError,
        method: &str,
        params: &Value,
        era: Option<Era>,
    ) -> Retry {
        if self.stored_discover && era == Some(Era::Modern) && refuses_the_session(error) {
            self.stored_discover = false;
            return Retry::Reprobe;
        }
        if error.code == HEADER_MISMATCH && method == "tools/call" && !self.relisted {
            self.relisted = true;
            return Retry::RelistTools;
        }
        if error.kind() == Some(ErrorKind::SessionExpired) && !self.reinitialized {
            self.reinitialized = true;
            return Retry::Reinitialize;
        }
        // 2026: -32022 whose `supported` lists a version this session speaks (this client
        // has one modern revision, so the one it sent): a refusal of the moment, sent again
        // once (the suite's sep-2575 check; a pinned client has no other version to try).
        if era == Some(Era::Modern)
            && error.code == UNSUPPORTED_PROTOCOL_VERSION
            && !self.version_retried
            && lists_a_mutual_version(error)
        {
            self.version_retried = true;
            return Retry::Reissue;
        }
        // Re-issuing would replay the callbacks' answers without the server's requestState:
        // only when the round carried none, or carried the state too.
        let replay_safe =
            params.get("inputResponses").is_none() || params.get("requestState").is_some();
        if era == Some(Era::Modern) && !self.reissued && is_stream_break(error) && replay_safe {
            self.reissued = true;
            return Retry::Reissue;
        }
        Retry::Fail
    }
}

/// True when `error` refuses the request itself rather than answering it: -32022 (the
/// protocol version), or an HTTP 400/404/405 without one of 2026's own codes (a server that
/// does not speak 2026 any more answers a sessionless request that way). No method ran.
pub fn refuses_the_session(error: &McpError) -> bool {
    if error.code == UNSUPPORTED_PROTOCOL_VERSION {
        return true;
    }
    let status = error
        .data
        .as_ref()
        .and_then(|d| d.get("status"))
        .and_then(Value::as_u64);
    matches!(status, Some(400 | 404 | 405))
        && error.code != HEADER_MISMATCH
        && error.code != MISSING_REQUIRED_CLIENT_CAPABILITY
}

/// True when an error's `data.supported` names a modern revision this client speaks.
fn lists_a_mutual_version(error: &McpError) -> bool {
    let data = error.data.as_ref().and_then(view::<UnsupportedVersionData>);
    let supported = data.map_or_else(Vec::new, |d| supported_strings(&d.supported));
    best_mutual_modern(supported.iter().map(String::as_str)).is_some()
}

/// What a reader does when a resumable SSE stream ended or broke.
#[derive(Debug, Clone, PartialEq)]
pub enum Resume {
    /// Reconnect with `Last-Event-ID` set to this id.
    From(String),
    /// Reconnect without `Last-Event-ID` (a stream that may start over: the GET stream).
    Fresh,
    /// Give up with this error.
    Fail(McpError),
}

/// Whether a request's stream that failed with `error` can be resumed: only a broken or ended
/// stream of a legacy session, and only from an event id the stream carried.
pub fn resume_request_stream(error: McpError, last_event_id: Option<&str>) -> Resume {
    if !is_stream_break(&error) {
        return Resume::Fail(error);
    }
    match last_event_id {
        Some(id) => Resume::From(id.to_string()),
        None => Resume::Fail(
            error.with_suffix("; the stream carried no event ids, so it cannot be resumed"),
        ),
    }
}

/// Where the standalone GET stream reconnects from: the newest event id seen, else afresh.
pub fn resume_listen_stream(last_event_id: Option<&str>) -> Resume {
    match last_event_id {
        Some(id) => Resume::From(id.to_string()),
        None => Resume::Fresh,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::error::{ErrorKind, INVALID_PARAMS};
    use crate::session::reconnect::broken_stream;

    use crate::json::json;

    fn expired() -> McpError {
        McpError::local(-32001, ErrorKind::SessionExpired, "gone", Value::Null)
    }

    #[test]
    fn header_mismatch_relists_once_and_only_for_tool_calls() {
        let e = McpError::new(HEADER_MISMATCH, "Mcp-Param-Region disagrees");
        let mut b = RetryBudget::default();
        let p = json!({ "name": "t" });
        assert_eq!(
            b.after_failure(&e, "prompts/get", &p, Some(Era::Modern)),
            Retry::Fail
        );
        assert_eq!(
            b.after_failure(&e, "tools/call", &p, Some(Era::Modern)),
            Retry::RelistTools
        );
        assert_eq!(
            b.after_failure(&e, "tools/call", &p, Some(Era::Modern)),
            Retry::Fail
        );
    }

    #[test]
    fn an_expired_session_reinitializes_once() {
        let mut b = RetryBudget::default();
        let p = json!({});
        assert_eq!(
            b.after_failure(&expired(), "tools/list", &p, Some(Era::Legacy)),
            Retry::Reinitialize
        );
        assert_eq!(
            b.after_failure(&expired(), "tools/list", &p, Some(Era::Legacy)),
            Retry::Fail
        );
    }

    #[test]
    fn a_broken_modern_stream_is_reissued_once() {
        let mut b = RetryBudget::default();
        let e = broken_stream(true);
        let p = json!({ "name": "slow" });
        assert_eq!(
            b.after_failure(&e, "tools/call", &p, Some(Era::Modern)),
            Retry::Reissue
        );
        assert_eq!(
            b.after_failure(&e, "tools/call", &p, Some(Era::Modern)),
            Retry::Fail
        );
    }

    #[test]
    fn a_broken_legacy_stream_is_not_reissued() {
        let mut b = RetryBudget::default();
        let e = broken_stream(false);
        assert_eq!(
            b.after_failure(&e, "tools/call", &json!({}), Some(Era::Legacy)),
            Retry::Fail
        );
    }

    #[test]
    fn answers_without_request_state_are_not_replayed() {
        let e = broken_stream(true);
        let without_state = json!({ "name": "t", "inputResponses": { "a": {} } });
        assert_eq!(
            RetryBudget::default().after_failure(
                &e,
                "tools/call",
                &without_state,
                Some(Era::Modern)
            ),
            Retry::Fail
        );
        let with_state = json!({ "name": "t", "inputResponses": { "a": {} }, "requestState": "s" });
        assert_eq!(
            RetryBudget::default().after_failure(&e, "tools/call", &with_state, Some(Era::Modern)),
            Retry::Reissue
        );
    }

    #[test]
    fn other_errors_fail() {
        let e = McpError::new(INVALID_PARAMS, "Unknown tool");
        assert_eq!(
            RetryBudget::default().after_failure(&e, "tools/call", &json!({}), Some(Era::Modern)),
            Retry::Fail
        );
        let t = McpError::timeout("tools/call", 10);
        assert_eq!(
            RetryBudget::default().after_failure(&t, "tools/call", &json!({}), Some(Era::Modern)),
            Retry::Fail
        );
    }

    #[test]
    fn request_streams_resume_from_their_newest_id_only() {
        let e = broken_stream(true);
        assert_eq!(
            resume_request_stream(e.clone(), Some("7")),
            Resume::From("7".into())
        );
        match resume_request_stream(e, None) {
            Resume::Fail(e) => assert!(e.message.contains("carried no event ids")),
            other => panic!("{other:?}"),
        }
        let refused = McpError::new(INVALID_PARAMS, "no");
        assert_eq!(
            resume_request_stream(refused.clone(), Some("7")),
            Resume::Fail(refused)
        );
    }

    #[test]
    fn the_listen_stream_resumes_or_starts_afresh() {
        assert_eq!(resume_listen_stream(Some("3")), Resume::From("3".into()));
        assert_eq!(resume_listen_stream(None), Resume::Fresh);
    }

    #[test]
    fn unsupported_version_listing_ours_is_sent_again_once_in_2026_only() {
        let e = McpError::with_data(
            crate::protocol::error::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
            json!({ "supported": ["2026-07-28"], "requested": "2026-07-28" }),
        );
        let p = json!({});
        let mut b = RetryBudget::default();
        assert_eq!(
            b.after_failure(&e, "tools/list", &p, Some(Era::Legacy)),
            Retry::Fail
        );
        assert_eq!(
            b.after_failure(&e, "tools/list", &p, Some(Era::Modern)),
            Retry::Reissue
        );
        assert_eq!(
            b.after_failure(&e, "tools/list", &p, Some(Era::Modern)),
            Retry::Fail
        );
        let other = McpError::with_data(
            crate::protocol::error::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
            json!({ "supported": ["2031-01-01"] }),
        );
        let mut b = RetryBudget::default();
        assert_eq!(
            b.after_failure(&other, "tools/list", &p, Some(Era::Modern)),
            Retry::Fail
        );
    }

    #[test]
    fn a_refused_stored_discover_is_probed_again_once() {
        let refused = McpError::with_data(
            -32000,
            "Bad Request: No valid session ID provided",
            json!({"status": 400}),
        );
        let p = json!({});
        let mut budget = RetryBudget::new(true);
        assert_eq!(
            budget.after_failure(&refused, "tools/list", &p, Some(Era::Modern)),
            Retry::Reprobe
        );
        assert_eq!(
            budget.after_failure(&refused, "tools/list", &p, Some(Era::Modern)),
            Retry::Fail
        );
        let mut probed = RetryBudget::new(false);
        assert_eq!(
            probed.after_failure(&refused, "tools/list", &p, Some(Era::Modern)),
            Retry::Fail
        );
        let tool_error = McpError::new(INVALID_PARAMS, "bad arguments");
        assert!(!refuses_the_session(&tool_error));
        let mismatch = McpError::with_data(HEADER_MISMATCH, "x", json!({"status": 400}));
        assert!(!refuses_the_session(&mismatch));
        assert!(refuses_the_session(&McpError::new(
            UNSUPPORTED_PROTOCOL_VERSION,
            "no"
        )));
    }
}
