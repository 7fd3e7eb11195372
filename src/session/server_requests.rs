//! What the server asks of the client (legacy JSON-RPC requests, or 2026 `inputRequests`):
//! which callback answers, what is refused before asking it, and what is checked in its answer.

use crate::json::{json, Value};
use crate::protocol::capabilities::Registered;
use crate::protocol::error::{McpError, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND};
use crate::protocol::model::server_request::{CreateMessageParams, ElicitRequestParams};
use crate::validate::elicitation::{apply_defaults, validate};

/// Which callback answers a server request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answerer {
    /// `elicitation/create` → `elicitationCallback`.
    Elicitation,
    /// `sampling/createMessage` → `samplingCallback`.
    Sampling,
    /// `roots/list` → `listRootsCallback`.
    Roots,
    /// `ping` → answered with `{}` (legacy).
    Ping,
}

impl Answerer {
    /// The server request method this answerer answers.
    pub fn method(self) -> &'static str {
        match self {
            Answerer::Elicitation => "elicitation/create",
            Answerer::Sampling => "sampling/createMessage",
            Answerer::Roots => "roots/list",
            Answerer::Ping => "ping",
        }
    }
}

/// Routes a server request method to its answerer; unknown methods are -32601.
pub fn route(method: &str) -> Result<Answerer, McpError> {
    match method {
        "elicitation/create" => Ok(Answerer::Elicitation),
        "sampling/createMessage" => Ok(Answerer::Sampling),
        "roots/list" => Ok(Answerer::Roots),
        "ping" => Ok(Answerer::Ping),
        other => Err(McpError::new(
            METHOD_NOT_FOUND,
            format!("Method not found: {other}"),
        )),
    }
}

/// The error sent when no callback is registered (the Python SDK's wording and code).
pub fn not_supported(a: Answerer) -> McpError {
    let what = match a {
        Answerer::Elicitation => "Elicitation",
        Answerer::Sampling => "Sampling",
        Answerer::Roots => "List roots",
        Answerer::Ping => "Ping",
    };
    McpError::new(INVALID_REQUEST, format!("{what} not supported"))
}

/// True when the user registered the callback for `a`.
pub fn is_registered(a: Answerer, r: &Registered) -> bool {
    match a {
        Answerer::Elicitation => r.elicitation,
        Answerer::Sampling => r.sampling,
        Answerer::Roots => r.roots,
        Answerer::Ping => true,
    }
}

/// Refuses, before the callback runs, what the client did not declare.
pub fn check_request(a: Answerer, params: &Value, r: &Registered) -> Result<(), McpError> {
    match a {
        Answerer::Elicitation => match ElicitRequestParams::read(params) {
            p if matches!(p.mode(), None | Some("form") | Some("url")) => {
                if p.mode() == Some("url") && p.url.ok().is_none() {
                    return Err(McpError::new(
                        INVALID_PARAMS,
                        "URL-mode elicitation without a url",
                    ));
                }
                Ok(())
            }
            p => Err(McpError::new(
                INVALID_PARAMS,
                [
                    "Client does not support ",
                    &crate::util::quote::quoted(p.mode().unwrap_or_default()),
                    "-mode elicitation requests",
                ]
                .concat(),
            )),
        },
        Answerer::Sampling => {
            let wants_tools = CreateMessageParams::read(params).wants_tools();
            let declared = r
                .sampling_capabilities
                .as_ref()
                .and_then(|c| c.get("tools"))
                .is_some();
            if wants_tools && !declared {
                return Err(McpError::new(
                    INVALID_PARAMS,
                    "Sampling with tools/toolChoice requires the sampling.tools capability: pass samplingCapabilities: { tools: {} }",
                ));
            }
            Ok(())
        }
        Answerer::Roots | Answerer::Ping => Ok(()),
    }
}

fn bad_answer(what: &str, detail: impl Into<String>, data: Value) -> McpError {
    McpError::local(
        INVALID_PARAMS,
        crate::protocol::error::ErrorKind::Callback,
        format!(
            "{what} callback returned an invalid result: {}",
            detail.into()
        ),
        data,
    )
}

