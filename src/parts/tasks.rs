//! The tasks part: waiting for a `tools/call` the server answered with a task, and
//! `client.tasks` (`get`, `result`, `cancel`, `list`) — `engine::tasks` and the rules of
//! `session::tasks` it reaches. Loaded with the first task a call meets or the first
//! `client.tasks` call; a call answered without a task never needs it.

use crate::engine::{Engine, RequestOptions, TaskCall};
use crate::json::Value;
use crate::protocol::error::McpError;
use crate::protocol::version::Era;
use futures::future::{FutureExt, LocalBoxFuture};

/// What the part does (each an `Engine` method of `engine::tasks`).
pub trait Tasks {
    /// The rest of a `tools/call` whose first answer `first` announced a task.
    fn finish_call<'a>(
        &self,
        engine: &'a Engine,
        era: Era,
        first: Value,
        params: &'a Value,
        task: &'a TaskCall,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>>;
    /// `tasks.get(taskId)`.
    fn get<'a>(
        &self,
        engine: &'a Engine,
        task_id: &'a str,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>>;
    /// `tasks.result(taskId)`.
    fn result<'a>(
        &self,
        engine: &'a Engine,
        task_id: &'a str,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>>;
    /// `tasks.cancel(taskId)`.
    fn cancel<'a>(
        &self,
        engine: &'a Engine,
        task_id: &'a str,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Option<Value>, McpError>>;
    /// `tasks.list({ cursor })`.
    fn list<'a>(
        &self,
        engine: &'a Engine,
        cursor: Option<String>,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>>;
}

struct Part;

impl Tasks for Part {
    fn finish_call<'a>(
        &self,
        engine: &'a Engine,
        era: Era,
        first: Value,
        params: &'a Value,
        task: &'a TaskCall,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>> {
        engine
            .finish_task_call(era, first, params, task, opts)
            .boxed_local()
    }

    fn get<'a>(
        &self,
        engine: &'a Engine,
        task_id: &'a str,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>> {
        engine.task_get(task_id, opts).boxed_local()
    }

    fn result<'a>(
        &self,
        engine: &'a Engine,
        task_id: &'a str,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>> {
        engine.task_result(task_id, opts).boxed_local()
    }

    fn cancel<'a>(
        &self,
        engine: &'a Engine,
        task_id: &'a str,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Option<Value>, McpError>> {
        engine.task_cancel(task_id, opts).boxed_local()
    }

    fn list<'a>(
        &self,
        engine: &'a Engine,
        cursor: Option<String>,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>> {
        engine.task_list(cursor, opts).boxed_local()
    }
}

super::part!(tasks, "the tasks part", Tasks, Part);
