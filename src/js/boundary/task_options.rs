//! `callTool`'s task options, `task: { ttlMs }` and `onTask(task)` (their names are
//! `session::tasks::TASK_CALL_OPTIONS`), read into an `engine::TaskCall`.

use crate::engine::TaskCall;
use crate::js::boundary::error::error_text;
use crate::js::boundary::interop;
use crate::js::boundary::options::Reader;
use crate::json::Value;
use crate::protocol::error::McpError;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// Reads `options.task` (an object `{ ttlMs? }`, or `true`) and `options.onTask` (a
/// function, called once with the task; its throw is reported, not fatal).
pub fn task_call(obj: &JsValue) -> Result<TaskCall, McpError> {
    let mut call = TaskCall::default();
    if !obj.is_object() {
        return Ok(call);
    }
    let r = &mut Reader::new("options");
    if let Some(task) = r.value(obj, "task") {
        call.asked = true;
        if task.as_bool() == Some(true) {
            // `task: true`: a task with the server's default ttl.
        } else if task.is_object() {
            let inner = &mut Reader::new("options.task");
            call.ttl_ms = inner.positive_number(&task, "ttlMs");
            inner.check()?;
        } else {
            r.fail_with("options.task must be an object { ttlMs? } (or true)");
        }
    }
    call.on_task = r.function(obj, "onTask").map(|f| {
        Rc::new(move |task: &Value| {
            f.call1(&JsValue::UNDEFINED, &interop::to_js(task))
                .map(|_| ())
                .map_err(|e| error_text(&e))
        }) as crate::engine::OnTask
    });
    r.check()?;
    Ok(call)
}
