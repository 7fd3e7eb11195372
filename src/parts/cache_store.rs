//! The cache-store part: how the request loop uses the app's store (`cache: { store }`) — a
//! stored result looked up and checked, a new one saved, the entries a notification makes stale
//! dropped (`engine::cached`'s `*_in_store`, under `session::cache_store`'s keys and entries).
//! Loaded with the first call of a client whose `cache` option names a store; a client that
//! caches in its own memory (the default) never needs it.

use crate::engine::Engine;
use crate::json::Value;
use futures::future::{FutureExt, LocalBoxFuture};

/// What the part does.
pub trait CacheStorePart {
    /// [`Engine::cached_in_store`]: a fresh stored result of `method`'s page `key`.
    fn cached<'a>(
        &self,
        engine: &'a Engine,
        method: &'a str,
        key: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Option<Value>>;
    /// [`Engine::keep_in_store`]: `result` saved, when the rules allow.
    fn keep<'a>(
        &self,
        engine: &'a Engine,
        method: &'a str,
        key: Option<&'a str>,
        params: &'a Value,
        result: &'a Value,
        now: f64,
    ) -> LocalBoxFuture<'a, ()>;
    /// [`Engine::invalidate_in_store`]: the entries `notification` makes stale dropped.
    fn invalidate<'a>(
        &self,
        engine: &'a Engine,
        notification: &'a str,
        params: &'a Value,
    ) -> LocalBoxFuture<'a, ()>;
    /// [`Engine::drop_in_store`]: every stored page of `method` dropped.
    fn drop_method<'a>(&self, engine: &'a Engine, method: &'a str) -> LocalBoxFuture<'a, ()>;
}

struct Part;

impl CacheStorePart for Part {
    fn cached<'a>(
        &self,
        engine: &'a Engine,
        method: &'a str,
        key: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Option<Value>> {
        engine.cached_in_store(method, key).boxed_local()
    }

    fn keep<'a>(
        &self,
        engine: &'a Engine,
        method: &'a str,
        key: Option<&'a str>,
        params: &'a Value,
        result: &'a Value,
        now: f64,
    ) -> LocalBoxFuture<'a, ()> {
        engine
            .keep_in_store(method, key, params, result, now)
            .boxed_local()
    }

    fn invalidate<'a>(
        &self,
        engine: &'a Engine,
        notification: &'a str,
        params: &'a Value,
    ) -> LocalBoxFuture<'a, ()> {
        engine
            .invalidate_in_store(notification, params)
            .boxed_local()
    }

    fn drop_method<'a>(&self, engine: &'a Engine, method: &'a str) -> LocalBoxFuture<'a, ()> {
        engine.drop_in_store(method).boxed_local()
    }
}

super::part!(cache_store, "the cache-store part", CacheStorePart, Part);
