//! The answers part: what the client does when a server asks something of it — a legacy server
//! request (`elicitation/create`, `sampling/createMessage`, `roots/list`) answered by the user's
//! callback and checked (`Engine::answer`, `session::server_requests`, the form rules of
//! `validate::elicitation`), and a 2026 `input_required` round read and answered
//! (`session::mrtr`, `Engine::next_round`). Loaded with the first request or round; a session
//! whose server never asks never needs it.

use crate::engine::{Cancel, Engine, RequestOptions, Round};
use crate::json::{Map, Value};
use crate::protocol::error::McpError;
use crate::session::mrtr::InputRequest;
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
    /// [`Engine::next_round`]: one `input_required` round read and answered, the retry's
    /// params returned.
    fn next_round<'a>(
        &self,
        engine: &'a Engine,
        round: Round<'a>,
        opts: &'a RequestOptions,
        state_only_streak: &'a mut usize,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>>;
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

    fn next_round<'a>(
        &self,
        engine: &'a Engine,
        round: Round<'a>,
        opts: &'a RequestOptions,
        state_only_streak: &'a mut usize,
    ) -> LocalBoxFuture<'a, Result<Value, McpError>> {
        engine
            .next_round(round, opts, state_only_streak)
            .boxed_local()
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
