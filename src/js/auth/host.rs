//! `JsAuthHost`: the authorization flow's I/O in JS hosts. Fetch (the `auth.fetch` option or
//! the global one) without following redirects, `globalThis.crypto` for randomness and
//! SHA-256, the application's storage object, and its `authorize` function. Request timers
//! of the engine pause while the authorization page is open: a person is signing in.

use crate::auth::flow::{AuthHost, AuthRequest, AuthResponse, Authorized};
use crate::auth::secret::Secret;
use crate::js::boundary::error::error_text;
use crate::js::host::abort::new_controller;
use crate::js::host::abort::AbortOnDrop;
use crate::json::json;
use crate::json::Value;
use crate::protocol::error::{ErrorKind, McpError, AUTHORIZATION_FAILED, CONNECTION_CLOSED};
use futures::future::LocalBoxFuture;
use js_sys::{Array, Function, Promise, Reflect, Uint8Array};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The JS side of the flow.
pub struct JsAuthHost {
    /// `auth.fetch`, else the global `fetch`.
    pub fetch: Function,
    /// `auth.storage`: `{ get, set, delete }`, sync or async.
    pub storage: JsValue,
    /// `auth.authorize`.
    pub authorize: Function,
    /// True in a browser page or worker (a failed fetch is most likely CORS).
    pub in_browser: bool,
    /// The engine's count of pending callbacks (timers pause while it is above zero).
    pub waits: RefCell<Option<Rc<Cell<u32>>>>,
    /// `grant.privateKey`: a `CryptoKey`, or a PEM string imported on first use.
    pub client_key: RefCell<Option<JsValue>>,
    /// Its algorithm (`ES256` or `RS256`).
    pub client_alg: &'static str,
    /// `grant.assertion` (a function).
    pub assertion: Option<Function>,
    /// `dpop.keyPair`, if the application gave one.
    pub dpop_given: Option<JsValue>,
    /// The DPoP key pair in use.
    pub dpop_pair: RefCell<Option<JsValue>>,
    /// Where the DPoP key pair is kept in `storage` (only storages that hold objects).
    pub dpop_storage_key: String,
    /// A client secret or private key was configured in a page (a public client).
    pub confidential_in_page: bool,
    /// The `dpop` option is on.
    pub dpop_on: bool,
}

#[wasm_bindgen(module = "/src/js/auth/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = importPem, catch)]
    fn import_pem(pem: &JsValue, alg: &str) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_name = signBytes, catch)]
    fn sign_bytes(key: &JsValue, alg: &str, bytes: &Uint8Array) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_name = dpopKeyPair, catch)]
    fn dpop_key_pair(
        given: &JsValue,
        storage: &JsValue,
        name: &str,
        persist: bool,
    ) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_name = publicJwkText, catch)]
    fn public_jwk_text(pair: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_name = callAuthorize)]
    fn call_authorize(
        f: &Function,
        url: &str,
        state: &str,
        redirect_uri: &str,
        signal: &JsValue,
    ) -> Promise;
    #[wasm_bindgen(js_name = callAssertion)]
    fn call_assertion(
        f: &Function,
        issuer: &str,
        resource: Option<&str>,
        scope: Option<&str>,
    ) -> Promise;
    #[wasm_bindgen(js_name = sha256)]
    fn web_sha256(bytes: &Uint8Array) -> Promise;
    #[wasm_bindgen(js_name = authFetch, catch)]
    fn auth_fetch(
        fetch: &Function,
        url: &str,
        method: &str,
        content_type: Option<&str>,
        authorization: Option<&str>,
        dpop: Option<&str>,
        body: Option<&str>,
    ) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_name = storageCall, catch)]
    fn storage_call(
        storage: &JsValue,
        op: &str,
        key: &str,
        value: Option<&str>,
    ) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_name = randomBytes, catch)]
    fn random_bytes(len: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = storageKind)]
    pub fn storage_kind(storage: &JsValue) -> String;
}

