//! Tasks over the engine, natively, over the in-memory transport (tests/support), both eras:
//! a task answered and polled to completion (the outputSchema checked on the final result,
//! never on the stub), input during a task (2026 `tasks/update`, de-duplicated keys; 2025 the
//! `tasks/result` side channel with the related-task `_meta` echoed), failed, cancelled, an
//! abort that stops waiting without cancelling, -32021 answered by declaring the extension,
//! `tasks.*` (get, result after a "reload", cancel, list; list unsupported in 2026) and
//! `Mcp-Name` on `tasks/*`. This file holds what the tests share; the tests are in
//! engine_tasks/modern.rs (2026) and engine_tasks/legacy.rs (2025-11-25).

#[path = "support/memory_transport.rs"]
mod memory_transport;
#[path = "support/test_host.rs"]
mod test_host;

#[path = "engine_tasks/legacy.rs"]
mod legacy;
#[path = "engine_tasks/modern.rs"]
mod modern;

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
