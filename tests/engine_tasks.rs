//! Tasks over the engine, natively, over the in-memory transport (tests/support), both eras:
//! a task answered and polled to completion (the outputSchema checked on the final result,
//! never on the stub), input during a task (2026 `tasks/update`, de-duplicated keys; 2025 the
//! `tasks/result` side channel with the related-task `_meta` echoed), failed, cancelled, an
//! abort that stops waiting without cancelling, -32021 answered by declaring the extension,
//! `tasks.*` (get, result after a "reload", cancel, list; list unsupported in 2026) and
//! `Mcp-Name` on `tasks/*`.

#[path = "support/memory_transport.rs"]
mod memory_transport;
#[path = "support/test_host.rs"]
mod test_host;

use futures::executor::LocalPool;
use futures::task::LocalSpawnExt;
use mcp_wasm_client::engine::{Cancel, Engine, Host, Limits, RequestOptions, TaskCall};
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::capabilities::Registered;
use mcp_wasm_client::protocol::jsonrpc::{Message, RequestId};
use mcp_wasm_client::protocol::version::Mode;
use mcp_wasm_client::protocol::{ErrorKind, McpError};
use mcp_wasm_client::session::ClientConfig;
use memory_transport::{MemoryTransport, Server};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;
use test_host::TestHost;

const EXT: &str = "io.modelcontextprotocol/tasks";
/// The tasks the 2026 server knows (one per tool name).
const KNOWN: [&str; 7] = [
    "report",
    "slow",
    "sleepy",
    "bad_output",
    "tool_error",
    "fails",
    "cancels",
];
const RELATED: &str = "io.modelcontextprotocol/related-task";

fn ask() -> Value {
    json!({ "mode": "form", "message": "Go on?", "requestedSchema": { "type": "object", "properties": { "ok": { "type": "boolean" } } } })
}

fn done(n: u64) -> Value {
    json!({ "content": [{ "type": "text", "text": format!("n={n}") }], "structuredContent": { "n": n } })
}

fn tool_listing() -> Value {
    json!({ "tools": [
        { "name": "report", "inputSchema": { "type": "object" },
          "outputSchema": { "type": "object", "properties": { "n": { "type": "number" } }, "required": ["n"] } },
        { "name": "needs_task", "inputSchema": { "type": "object" }, "execution": { "taskSupport": "required" } },
        { "name": "bad_output", "inputSchema": { "type": "object" },
          "outputSchema": { "type": "object", "properties": { "n": { "type": "number" } }, "required": ["n"] } }
    ] })
}

fn error(id: RequestId, code: i64, message: &str) -> Vec<Message> {
    vec![Message::Error {
        id: Some(id),
        error: McpError::new(code, message),
    }]
}

fn ok(id: RequestId, result: Value) -> Vec<Message> {
    vec![Message::Result { id, result }]
}