fn key_error(kind: ErrorKind, what: &str, e: &JsValue) -> McpError {
    McpError::local(
        AUTHORIZATION_FAILED,
        kind,
        format!("{what}: {}", error_text(e)),
        Value::Null,
    )
}

/// What a call returned, settled: its error, or the value (a promise's outcome).
async fn settle(v: Result<JsValue, JsValue>) -> Result<JsValue, JsValue> {
    JsFuture::from(Promise::resolve(&v?)).await
}

/// A helper's promise, settled.
async fn call_promise(p: Result<Promise, JsValue>) -> Result<JsValue, JsValue> {
    settle(p.map(JsValue::from)).await
}

fn crypto_missing() -> McpError {
    McpError::input("globalThis.crypto is missing: authorization needs Web Crypto")
}

fn storage_error(op: &str, e: &JsValue) -> McpError {
    McpError::input(format!("auth.storage.{op} failed: {}", error_text(e)))
}

/// Counts the authorization page as a pending callback while alive.
struct Waiting(Option<Rc<Cell<u32>>>);

impl Drop for Waiting {
    fn drop(&mut self) {
        if let Some(c) = &self.0 {
            c.set(c.get().saturating_sub(1));
        }
    }
}

impl JsAuthHost {
    fn fetch_error(&self, url: &str, e: &JsValue) -> McpError {
        let mut message = format!("Could not reach {url} for authorization: {}", error_text(e));
        let (code, kind) = if self.in_browser {
            message.push_str(". The browser hides why; most often that server sends no CORS headers. Route these requests through a same-origin proxy with the auth.fetch option");
            (AUTHORIZATION_FAILED, ErrorKind::AuthCors)
        } else {
            (CONNECTION_CLOSED, ErrorKind::Network)
        };
        McpError::local(code, kind, message, json!({ "url": url }))
    }

    async fn fetch_inner(&self, request: AuthRequest) -> Result<AuthResponse, McpError> {
        let AuthRequest {
            method,
            url,
            content_type,
            body,
            authorization,
            max_bytes,
            dpop,
        } = request;
        let read = call_promise(auth_fetch(
            &self.fetch,
            &url,
            method,
            content_type,
            authorization.as_ref().map(Secret::expose),
            dpop.as_deref(),
            body.as_ref().map(Secret::expose),
        ))
        .await
        .map_err(|e| match e.dyn_ref::<Array>() {
            Some(a) => self.fetch_error(&url, &a.get(0)),
            None => McpError::input("auth.fetch must resolve with a Response"),
        })?;
        let read: Array = read.unchecked_into();
        let status = read.get(0).as_f64().unwrap_or_default() as u16;
        let body = read.get(1).as_string().unwrap_or_default();
        let dpop_nonce = read.get(2).as_string();
        if body.len() > max_bytes {
            return Err(McpError::local(
                AUTHORIZATION_FAILED,
                ErrorKind::AuthMetadata,
                format!("The response of {url} is larger than {max_bytes} bytes"),
                json!({ "url": url }),
            ));
        }
        Ok(AuthResponse {
            status,
            body,
            dpop_nonce,
        })
    }

    async fn authorize_inner(
        &self,
        url: String,
        state: String,
        redirect_uri: String,
    ) -> Result<Authorized, McpError> {
        let guard = AbortOnDrop::new(new_controller()?);
        let waits = self.waits.borrow().clone();
        if let Some(c) = &waits {
            c.set(c.get() + 1);
        }
        let _waiting = Waiting(waits);
        let refused = |e: &JsValue| {
            McpError::local(
                AUTHORIZATION_FAILED,
                ErrorKind::Unauthorized,
                format!("Authorization did not complete: {}", error_text(e)),
                json!({ "reason": Reflect::get(e, &"name".into()).ok().and_then(|n| n.as_string()) }),
            )
        };
        let out = JsFuture::from(call_authorize(
            &self.authorize,
            &url,
            &state,
            &redirect_uri,
            &guard.signal().into(),
        ))
        .await
        .map_err(|e| refused(&e))?;
        guard.disarm();
        match crate::js::boundary::options::url_text(&out) {
            Some(s) if s == "redirected" => Ok(Authorized::Redirected),
            Some(s) if !s.is_empty() => Ok(Authorized::Callback(s)),
            _ => Err(McpError::input(
                "auth.authorize must resolve with the callback URL or \"redirected\"",
            )),
        }
    }

