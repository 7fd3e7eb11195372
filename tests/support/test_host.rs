//! The native `engine::Host` the engine tests share: thread timers, a local executor, an
//! elicitation callback that accepts with scripted content (or never answers), and what it was
//! asked and told.
#![allow(dead_code)] // each test crate uses what it needs

use futures::future::{FutureExt, LocalBoxFuture};
use futures::task::LocalSpawnExt;
use mcp_wasm_client::engine::{Cancel, Host};
use mcp_wasm_client::json::{json, Value};
use mcp_wasm_client::protocol::McpError;
use mcp_wasm_client::session::server_requests::Answerer;
use mcp_wasm_client::validate::output_schema::PatternMatcher;
use std::cell::RefCell;
use std::time::Duration;

/// Resolves after `ms` on a thread of its own (the executor stays single-threaded).
pub fn thread_sleep(ms: u64) -> LocalBoxFuture<'static, ()> {
    let (tx, rx) = futures::channel::oneshot::channel::<()>();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(ms));
        let _ = tx.send(());
    });
    rx.map(|_| ()).boxed_local()
}

/// A host whose elicitation callback accepts with `answer` (`None`: it never answers).
pub struct TestHost {
    pub spawner: futures::executor::LocalSpawner,
    /// The form content the elicitation callback accepts with (`None`: it never answers).
    pub answer: Option<Value>,
    /// `now_ms` is the wall clock, or 0 with a frozen clock.
    pub frozen_clock: bool,
    /// What the callback was asked, in order (`{ requestId, params }`).
    pub asked: RefCell<Vec<Value>>,
    /// Notifications `messageHandler` received.
    pub notifications: RefCell<Vec<Value>>,
    /// Errors reported to `messageHandler`.
    pub reports: RefCell<Vec<McpError>>,
    /// Cancel tokens handed to callbacks (their `context.signal`).
    pub cancels: RefCell<Vec<Cancel>>,
}

impl TestHost {
    /// A host on `spawner` answering elicitations with `answer`, the wall clock running.
    pub fn new(spawner: futures::executor::LocalSpawner, answer: Option<Value>) -> TestHost {
        TestHost {
            spawner,
            answer,
            frozen_clock: false,
            asked: RefCell::default(),
            notifications: RefCell::default(),
            reports: RefCell::default(),
            cancels: RefCell::default(),
        }
    }
}

impl Host for TestHost {
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        thread_sleep(ms)
    }

    fn now_ms(&self) -> f64 {
        if self.frozen_clock {
            return 0.0;
        }
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_millis() as f64)
    }

    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        self.spawner
            .spawn_local(task)
            .expect("the test executor runs");
    }

    fn call_back(
        &self,
        answerer: Answerer,
        params: &Value,
        request_id: &Value,
        cancel: &Cancel,
    ) -> LocalBoxFuture<'static, Result<Value, McpError>> {
        assert_eq!(answerer, Answerer::Elicitation);
        self.asked
            .borrow_mut()
            .push(json!({ "requestId": request_id, "params": params }));
        self.cancels.borrow_mut().push(cancel.clone());
        match &self.answer {
            Some(content) => {
                let reply = json!({ "action": "accept", "content": content });
                futures::future::ready(Ok(reply)).boxed_local()
            }
            None => futures::future::pending().boxed_local(),
        }
    }

    fn notification(&self, message: &Value) {
        self.notifications.borrow_mut().push(message.clone());
    }

    fn log(&self, _params: &Value) {}

    fn surface_error(&self, error: McpError) {
        self.reports.borrow_mut().push(error);
    }

    fn pattern_matcher(&self) -> Option<PatternMatcher> {
        None
    }
}
