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
        match &cache.place {
            Place::Memory(memory) => memory.borrow().get(method, key, self.host.now_ms()),
            Place::Store(_) => match crate::parts::cache_store::get().await {
                Ok(part) => part.cached(self, method, key).await,
                Err(e) => {
                    self.surface_error(e);
                    None
                }
            },
        }
    }

    /// [`Self::cached`] from the app's store (the cache-store part's).
    pub(crate) async fn cached_in_store(&self, method: &str, key: Option<&str>) -> Option<Value> {
        let cache = self.cache()?;
        let Place::Store(app) = &cache.place else {
            return None;
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
        match &cache.place {
            Place::Memory(memory) => {
                memory.borrow_mut().put(method, key, params, result, now);
            }
            Place::Store(_) => {
                let Some(me) = self.me.upgrade() else { return };
                let (method, key) = (method.to_string(), key.map(str::to_string));
                let (params, result) = (params.clone(), result.clone());
                self.host.spawn(Box::pin(async move {
                    match crate::parts::cache_store::get().await {
                        Ok(part) => {
                            part.keep(&me, &method, key.as_deref(), &params, &result, now)
                                .await
                        }
                        Err(e) => me.surface_error(e),
                    }
                }));
            }
        }
    }

    /// [`Self::keep_cached`] in the app's store (the cache-store part's): saved when the
    /// rules allow and the credential is one the store recognises (or the result is public).
    pub(crate) async fn keep_in_store(
        &self,
        method: &str,
        key: Option<&str>,
        params: &Value,
        result: &Value,
        now: f64,
    ) {
        let Some(cache) = self.cache() else { return };
        let Place::Store(app) = &cache.place else {
            return;
        };
        let Some((_, scope)) = storable(method, params, result) else {
            return;
        };
        let store_key = self.store_scope(app).key(method, key);
        let asker = self.asker(app).await;
        let auth = match asker.recorded() {
            Some(auth) => auth,
            None if scope == CacheScope::Public => None,
            None => return, // a private result of an unrecognised credential stays out
        };
        if let Some((entry, ttl)) = cache_store::entry_for(method, params, result, now, auth) {
            self.store_op("set", app.store.set(&store_key, &entry, ttl))
                .await;
        }
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
            Place::Store(_) => {
                let Some(me) = self.me.upgrade() else { return };
                let (notification, params) = (notification.to_string(), params.clone());
                self.host.spawn(Box::pin(async move {
                    match crate::parts::cache_store::get().await {
                        Ok(part) => part.invalidate(&me, &notification, &params).await,
                        Err(e) => me.surface_error(e),
                    }
                }));
            }
        }
    }

    /// [`Self::invalidate_cached`] in the app's store (the cache-store part's).
    pub(crate) async fn invalidate_in_store(&self, notification: &str, params: &Value) {
        let Some(cache) = self.cache() else { return };
        let Place::Store(app) = &cache.place else {
            return;
        };
        let scope = self.store_scope(app);
        let (prefixes, keys) = cache_store::stale_for_notification(&scope, notification, params);
        self.forget_in_store(app, &prefixes, &keys).await;
    }

    /// Drops every cached page of `method`.
    pub(super) fn drop_cached(&self, method: &str) {
        let Some(cache) = self.cache() else { return };
        if self.era() != Some(Era::Modern) {
            return; // only 2026 results are cached
        }
        match &cache.place {
            Place::Memory(memory) => memory.borrow_mut().drop_method(method),
            Place::Store(_) => {
                let Some(me) = self.me.upgrade() else { return };
                let method = method.to_string();
                self.host.spawn(Box::pin(async move {
                    match crate::parts::cache_store::get().await {
                        Ok(part) => part.drop_method(&me, &method).await,
                        Err(e) => me.surface_error(e),
                    }
                }));
            }
        }
    }

    /// [`Self::drop_cached`] in the app's store (the cache-store part's).
    pub(crate) async fn drop_in_store(&self, method: &str) {
        let Some(cache) = self.cache() else { return };
        let Place::Store(app) = &cache.place else {
            return;
        };
        let prefix = self.store_scope(app).method_prefix(method);
        self.forget_in_store(app, &[prefix], &[]).await;
    }

    /// Clears `prefixes` and deletes `keys` in the app's store.
    async fn forget_in_store(&self, app: &AppCache, prefixes: &[String], keys: &[String]) {
        for prefix in prefixes {
            self.store_op("clear", app.store.clear(prefix)).await;
        }
        for key in keys {
            self.store_op("delete", app.store.delete(key)).await;
        }
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
