//! Where the request loop's cached results are kept (`engine::cached` uses them): the client's
//! own memory ([`ResponseCache`], the default) or the app's store (`cache: { store, partition,
//! mode }`) through [`CacheStore`], under the keys and entries of
//! [`crate::session::cache_store`].

use crate::json::Value;
use crate::protocol::error::McpError;
use crate::session::cache::ResponseCache;
use crate::session::cache_store::{Asker, CacheMode};
use crate::util::secret::Secret;
use futures::future::LocalBoxFuture;
use std::cell::RefCell;
use std::rc::Rc;

/// The app's store: `get(key)`, `set(key, entry, ttlMs)`, `delete(key)`, `clear(prefix?)`,
/// each asynchronous and each allowed to fail.
pub trait CacheStore {
    /// The entry under `key`, if any.
    fn get(&self, key: &str) -> LocalBoxFuture<'static, Result<Option<Value>, McpError>>;
    /// Stores `entry` under `key` for `ttl_ms`.
    fn set(
        &self,
        key: &str,
        entry: &Value,
        ttl_ms: f64,
    ) -> LocalBoxFuture<'static, Result<(), McpError>>;
    /// Drops `key`.
    fn delete(&self, key: &str) -> LocalBoxFuture<'static, Result<(), McpError>>;
    /// Drops every key starting with `prefix`.
    fn clear(&self, prefix: &str) -> LocalBoxFuture<'static, Result<(), McpError>>;
    /// A fingerprint of `credential` (never the credential itself: a SHA-256 digest), or
    /// `None` when the host cannot make one (then private results are not stored).
    fn fingerprint(&self, credential: &str) -> LocalBoxFuture<'static, Option<String>>;
}

/// The app's store and how the client uses it.
pub struct AppCache {
    /// The store.
    pub store: Rc<dyn CacheStore>,
    /// `cache.partition` ("" when not given).
    pub partition: String,
    /// The last credential seen and who it makes the asker (fingerprinted once per credential).
    pub(super) fingerprint: RefCell<Option<(Secret, Asker)>>,
}

impl AppCache {
    /// The app's `store` under `partition`.
    pub fn new(store: Rc<dyn CacheStore>, partition: String) -> Self {
        AppCache {
            store,
            partition,
            fingerprint: RefCell::new(None),
        }
    }
}

/// Where cached results are kept.
pub enum Place {
    /// This client's memory (the default).
    Memory(RefCell<ResponseCache>),
    /// The app's store.
    Store(AppCache),
}

/// The client's cache: where, and the default mode of its calls.
#[derive(Debug)]
pub struct Cache {
    /// Where results are kept.
    pub place: Place,
    /// `cache.mode`: the mode of a call without `cacheMode`.
    pub mode: CacheMode,
}

impl Cache {
    /// Today's default: memory, mode `use`.
    pub fn memory() -> Self {
        Cache {
            place: Place::Memory(RefCell::new(ResponseCache::new())),
            mode: CacheMode::Use,
        }
    }
}

impl std::fmt::Debug for AppCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppCache")
            .field("partition", &self.partition)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Memory(memory) => f.debug_tuple("Memory").field(memory).finish(),
            Place::Store(app) => f.debug_tuple("Store").field(app).finish(),
        }
    }
}
