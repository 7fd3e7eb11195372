//! The engine, natively, over the in-memory transport (tests/support): connecting in both
//! eras, a tool call, an elicitation (a 2026 `input_required` round, and a legacy server
//! request), a notification, a timeout and an abort: every rule of the request path with no
//! HTTP and no JS. The memory transport is a message transport (no statuses): an unanswered
//! probe falls back to `initialize`, and cancelling is `notifications/cancelled` in both eras.

#[path = "support/memory_transport.rs"]
mod memory_transport;
#[path = "support/test_host.rs"]
mod test_host;

use futures::executor::LocalPool;
use futures::task::LocalSpawnExt;
use mcp_wasm_client::engine::{Cancel, Engine, Host, Limits, RequestOptions};
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::capabilities::Registered;
use mcp_wasm_client::protocol::jsonrpc::{Message, RequestId};
use mcp_wasm_client::protocol::version::Mode;
use mcp_wasm_client::protocol::{ErrorKind, McpError};
use mcp_wasm_client::session::ClientConfig;
use memory_transport::{MemoryTransport, Server};
use std::cell::RefCell;
use std::rc::Rc;
use test_host::TestHost;

const NAME_SCHEMA: &str =
    r#"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#;

fn elicitation_params() -> Value {
    json!({ "mode": "form", "message": "Who are you?", "requestedSchema": mcp_wasm_client::json::from_str::<Value>(NAME_SCHEMA).unwrap() })
}

fn text_result(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }] })
}

fn log_notification(text: &str) -> Message {
    Message::notification(
        "notifications/message",
        Some(json!({ "level": "info", "data": text })),
    )
}

/// A 2026 server: `greet` asks for a name with an `input_required` round, then answers;
/// every call is preceded by a log notification; `slow` never answers.
fn modern_server() -> Server {
    Box::new(|m| match m {
        Message::Request { id, method, params } => {
            let p = params.unwrap_or(Value::Null);
            let reply = match (method.as_str(), p["name"].as_str()) {
                ("tools/list", _) => {
                    json!({ "tools": [{ "name": "greet", "inputSchema": { "type": "object" } }] })
                }
                ("tools/call", Some("greet")) => {
                    match p["inputResponses"]["who"]["content"]["name"].as_str() {
                        Some(name) if p["requestState"] == "round-1" => {
                            text_result(&format!("Hello, {name}!"))
                        }
                        _ => json!({
                            "resultType": "input_required",
                            "inputRequests": { "who": { "method": "elicitation/create", "params": elicitation_params() } },
                            "requestState": "round-1",
                        }),
                    }
                }
                ("tools/call", Some("slow")) => return vec![],
                _ => {
                    return vec![Message::Error {
                        id: Some(id),
                        error: McpError::new(-32601, format!("Method not found: {method}")),
                    }]
                }
            };
            vec![
                log_notification("working"),
                Message::Result { id, result: reply },
            ]
        }
        _ => vec![],
    })
}

/// A legacy server (it refuses `server/discover`): `initialize`, then `greet` sends an
/// `elicitation/create` request and answers the call once the client responded.
fn legacy_server() -> Server {
    let waiting: Rc<RefCell<Option<RequestId>>> = Rc::default();
    Box::new(move |m| match m {
        Message::Request { id, method, .. } if method == "initialize" => vec![Message::Result {
            id,
            result: json!({
                "protocolVersion": "2025-11-25",
                "capabilities": { "tools": {} },
                "serverInfo": { "name": "memory-legacy", "version": "1" },
            }),
        }],
        Message::Request { id, method, params } if method == "tools/call" => {
            assert_eq!(params.unwrap_or(Value::Null)["name"], "greet");
            *waiting.borrow_mut() = Some(id);
            vec![Message::request(
                RequestId::Str("ask-1".into()),
                "elicitation/create",
                Some(elicitation_params()),
            )]
        }
        Message::Request { id, method, .. } => vec![Message::Error {
            id: Some(id),
            error: McpError::new(-32601, format!("Method not found: {method}")),
        }],
        Message::Result { id, result } if id == RequestId::Str("ask-1".into()) => {
            let name = result["content"]["name"]
                .as_str()
                .unwrap_or("?")
                .to_string();
            match waiting.borrow_mut().take() {
                Some(call) => vec![
                    log_notification("answered"),
                    Message::Result {
                        id: call,
                        result: text_result(&format!("Hello, {name}!")),
                    },
                ],
                None => vec![],
            }
        }
        _ => vec![],
    })
}

