//! How the request loop uses the cache ([`super::cache`]): a fresh result answers, a new one is
//! kept, a notification drops what it makes stale. A store that throws, answers something
//! unusable or is slower than [`STORE_TIMEOUT_MS`] never fails a call: the call goes to the
//! server and the error reaches the host's `surface_error` (`messageHandler`) with kind
//! `cache_store`. Writes and invalidations run in the background: a call never waits for the
//! store to save.

use super::cache::{AppCache, Cache, Place};
use super::core::Engine;
use super::host::within;
use crate::json::{json, Value};
use crate::protocol::error::{ErrorKind, McpError, INTERNAL_ERROR};
use crate::protocol::version::Era;
use crate::session::cache::{storable, CacheScope};
use crate::session::cache_store::{self, Asker, CacheMode, StoreScope};
use futures::future::LocalBoxFuture;
use std::rc::Rc;

/// How long a store operation may take before the call goes on without it.
pub const STORE_TIMEOUT_MS: u64 = 1000;

fn store_error(operation: &str, error: &McpError) -> McpError {
    McpError::local(
        INTERNAL_ERROR,
        ErrorKind::CacheStore,
        format!(
            "The cache store's {operation} failed; the call went to the server: {}",
            error.message
        ),
        json!({ "operation": operation }),
    )
}

impl Engine {
    /// The cache, if the `cache` option left one.
    pub(super) fn cache(&self) -> Option<Rc<Cache>> {
        self.cache.borrow().clone()
    }

    /// Replaces the cache (`None`: no caching); the `cache` option's store and mode.
    pub fn use_cache(&self, cache: Option<Cache>) {
        *self.cache.borrow_mut() = cache.map(Rc::new);
    }

    /// How a call with `opts` uses the cache: its `cacheMode`, else the client's `cache.mode`.
    pub(super) fn cache_mode(&self, opts: &super::RequestOptions) -> CacheMode {
        let default = self.cache().map_or(CacheMode::Use, |c| c.mode);
        opts.cache_mode.unwrap_or(default)
    }

