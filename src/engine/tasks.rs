//! Tasks over the engine, both eras: a `tools/call` that becomes a task is waited for until
//! its final result (2025-11-25: `tasks/get` polls, `tasks/result`; 2026: `tasks/get` polls,
//! `inputRequests` answered through the callbacks and sent with `tasks/update`), and the
//! `tasks/*` methods a page calls after a reload. The rules are `session::tasks`'.
//!
//! Time: `timeoutMs` bounds each request (a silent server) and the wait for a task without
//! news (a poll showing a new status, message or update time restarts it, as progress does);
//! `maxTotalTimeoutMs` bounds the whole call; the signal ends it. Stopping the wait never
//! cancels the task: `tasks/cancel` does that.

use super::core::Engine;
use super::host::{fired_or_never, unless, Cancel};
use super::request::RequestOptions;
use crate::json::{json, Value};
use crate::protocol::capabilities::declare_tasks_extension;
use crate::protocol::error::{ErrorKind, McpError, INTERNAL_ERROR};
use crate::protocol::version::Era;
use crate::session::stamp::META_CLIENT_CAPABILITIES;
use crate::session::tasks::{self, Status, Task};
use futures::future::{FutureExt, LocalBoxFuture};
use std::cell::Cell;
use std::rc::Rc;

/// `onTask(task)`: told once, when the server answers a call with a task; an `Err` (its throw,
/// as text) is reported to `messageHandler` and the call goes on.
pub type OnTask = Rc<dyn Fn(&Value) -> Result<(), String>>;

/// A `tools/call`'s task options: `task: { ttlMs }` and `onTask`.
#[derive(Clone, Default)]
pub struct TaskCall {
    /// The call asked for a task (`task` given): 2025-11-25 sends `params.task`.
    pub asked: bool,
    /// `task.ttlMs`: how long the server should keep the task (2025-11-25 `ttl`).
    pub ttl_ms: Option<u64>,
    /// `onTask`.
    pub on_task: Option<OnTask>,
}

impl std::fmt::Debug for TaskCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskCall")
            .field("asked", &self.asked)
            .field("ttl_ms", &self.ttl_ms)
            .field("on_task", &self.on_task.is_some())
            .finish()
    }
}

impl TaskCall {
    /// The call declares the tasks extension on its 2026 request.
    fn declares(&self) -> bool {
        self.asked || self.on_task.is_some()
    }
}

impl Engine {
    /// `tools/call` with `params` (`name`, `arguments`): the final `CallToolResult`, waiting
    /// for the task when the server answers with one. 2026: a -32021 (the server needs the
    /// tasks extension declared) is an error saying how to declare it, not a silent retry:
    /// the client declares only what the caller asked for.
    pub async fn call_tool(
        &self,
        mut params: Value,
        task: &TaskCall,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        self.ensure_connected()?;
        let era = self.era().unwrap_or(Era::Legacy);
        let name = params["name"].as_str().unwrap_or_default().to_string();
        let required = || {
            self.tools
                .borrow()
                .get(&name)
                .is_some_and(|t| t.task_required)
        };
        // 2025-11-25: a tool no listing showed may be task-only (a server running tool tasks
        // refuses a plain call to it, the TS SDK as an isError result): learn it first.
        let unknown = self.tools.borrow().get(&name).is_none();
        if era == Era::Legacy && !task.asked && unknown && self.server_runs_tool_tasks() {
            // A failed listing changes nothing: the call goes as the caller made it.
            let _ = Box::pin(self.relist_tools(opts)).await;
        }
        match era {
            Era::Legacy if task.asked || required() => {
                params["task"] = tasks::task_param(task.ttl_ms);
            }
            Era::Modern if task.declares() && !self.cfg.registered.tasks => {
                self.declare_tasks(&mut params);
            }
            _ => {}
        }
        let whole = async {
            let first = self
                .boxed_request("tools/call", params.clone(), opts)
                .await
                .map_err(tasks::missing_declaration)?;
            if !tasks::is_task_stub(&first) {
                return Ok(first);
            }
            crate::parts::tasks::get()
                .await?
                .finish_call(self, era, first, &params, task, opts)
                .await
        };
        self.capped(opts, "tools/call", whole.boxed_local()).await
    }

    /// The rest of a `tools/call` whose first answer announced a task (the tasks part's
    /// `finish_call`): `onTask` told, the task waited for, its final result checked.
    pub(crate) async fn finish_task_call(
        &self,
        era: Era,
        first: Value,
        params: &Value,
        task: &TaskCall,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        let Some(created) = tasks::created(era, &first)? else {
            return Ok(first);
        };
        if let Some(on_task) = &task.on_task {
            if let Err(why) = on_task(&created.value) {
                self.surface_error(McpError::local(
                    INTERNAL_ERROR,
                    ErrorKind::Callback,
                    ["onTask threw: ", &why].concat(),
                    json!({ "taskId": created.id }),
                ));
            }
        }
        let mut result = self.timed_wait(created, opts).await?;
        // The tool's outputSchema applies to the final result (never to the stub).
        self.after_result("tools/call", params, &mut result).await?;
        Ok(result)
    }

