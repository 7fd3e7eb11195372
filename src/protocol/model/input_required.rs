//! The 2026 `input_required` round (`InputRequiredResult`): `inputRequests`, a map from
//! server-chosen keys to `{ method, params }`, and the opaque `requestState`; at least one of
//! the two. A 2026 task waiting for input carries the same `inputRequests`.

use super::{view, Field};
use crate::json::{Map, Value};
use serde::Deserialize;

/// The round as it arrived.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct InputRequiredResult {
    /// Key → embedded request (each read by [`InputRequestEntry`]).
    pub input_requests: Field<Map<String, Value>>,
    /// The state to echo verbatim.
    pub request_state: Field<String>,
}

/// One embedded request as it arrived.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct InputRequestEntry {
    /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub method: Field<String>,
    /// The request's params.
    pub params: Field<Value>,
}

/// One embedded request of an `input_required` result.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequest {
    /// The server-chosen key (the callback's `requestId`).
    pub key: String,
    /// `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub method: String,
    /// The request params (`{}` when absent).
    pub params: Value,
}

/// A parsed `input_required` result.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    /// This round's requests (empty for a state-only round).
    pub requests: Vec<InputRequest>,
    /// The opaque state to echo verbatim.
    pub request_state: Option<String>,
}

impl InputRequired {
    /// Reads a round; the error says what is malformed (`requestState is not a string`, …).
    pub fn read(result: &Value) -> Result<InputRequired, String> {
        let wire: InputRequiredResult = view(result).unwrap_or_default();
        let request_state = wire
            .request_state
            .optional("requestState is not a string")?;
        let map = wire
            .input_requests
            .optional("inputRequests is not an object")?;
        let mut requests = Vec::new();
        for (key, entry) in map.unwrap_or_default() {
            let entry: InputRequestEntry = view(&entry).unwrap_or_default();
            let Field::Is(method) = entry.method else {
                return Err([
                    "inputRequests[",
                    &crate::util::quote::quoted(&key),
                    "] has no method",
                ]
                .concat());
            };
            let params = match entry.params {
                Field::Absent => Value::Object(Map::new()),
                Field::Null => Value::Null,
                Field::Wrong(v) | Field::Is(v) => v,
            };
            requests.push(InputRequest {
                key,
                method,
                params,
            });
        }
        if requests.is_empty() && request_state.is_none() {
            return Err("it has neither inputRequests nor requestState".into());
        }
        Ok(InputRequired {
            requests,
            request_state,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn requests_in_order_and_the_state() {
        let r = InputRequired::read(&json!({"resultType": "input_required",
            "inputRequests": {"b": {"method": "roots/list"}, "a": {"method": "elicitation/create",
            "params": {"message": "?"}, "extra": 1}}, "requestState": "v1.x"}))
        .unwrap();
        let keys: Vec<_> = r.requests.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, ["b", "a"], "the server's order");
        assert_eq!(r.requests[0].params, json!({}));
        assert_eq!(r.requests[1].params, json!({"message": "?"}));
        assert_eq!(r.request_state.as_deref(), Some("v1.x"));
        let state_only = InputRequired::read(&json!({"requestState": "s", "inputRequests": null}));
        assert!(state_only.unwrap().requests.is_empty());
    }

    #[test]
    fn wrong_types_are_named() {
        for (bad, why) in [
            (json!({"requestState": 5}), "requestState is not a string"),
            (
                json!({"inputRequests": []}),
                "inputRequests is not an object",
            ),
            (
                json!({"inputRequests": {"k": {}}}),
                "inputRequests[\"k\"] has no method",
            ),
            (
                json!({"inputRequests": {"k": "x"}}),
                "inputRequests[\"k\"] has no method",
            ),
            (
                json!({"inputRequests": {"k": {"method": 1}}}),
                "has no method",
            ),
            (json!({}), "neither inputRequests nor requestState"),
            (
                json!({"inputRequests": {}}),
                "neither inputRequests nor requestState",
            ),
        ] {
            let e = InputRequired::read(&bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
