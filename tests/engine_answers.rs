//! Legacy server requests under a flood, natively over the in-memory transport: 1 000 requests
//! (`ping`, `roots/list`, `elicitation/create`) at once are answered with at most
//! `MAX_ANSWERING` callbacks at a time, none dropped, and the responses reach the server in the
//! order the requests arrived although the callbacks take different times.

#[path = "support/memory_transport.rs"]
mod memory_transport;
#[path = "support/test_host.rs"]
mod test_host;

use futures::executor::LocalPool;
use futures::future::{FutureExt, LocalBoxFuture};
use futures::task::LocalSpawnExt;
use mcp_wasm_client::engine::answers::MAX_ANSWERING;
use mcp_wasm_client::engine::{Cancel, Engine, Host, Limits, RequestOptions};
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::capabilities::Registered;
use mcp_wasm_client::protocol::jsonrpc::{Message, RequestId};
use mcp_wasm_client::protocol::version::Mode;
use mcp_wasm_client::protocol::McpError;
use mcp_wasm_client::session::server_requests::Answerer;
use mcp_wasm_client::session::ClientConfig;
use mcp_wasm_client::validate::output_schema::PatternMatcher;
use memory_transport::{MemoryTransport, Server};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use test_host::thread_sleep;

const N: usize = 1000;

/// A host whose roots and elicitation callbacks take 0–4 ms (by request number) and count how
/// many run at once.
struct FloodHost {
    spawner: futures::executor::LocalSpawner,
    running: Rc<Cell<usize>>,
    max_running: Rc<Cell<usize>>,
    calls: Cell<usize>,
    reports: RefCell<Vec<McpError>>,
}

impl Host for FloodHost {
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        thread_sleep(ms)
    }

    fn now_ms(&self) -> f64 {
        0.0
    }

    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        self.spawner.spawn_local(task).expect("the executor runs");
    }

    fn call_back(
        &self,
        answerer: Answerer,
        _params: &Value,
        request_id: &Value,
        _cancel: &Cancel,
    ) -> LocalBoxFuture<'static, Result<Value, McpError>> {
        self.calls.set(self.calls.get() + 1);
        let n: u64 = request_id
            .as_str()
            .and_then(|s| s.strip_prefix("rq-"))
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let running = self.running.clone();
        let max = self.max_running.clone();
        running.set(running.get() + 1);
        max.set(max.get().max(running.get()));
        async move {
            // Later requests often finish first: the order must come from the queue.
            thread_sleep(4 - n % 5).await;
            running.set(running.get() - 1);
            Ok(match answerer {
                Answerer::Roots => json!({ "roots": [{ "uri": "file:///r", "name": "r" }] }),
                _ => json!({ "action": "accept", "content": { "name": "Ada" } }),
            })
        }
        .boxed_local()
    }

    fn notification(&self, _message: &Value) {}

    fn log(&self, _params: &Value) {}

    fn surface_error(&self, error: McpError) {
        self.reports.borrow_mut().push(error);
    }

    fn pattern_matcher(&self) -> Option<PatternMatcher> {
        None
    }
}

fn flood_request(i: usize) -> Message {
    let id = RequestId::Str(format!("rq-{i}"));
    match i % 3 {
        0 => Message::request(id, "ping", None),
        1 => Message::request(id, "roots/list", None),
        _ => Message::request(
            id,
            "elicitation/create",
            Some(
                json!({ "mode": "form", "message": "Name?", "requestedSchema": { "type": "object", "properties": { "name": { "type": "string" } } } }),
            ),
        ),
    }
}

/// A legacy server: `flood` sends N requests at once and answers the call once all N responses
/// came back, with the order it saw them in.
fn flood_server(order: Rc<RefCell<Vec<String>>>) -> Server {
    let call: Rc<RefCell<Option<RequestId>>> = Rc::default();
    Box::new(move |m| match m {
        Message::Request { id, method, .. } if method == "initialize" => vec![Message::Result {
            id,
            result: json!({
                "protocolVersion": "2025-11-25",
                "capabilities": { "tools": {} },
                "serverInfo": { "name": "flood", "version": "1" },
            }),
        }],
        Message::Request { id, method, .. } if method == "tools/call" => {
            *call.borrow_mut() = Some(id);
            (0..N).map(flood_request).collect()
        }
        Message::Request { id, method, .. } => vec![Message::Error {
            id: Some(id),
            error: McpError::new(-32601, format!("Method not found: {method}")),
        }],
        Message::Result { id, .. } | Message::Error { id: Some(id), .. } => {
            order.borrow_mut().push(id.to_string());
            if order.borrow().len() < N {
                return vec![];
            }
            match call.borrow_mut().take() {
                Some(call) => vec![Message::Result {
                    id: call,
                    result: json!({ "content": [{ "type": "text", "text": "all answered" }] }),
                }],
                None => vec![],
            }
        }
        _ => vec![],
    })
}

#[test]
fn a_thousand_server_requests_are_answered_in_order_with_bounded_concurrency() {
    let pool = LocalPool::new();
    let mut pool = pool;
    let host = Rc::new(FloodHost {
        spawner: pool.spawner(),
        running: Rc::default(),
        max_running: Rc::default(),
        calls: Cell::new(0),
        reports: RefCell::default(),
    });
    let cfg = ClientConfig {
        mode: Mode::parse("legacy").unwrap(),
        registered: Registered {
            elicitation: true,
            roots: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let limits = Limits {
        timeout_ms: 30_000,
        max_message_bytes: 1 << 20,
        max_rounds: 4,
        cache: false,
    };
    let order: Rc<RefCell<Vec<String>>> = Rc::default();
    let transport = MemoryTransport::new(flood_server(order.clone()));
    let engine = Engine::new(cfg, limits, host.clone(), transport);
    let result = pool.run_until(async {
        engine.connect().await?;
        engine
            .request(
                "tools/call",
                Some(json!({ "name": "flood" })),
                &RequestOptions::with_timeout(30_000),
            )
            .await
    });
    let reports = host.reports.borrow();
    assert!(reports.is_empty(), "errors surfaced: {reports:?}");
    assert_eq!(result.unwrap()["content"][0]["text"], "all answered");
    let order = order.borrow();
    println!(
        "[flood] {} responses, {} callbacks, at most {} callbacks at once",
        order.len(),
        host.calls.get(),
        host.max_running.get()
    );
    assert_eq!(order.len(), N, "every request answered once");
    let expected: Vec<String> = (0..N).map(|i| format!("\"rq-{i}\"")).collect();
    let first_wrong = order.iter().zip(&expected).position(|(a, b)| a != b);
    assert_eq!(first_wrong, None, "responses in order of arrival");
    assert_eq!(
        host.calls.get(),
        N - N.div_ceil(3),
        "one callback per roots/elicitation request"
    );
    assert!(
        host.max_running.get() <= MAX_ANSWERING,
        "at most {MAX_ANSWERING} callbacks at once, saw {}",
        host.max_running.get()
    );
    assert_eq!(
        engine.server_requests_pending(),
        (0, 0),
        "the queue drained"
    );
}