/// A 2026 server following the tasks extension: `tools/call` needs the extension declared
/// (-32021 otherwise) and answers a task named after the tool; `tasks/get` walks each task
/// through its script.
fn modern_server(updates: Rc<RefCell<Vec<Value>>>) -> Server {
    let polls: Rc<RefCell<Vec<(String, u32)>>> = Rc::default();
    Box::new(move |m| {
        let Message::Request { id, method, params } = m else {
            return vec![];
        };
        let p = params.unwrap_or(Value::Null);
        let declared = p["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
            .get(EXT)
            .is_some();
        let task_id = p["taskId"].as_str().unwrap_or_default().to_string();
        match method.as_str() {
            "tools/list" => ok(id, tool_listing()),
            "tools/call" | "tasks/get" | "tasks/update" | "tasks/cancel" if !declared => {
                error(id, -32021, "Missing required client capability")
            }
            "tools/call" => ok(
                id,
                json!({ "resultType": "task", "taskId": p["name"], "status": "working",
                        "createdAt": "2026-08-30T09:00:00Z", "lastUpdatedAt": "2026-08-30T09:00:00Z",
                        "ttlMs": 60000, "pollIntervalMs": if p["name"] == "sleepy" { 60_000 } else { 10 } }),
            ),
            "tasks/update" => {
                updates.borrow_mut().push(p.clone());
                ok(id, json!({ "resultType": "complete" }))
            }
            "tasks/cancel" => ok(id, json!({ "resultType": "complete" })),
            "tasks/list" => error(id, -32601, "Method not found"),
            "tasks/get" if !KNOWN.contains(&task_id.as_str()) => error(id, -32602, "Unknown task"),
            "tasks/get" => {
                let n = {
                    let mut polls = polls.borrow_mut();
                    match polls.iter_mut().find(|(t, _)| *t == task_id) {
                        Some((_, n)) => {
                            *n += 1;
                            *n
                        }
                        None => {
                            polls.push((task_id.clone(), 1));
                            1
                        }
                    }
                };
                let mut task = json!({ "resultType": "complete", "taskId": task_id, "status": "working",
                    "createdAt": "2026-08-30T09:00:00Z", "lastUpdatedAt": "2026-08-30T09:00:01Z",
                    "ttlMs": 60000, "pollIntervalMs": 10 });
                match (task_id.as_str(), n) {
                    ("sleepy", _) => {
                        task["status"] = json!("completed");
                        task["result"] = done(9);
                    }
                    (_, 1) | ("slow", _) => {}
                    // Asks once; the first poll after the update still lists the answered key
                    // (the ack is eventually consistent), the next one completes.
                    ("report", 2 | 3) => {
                        task["status"] = json!("input_required");
                        task["inputRequests"] =
                            json!({ "go": { "method": "elicitation/create", "params": ask() } });
                    }
                    ("report", _) => {
                        task["status"] = json!("completed");
                        task["result"] = done(3);
                    }
                    ("bad_output", _) => {
                        task["status"] = json!("completed");
                        task["result"] =
                            json!({ "content": [], "structuredContent": { "n": "three" } });
                    }
                    ("tool_error", _) => {
                        task["status"] = json!("completed");
                        task["result"] = json!({ "content": [{ "type": "text", "text": "no" }], "isError": true });
                    }
                    ("fails", _) => {
                        task["status"] = json!("failed");
                        task["error"] = json!({ "code": -32603, "message": "the disk is full" });
                    }
                    ("cancels", _) => {
                        task["status"] = json!("cancelled");
                        task["statusMessage"] = json!("stopped by an operator");
                    }
                    _ => return error(id, -32602, "Unknown task"),
                }
                ok(id, task)
            }
            _ => error(id, -32601, "Method not found"),
        }
    })
}

/// A 2025-11-25 server with task support: a task-augmented `tools/call` answers a
/// `CreateTaskResult`; `tasks/get` says working, then input_required; `tasks/result` then
/// sends the task's `elicitation/create` (with related-task) on its stream and answers once
/// the client did; `tasks/list` and `tasks/cancel` serve the task store.
fn legacy_server(seen: Rc<RefCell<Vec<Value>>>) -> Server {
    let polls = Rc::new(Cell::new(0u32));
    let answered = Rc::new(Cell::new(false));
    let waiting: Rc<RefCell<Option<RequestId>>> = Rc::default();
    let task = |status: &str| {
        json!({ "taskId": "L-1", "status": status, "createdAt": "2026-08-30T09:00:00Z",
                "lastUpdatedAt": "2026-08-30T09:00:00Z", "ttl": 60000, "pollInterval": 10 })
    };
    let final_result = || {
        let mut r = done(7);
        r["_meta"] = json!({ RELATED: { "taskId": "L-1" } });
        r
    };
    Box::new(move |m| match m {
        Message::Request { id, method, params } => {
            let p = params.unwrap_or(Value::Null);
            match method.as_str() {
                "initialize" => ok(
                    id,
                    json!({ "protocolVersion": "2025-11-25",
                            "capabilities": { "tools": {}, "tasks": { "list": {}, "cancel": {}, "requests": { "tools": { "call": {} } } } },
                            "serverInfo": { "name": "memory-tasks", "version": "1" } }),
                ),
                "tools/list" => ok(id, tool_listing()),
                "tools/call" if p.get("task").is_some() => {
                    seen.borrow_mut().push(p.clone());
                    ok(id, json!({ "task": task("working") }))
                }
                "tools/call" if p["name"] == "needs_task" => {
                    error(id, -32601, "Tool needs_task requires task augmentation")
                }
                "tools/call" => ok(id, done(1)),
                "tasks/get" => {
                    polls.set(polls.get() + 1);
                    let status = match (polls.get(), answered.get()) {
                        (1, _) => "working",
                        (_, false) => "input_required",
                        (_, true) => "completed",
                    };
                    ok(id, task(status))
                }
                "tasks/result" if answered.get() => ok(id, final_result()),
                "tasks/result" => {
                    *waiting.borrow_mut() = Some(id);
                    let mut params = ask();
                    params["_meta"] = json!({ RELATED: { "taskId": "L-1" } });
                    vec![Message::request(
                        RequestId::Str("ask-1".into()),
                        "elicitation/create",
                        Some(params),
                    )]
                }
                "tasks/list" => ok(
                    id,
                    json!({ "tasks": [task("working")], "nextCursor": "c2" }),
                ),
                "tasks/cancel" => ok(id, task("cancelled")),
                _ => error(id, -32601, "Method not found"),
            }
        }
        Message::Result { id, result } if id == RequestId::Str("ask-1".into()) => {
            seen.borrow_mut().push(result);
            answered.set(true);
            match waiting.borrow_mut().take() {
                Some(call) => ok(call, final_result()),
                None => vec![],
            }
        }
        Message::Notification { .. } | Message::Result { .. } | Message::Error { .. } => vec![],
    })
}

struct Setup {
    pool: LocalPool,
    host: Rc<TestHost>,
    transport: Rc<MemoryTransport>,
    engine: Rc<Engine>,
}

fn setup(mode: Mode, server: Server, tasks: bool) -> Setup {
    let pool = LocalPool::new();
    let host = Rc::new(TestHost {
        frozen_clock: true,
        ..TestHost::new(pool.spawner(), Some(json!({ "ok": true })))
    });
    let cfg = ClientConfig {
        mode,
        registered: Registered {
            elicitation: true,
            tasks,
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
    Setup {
        pool,
        host,
        transport,
        engine,
    }
}

fn modern(server: Server) -> Setup {
    setup(Mode::parse("2026-07-28").unwrap(), server, false)
}

fn opts() -> RequestOptions {
    RequestOptions::with_timeout(5_000)
}

fn sent(t: &MemoryTransport) -> Vec<Value> {
    t.sent
        .borrow()
        .iter()
        .map(|s| mcp_wasm_client::json::from_str(s).unwrap())
        .collect()
}

fn methods(t: &MemoryTransport) -> Vec<String> {
    sent(t)
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("(response)").to_string())
        .collect()
}

fn call(name: &str) -> Value {
    json!({ "name": name, "arguments": {} })
}

/// A TaskCall whose onTask records the tasks it is given.
fn on_task_recording(seen: &Rc<RefCell<Vec<Value>>>) -> TaskCall {
    let seen = seen.clone();
    TaskCall {
        asked: true,
        ttl_ms: Some(600_000),
        on_task: Some(Rc::new(move |t: &Value| {
            seen.borrow_mut().push(t.clone());
            Ok(())
        })),
    }
}

#[test]
fn modern_task_is_polled_through_input_required_to_its_final_result() {
    let updates: Rc<RefCell<Vec<Value>>> = Rc::default();
    let mut s = modern(modern_server(updates.clone()));
    let tasks_seen = Rc::default();
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.request("tools/list", None, &opts()).await?;
        s.engine
            .call_tool(call("report"), &on_task_recording(&tasks_seen), &opts())
            .await
    });
    // The stub has no structuredContent: the outputSchema is checked on the final result only.
    assert_eq!(result.unwrap(), done(3));
    let tasks_seen = tasks_seen.borrow();
    assert_eq!(tasks_seen.len(), 1, "onTask is called once");
    assert_eq!(tasks_seen[0]["taskId"], "report");
    assert_eq!(tasks_seen[0]["ttlMs"], 60000);
    assert_eq!(tasks_seen[0].get("resultType"), None);
    // The input request was answered once although two polls listed it.
    assert_eq!(s.host.asked.borrow().len(), 1);
    assert_eq!(s.host.asked.borrow()[0]["requestId"], "go");
    let updates = updates.borrow();
    assert_eq!(updates.len(), 1);
    assert_eq!(updates[0]["taskId"], "report");
    assert_eq!(updates[0]["inputResponses"]["go"]["content"]["ok"], true);
    // The call declared the extension on its own request; no legacy task param in 2026.
    let out = sent(&s.transport);
    let call_msg = out.iter().find(|m| m["method"] == "tools/call").unwrap();
    assert_eq!(
        call_msg["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"],
        json!({ "elicitation": { "form": {}, "url": {} }, "extensions": { EXT: {} } })
    );
    assert_eq!(call_msg["params"].get("task"), None);
    // Mcp-Name carries the task id on tasks/get and tasks/update.
    let headers = s.transport.headers.borrow();
    for (m, h) in out.iter().zip(headers.iter()) {
        let name = h
            .iter()
            .find(|(k, _)| k == "Mcp-Name")
            .map(|(_, v)| v.as_str());
        match m["method"].as_str() {
            Some("tasks/get" | "tasks/update") => assert_eq!(name, Some("report")),
            Some("tools/call") => assert_eq!(name, Some("report")),
            _ => {}
        }
    }
    assert!(methods(&s.transport).contains(&"tasks/update".to_string()));
    assert!(s.engine.inflight.borrow().is_empty());
}

