//! `Client`'s authorization (the `auth` feature): the `auth` option read into the flow, and the
//! sign-in methods (`finishAuthorization`, `authorization`, `signOut`). A build without the
//! feature has `without_auth` in its place.

use super::client::Client;
use crate::auth::flow::SignOut;
use crate::engine::Engine;
use crate::js::api::settle::promise_for;
use crate::js::auth::JsAuthorizer;
use crate::js::boundary::interop;
use crate::js::boundary::options::{self, Reader};
use crate::js::http::fetch::Http;
use crate::json::json;
use crate::protocol::error::McpError;
use js_sys::Promise;
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The flow for `options.auth` over `http`, or `None` when the option is absent or (the error
/// kept in `r`) wrong.
pub(super) fn read_option(
    r: &mut Reader,
    options: &JsValue,
    http: &Http,
) -> Option<Rc<JsAuthorizer>> {
    crate::js::auth::options::read(
        r,
        options,
        &http.url,
        http.fetch_function(),
        http.in_browser,
    )
}

/// Joins the flow to the client's engine (time a person spends signing in does not count
/// against request timeouts) and tells `messageHandler` about options that work but are unwise.
pub(super) fn attach(engine: &Engine, auth: &JsAuthorizer) {
    *auth.host().waits.borrow_mut() = Some(engine.user_waits());
    if auth.host().dpop_key_is_ephemeral() {
        engine.surface_error(McpError::warning(
            "options.auth.dpop with webStorage(): Web Storage cannot hold the DPoP key (a CryptoKey), so each new client makes a new key and stored tokens bound to the old one are refused; use indexedDbStorage(name) or pass dpop: { keyPair }",
        ));
    }
    if auth.host().confidential_in_page {
        engine.surface_error(McpError::warning(
            "options.auth.grant holds a client secret or private key in a web page, where anyone who loads the page can read it: a browser app is a public client (use the authorization-code flow; keep confidential grants on a server or worker you control)",
        ));
    }
}

#[wasm_bindgen(js_class = ClientCore)]
impl Client {
    /// `finishAuthorization(callbackUrl)`: redirect mode, on the callback page: checks the
    /// callback against the pending authorization (stored) and redeems its code.
    #[wasm_bindgen(js_name = finishAuthorization, unchecked_return_type = "Promise<void>")]
    pub fn finish_authorization(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | URL")] callback: JsValue,
    ) -> Promise {
        let ready = self.auth_flow("finishAuthorization").and_then(|auth| {
            let url = options::url_text(&callback)
                .filter(|s| !s.is_empty())
                .ok_or_else(|| {
                    McpError::input("finishAuthorization: callbackUrl must be a string or a URL")
                })?;
            Ok((auth, url))
        });
        settle(ready, |(auth, url)| async move { auth.finish(&url).await })
    }

    /// `{ issuer, scope, expiresAt }` while signed in, else `null`; never a token.
    #[wasm_bindgen(getter, unchecked_return_type = "AuthorizationStatus | null")]
    pub fn authorization(&self) -> JsValue {
        match self.auth.as_ref().and_then(|a| a.status()) {
            Some(s) => interop::to_js(&json!({
                "issuer": s.issuer,
                "scope": s.scope,
                "expiresAt": s.expires_at_ms,
            })),
            None => JsValue::NULL,
        }
    }

    /// The facade's `signIn()`: `window` (opened in the app's click, or null to forget it)
    /// shows the next authorization page instead of a popup opened after an await.
    #[wasm_bindgen(js_name = __useSignInWindow)]
    pub fn use_sign_in_window(&self, window: JsValue) -> Result<(), JsValue> {
        let auth = self
            .auth_flow("signIn")
            .map_err(crate::js::boundary::error::to_js)?;
        *auth.host().sign_in_window.borrow_mut() = window;
        Ok(())
    }

    /// `signOut({ all })`: forgets the tokens (with `all`, the client registrations too).
    #[wasm_bindgen(js_name = signOut, unchecked_return_type = "Promise<void>")]
    pub fn sign_out(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ all?: boolean }")] options: JsValue,
    ) -> Promise {
        let ready = self.auth_flow("signOut").and_then(|auth| {
            let object = options.is_object() && !js_sys::Array::is_array(&options);
            if !(options.is_null_or_undefined() || object) {
                return Err(McpError::input("signOut: options must be an object"));
            }
            let all = options::boolean(&options, "all", "signOut options")?.unwrap_or(false);
            let what = if all {
                SignOut::Everything
            } else {
                SignOut::Tokens
            };
            Ok((auth, what))
        });
        settle(
            ready,
            |(auth, what)| async move { auth.sign_out(what).await },
        )
    }
}

impl Client {
    /// The flow, or the error for `what` called on a client without the `auth` option.
    fn auth_flow(&self, what: &str) -> Result<Rc<JsAuthorizer>, McpError> {
        self.auth.clone().ok_or_else(|| {
            McpError::input(format!(
                "{what} needs the auth option of new Client(url, {{ auth }})"
            ))
        })
    }
}

/// A sign-in method's promise: rejected at once with an argument error, else resolved with
/// `undefined` when `run`'s future succeeds.
fn settle<A, F>(ready: Result<A, McpError>, run: impl FnOnce(A) -> F) -> Promise
where
    F: Future<Output = Result<(), McpError>> + 'static,
{
    promise_for(ready, |args| {
        let done = run(args);
        async move { done.await.map(|()| JsValue::UNDEFINED) }
    })
}