    /// True when a made DPoP key cannot outlive this client (Web Storage holds strings only).
    pub fn dpop_key_is_ephemeral(&self) -> bool {
        self.dpop_on && self.dpop_given.is_none() && storage_kind(&self.storage) == "web"
    }

    /// Signs `input` with the DPoP key (`dpop`: ES256) or the client's key; a failure is an
    /// error naming which.
    async fn sign(&self, dpop: bool, input: Vec<u8>) -> Result<Vec<u8>, McpError> {
        let key = self.key(dpop).await?;
        let (key, alg, kind, what) = if dpop {
            (
                Reflect::get(&key, &"privateKey".into()).unwrap_or(JsValue::UNDEFINED),
                "ES256",
                ErrorKind::DpopError,
                "Signing a DPoP proof",
            )
        } else {
            (
                key,
                self.client_alg,
                ErrorKind::Input,
                "Signing the client assertion",
            )
        };
        let sig = call_promise(sign_bytes(&key, alg, &Uint8Array::from(&input[..])))
            .await
            .map_err(|e| key_error(kind, what, &e))?;
        Ok(Uint8Array::new(&sig).to_vec())
    }

    /// The DPoP key pair (`dpop`), or the client's signing key, made or imported on first
    /// use (one await for both).
    async fn key(&self, dpop: bool) -> Result<JsValue, McpError> {
        let (cell, made, kind, what) = if dpop {
            if let Some(p) = self.dpop_pair.borrow().clone() {
                return Ok(p);
            }
            // Web Storage holds strings only; a storage of the app's own may hold objects.
            let persist = storage_kind(&self.storage) != "web";
            let given = self.dpop_given.clone().unwrap_or(JsValue::UNDEFINED);
            (
                &self.dpop_pair,
                dpop_key_pair(&given, &self.storage, &self.dpop_storage_key, persist),
                ErrorKind::DpopError,
                "DPoP key",
            )
        } else {
            let key = self
                .client_key
                .borrow()
                .clone()
                .ok_or_else(|| McpError::input("No grant.privateKey to sign with"))?;
            if !key.is_string() {
                return Ok(key);
            }
            // The PEM goes from JS to WebCrypto without being copied into wasm memory; then
            // it is dropped: from now on only the non-extractable CryptoKey is held.
            (
                &self.client_key,
                import_pem(&key, self.client_alg),
                ErrorKind::Input,
                "options.auth.grant.privateKey",
            )
        };
        let made = call_promise(made)
            .await
            .map_err(|e| key_error(kind, what, &e))?;
        *cell.borrow_mut() = Some(made.clone());
        Ok(made)
    }

    /// `storage[op](...args)`, settled; a failure names `op`.
    async fn storage_call(
        &self,
        op: &str,
        key: &str,
        value: Option<&str>,
    ) -> Result<JsValue, McpError> {
        call_promise(storage_call(&self.storage, op, key, value))
            .await
            .map_err(|e| match e.dyn_ref::<Array>() {
                Some(a) => storage_error(op, &a.get(0)),
                None => McpError::input(format!("auth.storage.{op} is not a function")),
            })
    }
}