#[test]
fn modern_terminal_states_yield_a_result_or_an_error() {
    let mut s = modern(modern_server(Rc::default()));
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let (tool_error, fails, cancels, bad_output) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        s.engine.request("tools/list", None, &opts()).await.unwrap();
        let e = &s.engine;
        (
            e.call_tool(call("tool_error"), &task, &opts()).await,
            e.call_tool(call("fails"), &task, &opts()).await,
            e.call_tool(call("cancels"), &task, &opts()).await,
            e.call_tool(call("bad_output"), &task, &opts()).await,
        )
    });
    // A tool error is a completed task whose result says isError.
    assert_eq!(tool_error.unwrap()["isError"], true);
    let e = fails.unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (-32603, "the disk is full"));
    assert_eq!(e.data.as_ref().unwrap()["taskId"], "fails");
    let e = cancels.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::TaskCancelled));
    assert!(
        e.message.contains("stopped by an operator"),
        "{}",
        e.message
    );
    let e = bad_output.unwrap_err();
    assert!(e.message.contains("bad_output"), "{}", e.message);
}

#[test]
fn a_missing_declaration_is_a_clear_error_and_not_retried() {
    let mut s = modern(modern_server(Rc::default()));
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine
            .call_tool(call("tool_error"), &TaskCall::default(), &opts())
            .await
    });
    let e = result.unwrap_err();
    assert_eq!(e.code, -32021);
    assert!(e.message.contains("tasks: true"), "{}", e.message);
    let calls = methods(&s.transport)
        .into_iter()
        .filter(|m| m == "tools/call")
        .count();
    assert_eq!(
        calls, 1,
        "the client declares only what the caller asked for"
    );
}

