//! `JsAuthHost`: the authorization flow's I/O in JS hosts. Fetch (the `auth.fetch` option or
//! the global one) without following redirects, `globalThis.crypto` for randomness and
//! SHA-256, the application's storage object, and its `authorize` function. Request timers
//! of the engine pause while the authorization page is open: a person is signing in.

use super::outcome::{object, record, settled, Failure, FetchRead, FetchRequest, Outcome};
use crate::auth::errors::response_too_large;
use crate::auth::flow::{AuthHost, AuthRequest, AuthResponse, Authorized};
use crate::js::host::abort::new_controller;
use crate::js::host::abort::AbortOnDrop;
use crate::json::json;
use crate::json::Value;
use crate::protocol::error::{ErrorKind, McpError, AUTHORIZATION_FAILED, CONNECTION_CLOSED};
use crate::util::secret::Secret;
use futures::future::LocalBoxFuture;
use js_sys::{Function, Promise, Reflect, Uint8Array};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsValue;

/// Who hears that a person is signing in: `true` when the authorization page opens, `false`
/// when it closes (the engine's count of pending callbacks, or the lean module's through JS).
pub type UserWaits = Rc<dyn Fn(bool)>;

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
    /// Told `true` when the authorization page opens and `false` when it closes: the client's
    /// request timers pause in between (a person is signing in).
    pub waits: RefCell<Option<UserWaits>>,
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
    /// A window the app's click opened for the next authorization page (`signIn()`), if any.
    pub sign_in_window: RefCell<JsValue>,
    /// The `dpop` option is on.
    pub dpop_on: bool,
}

#[wasm_bindgen(module = "/src/js/auth/helpers.js")]
extern "C" {
    // Each settles with an outcome (`{ value }` or `{ failure }`: see outcome.rs).
    #[wasm_bindgen(js_name = importPem)]
    fn import_pem(pem: &JsValue, alg: &str) -> Promise;
    #[wasm_bindgen(js_name = signBytes)]
    fn sign_bytes(key: &JsValue, alg: &str, bytes: &Uint8Array) -> Promise;
    #[wasm_bindgen(js_name = dpopKeyPair)]
    fn dpop_key_pair(given: &JsValue, keep: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = publicJwkText)]
    fn public_jwk_text(pair: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = callApp)]
    fn call_app(kind: &str, f: &Function, argument: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = sha256)]
    fn web_sha256(bytes: &Uint8Array) -> Promise;
    #[wasm_bindgen(js_name = authFetch)]
    fn auth_fetch(fetch: &Function, request: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = storageCall)]
    fn storage_call(storage: &JsValue, op: &str, key: &str, value: Option<&str>) -> Promise;
    #[wasm_bindgen(js_name = randomBytes)]
    fn random_bytes(len: u32) -> Outcome;
    #[wasm_bindgen(js_name = storageKind)]
    pub fn storage_kind(storage: &JsValue) -> String;
}

/// An authorization error of `kind`: `what` failed, and why.
fn key_error(kind: ErrorKind, what: &str, failure: Failure) -> McpError {
    McpError::local(
        AUTHORIZATION_FAILED,
        kind,
        format!("{what}: {}", failure.message),
        Value::Null,
    )
}

/// The error of an `authorize` that failed: a blocked popup is `popup_blocked` with the
/// authorization URL to offer as a link; anything else did not complete (`unauthorized`).
fn authorize_failure(url: &str, f: Failure) -> McpError {
    if f.name.as_deref() == Some("PopupBlocked") {
        return crate::auth::errors::popup_blocked(url);
    }
    McpError::local(
        AUTHORIZATION_FAILED,
        ErrorKind::Unauthorized,
        format!("Authorization did not complete: {}", f.message),
        json!({ "reason": f.name }),
    )
}

/// `authFetch`'s request: `{ url, method, contentType, authorization, dpop, body, maxBytes }`.
fn fetch_request(r: &AuthRequest) -> JsValue {
    record(&FetchRequest {
        url: &r.url,
        method: r.method,
        content_type: r.content_type,
        authorization: r.authorization.as_ref().map(Secret::expose),
        dpop: r.dpop.as_deref(),
        body: r.body.as_ref().map(Secret::expose),
        max_bytes: r.max_bytes,
    })
}