impl AuthHost for JsAuthHost {
    fn fetch(&self, request: AuthRequest) -> LocalBoxFuture<'_, Result<AuthResponse, McpError>> {
        Box::pin(self.fetch_inner(request))
    }

    fn now_ms(&self) -> u64 {
        js_sys::Date::now() as u64
    }

    fn random(&self, len: usize) -> Result<Vec<u8>, McpError> {
        let v = random_bytes(len as u32).map_err(|e| {
            McpError::input(format!("crypto.getRandomValues failed: {}", error_text(&e)))
        })?;
        match v.as_f64() {
            Some(1.0) => Err(crypto_missing()),
            Some(_) => Err(McpError::input("crypto.getRandomValues is missing")),
            None => Ok(Uint8Array::new(&v).to_vec()),
        }
    }

    fn sha256(&self, data: Vec<u8>) -> LocalBoxFuture<'_, Result<[u8; 32], McpError>> {
        Box::pin(async move {
            let buf = JsFuture::from(web_sha256(&Uint8Array::from(data.as_slice())))
                .await
                .map_err(|e| McpError::input(format!("SHA-256 failed: {}", error_text(&e))))?;
            match buf.as_f64() {
                Some(1.0) => return Err(crypto_missing()),
                Some(_) => return Err(McpError::input("crypto.subtle is unavailable: pages must be a secure context (https, or http on localhost) to sign in")),
                None => {}
            }
            let v = Uint8Array::new(&buf).to_vec();
            v.try_into()
                .map_err(|_| McpError::input("SHA-256 gave other than 32 bytes"))
        })
    }

    fn load(&self, key: String) -> LocalBoxFuture<'_, Result<Option<String>, McpError>> {
        Box::pin(async move { Ok(self.storage_call("get", &key, None).await?.as_string()) })
    }

    fn save(&self, key: String, value: Option<String>) -> LocalBoxFuture<'_, Result<(), McpError>> {
        Box::pin(async move {
            let op = if value.is_some() { "set" } else { "delete" };
            self.storage_call(op, &key, value.as_deref()).await?;
            Ok(())
        })
    }

    fn authorize(
        &self,
        url: String,
        state: String,
        redirect_uri: String,
    ) -> LocalBoxFuture<'_, Result<Authorized, McpError>> {
        Box::pin(self.authorize_inner(url, state, redirect_uri))
    }

    fn sign_client(&self, input: Vec<u8>) -> LocalBoxFuture<'_, Result<Vec<u8>, McpError>> {
        Box::pin(self.sign(false, input))
    }

    fn assertion(
        &self,
        issuer: String,
        resource: Option<String>,
        scope: Option<String>,
    ) -> LocalBoxFuture<'_, Result<Secret, McpError>> {
        Box::pin(async move {
            let f = self
                .assertion
                .as_ref()
                .ok_or_else(|| McpError::input("options.auth.grant.assertion is missing"))?;
            let failed = |e: &JsValue| {
                key_error(
                    ErrorKind::AssertionError,
                    "The assertion callback failed",
                    e,
                )
            };
            let out = JsFuture::from(call_assertion(
                f,
                &issuer,
                resource.as_deref(),
                scope.as_deref(),
            ))
            .await
            .map_err(|e| failed(&e))?;
            match out.as_string().filter(|s| !s.is_empty()) {
                Some(a) => Ok(Secret::new(a)),
                None => Err(McpError::local(
                    AUTHORIZATION_FAILED,
                    ErrorKind::AssertionError,
                    "The assertion callback must resolve with the assertion (a JWT string)",
                    Value::Null,
                )),
            }
        })
    }

    fn dpop_public_jwk(&self) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        Box::pin(async move {
            let pair = self.key(true).await?;
            let text = call_promise(public_jwk_text(&pair)).await.map_err(|e| {
                key_error(ErrorKind::DpopError, "Exporting the DPoP public key", &e)
            })?;
            crate::json::from_str(&text.as_string().unwrap_or_default())
                .map_err(|_| McpError::input("The DPoP public key did not export as a JWK"))
        })
    }

    fn sign_dpop(&self, input: Vec<u8>) -> LocalBoxFuture<'_, Result<Vec<u8>, McpError>> {
        Box::pin(self.sign(true, input))
    }
}
