//! The `cache` option: `false` (no cache), `true` or absent (this client's memory), or
//! `{ store, partition, mode }`; and the app's `store` (any object with async `get(key)`,
//! `set(key, entry, ttlMs)`, `delete(key)`, `clear(prefix?)`, such as the package's
//! `memoryCacheStore()` and `indexedDbCacheStore()`) as the engine's [`CacheStore`].

use crate::engine::cache::{AppCache, Cache, CacheStore, Place};
use crate::js::boundary::error::error_text;
use crate::js::boundary::interop;
use crate::js::boundary::options::Reader;
use crate::json::Value;
use crate::protocol::error::McpError;
use futures::future::LocalBoxFuture;
use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// True unless the `cache` option is `false` (an object or `true` keep a cache).
pub fn enabled(r: &mut Reader, options: &JsValue) -> bool {
    match r.value(options, "cache") {
        None => true,
        Some(v) => v
            .as_bool()
            .unwrap_or_else(|| r.checked_object(options, "cache").is_some()),
    }
}

/// The cache an object `cache` option asks for (`None`: the option is absent or a boolean,
/// or an error was kept in `r`). `new Client` (client.js) checked its keys and that its
/// `store` has the methods.
pub fn read(r: &mut Reader, options: &JsValue) -> Option<Cache> {
    let v = r.value(options, "cache").filter(|v| v.is_object())?;
    let mut inner = Reader::new("options.cache");
    let partition = inner.string(&v, "partition").unwrap_or_default();
    let mode = inner.cache_mode(&v, "mode").unwrap_or_default();
    let store = inner.value(&v, "store");
    if let Err(e) = inner.check() {
        r.fail(e);
        return None;
    }
    let place = match store {
        Some(store) => Place::Store(AppCache::new(
            Rc::new(JsCacheStore {
                store: store.unchecked_into(),
            }),
            partition,
        )),
        None => Cache::memory().place,
    };
    Some(Cache { place, mode })
}

/// The app's store object.
struct JsCacheStore {
    store: Object,
}

impl JsCacheStore {
    /// Calls `store[method](...args)`: a promise, a value, or what it threw.
    fn call(
        &self,
        method: &str,
        args: &[JsValue],
    ) -> LocalBoxFuture<'static, Result<JsValue, McpError>> {
        let started = Reflect::get(&self.store, &method.into())
            .and_then(|f| f.dyn_into::<Function>())
            .and_then(|f| f.apply(&self.store, &args.iter().collect::<Array>()));
        Box::pin(async move {
            let value = started.map_err(|e| McpError::input(error_text(&e)))?;
            JsFuture::from(Promise::resolve(&value))
                .await
                .map_err(|e| McpError::input(error_text(&e)))
        })
    }

    /// Calls `method` for its effect only.
    fn run(&self, method: &str, args: &[JsValue]) -> LocalBoxFuture<'static, Result<(), McpError>> {
        let call = self.call(method, args);
        Box::pin(async move { call.await.map(drop) })
    }
}

impl CacheStore for JsCacheStore {
    fn get(&self, key: &str) -> LocalBoxFuture<'static, Result<Option<Value>, McpError>> {
        let call = self.call("get", &[key.into()]);
        Box::pin(async move {
            let value = call.await?;
            if value.is_null_or_undefined() {
                return Ok(None);
            }
            interop::from_js(&value)
                .map(Some)
                .map_err(|e| McpError::input(format!("get answered something unusable: {e}")))
        })
    }

    fn set(
        &self,
        key: &str,
        entry: &Value,
        ttl_ms: f64,
    ) -> LocalBoxFuture<'static, Result<(), McpError>> {
        self.run("set", &[key.into(), interop::to_js(entry), ttl_ms.into()])
    }

    fn delete(&self, key: &str) -> LocalBoxFuture<'static, Result<(), McpError>> {
        self.run("delete", &[key.into()])
    }

    fn clear(&self, prefix: &str) -> LocalBoxFuture<'static, Result<(), McpError>> {
        self.run("clear", &[prefix.into()])
    }

    /// SHA-256 of the credential through the host's WebCrypto (`crypto.subtle`), as hex.
    fn fingerprint(&self, credential: &str) -> LocalBoxFuture<'static, Option<String>> {
        let started = (|| {
            let crypto = Reflect::get(&js_sys::global(), &"crypto".into()).ok()?;
            let subtle = Reflect::get(&crypto, &"subtle".into()).ok()?;
            let digest: Function = Reflect::get(&subtle, &"digest".into())
                .ok()?
                .dyn_into()
                .ok()?;
            let bytes = Uint8Array::from(credential.as_bytes());
            let digested = digest.call2(&subtle, &"SHA-256".into(), &bytes).ok()?;
            Some(JsFuture::from(Promise::resolve(&digested)))
        })();
        Box::pin(async move {
            let buffer = started?.await.ok()?;
            let bytes = Uint8Array::new(&buffer).to_vec();
            Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
        })
    }
}