#[test]
fn a_timeout_stops_waiting_for_a_task_without_news_and_does_not_cancel_it() {
    let mut s = modern(modern_server(Rc::default()));
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let quick = RequestOptions::with_timeout(300);
    let started = std::time::Instant::now();
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("slow"), &task, &quick).await
    });
    let e = result.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::Timeout));
    assert_eq!(e.data_json().unwrap()["taskId"], "slow");
    assert!(e.message.contains("it goes on"), "{}", e.message);
    // One piece of news (the first poll's lastUpdatedAt) restarted the timer once at most.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    s.pool.run_until_stalled();
    let out = methods(&s.transport);
    assert!(out.iter().filter(|m| *m == "tasks/get").count() >= 2);
    assert!(!out.iter().any(|m| m == "tasks/cancel"));
}

#[test]
fn the_tasks_option_declares_on_every_request_and_tasks_result_resumes_a_task() {
    let mut s = setup(
        Mode::parse("2026-07-28").unwrap(),
        modern_server(Rc::default()),
        true,
    );
    let (stub, result, got) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        // A raw request returns the stub as sent; tasks.result (after a "reload") waits.
        let stub = s
            .engine
            .request("tools/call", Some(call("tool_error")), &opts())
            .await
            .unwrap();
        let result = s.engine.task_result("tool_error", &opts()).await;
        let got = s.engine.task_get("tool_error", &opts()).await;
        (stub, result, got)
    });
    assert_eq!(stub["resultType"], "task");
    assert_eq!(result.unwrap()["isError"], true);
    let got = got.unwrap();
    assert_eq!(got["status"], "completed");
    assert_eq!(got["pollIntervalMs"], 10);
    for m in sent(&s.transport) {
        assert!(
            m["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
                .get(EXT)
                .is_some(),
            "{m}"
        );
    }
}