/// Counts the authorization page as a pending callback while alive.
struct Waiting(Option<UserWaits>);

impl Waiting {
    /// Tells `waits` (if any) that the page opened; the drop tells it that it closed.
    fn start(waits: Option<UserWaits>) -> Waiting {
        if let Some(w) = &waits {
            w(true);
        }
        Waiting(waits)
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if let Some(w) = &self.0 {
            w(false);
        }
    }
}

impl JsAuthHost {
    /// The error of a fetch that got no usable answer from `url`.
    fn fetch_error(&self, url: &str, failure: Failure) -> McpError {
        let mut message = format!(
            "Could not reach {url} for authorization: {}",
            failure.message
        );
        let (code, kind) = if self.in_browser {
            message.push_str(". The browser hides why; most often that server sends no CORS headers. Route these requests through a same-origin proxy with the auth.fetch option");
            (AUTHORIZATION_FAILED, ErrorKind::AuthCors)
        } else {
            (CONNECTION_CLOSED, ErrorKind::Network)
        };
        McpError::local(code, kind, message, json!({ "url": url }))
    }

    /// The error of `authFetch`'s failure for `request`.
    fn fetch_failure(&self, request: &AuthRequest, failure: Failure) -> McpError {
        let (url, max_bytes) = (&request.url, request.max_bytes);
        match failure.kind.as_str() {
            "not_a_response" => McpError::input(failure.message),
            "too_large" => response_too_large(url, max_bytes, &failure.message),
            // "unreachable", "body": no answer to act on.
            _ => self.fetch_error(url, failure),
        }
    }

    async fn fetch_inner(&self, request: AuthRequest) -> Result<AuthResponse, McpError> {
        let read = settled(auth_fetch(&self.fetch, &fetch_request(&request)))
            .await
            .and_then(FetchRead::from_js)
            .map_err(|f| self.fetch_failure(&request, f))?;
        Ok(AuthResponse {
            status: read.status,
            body: read.body.unwrap_or_default(),
            dpop_nonce: read.dpop_nonce,
        })
    }