/// Checks (and for forms, completes with defaults) what a callback returned.
pub fn check_result(a: Answerer, params: &Value, result: Value) -> Result<Value, McpError> {
    match a {
        Answerer::Ping => Ok(json!({})),
        Answerer::Elicitation => {
            let action = result
                .get("action")
                .and_then(Value::as_str)
                .unwrap_or_default();
            match action {
                "decline" | "cancel" => Ok(json!({ "action": action })),
                "accept" => {
                    let asked = ElicitRequestParams::read(params);
                    if asked.mode() == Some("url") {
                        return Ok(json!({ "action": "accept" }));
                    }
                    let mut content = match result.get("content") {
                        Some(Value::Object(o)) => o.clone(),
                        None | Some(Value::Null) => Default::default(),
                        Some(other) => {
                            return Err(bad_answer(
                                "Elicitation",
                                format!("content must be an object, got {other}"),
                                Value::Null,
                            ))
                        }
                    };
                    let schema = asked.schema();
                    apply_defaults(&schema, &mut content);
                    let errors = validate(&schema, &content);
                    if !errors.is_empty() {
                        let list: Vec<Value> = errors
                            .iter()
                            .map(|e| json!({ "field": e.field, "message": e.message }))
                            .collect();
                        let text: Vec<String> = errors
                            .iter()
                            .map(|e| format!("{} {}", e.field, e.message))
                            .collect();
                        return Err(bad_answer(
                            "Elicitation",
                            format!(
                                "content does not match requestedSchema: {}",
                                crate::util::quote::join(&text, "; ")
                            ),
                            json!({ "errors": list }),
                        ));
                    }
                    Ok(json!({ "action": "accept", "content": content }))
                }
                other => Err(bad_answer(
                    "Elicitation",
                    [
                        "action must be \"accept\", \"decline\" or \"cancel\", got ",
                        &crate::util::quote::quoted(other),
                    ]
                    .concat(),
                    Value::Null,
                )),
            }
        }
        Answerer::Sampling => {
            let ok = result.get("role").and_then(Value::as_str).is_some()
                && result
                    .get("content")
                    .is_some_and(|c| c.is_object() || c.is_array())
                && result.get("model").and_then(Value::as_str).is_some();
            if ok {
                Ok(result)
            } else {
                Err(bad_answer(
                    "Sampling",
                    "expected { role, content, model }",
                    Value::Null,
                ))
            }
        }
        Answerer::Roots => {
            let roots = result.get("roots").and_then(Value::as_array);
            match roots {
                Some(list)
                    if list.iter().all(|r| {
                        r.get("uri")
                            .and_then(Value::as_str)
                            .is_some_and(|u| u.starts_with("file://"))
                    }) =>
                {
                    Ok(result)
                }
                Some(_) => Err(bad_answer(
                    "List roots",
                    "every root needs a file:// uri",
                    Value::Null,
                )),
                None => Err(bad_answer(
                    "List roots",
                    "expected { roots: [...] }",
                    Value::Null,
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routing_and_refusals() {
        assert_eq!(route("roots/list").unwrap(), Answerer::Roots);
        assert_eq!(route("tasks/get").unwrap_err().code, METHOD_NOT_FOUND);
        let e = not_supported(Answerer::Elicitation);
        assert_eq!(
            (e.code, e.message.as_str()),
            (INVALID_REQUEST, "Elicitation not supported")
        );
        assert_eq!(
            not_supported(Answerer::Roots).message,
            "List roots not supported"
        );
        let r = Registered {
            sampling: true,
            ..Default::default()
        };
        assert!(check_request(
            Answerer::Sampling,
            &json!({"messages": [], "maxTokens": 5}),
            &r
        )
        .is_ok());
        let e = check_request(
            Answerer::Sampling,
            &json!({"tools": [], "maxTokens": 5}),
            &r,
        )
        .unwrap_err();
        assert!(e.message.contains("sampling.tools"));
        let r = Registered {
            sampling: true,
            sampling_capabilities: Some(json!({"tools": {}})),
            ..Default::default()
        };
        assert!(check_request(
            Answerer::Sampling,
            &json!({"tools": [], "toolChoice": {"mode": "auto"}}),
            &r
        )
        .is_ok());
        assert_eq!(
            check_request(Answerer::Elicitation, &json!({"mode": "telepathy"}), &r)
                .unwrap_err()
                .code,
            INVALID_PARAMS
        );
        assert!(check_request(Answerer::Elicitation, &json!({"mode": "url"}), &r).is_err());
    }

    #[test]
    fn elicitation_answers() {
        let params = json!({"message": "?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}, "n": {"type": "integer", "default": 3}}, "required": ["name"]}});
        let ok = check_result(
            Answerer::Elicitation,
            &params,
            json!({"action": "accept", "content": {"name": "Ada"}}),
        )
        .unwrap();
        assert_eq!(
            ok,
            json!({"action": "accept", "content": {"name": "Ada", "n": 3}})
        );
        let e = check_result(
            Answerer::Elicitation,
            &params,
            json!({"action": "accept", "content": {}}),
        )
        .unwrap_err();
        assert!(e.message.contains("name is required"), "{}", e.message);
        assert_eq!(e.into_parts().data.unwrap()["errors"][0]["field"], "name");
        assert_eq!(
            check_result(
                Answerer::Elicitation,
                &params,
                json!({"action": "decline", "content": {"x": 1}})
            )
            .unwrap(),
            json!({"action": "decline"})
        );
        assert!(check_result(Answerer::Elicitation, &params, json!({"action": "maybe"})).is_err());
        let url = json!({"mode": "url", "url": "https://x", "message": "m"});
        assert_eq!(
            check_result(Answerer::Elicitation, &url, json!({"action": "accept"})).unwrap(),
            json!({"action": "accept"})
        );
    }

    #[test]
    fn sampling_and_roots_answers() {
        let s =
            json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"});
        assert_eq!(
            check_result(Answerer::Sampling, &json!({}), s.clone()).unwrap(),
            s
        );
        assert!(
            check_result(Answerer::Sampling, &json!({}), json!({"role": "assistant"})).is_err()
        );
        assert!(check_result(
            Answerer::Roots,
            &Value::Null,
            json!({"roots": [{"uri": "file:///a"}]})
        )
        .is_ok());
        assert!(check_result(
            Answerer::Roots,
            &Value::Null,
            json!({"roots": [{"uri": "http://a"}]})
        )
        .is_err());
        assert!(check_result(Answerer::Roots, &Value::Null, json!([])).is_err());
    }
}