    /// Whose entries the store keys name for this session.
    fn store_scope(&self, app: &AppCache) -> StoreScope {
        let st = self.state.borrow();
        let info = st.server_info.as_ref();
        let text = |key: &str| {
            info.and_then(|i| i.get(key))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        StoreScope {
            partition: app.partition.clone(),
            url: self.transport().cache_scope_url(),
            server: StoreScope::identity(
                &text("name"),
                &text("version"),
                st.protocol_version.as_deref().unwrap_or(""),
            ),
        }
    }

    /// Who asks: the credential requests go with now, by its fingerprint.
    async fn asker(&self, app: &AppCache) -> Asker {
        let Some(credential) = self.transport().credential() else {
            return Asker::Anonymous;
        };
        if let Some((seen, asker)) = app.fingerprint.borrow().as_ref() {
            if *seen == credential {
                return asker.clone();
            }
        }
        let asker = match app.store.fingerprint(credential.expose()).await {
            Some(fp) => Asker::Credential(fp),
            None => Asker::Unrecognised,
        };
        *app.fingerprint.borrow_mut() = Some((credential, asker.clone()));
        asker
    }

    /// A fresh cached result of `method`'s page `key` the call may take (`mode`).
    pub(super) async fn cached(
        &self,
        method: &str,
        key: Option<&str>,
        mode: CacheMode,
    ) -> Option<Value> {
        let cache = self.cache()?;
        if !mode.reads() {
            return None;
        }
        let app = match &cache.place {
            Place::Memory(memory) => {
                return memory.borrow().get(method, key, self.host.now_ms());
            }
            Place::Store(app) => app,
        };
        let store_key = self.store_scope(app).key(method, key);
        let got = self.store_op("get", app.store.get(&store_key)).await??;
        let asker = self.asker(app).await;
        match cache_store::served(&got, self.host.now_ms(), &asker) {
            Ok(hit) => hit,
            Err(why) => {
                self.surface_error(store_error("get", &McpError::input(why)));
                None
            }
        }
    }

    /// Keeps `result` (of `method` asked with `params`, page `key`) when the rules and `mode`
    /// allow; the app's store saves it in the background.
    pub(super) fn keep_cached(
        &self,
        method: &str,
        key: Option<&str>,
        params: &Value,
        result: &Value,
        mode: CacheMode,
    ) {
        let Some(cache) = self.cache() else { return };
        if !mode.writes() {
            return;
        }
        let now = self.host.now_ms();
        let app = match &cache.place {
            Place::Memory(memory) => {
                memory.borrow_mut().put(method, key, params, result, now);
                return;
            }
            Place::Store(app) => app,
        };
        let Some((_, scope)) = storable(method, params, result) else {
            return;
        };
        let store_key = self.store_scope(app).key(method, key);
        let (method, params, result) = (method.to_string(), params.clone(), result.clone());
        let Some(me) = self.me.upgrade() else { return };
        self.host.spawn(Box::pin(async move {
            let Some(cache) = me.cache() else { return };
            let Place::Store(app) = &cache.place else {
                return;
            };
            let asker = me.asker(app).await;
            let auth = match asker.recorded() {
                Some(auth) => auth,
                None if scope == CacheScope::Public => None,
                None => return, // a private result of an unrecognised credential stays out
            };
            let made = cache_store::entry_for(&method, &params, &result, now, auth);
            if let Some((entry, ttl)) = made {
                me.store_op("set", app.store.set(&store_key, &entry, ttl))
                    .await;
            }
        }));
    }

    /// Drops what `notification` makes stale.
    pub(super) fn invalidate_cached(&self, notification: &str, params: &Value) {
        let Some(cache) = self.cache() else { return };
        if self.era() != Some(Era::Modern) {
            return; // only 2026 results are cached
        }
        match &cache.place {
            Place::Memory(memory) => memory
                .borrow_mut()
                .invalidate_for_notification(notification, params),
            Place::Store(app) => {
                let scope = self.store_scope(app);
                let (prefixes, keys) =
                    cache_store::stale_for_notification(&scope, notification, params);
                self.forget_in_store(prefixes, keys);
            }
        }
    }

    /// Drops every cached page of `method`.
    pub(super) fn drop_cached(&self, method: &str) {
        let Some(cache) = self.cache() else { return };
        if self.era() != Some(Era::Modern) {
            return; // only 2026 results are cached
        }
        match &cache.place {
            Place::Memory(memory) => memory.borrow_mut().drop_method(method),
            Place::Store(app) => {
                let prefix = self.store_scope(app).method_prefix(method);
                self.forget_in_store(vec![prefix], vec![]);
            }
        }
    }

    /// Clears `prefixes` and deletes `keys` in the app's store, in the background.
    fn forget_in_store(&self, prefixes: Vec<String>, keys: Vec<String>) {
        if prefixes.is_empty() && keys.is_empty() {
            return;
        }
        let Some(me) = self.me.upgrade() else { return };
        self.host.spawn(Box::pin(async move {
            let Some(cache) = me.cache() else { return };
            let Place::Store(app) = &cache.place else {
                return;
            };
            for prefix in &prefixes {
                me.store_op("clear", app.store.clear(prefix)).await;
            }
            for key in &keys {
                me.store_op("delete", app.store.delete(key)).await;
            }
        }));
    }

    /// Runs one store operation within [`STORE_TIMEOUT_MS`]; a failure or timeout goes to
    /// `surface_error` and is `None`.
    async fn store_op<T>(
        &self,
        operation: &str,
        work: LocalBoxFuture<'static, Result<T, McpError>>,
    ) -> Option<T> {
        let what = format!("the cache store's {operation}");
        let timer = self.host.sleep(STORE_TIMEOUT_MS);
        match within(timer, STORE_TIMEOUT_MS, &what, work).await {
            Ok(value) => Some(value),
            Err(error) => {
                self.surface_error(store_error(operation, &error));
                None
            }
        }
    }
}
