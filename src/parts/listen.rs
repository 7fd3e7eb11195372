//! The listen part: `client.listen(filter)`'s subscriptions (`engine::listen`: the 2026
//! `subscriptions/listen` stream and its inbox, the legacy `resources/subscribe` calls), loaded
//! with the first `listen()`.

use crate::engine::listen::Subscription;
use crate::engine::{Engine, RequestOptions};
use crate::json::Value;
use crate::protocol::error::McpError;
use futures::future::{FutureExt, LocalBoxFuture};

/// What the part does (`Engine::listen` and `Engine::unlisten`).
pub trait Listen {
    /// Opens a subscription to what `filter` names.
    fn listen<'a>(
        &self,
        engine: &'a Engine,
        filter: &'a Value,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Subscription, McpError>>;
    /// Ends it from the client side.
    fn unlisten<'a>(
        &self,
        engine: &'a Engine,
        subscription: &'a Subscription,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, ()>;
}

struct Part;

impl Listen for Part {
    fn listen<'a>(
        &self,
        engine: &'a Engine,
        filter: &'a Value,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Subscription, McpError>> {
        engine.listen(filter, opts).boxed_local()
    }

    fn unlisten<'a>(
        &self,
        engine: &'a Engine,
        subscription: &'a Subscription,
        opts: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, ()> {
        engine.unlisten(subscription, opts).boxed_local()
    }
}

super::part!(listen, "the listen part", Listen, Part);