    /// 2025-11-25: the server accepts task-augmented calls.
    fn server_runs_tool_tasks(&self) -> bool {
        tasks::server_runs_tool_tasks(self.state.borrow().server_capabilities.as_ref())
    }

    /// `tasks.get(taskId)`: the task in the JS shape (2026 names on both eras).
    pub async fn task_get(&self, task_id: &str, opts: &RequestOptions) -> Result<Value, McpError> {
        Ok(self.get_task(task_id, opts).await?.value)
    }

    /// `tasks.result(taskId)`: waits for the task's final result (what a page calls after a
    /// reload).
    pub async fn task_result(
        &self,
        task_id: &str,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        let whole = async {
            let task = self.get_task(task_id, opts).await?;
            self.timed_wait(task, opts).await
        };
        self.capped(opts, "tasks/result", whole.boxed_local()).await
    }

    /// `tasks.cancel(taskId)`: 2025-11-25 the cancelled task; 2026 `None` (the server only
    /// acknowledges; cancelling is cooperative, the task may still complete).
    pub async fn task_cancel(
        &self,
        task_id: &str,
        opts: &RequestOptions,
    ) -> Result<Option<Value>, McpError> {
        let answer = self.task_request("tasks/cancel", task_id, opts).await?;
        match self.era() {
            Some(Era::Legacy) => Ok(Some(tasks::read("tasks/cancel", &answer)?.value)),
            _ => Ok(None),
        }
    }

    /// `tasks.list({ cursor })`: 2025-11-25 one page `{ tasks, nextCursor? }`; 2026 removed it.
    pub async fn task_list(
        &self,
        cursor: Option<String>,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        self.ensure_connected()?;
        if self.era() == Some(Era::Modern) {
            return Err(tasks::list_unsupported());
        }
        let params = cursor.map_or_else(|| json!({}), |c| json!({ "cursor": c }));
        tasks::list(&self.boxed_request("tasks/list", params, opts).await?)
    }

    /// [`Engine::await_task`] within the call's `timeoutMs`: a wait without news (the task's
    /// status, message or update time unchanged, polls aside) for that long is a timeout; news
    /// restarts it (unless `resetTimeoutOnProgress` is false), and time in callbacks does not
    /// count. The task goes on.
    async fn timed_wait(&self, task: Task, opts: &RequestOptions) -> Result<Value, McpError> {
        let news = Rc::new(Cell::new(0));
        let id = task.id.clone();
        let wait = self.await_task(task, opts, &news).boxed_local();
        let progress = opts.reset_timeout_on_progress.then_some(&news);
        unless(wait, self.call_timer(opts.timeout_ms, progress))
            .await
            .unwrap_or_else(|()| Err(tasks::wait_timed_out(&id, opts.timeout_ms)))
    }

    /// Waits for a task until its final result; `news` counts the polls that saw it change.
    async fn await_task(
        &self,
        task: Task,
        opts: &RequestOptions,
        news: &Cell<u64>,
    ) -> Result<Value, McpError> {
        // Polls carry no progress registration and no overall cap of their own.
        let poll = RequestOptions {
            on_progress: None,
            max_total_timeout_ms: None,
            ..opts.clone()
        };
        match self.era() {
            Some(Era::Modern) => self.await_modern(task, &poll, news).boxed_local().await,
            _ => self.await_legacy(task, &poll, news).boxed_local().await,
        }
    }

    /// 2026: polls `tasks/get` until terminal; open `inputRequests` are answered through the
    /// callbacks (as an `input_required` round) and sent with `tasks/update`.
    async fn await_modern(
        &self,
        stub: Task,
        opts: &RequestOptions,
        news: &Cell<u64>,
    ) -> Result<Value, McpError> {
        let id = stub.id.clone();
        let mut answered: Vec<String> = Vec::new();
        // The stub carries no result: the first state that counts is a tasks/get's.
        let mut task = stub;
        let mut polled = false;
        loop {
            if polled {
                if let Some(outcome) = tasks::outcome(&task) {
                    return outcome;
                }
                let open = match task.status {
                    Status::InputRequired => tasks::open_requests(&task, &answered)?,
                    _ => Vec::new(),
                };
                if !open.is_empty() {
                    let answers = crate::parts::answers::get().await?;
                    let responses = answers.answer_round(self, &open, opts).await?;
                    answered.extend(open.into_iter().map(|r| r.key));
                    let update = tasks::update_params(&id, responses);
                    self.tasks_request("tasks/update", update, opts).await?;
                    task = self.poll(&task, opts, news).await?;
                    continue;
                }
            }
            if !task.status.is_terminal() {
                self.pause(task.poll_ms(), &id, opts).await?;
            }
            task = self.poll(&task, opts, news).await?;
            polled = true;
        }
    }