fn engine(
    mode: Mode,
    server: Server,
    answer: Option<Value>,
) -> (LocalPool, Rc<TestHost>, Rc<MemoryTransport>, Rc<Engine>) {
    let pool = LocalPool::new();
    let host = Rc::new(TestHost::new(pool.spawner(), answer));
    let cfg = ClientConfig {
        mode,
        registered: Registered {
            elicitation: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let limits = Limits {
        timeout_ms: 5_000,
        max_message_bytes: 1 << 20,
        max_rounds: 4,
        cache: true,
    };
    let transport = MemoryTransport::new(server);
    let engine = Engine::new(cfg, limits, host.clone(), transport.clone());
    (pool, host, transport, engine)
}

fn opts() -> RequestOptions {
    RequestOptions::with_timeout(5_000)
}

#[test]
fn modern_tool_call_with_an_elicitation_round_and_a_notification() {
    let (mut pool, host, transport, engine) = engine(
        Mode::parse("2026-07-28").unwrap(),
        modern_server(),
        Some(json!({ "name": "Ada" })),
    );
    let result = pool.run_until(async {
        engine.connect().await?;
        engine
            .request("tools/call", Some(json!({ "name": "greet" })), &opts())
            .await
    });
    assert_eq!(result.unwrap(), text_result("Hello, Ada!"));
    assert_eq!(engine.transport_name(), "memory");
    // One round: the callback saw the server's key and form.
    let asked = host.asked.borrow();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["requestId"], "who");
    assert_eq!(asked[0]["params"]["message"], "Who are you?");
    // Two sends of the call; the retry carries the answer and the echoed state.
    let sent = transport.sent.borrow();
    assert_eq!(sent.len(), 2);
    let retry: Value = mcp_wasm_client::json::from_str(&sent[1]).unwrap();
    assert_eq!(retry["params"]["requestState"], "round-1");
    assert_eq!(
        retry["params"]["inputResponses"]["who"]["content"]["name"],
        "Ada"
    );
    assert_eq!(
        retry["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_ne!(
        retry["id"],
        mcp_wasm_client::json::from_str::<Value>(&sent[0]).unwrap()["id"]
    );
    // The notification before each answer reached messageHandler.
    let notes = host.notifications.borrow();
    assert_eq!(notes.len(), 2);
    assert_eq!(notes[0]["method"], "notifications/message");
    assert_eq!(notes[0]["params"]["data"], "working");
    assert!(engine.inflight.borrow().is_empty());
}

#[test]
fn auto_mode_falls_back_to_legacy_and_answers_a_server_request() {
    let (mut pool, host, transport, engine) = engine(
        Mode::Auto,
        legacy_server(),
        Some(json!({ "name": "Grace" })),
    );
    let result = pool.run_until(async {
        engine.connect().await?;
        engine
            .request("tools/call", Some(json!({ "name": "greet" })), &opts())
            .await
    });
    assert_eq!(result.unwrap(), text_result("Hello, Grace!"));
    assert_eq!(engine.era(), Some(mcp_wasm_client::protocol::Era::Legacy));
    assert_eq!(
        engine.state.borrow().server_info.as_ref().unwrap()["name"],
        "memory-legacy"
    );
    let methods: Vec<Value> = transport
        .sent
        .borrow()
        .iter()
        .map(|s| mcp_wasm_client::json::from_str(s).unwrap())
        .collect();
    let names: Vec<&str> = methods
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("(response)"))
        .collect();
    assert_eq!(
        names,
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/call",
            "(response)"
        ]
    );
    // The response to the server's request carries its id and the accepted form.
    assert_eq!(methods[4]["id"], "ask-1");
    assert_eq!(methods[4]["result"]["content"]["name"], "Grace");
    assert_eq!(host.asked.borrow()[0]["requestId"], "ask-1");
    assert_eq!(host.notifications.borrow()[0]["params"]["data"], "answered");
}

