//! 2026 multi round-trip requests: reading an `input_required` result and building the retry.

use crate::json::{Map, Value};
use crate::protocol::error::{McpError, INTERNAL_ERROR, INVALID_REQUEST};

/// Methods whose results may be `input_required`.
pub const MRTR_METHODS: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];

pub use crate::protocol::model::input_required::{InputRequest, InputRequired};

/// Reads an `input_required` result (through its model), naming what is malformed.
pub fn parse(method: &str, result: &Value) -> Result<InputRequired, McpError> {
    InputRequired::read(result).map_err(|why| {
        McpError::protocol(
            INVALID_REQUEST,
            format!("The server's input_required result for {method} is malformed: {why}"),
        )
    })
}

/// The retry's params: the original params plus this round's responses and the state.
pub fn retry_params(
    original: &Value,
    responses: Option<Map<String, Value>>,
    request_state: Option<&str>,
) -> Value {
    let mut params = original.as_object().cloned().unwrap_or_default();
    params.remove("inputResponses");
    params.remove("requestState");
    if let Some(r) = responses {
        params.insert("inputResponses".into(), Value::Object(r));
    }
    if let Some(s) = request_state {
        params.insert("requestState".into(), Value::String(s.to_string()));
    }
    Value::Object(params)
}

/// Delay before retrying the n-th consecutive state-only round (50 → 100 → 250 ms).
pub fn backoff_ms(consecutive_state_only: usize) -> u64 {
    [50, 100, 250][consecutive_state_only.min(2)]
}

/// The error when the server keeps asking beyond `max` rounds.
pub fn rounds_exceeded(method: &str, max: u32) -> McpError {
    McpError::local(
        INTERNAL_ERROR,
        crate::protocol::error::ErrorKind::Protocol,
        format!("{method} still required input after {max} rounds (inputRequiredMaxRounds)"),
        crate::json::json!({ "rounds": max }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn parses_requests_and_state() {
        let r = json!({"resultType": "input_required", "inputRequests": {"a": {"method": "roots/list"}, "b": {"method": "elicitation/create", "params": {"message": "?"}}}, "requestState": "v1.x"});
        let p = parse("tools/call", &r).unwrap();
        assert_eq!(p.requests.len(), 2);
        assert_eq!(p.requests[0].params, json!({}));
        assert_eq!(p.request_state.as_deref(), Some("v1.x"));
        let state_only = parse("tools/call", &json!({"requestState": "s"})).unwrap();
        assert!(state_only.requests.is_empty());
    }

    #[test]
    fn malformed_results_are_named() {
        assert!(parse("m", &json!({}))
            .unwrap_err()
            .message
            .contains("neither inputRequests nor requestState"));
        assert!(parse("m", &json!({"inputRequests": {"k": {}}}))
            .unwrap_err()
            .message
            .contains("has no method"));
        assert!(parse("m", &json!({"requestState": 5}))
            .unwrap_err()
            .message
            .ends_with("malformed: requestState is not a string"));
    }

    #[test]
    fn retry_params_replace_previous_round() {
        let original = json!({"name": "greet", "arguments": {}});
        let mut responses = Map::new();
        responses.insert("k".into(), json!({"action": "accept"}));
        let p = retry_params(&original, Some(responses), Some("st"));
        assert_eq!(
            p,
            json!({"name": "greet", "arguments": {}, "inputResponses": {"k": {"action": "accept"}}, "requestState": "st"})
        );
        let p2 = retry_params(&p, None, None);
        assert_eq!(p2, original);
    }

    #[test]
    fn backoff_caps() {
        assert_eq!(
            (backoff_ms(0), backoff_ms(1), backoff_ms(2), backoff_ms(9)),
            (50, 100, 250, 250)
        );
    }
}
