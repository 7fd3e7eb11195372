//! The lean module's authorization (a build without the `auth` feature: the default entry's lean
//! module). This build has no authorization flow; a client of the default entry with `auth` and
//! a stored token is made here all the same, its `auth` option replaced by an
//! [`AuthorizationPart`] (`pkg-template/auth-part.js`; `api::without_auth` reads it): the part
//! attaches the stored token while it is fresh, and hands everything else (a refusal, a refresh,
//! signing in or out) to the full module's flow (`api::authorization_part`), which it loads
//! then. Here the part is a [`Flow`] behind the same seam as the full module's, so HTTP sends
//! requests the same way.

use crate::auth::seam::{Authorize, Credentials, Flow, Refusal, Request, Ticket};
use crate::js::boundary::error::from_js;
use crate::js::boundary::options;
use crate::js::host::challenges;
use crate::protocol::error::McpError;
use crate::util::secret::Secret;
use futures::future::LocalBoxFuture;
use js_sys::Promise;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The brand of a part (`Symbol.for`): what tells it from an `auth` option given by hand.
pub const BRAND: &str = "mcp-wasm-client.authorizationPart";

#[wasm_bindgen]
extern "C" {
    /// A lean client's authorization part (`pkg-template/auth-part.js`'s `AuthorizationPart`).
    #[wasm_bindgen(typescript_type = "unknown")]
    #[derive(Clone, Debug)]
    pub type AuthorizationPart;

    /// Resolves with `{ op, authorization, dpop, generation }` for the next attempt.
    #[wasm_bindgen(method, js_name = beforeRequest)]
    fn before_request(this: &AuthorizationPart, op: u32, method: &str, url: &str) -> Promise;

    /// The server took the attempt sent with this ticket.
    #[wasm_bindgen(method)]
    fn accepted(
        this: &AuthorizationPart,
        generation: f64,
        authorization: Option<String>,
        url: &str,
        dpop_nonce: Option<String>,
    );

    /// Recovers from a refusal of the attempt sent with this ticket; resolves with the
    /// operation's number (send again).
    #[wasm_bindgen(method)]
    #[allow(clippy::too_many_arguments)]
    fn recover(
        this: &AuthorizationPart,
        op: u32,
        generation: f64,
        authorization: Option<String>,
        status: u16,
        www_authenticate: Option<String>,
        dpop_nonce: Option<String>,
        url: &str,
    ) -> Promise;

    /// The operation is over.
    #[wasm_bindgen(method)]
    fn finished(this: &AuthorizationPart, op: u32);

    /// The `Authorization` value requests go with now, if any.
    #[wasm_bindgen(method)]
    fn credential(this: &AuthorizationPart) -> Option<String>;

    /// `client.authorization`: `{ issuer, scope, expiresAt }` or `null`.
    #[wasm_bindgen(method)]
    pub fn status(this: &AuthorizationPart) -> JsValue;

    /// `signIn()`'s window for the next authorization page (null forgets it).
    #[wasm_bindgen(method, js_name = useSignInWindow)]
    pub fn use_sign_in_window(this: &AuthorizationPart, window: JsValue);

    /// `finishAuthorization(callbackUrl)`.
    #[wasm_bindgen(method)]
    pub fn finish(this: &AuthorizationPart, callback: JsValue) -> Promise;

    /// `signOut(options)`.
    #[wasm_bindgen(method, js_name = signOut)]
    pub fn sign_out(this: &AuthorizationPart, options: JsValue) -> Promise;
}

/// The part as the HTTP layer holds it: behind the authorization seam, whose loop over it is the
/// stored-token part's (below), loaded with the client's first request.
pub fn for_http(part: AuthorizationPart) -> Rc<dyn Authorize> {
    Rc::new(SeamOnFirstUse(PartFlow { part }))
}

/// The part's flow, whose requests the stored-token part sends.
struct SeamOnFirstUse(PartFlow);

impl Authorize for SeamOnFirstUse {
    fn send<'a>(
        &'a self,
        request: &'a mut dyn Request,
        what: &'a str,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        Box::pin(async move {
            stored_token::get()
                .await?
                .send(&self.0, request, what)
                .await
        })
    }

    fn credential(&self) -> Option<Secret> {
        Flow::credential(&self.0)
    }
}

/// The part as the seam's [`Flow`].
struct PartFlow {
    part: AuthorizationPart,
}

/// One operation as the part numbers it (0: none open there). An operation dropped before it
/// finished (its request cancelled mid-step) is finished by its drop, so the full module's flow
/// never keeps it.
#[derive(Debug, Default)]
struct PartOperation {
    id: u32,
    /// The part the operation is open in, once it has a number.
    part: Option<AuthorizationPart>,
}