    /// 2025-11-25: polls `tasks/get`; `input_required` calls `tasks/result` at once (its stream
    /// carries the task's queued requests, answered as any server request); a terminal task's
    /// result (or its error) comes from `tasks/result`.
    async fn await_legacy(
        &self,
        mut task: Task,
        opts: &RequestOptions,
        news: &Cell<u64>,
    ) -> Result<Value, McpError> {
        loop {
            match task.status {
                Status::Completed | Status::Failed => {
                    return self.task_request("tasks/result", &task.id, opts).await
                }
                Status::Cancelled => return Err(tasks::cancelled(&task)),
                Status::InputRequired => {
                    match self.task_request("tasks/result", &task.id, opts).await {
                        // tasks/result blocks until the task ends: a timeout stops that wait,
                        // not the task; polling goes on.
                        Err(e) if e.kind() == Some(ErrorKind::Timeout) => {}
                        other => return other,
                    }
                }
                Status::Working => self.pause(task.poll_ms(), &task.id, opts).await?,
            }
            task = self.poll(&task, opts, news).await?;
        }
    }

    /// The next `tasks/get` of `task`; a change counts as news.
    async fn poll(
        &self,
        task: &Task,
        opts: &RequestOptions,
        news: &Cell<u64>,
    ) -> Result<Task, McpError> {
        let next = self.get_task(&task.id, opts).await?;
        if tasks::changed(task, &next) {
            news.set(news.get() + 1);
        }
        Ok(next)
    }

    /// `tasks/get`, read as a task whose id must be the one asked for.
    async fn get_task(&self, task_id: &str, opts: &RequestOptions) -> Result<Task, McpError> {
        let answer = self.task_request("tasks/get", task_id, opts).await?;
        let task = tasks::read("tasks/get", &answer)?;
        if task.id != task_id {
            return Err(McpError::protocol(
                crate::protocol::error::INVALID_REQUEST,
                [
                    "The server answered tasks/get for ",
                    &crate::util::quote::quoted(task_id),
                    " with task ",
                    &crate::util::quote::quoted(&task.id),
                ]
                .concat(),
            ));
        }
        Ok(task)
    }

    /// A `tasks/*` request whose params are `{ taskId }`.
    async fn task_request(
        &self,
        method: &str,
        task_id: &str,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        self.tasks_request(method, tasks::id_params(task_id), opts)
            .await
    }

    /// A `tasks/*` request; in 2026 it declares the tasks extension (the server refuses
    /// `tasks/*` without it).
    async fn tasks_request(
        &self,
        method: &str,
        mut params: Value,
        opts: &RequestOptions,
    ) -> Result<Value, McpError> {
        self.ensure_connected()?;
        if self.era() == Some(Era::Modern) && !self.cfg.registered.tasks {
            self.declare_tasks(&mut params);
        }
        self.boxed_request(method, params, opts)
            .await
            .map_err(tasks::missing_declaration)
    }

    /// Declares the tasks extension on one 2026 request: the client's capabilities (or those
    /// the caller put in this request's `_meta`) plus it, in the request's own `_meta`, which
    /// the envelope keeps.
    fn declare_tasks(&self, params: &mut Value) {
        let Some(p) = params.as_object_mut() else {
            return;
        };
        let Value::Object(meta) = p.entry("_meta").or_insert_with(|| json!({})) else {
            return;
        };
        let caps = meta
            .entry(META_CLIENT_CAPABILITIES.to_string())
            .or_insert_with(|| self.cfg.capabilities(Era::Modern));
        if let Value::Object(caps) = caps {
            declare_tasks_extension(caps);
        }
    }

    /// Sleeps `ms` between polls, or until a notification about the task arrives, unless the
    /// caller aborts (the task goes on).
    async fn pause(&self, ms: u64, task_id: &str, opts: &RequestOptions) -> Result<(), McpError> {
        let wake = Cancel::new();
        self.task_wakers
            .borrow_mut()
            .push((task_id.to_string(), wake.clone()));
        let nap = unless(self.host.sleep(ms), wake.fired());
        let outcome = unless(nap, fired_or_never(opts.cancel.as_ref())).await;
        wake.fire(None);
        self.task_wakers.borrow_mut().retain(|(_, w)| !w.is_fired());
        outcome.map(|_| ()).map_err(|reason| {
            let what = ["waiting for task ", &crate::util::quote::quoted(task_id)].concat();
            McpError::aborted(&what, reason)
        })
    }

    /// A notification about `task_id` arrived: its pollers poll now.
    pub(super) fn wake_task_poller(&self, task_id: &str) {
        let wakers: Vec<Cancel> = self
            .task_wakers
            .borrow()
            .iter()
            .filter(|(id, _)| id == task_id)
            .map(|(_, w)| w.clone())
            .collect();
        for w in wakers {
            w.fire(None);
        }
    }

    /// One request, boxed: the task paths share one instance of the request future.
    fn boxed_request<'a>(
        &'a self,
        method: &'a str,
        params: Value,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>> {
        self.request(method, Some(params), opts).boxed_local()
    }

    /// `work` within the call's `maxTotalTimeoutMs`, if any.
    async fn capped(
        &self,
        opts: &RequestOptions,
        what: &str,
        work: LocalBoxFuture<'_, Result<Value, McpError>>,
    ) -> Result<Value, McpError> {
        match opts.max_total_timeout_ms {
            Some(ms) => super::host::within(self.host.sleep(ms), ms, what, work).await,
            None => work.await,
        }
    }
}