#[test]
fn modern_list_is_unsupported_and_cancel_is_an_ack() {
    let mut s = modern(modern_server(Rc::default()));
    let (list, cancel, unknown) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        (
            s.engine.task_list(None, &opts()).await,
            s.engine.task_cancel("slow", &opts()).await,
            s.engine.task_get("nope", &opts()).await,
        )
    });
    let e = list.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::Unsupported));
    assert_eq!(cancel.unwrap(), None);
    assert_eq!(unknown.unwrap_err().code, -32602);
    let out = sent(&s.transport);
    assert!(!out.iter().any(|m| m["method"] == "tasks/list"));
    let i = out
        .iter()
        .position(|m| m["method"] == "tasks/cancel")
        .unwrap();
    let name = s.transport.headers.borrow()[i]
        .iter()
        .find(|(k, _)| k == "Mcp-Name")
        .map(|(_, v)| v.clone());
    assert_eq!(name.as_deref(), Some("slow"));
}

#[test]
fn an_abort_stops_waiting_without_cancelling_the_task() {
    let mut s = modern(modern_server(Rc::default()));
    let cancel = Cancel::new();
    let mut o = opts();
    o.cancel = Some(cancel.clone());
    let stopper = cancel.clone();
    let host = s.host.clone();
    s.pool
        .spawner()
        .spawn_local(async move {
            host.sleep(600).await;
            stopper.fire(Some("user left".into()));
        })
        .unwrap();
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("slow"), &task, &o).await
    });
    let e = result.unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::Aborted));
    assert!(e.message.contains("user left"), "{}", e.message);
    s.pool.run_until_stalled();
    let out = sent(&s.transport);
    let polls = out.iter().filter(|m| m["method"] == "tasks/get").count();
    assert!(polls >= 2, "polled at the floored interval: {polls}");
    assert!(!out.iter().any(|m| m["method"] == "tasks/cancel"));
    let call_id = &out.iter().find(|m| m["method"] == "tools/call").unwrap()["id"];
    assert!(!out
        .iter()
        .any(|m| m["method"] == "notifications/cancelled" && m["params"]["requestId"] == *call_id));
}

#[test]
fn max_total_timeout_bounds_the_whole_wait() {
    let mut s = modern(modern_server(Rc::default()));
    let mut o = opts();
    o.max_total_timeout_ms = Some(400);
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("slow"), &task, &o).await
    });
    assert_eq!(result.unwrap_err().kind(), Some(ErrorKind::Timeout));
}

#[test]
fn legacy_task_is_polled_and_its_input_arrives_on_the_tasks_result_stream() {
    let seen: Rc<RefCell<Vec<Value>>> = Rc::default();
    let mut s = setup(Mode::Legacy, legacy_server(seen.clone()), true);
    let tasks_seen = Rc::default();
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.request("tools/list", None, &opts()).await?;
        s.engine
            .call_tool(call("report"), &on_task_recording(&tasks_seen), &opts())
            .await
    });
    let result = result.unwrap();
    assert_eq!(result["structuredContent"]["n"], 7);
    assert_eq!(result["_meta"][RELATED]["taskId"], "L-1");
    // onTask saw the task with the 2026 names.
    let t = &tasks_seen.borrow()[0];
    assert_eq!(
        (t["ttlMs"].clone(), t["pollIntervalMs"].clone()),
        (json!(60000), json!(10))
    );
    assert_eq!(t.get("ttl"), None);
    // params.task carried the ttl; the elicitation's answer echoed related-task.
    let seen = seen.borrow();
    assert_eq!(seen[0]["task"], json!({ "ttl": 600000 }));
    assert_eq!(seen[1]["content"]["ok"], true);
    assert_eq!(seen[1]["_meta"][RELATED]["taskId"], "L-1");
    // initialize declared `tasks: {}`; the calls: tools/call, get, get, result.
    let out = sent(&s.transport);
    let init = out.iter().find(|m| m["method"] == "initialize").unwrap();
    assert_eq!(init["params"]["capabilities"]["tasks"], json!({}));
    let names: Vec<String> = methods(&s.transport)
        .into_iter()
        .filter(|m| m.starts_with("tasks/") || m == "tools/call")
        .collect();
    assert_eq!(
        names,
        ["tools/call", "tasks/get", "tasks/get", "tasks/result"]
    );
}

