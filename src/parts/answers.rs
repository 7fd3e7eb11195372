//! The answers part: what the client does when a server asks something of it — a legacy server
//! request (`elicitation/create`, `sampling/createMessage`, `roots/list`) answered by the user's
//! callback and checked (`Engine::answer`, `session::server_requests`, the form rules of
//! `validate::elicitation`), and a 2026 `input_required` round read and answered
//! (`session::mrtr`, `Engine::answer_round`). Loaded with the first request or round; a session
//! whose server never asks never needs it.

use crate::engine::{Cancel, Engine, RequestOptions};
use crate::json::{Map, Value};
use crate::protocol::error::McpError;
use crate::session::mrtr::{self, InputRequest, InputRequired};
use futures::future::{FutureExt, LocalBoxFuture};

/// What the part does.
pub trait Answers {
    /// [`Engine::answer`]: one server request answered by its callback, the answer checked.
    fn answer<'a>(
        &self,
        engine: &'a Engine,
        method: &'a str,
        params: Value,
        request_id: &'a Value,
        cancel: &'a Cancel,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>>;
    /// [`mrtr::parse`]: an `input_required` result of `method` read.
    fn parse_round(&self, method: &str, result: &Value) -> Result<InputRequired, McpError>;
    /// [`Engine::answer_round`]: every request of one round answered concurrently.
    fn answer_round<'a>(
        &self,
        engine: &'a Engine,
        requests: &'a [InputRequest],
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Map<String, Value>, McpError>>;
}

struct Part;

impl Answers for Part {
    fn answer<'a>(
        &self,
        engine: &'a Engine,
        method: &'a str,
        params: Value,
        request_id: &'a Value,
        cancel: &'a Cancel,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>> {
        engine
            .answer(method, params, request_id, cancel)
            .boxed_local()
    }

    fn parse_round(&self, method: &str, result: &Value) -> Result<InputRequired, McpError> {
        mrtr::parse(method, result)
    }

    fn answer_round<'a>(
        &self,
        engine: &'a Engine,
        requests: &'a [InputRequest],
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Map<String, Value>, McpError>> {
        engine.answer_round(requests, opts).boxed_local()
    }
}

super::part!(answers, "the answers part", Answers, Part);
