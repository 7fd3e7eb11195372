//! `Client` in a build without the `auth` feature (the npm package's `mcp-wasm-client/core`):
//! the API stays the same, and what needs authorization says where to find it. (The default
//! entry's lean module is this build too; there the facade, client.js, answers these methods as
//! the full module does for a client without `auth`.) The `auth`
//! option is refused; `finishAuthorization`, `signIn` and `signOut` reject; `authorization` is `null`.

use super::client::Client;
use crate::js::boundary::error as jserr;
use crate::js::boundary::options::{self, Reader};
use crate::js::host::auth_part::{AuthorizationPart, BRAND};
use crate::protocol::error::McpError;
use js_sys::Promise;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The error for `what`, which needs authorization: an `input` error naming the full entry.
fn needs_full_entry(what: &str) -> McpError {
    McpError::input(format!(
        "{what} needs authorization, which mcp-wasm-client/core leaves out: import from mcp-wasm-client (the full entry) instead"
    ))
}

/// Keeps the error for an `auth` option in `r` (undefined and null are no option; the default
/// entry's authorization part is read by `read_option` first).
pub(super) fn refuse_option(r: &mut Reader, options: &JsValue) {
    if options::present(options, "auth") {
        r.fail(needs_full_entry("options.auth"));
    }
}

/// The part given as `options.auth`, or `None`; any other `auth` option is refused (kept in
/// `r`): this build cannot sign in.
pub(super) fn read_option(r: &mut Reader, options: &JsValue) -> Option<AuthorizationPart> {
    if !options::present(options, "auth") {
        return None;
    }
    let auth = options::get(options, "auth");
    let branded = auth.is_object()
        && Reflect::get(&auth, &js_sys::Symbol::for_(BRAND))
            .ok()
            .is_some_and(|b| b.is_truthy());
    if branded {
        return Some(auth.unchecked_into());
    }
    refuse_option(r, options);
    None
}

#[wasm_bindgen(js_class = ClientCore)]
impl Client {
    /// `finishAuthorization(callbackUrl)`: the authorization part's, else rejects (no
    /// authorization in this build).
    #[wasm_bindgen(js_name = finishAuthorization)]
    pub fn finish_authorization(&self, callback: JsValue) -> Promise {
        match &self.part {
            Some(part) => part.finish(callback),
            None => Promise::reject(&jserr::to_js(needs_full_entry("finishAuthorization"))),
        }
    }

    /// The authorization part's status, else `null`: a client of this build alone never signs in.
    #[wasm_bindgen(getter)]
    pub fn authorization(&self) -> JsValue {
        self.part.as_ref().map_or(JsValue::NULL, |p| p.status())
    }

    /// The facade's `signIn()`: the window goes to the authorization part, else throws (no
    /// authorization in this build).
    #[wasm_bindgen(js_name = __useSignInWindow)]
    pub fn use_sign_in_window(&self, window: JsValue) -> Result<(), JsValue> {
        match &self.part {
            Some(part) => {
                part.use_sign_in_window(window);
                Ok(())
            }
            None => Err(jserr::to_js(needs_full_entry("signIn"))),
        }
    }

    /// The authorization part's `waiting(open)`: the authorization page opened (true) or
    /// closed; request timers pause while one is open (a person is signing in).
    #[wasm_bindgen(js_name = __userWait)]
    pub fn user_wait(&self, open: bool) {
        self.engine.user_wait(open);
    }

    /// `signOut(options)`: the authorization part's, else rejects (no authorization in this
    /// build).
    #[wasm_bindgen(js_name = signOut)]
    pub fn sign_out(&self, options: JsValue) -> Promise {
        match &self.part {
            Some(part) => part.sign_out(options),
            None => Promise::reject(&jserr::to_js(needs_full_entry("signOut"))),
        }
    }
}