#[test]
fn legacy_list_and_cancel_use_the_2026_names() {
    let mut s = setup(Mode::Legacy, legacy_server(Rc::default()), false);
    let (list, cancelled, plain) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        (
            s.engine.task_list(Some("c1".into()), &opts()).await,
            s.engine.task_cancel("L-1", &opts()).await,
            s.engine
                .call_tool(call("report"), &TaskCall::default(), &opts())
                .await,
        )
    });
    let list = list.unwrap();
    assert_eq!(list["nextCursor"], "c2");
    assert_eq!(list["tasks"][0]["ttlMs"], 60000);
    assert_eq!(cancelled.unwrap().unwrap()["status"], "cancelled");
    // Without the task option a legacy call is an ordinary call.
    assert_eq!(plain.unwrap(), done(1));
    let out = sent(&s.transport);
    let list_msg = out.iter().find(|m| m["method"] == "tasks/list").unwrap();
    assert_eq!(list_msg["params"]["cursor"], "c1");
    let init = out.iter().find(|m| m["method"] == "initialize").unwrap();
    assert_eq!(init["params"]["capabilities"].get("tasks"), None);
}

#[test]
fn an_on_task_that_throws_is_reported_and_the_call_goes_on() {
    let mut s = modern(modern_server(Rc::default()));
    let task = TaskCall {
        asked: true,
        ttl_ms: None,
        on_task: Some(Rc::new(|_: &Value| Err("boom".to_string()))),
    };
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("tool_error"), &task, &opts()).await
    });
    assert_eq!(result.unwrap()["isError"], true);
    let reports = s.host.reports.borrow();
    assert!(reports
        .iter()
        .any(|e| e.kind() == Some(ErrorKind::Callback) && e.message.contains("boom")));
}

#[test]
fn a_task_notification_wakes_the_poller_early() {
    let mut s = modern(modern_server(Rc::default()));
    let engine = s.engine.clone();
    let host = s.host.clone();
    s.pool
        .spawner()
        .spawn_local(async move {
            host.sleep(300).await;
            // What a listen() stream (2026) or any stream (2025) delivers.
            engine.on_notification(
                "notifications/tasks",
                Some(json!({ "taskId": "sleepy", "status": "completed" })),
            );
        })
        .unwrap();
    let task = TaskCall {
        asked: true,
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let result = s.pool.run_until(async {
        s.engine.connect().await?;
        s.engine.call_tool(call("sleepy"), &task, &opts()).await
    });
    assert_eq!(result.unwrap(), done(9));
    // The server asked for 60 s between polls (capped at 30 s): the notification cut it short.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(s.engine.inflight.borrow().is_empty());
}

#[test]
fn a_legacy_task_only_tool_gets_a_task_without_the_task_option() {
    let seen: Rc<RefCell<Vec<Value>>> = Rc::default();
    let mut s = setup(Mode::Legacy, legacy_server(seen.clone()), true);
    let (first, second) = s.pool.run_until(async {
        s.engine.connect().await.unwrap();
        // No listing yet: the client learns the tools first (the server runs tool tasks).
        let first = s
            .engine
            .call_tool(call("needs_task"), &TaskCall::default(), &opts())
            .await;
        // Known now: asked for a task at once.
        let second = s
            .engine
            .call_tool(call("needs_task"), &TaskCall::default(), &opts())
            .await;
        (first, second)
    });
    assert_eq!(first.unwrap()["structuredContent"]["n"], 7);
    assert_eq!(second.unwrap()["structuredContent"]["n"], 7);
    let calls: Vec<Value> = sent(&s.transport)
        .into_iter()
        .filter(|m| m["method"] == "tools/call" || m["method"] == "tools/list")
        .collect();
    let shape: Vec<(String, bool)> = calls
        .iter()
        .map(|m| {
            let method = m["method"].as_str().unwrap_or_default().to_string();
            (method, m["params"].get("task").is_some())
        })
        .collect();
    let expected = [
        ("tools/list", false),
        ("tools/call", true),
        ("tools/call", true),
    ];
    assert_eq!(shape, expected.map(|(m, t)| (m.to_string(), t)).to_vec());
    assert_eq!(calls[1]["params"]["task"], json!({}));
}