#[test]
fn a_call_without_an_answer_times_out_and_an_aborted_one_says_so() {
    let (mut pool, _host, _transport, engine) =
        engine(Mode::parse("2026-07-28").unwrap(), modern_server(), None);
    let timed_out = pool.run_until(async {
        engine.connect().await?;
        let quick = RequestOptions::with_timeout(200);
        engine
            .request("tools/call", Some(json!({ "name": "slow" })), &quick)
            .await
    });
    let e = timed_out.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::Timeout));
    assert_eq!(e.data_json().unwrap()["timeoutMs"], 200);

    let cancel = Cancel::new();
    let mut with_cancel = opts();
    with_cancel.cancel = Some(cancel.clone());
    cancel.fire(Some("user left".into()));
    let aborted =
        pool.run_until(engine.request("tools/call", Some(json!({ "name": "slow" })), &with_cancel));
    let e = aborted.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::Aborted));
    assert!(e.message.contains("user left"), "{}", e.message);
    assert!(engine.inflight.borrow().is_empty());
}

#[test]
fn an_unanswered_form_does_not_time_out_the_call_and_abort_fires_its_signal() {
    let (mut pool, host, _transport, engine) =
        engine(Mode::parse("2026-07-28").unwrap(), modern_server(), None);
    let cancel = Cancel::new();
    let mut o = RequestOptions::with_timeout(300);
    o.cancel = Some(cancel.clone());
    let stopper = cancel.clone();
    let host_for_timer = host.clone();
    pool.spawner()
        .spawn_local(async move {
            // Well past the call's timeout: the pending callback paused its timer.
            host_for_timer.sleep(1_500).await;
            stopper.fire(None);
        })
        .unwrap();
    let result = pool.run_until(async {
        engine.connect().await?;
        engine
            .request("tools/call", Some(json!({ "name": "greet" })), &o)
            .await
    });
    assert_eq!(result.unwrap_err().kind(), Some(ErrorKind::Aborted));
    let cancels = host.cancels.borrow();
    assert_eq!(cancels.len(), 1);
    assert!(
        cancels[0].is_fired(),
        "the callback's signal fires with the call's abort"
    );
}

#[test]
fn calls_before_connect_and_after_close_fail_clearly() {
    let (mut pool, _host, _transport, engine) =
        engine(Mode::parse("2026-07-28").unwrap(), modern_server(), None);
    let before = pool.run_until(engine.request("tools/list", None, &opts()));
    assert!(before
        .unwrap_err()
        .message
        .contains("await client.connect()"));
    let after = pool.run_until(async {
        engine.connect().await?;
        engine.close().await;
        engine.request("tools/list", None, &opts()).await
    });
    let e = after.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::Closed));
}

#[test]
fn auto_mode_over_a_message_transport_falls_back_when_the_probe_gets_no_reply() {
    // A legacy server that ignores methods it does not know (no reply at all).
    let mut inner = legacy_server();
    let silent: Server = Box::new(move |m| match &m {
        Message::Request { method, .. } if method == "server/discover" => vec![],
        _ => inner(m),
    });
    let (mut pool, _host, transport, engine) = engine(Mode::Auto, silent, None);
    let result = pool.run_until(async {
        // The probe waits at most min(10 s, the client's timeout): 5 s here.
        engine.connect().await
    });
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(engine.era(), Some(mcp_wasm_client::protocol::Era::Legacy));
    let sent = transport.sent.borrow();
    let methods: Vec<String> = sent
        .iter()
        .map(|s| {
            mcp_wasm_client::json::from_str::<Value>(s).unwrap()["method"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(methods[0], "server/discover");
    assert!(methods.contains(&"initialize".to_string()), "{methods:?}");
}

#[test]
fn a_2026_call_timing_out_over_a_message_transport_sends_notifications_cancelled() {
    let (mut pool, _host, transport, engine) =
        engine(Mode::parse("2026-07-28").unwrap(), modern_server(), None);
    let timed_out = pool.run_until(async {
        engine.connect().await?;
        let quick = RequestOptions::with_timeout(200);
        engine
            .request("tools/call", Some(json!({ "name": "slow" })), &quick)
            .await
    });
    assert_eq!(timed_out.unwrap_err().kind(), Some(ErrorKind::Timeout));
    pool.run_until_stalled();
    let sent: Vec<Value> = transport
        .sent
        .borrow()
        .iter()
        .map(|s| mcp_wasm_client::json::from_str(s).unwrap())
        .collect();
    let call_id = sent[0]["id"].clone();
    let cancelled = sent
        .iter()
        .find(|m| m["method"] == "notifications/cancelled")
        .expect("a notifications/cancelled was sent");
    assert_eq!(cancelled["params"]["requestId"], call_id);
}
