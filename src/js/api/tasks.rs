//! `client.tasks`: the server's tasks by id, both eras (`engine::tasks` does the work):
//! `get`, `result` (what a page calls after a reload), `cancel`, `list` (2025-11-25 only).

use crate::engine::Engine;
use crate::js::api::settle::settle;
use crate::js::boundary::interop;
use crate::js::boundary::options::{self, non_empty};
use crate::protocol::error::McpError;
use js_sys::Promise;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// What a `Tasks` method does once its arguments are read.
enum Op {
    Get(String),
    Result(String),
    Cancel(String),
    List(Option<String>),
}

/// The server's tasks (`client.tasks`); its TypeScript declaration is in `js::types`.
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Tasks {
    engine: Rc<Engine>,
}

#[wasm_bindgen]
impl Tasks {
    /// `get(taskId, options)` → the task (`taskId`, `status`, `ttlMs`, `pollIntervalMs`...).
    #[wasm_bindgen(unchecked_return_type = "Promise<Task>")]
    pub fn get(
        &self,
        #[wasm_bindgen(js_name = taskId, unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = non_empty(&task_id, "tasks.get", "taskId").map(Op::Get);
        self.run(op, &options)
    }

    /// `result(taskId, { signal, timeoutMs, maxTotalTimeoutMs })` → the final `CallToolResult`.
    #[wasm_bindgen(unchecked_return_type = "Promise<CallToolResult>")]
    pub fn result(
        &self,
        #[wasm_bindgen(js_name = taskId, unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = non_empty(&task_id, "tasks.result", "taskId").map(Op::Result);
        self.run(op, &options)
    }

    /// `cancel(taskId, options)` → 2025-11-25 the cancelled task; 2026 `undefined` (an ack).
    #[wasm_bindgen(unchecked_return_type = "Promise<Task | undefined>")]
    pub fn cancel(
        &self,
        #[wasm_bindgen(js_name = taskId, unchecked_param_type = "string")] task_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = non_empty(&task_id, "tasks.cancel", "taskId").map(Op::Cancel);
        self.run(op, &options)
    }

    /// `list({ cursor })` → `{ tasks, nextCursor? }` (2025-11-25; 2026: `unsupported`).
    #[wasm_bindgen(unchecked_return_type = "Promise<ListTasksResult>")]
    pub fn list(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListTasksOptions")] options: JsValue,
    ) -> Promise {
        let op = options::string(&options, "cursor", "options").map(Op::List);
        self.run(op, &options)
    }
}

impl Tasks {
    /// The tasks of the client whose engine this is.
    pub fn new(engine: Rc<Engine>) -> Tasks {
        Tasks { engine }
    }

    /// One path from a method call to its promise, as `Client::run`.
    fn run(&self, op: Result<Op, McpError>, options: &JsValue) -> Promise {
        let ready = op.and_then(|op| {
            Ok((
                op,
                options::call_options(options, self.engine.limits.timeout_ms)?,
            ))
        });
        let engine = self.engine.clone();
        settle(ready, move |op, opts| async move {
            let part = crate::parts::tasks::get().await?;
            let result = match op {
                Op::Get(id) => part.get(&engine, &id, &opts).await.map(Some),
                Op::Result(id) => part.result(&engine, &id, &opts).await.map(Some),
                Op::Cancel(id) => part.cancel(&engine, &id, &opts).await,
                Op::List(cursor) => part.list(&engine, cursor, &opts).await.map(Some),
            };
            result.map(|v| v.map_or(JsValue::UNDEFINED, |v| interop::to_js(&v)))
        })
    }
}
