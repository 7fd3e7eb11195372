//! The full module's side of a lean client's authorization. The default entry makes a client
//! with `auth` and a stored token in its lean module, which sends that token without this
//! module (`js::host::auth_part`, and the part in `pkg-template/auth-part.js`). When the token is not
//! enough (a 401 or `403 insufficient_scope`, a token to refresh, signing in or out) the part
//! makes a `ClientCore` here with the client's own options, never connected, and hands it each
//! step of the authorization seam through these methods: the flow is this module's, whole.
//!
//! A ticket the lean module made from the stored token has generation 0; this flow's own
//! tickets start at 1 (its first read of storage), so a stored ticket is told from its own.

use super::client::Client;
use super::settle::promise_for;
use crate::auth::flow::Operation;
use crate::auth::seam::{Credentials, Flow, Refusal, Ticket};
use crate::js::auth::outcome::object;
use crate::js::auth::JsAuthorizer;
use crate::protocol::error::McpError;
use crate::util::secret::Secret;
use js_sys::{Function, Promise};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The generation of a ticket the lean module made from the stored token.
const STORED: u64 = 0;

/// The flow of a part core: its `auth` option's (a part core is always made with one).
fn flow(client: &Client) -> Result<Rc<JsAuthorizer>, McpError> {
    client.auth.clone().ok_or_else(|| {
        McpError::input("an authorization part needs the auth option of new Client(url, { auth })")
    })
}

/// A ticket as the lean module sent it.
fn ticket(generation: f64, authorization: Option<String>) -> Ticket {
    Ticket {
        credentials: Credentials {
            authorization: authorization.map(Secret::new),
            dpop: None,
        },
        generation: generation as u64,
    }
}

#[wasm_bindgen(js_class = ClientCore)]
impl Client {
    /// The lean client's `waiting(open)`: told when the authorization page opens and closes,
    /// so that its request timers pause while a person signs in.
    #[wasm_bindgen(js_name = __useWaits)]
    pub fn use_waits(&self, waiting: Function) {
        if let Some(auth) = &self.auth {
            *auth.host().waits.borrow_mut() = Some(Rc::new(move |open: bool| {
                let _ = waiting.call1(&JsValue::UNDEFINED, &JsValue::from_bool(open));
            }));
        }
    }

    /// The seam's `before_request` for operation `op` (0: a new one): resolves with
    /// `{ op, authorization, dpop, generation }`.
    #[wasm_bindgen(js_name = __beforeRequest)]
    pub fn part_before_request(&self, op: u32, method: String, url: String) -> Promise {
        let ops = self.part_ops.clone();
        promise_for(flow(self), move |auth| async move {
            let (id, mut operation) = ops.take(op);
            let result = auth.before_request(&mut operation, &method, &url).await;
            ops.put(id, operation);
            let t = result?;
            let text = |s: Option<&str>| s.map_or(JsValue::UNDEFINED, JsValue::from_str);
            Ok(object(&[
                ("op", id.into()),
                (
                    "authorization",
                    text(t.credentials.authorization.as_ref().map(Secret::expose)),
                ),
                ("dpop", text(t.credentials.dpop.as_deref())),
                ("generation", (t.generation as f64).into()),
            ]))
        })
    }

    /// The seam's `accepted`: the server at `url` took the attempt sent with this ticket.
    #[wasm_bindgen(js_name = __accepted)]
    pub fn part_accepted(
        &self,
        generation: f64,
        authorization: Option<String>,
        url: String,
        dpop_nonce: Option<String>,
    ) {
        if let Some(auth) = &self.auth {
            auth.accepted(
                &ticket(generation, authorization),
                &url,
                dpop_nonce.as_deref(),
            );
        }
    }

    /// The seam's `recover` for operation `op` (resolves with its number: send again). A
    /// refusal of the stored token is recovered from only while this flow still holds that
    /// token; when it holds another, the request is just sent again with it.
    #[wasm_bindgen(js_name = __recover)]
    #[allow(clippy::too_many_arguments)] // the seam's ticket and refusal, flattened for JS
    pub fn part_recover(
        &self,
        op: u32,
        generation: f64,
        authorization: Option<String>,
        status: u16,
        www_authenticate: Option<String>,
        dpop_nonce: Option<String>,
        url: String,
    ) -> Promise {
        let ops = self.part_ops.clone();
        promise_for(flow(self), move |auth| async move {
            let (id, mut operation) = ops.take(op);
            let refusal = Refusal {
                status,
                www_authenticate,
                dpop_nonce,
            };
            let sent = ticket(generation, authorization);
            let result = recover(&auth, sent, &refusal, &url, &mut operation).await;
            ops.put(id, operation);
            result.map(|()| id.into())
        })
    }

    /// The seam's `finished`: operation `op` is over.
    #[wasm_bindgen(js_name = __finished)]
    pub fn part_finished(&self, op: u32) {
        let taken = self.part_ops.close(op);
        if let (Some(auth), Some(mut operation)) = (&self.auth, taken) {
            auth.finished(&mut operation);
        }
    }

    /// The `Authorization` value requests go with now, if any.
    #[wasm_bindgen(js_name = __credential)]
    pub fn part_credential(&self) -> Option<String> {
        let auth = self.auth.as_ref()?;
        Flow::credential(&**auth).map(|s| s.expose().to_string())
    }
}

/// [`Flow::recover`] of the ticket `sent`; a stored ticket is first matched with this flow's
/// current one (read from the same storage).
async fn recover(
    auth: &JsAuthorizer,
    sent: Ticket,
    refusal: &Refusal,
    url: &str,
    op: &mut Operation,
) -> Result<(), McpError> {
    let sent = if sent.generation == STORED {
        let current = auth.before_request(op, "POST", url).await?;
        if current.credentials.authorization != sent.credentials.authorization {
            return Ok(()); // the tokens changed since: send again with this flow's
        }
        current
    } else {
        sent
    };
    auth.recover(&sent, refusal, url, op).await
}