impl PartOperation {
    /// Takes the number the part answered (`op`, or the answer itself).
    fn numbered(&mut self, part: &AuthorizationPart, answer: &JsValue) {
        self.id = answer
            .as_f64()
            .or_else(|| options::get(answer, "op").as_f64())
            .map_or(0, |n| n as u32);
        if self.id != 0 && self.part.is_none() {
            self.part = Some(part.clone());
        }
    }

    /// Tells the part the operation is over (once).
    fn finish(&mut self) {
        if let (id @ 1.., Some(part)) = (std::mem::take(&mut self.id), &self.part) {
            part.finished(id);
        }
    }
}

impl Drop for PartOperation {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Awaits one of the part's promises; its rejection (an `McpError`) is the request's error.
async fn settle(p: Promise) -> Result<JsValue, McpError> {
    JsFuture::from(p).await.map_err(|e| from_js(&e))
}

impl Flow for PartFlow {
    type Operation = PartOperation;

    fn before_request<'a>(
        &'a self,
        op: &'a mut PartOperation,
        method: &'a str,
        url: &'a str,
    ) -> LocalBoxFuture<'a, Result<Ticket, McpError>> {
        Box::pin(async move {
            let v = settle(self.part.before_request(op.id, method, url)).await?;
            op.numbered(&self.part, &v);
            Ok(Ticket {
                credentials: Credentials {
                    authorization: options::get(&v, "authorization")
                        .as_string()
                        .map(Secret::new),
                    dpop: options::get(&v, "dpop").as_string(),
                },
                generation: options::get(&v, "generation").as_f64().unwrap_or(0.0) as u64,
            })
        })
    }

    fn accepted(&self, ticket: &Ticket, url: &str, dpop_nonce: Option<&str>) {
        let authorization = ticket.credentials.authorization.as_ref();
        self.part.accepted(
            ticket.generation as f64,
            authorization.map(|a| a.expose().to_string()),
            url,
            dpop_nonce.map(str::to_string),
        );
    }

    fn recover<'a>(
        &'a self,
        ticket: &'a Ticket,
        refusal: &'a Refusal,
        url: &'a str,
        op: &'a mut PartOperation,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        Box::pin(async move {
            let authorization = ticket.credentials.authorization.as_ref();
            let v = settle(self.part.recover(
                op.id,
                ticket.generation as f64,
                authorization.map(|a| a.expose().to_string()),
                refusal.status,
                refusal.www_authenticate.clone(),
                refusal.dpop_nonce.clone(),
                url,
            ))
            .await?;
            op.numbered(&self.part, &v);
            Ok(())
        })
    }

    fn finished(&self, op: &mut PartOperation) {
        op.finish();
    }

    /// [`Refusal::of`], a 403's challenge read by the challenge part (loaded then): the
    /// stored-token part does not carry the challenge reader.
    fn refusal<'a>(
        &'a self,
        status: u16,
        www_authenticate: Option<String>,
        dpop_nonce: Option<String>,
    ) -> LocalBoxFuture<'a, Result<Option<Refusal>, McpError>> {
        Box::pin(async move {
            let insufficient_scope = status == 403
                && challenges::get()
                    .await?
                    .hint(www_authenticate.as_deref())
                    .is_insufficient_scope();
            Ok(Refusal::when(
                status,
                insufficient_scope,
                www_authenticate,
                dpop_nonce,
            ))
        })
    }

    fn credential(&self) -> Option<Secret> {
        self.part.credential().map(Secret::new)
    }
}

/// The stored-token part (`crate::parts`): the seam's loop (`auth::seam::send`) over a lean
/// client's authorization part, which sends a returning user's stored token; loaded with that
/// client's first request. A page whose clients have no `auth` never loads it.
mod stored_token {
    use super::PartFlow;
    use crate::auth::seam::Request;
    use crate::protocol::error::McpError;
    use futures::future::LocalBoxFuture;

    /// What the part does.
    pub trait StoredToken {
        /// [`crate::auth::seam::send`]: `request` sent with the part's credentials until the
        /// server takes it or the part's flow gives up.
        fn send<'a>(
            &self,
            flow: &'a PartFlow,
            request: &'a mut dyn Request,
            what: &'a str,
        ) -> LocalBoxFuture<'a, Result<(), McpError>>;
    }

    struct Part;

    impl StoredToken for Part {
        fn send<'a>(
            &self,
            flow: &'a PartFlow,
            request: &'a mut dyn Request,
            what: &'a str,
        ) -> LocalBoxFuture<'a, Result<(), McpError>> {
            Box::pin(crate::auth::seam::send(flow, request, what))
        }
    }

    crate::parts::part!(stored_token, "the stored-token part", StoredToken, Part);
}