    async fn authorize_inner(
        &self,
        url: String,
        state: String,
        redirect_uri: String,
    ) -> Result<Authorized, McpError> {
        let guard = AbortOnDrop::new(new_controller()?);
        let _waiting = Waiting::start(self.waits.borrow().clone());
        let request = object(&[
            ("url", url.as_str().into()),
            ("state", state.as_str().into()),
            ("redirectUri", redirect_uri.as_str().into()),
            ("signal", guard.signal().into()),
            ("window", self.sign_in_window.take()),
        ]);
        let out = settled(call_app("authorize", &self.authorize, &request))
            .await
            .map_err(|f| authorize_failure(&url, f))?;
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

    /// The DPoP key pair: the given one, else one kept in (or made and kept in) the storage,
    /// on first use.
    async fn dpop_pair(&self) -> Result<JsValue, McpError> {
        if let Some(p) = self.dpop_pair.borrow().clone() {
            return Ok(p);
        }
        let given = self.dpop_given.clone().unwrap_or(JsValue::UNDEFINED);
        // Web Storage holds strings only; a storage of the app's own may hold objects.
        let keep = if storage_kind(&self.storage) == "web" {
            JsValue::UNDEFINED
        } else {
            object(&[
                ("storage", self.storage.clone()),
                ("key", self.dpop_storage_key.as_str().into()),
            ])
        };
        let pair = settled(dpop_key_pair(&given, &keep))
            .await
            .map_err(|f| key_error(ErrorKind::DpopError, "DPoP key", f))?;
        *self.dpop_pair.borrow_mut() = Some(pair.clone());
        Ok(pair)
    }

    /// The client's signing key (`grant.privateKey`); a PEM string is imported on first use.
    async fn client_key(&self) -> Result<JsValue, McpError> {
        let key = self
            .client_key
            .borrow()
            .clone()
            .ok_or_else(|| McpError::input("No grant.privateKey to sign with"))?;
        if !key.is_string() {
            return Ok(key);
        }
        // The PEM goes from JS to WebCrypto without being copied into wasm memory; then it is
        // dropped: from now on only the non-extractable CryptoKey is held.
        let key = settled(import_pem(&key, self.client_alg))
            .await
            .map_err(|f| key_error(ErrorKind::Input, "options.auth.grant.privateKey", f))?;
        *self.client_key.borrow_mut() = Some(key.clone());
        Ok(key)
    }

    /// `input` signed with the client's key (a client assertion).
    async fn sign_with_client_key(&self, input: Vec<u8>) -> Result<Vec<u8>, McpError> {
        let key = self.client_key().await?;
        signature(&key, self.client_alg, &input)
            .await
            .map_err(|f| key_error(ErrorKind::Input, "Signing the client assertion", f))
    }

    /// `input` signed with the DPoP key (ES256, a DPoP proof).
    async fn sign_with_dpop_key(&self, input: Vec<u8>) -> Result<Vec<u8>, McpError> {
        let pair = self.dpop_pair().await?;
        let key = Reflect::get(&pair, &"privateKey".into()).unwrap_or(JsValue::UNDEFINED);
        signature(&key, "ES256", &input)
            .await
            .map_err(|f| key_error(ErrorKind::DpopError, "Signing a DPoP proof", f))
    }

    /// `storage[op](key[, value])`, settled; a failure names `op`.
    async fn storage_call(
        &self,
        op: &str,
        key: &str,
        value: Option<&str>,
    ) -> Result<JsValue, McpError> {
        settled(storage_call(&self.storage, op, key, value))
            .await
            .map_err(|f| McpError::input(f.message))
    }
}

/// `input` signed with `key` by `alg` (JWS: raw r||s for ES256).
async fn signature(key: &JsValue, alg: &str, input: &[u8]) -> Result<Vec<u8>, Failure> {
    let sig = settled(sign_bytes(key, alg, &Uint8Array::from(input))).await?;
    Ok(Uint8Array::new(&sig).to_vec())
}

impl AuthHost for JsAuthHost {
    fn fetch(&self, request: AuthRequest) -> LocalBoxFuture<'_, Result<AuthResponse, McpError>> {
        Box::pin(self.fetch_inner(request))
    }

    fn now_ms(&self) -> u64 {
        js_sys::Date::now() as u64
    }

    fn random(&self, len: usize) -> Result<Vec<u8>, McpError> {
        let bytes = random_bytes(len as u32)
            .into_result()
            .map_err(|f| McpError::input(f.message))?;
        Ok(Uint8Array::new(&bytes).to_vec())
    }

    fn sha256(&self, data: Vec<u8>) -> LocalBoxFuture<'_, Result<[u8; 32], McpError>> {
        Box::pin(async move {
            let digest = settled(web_sha256(&Uint8Array::from(data.as_slice())))
                .await
                .map_err(|f| McpError::input(f.message))?;
            Uint8Array::new(&digest)
                .to_vec()
                .try_into()
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
        Box::pin(self.sign_with_client_key(input))
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
            let request = object(&[
                ("issuer", issuer.as_str().into()),
                ("resource", resource.as_deref().into()),
                ("scope", scope.as_deref().into()),
            ]);
            let out = settled(call_app("assertion", f, &request))
                .await
                .map_err(|f| {
                    key_error(
                        ErrorKind::AssertionError,
                        "The assertion callback failed",
                        f,
                    )
                })?;
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
            let pair = self.dpop_pair().await?;
            let text = settled(public_jwk_text(&pair))
                .await
                .map_err(|f| key_error(ErrorKind::DpopError, "Exporting the DPoP public key", f))?;
            crate::json::from_str(&text.as_string().unwrap_or_default())
                .map_err(|_| McpError::input("The DPoP public key did not export as a JWK"))
        })
    }

    fn sign_dpop(&self, input: Vec<u8>) -> LocalBoxFuture<'_, Result<Vec<u8>, McpError>> {
        Box::pin(self.sign_with_dpop_key(input))
    }
}
