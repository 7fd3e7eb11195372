//! The authorization seam: how one MCP request is sent with credentials. The loop "stamp
//! credentials → send → 401/403 → recover → send again" lives here, in pure Rust, between two
//! small traits: the HTTP layer implements [`Request`] (send this one request with these
//! credentials; a response's status and the headers the loop reads; release a refused body),
//! and the authorization flow implements [`Flow`] (the credentials for the next attempt; a
//! success; a refusal recovered from). The HTTP layer holds the flow as an `Rc<dyn Authorize>`
//! and never names a flow type: credentials reach it as plain header name/value pairs.
//!
//! Natively, `tests/auth_flow.rs` and `tests/auth_grants.rs` run this loop against the fake
//! authorization servers with a fake HTTP side.

use crate::auth::challenge::AuthHint;
use crate::protocol::error::McpError;
use crate::util::secret::Secret;
use futures::future::LocalBoxFuture;

/// The credentials one attempt is sent with: none before sign-in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    /// The `Authorization` value (`Bearer …` or `DPoP …`).
    pub authorization: Option<Secret>,
    /// The `DPoP` proof for this request (RFC 9449), only with a DPoP-bound token.
    pub dpop: Option<String>,
}

impl Credentials {
    /// The headers to add to the request, as lowercase name/value pairs.
    pub fn headers(&self) -> Vec<(&'static str, &str)> {
        let mut out = Vec::new();
        if let Some(a) = &self.authorization {
            out.push(("authorization", a.expose()));
        }
        if let Some(proof) = &self.dpop {
            out.push(("dpop", proof.as_str()));
        }
        out
    }

    /// True when there is nothing to send (not signed in).
    pub fn is_empty(&self) -> bool {
        self.authorization.is_none() && self.dpop.is_none()
    }
}

/// What one attempt was sent with: its credentials and the generation of the flow's tokens
/// they came from (the flow tells by it whether the tokens changed since).
#[derive(Debug, Clone)]
pub struct Ticket {
    /// The credentials sent.
    pub credentials: Credentials,
    /// The flow's token generation when the ticket was made.
    pub generation: u64,
}

/// A response the flow may recover from: a 401, or a `403 insufficient_scope`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 401 or 403.
    pub status: u16,
    /// The response's `WWW-Authenticate`.
    pub www_authenticate: Option<String>,
    /// The response's `DPoP-Nonce`.
    pub dpop_nonce: Option<String>,
}

impl Refusal {
    /// The refusal in a response of `status` with these headers, or `None` when the status
    /// is not one the flow recovers from (a 403 only with `error="insufficient_scope"`).
    pub fn of(
        status: u16,
        www_authenticate: Option<String>,
        dpop_nonce: Option<String>,
    ) -> Option<Refusal> {
        let insufficient_scope = status == 403
            && AuthHint::from_header(www_authenticate.as_deref()).is_insufficient_scope();
        Refusal::when(status, insufficient_scope, www_authenticate, dpop_nonce)
    }

    /// [`Refusal::of`] with the challenge already read: `insufficient_scope` tells whether a
    /// 403's `WWW-Authenticate` says `error="insufficient_scope"`.
    pub fn when(
        status: u16,
        insufficient_scope: bool,
        www_authenticate: Option<String>,
        dpop_nonce: Option<String>,
    ) -> Option<Refusal> {
        let recoverable = status == 401 || (status == 403 && insufficient_scope);
        recoverable.then_some(Refusal {
            status,
            www_authenticate,
            dpop_nonce,
        })
    }
}

/// One MCP request as the HTTP layer sends it; it keeps its last response itself.
pub trait Request {
    /// The HTTP method (the DPoP proof's `htm`).
    fn method(&self) -> &str;
    /// The URL the request goes to (the DPoP proof's `htu`, and the origin of its nonces).
    fn url(&self) -> &str;
    /// Sends the request once with `credentials` added to its headers; resolves with the
    /// response's status once its headers arrive (the response is kept).
    fn send<'a>(
        &'a mut self,
        credentials: &'a Credentials,
    ) -> LocalBoxFuture<'a, Result<u16, McpError>>;
    /// A header of the kept response (`www-authenticate`, `dpop-nonce`).
    fn header(&self, name: &str) -> Option<String>;
    /// Drops the kept response unread (a refusal, before the request is sent again), so its
    /// connection is released.
    fn release(&mut self);
    /// The flow starts recovering from a refusal of this request (`done` false), or is done
    /// (`done` true, with its error if it failed): a step a tracer shows.
    fn recovering(&mut self, _error: Option<&McpError>, _done: bool) {}
}

/// The authorization flow's side of the seam (`auth::flow::Authorizer` implements it).
pub trait Flow {
    /// The flow's bookkeeping for one operation (a request and its resends): recoveries and
    /// step-ups spent, a refresh already tried.
    type Operation: Default;

    /// The credentials for the next attempt of `method` `url`; may refresh tokens first.
    fn before_request<'a>(
        &'a self,
        op: &'a mut Self::Operation,
        method: &'a str,
        url: &'a str,
    ) -> LocalBoxFuture<'a, Result<Ticket, McpError>>;

    /// The server at `url` answered the attempt sent with `ticket` with a 2xx, with this
    /// `DPoP-Nonce` if any.
    fn accepted(&self, ticket: &Ticket, url: &str, dpop_nonce: Option<&str>);

    /// Recovers from `refusal` of the attempt sent with `ticket` to `url`: `Ok` means "send
    /// the request again", `Err` is the request's error.
    fn recover<'a>(
        &'a self,
        ticket: &'a Ticket,
        refusal: &'a Refusal,
        url: &'a str,
        op: &'a mut Self::Operation,
    ) -> LocalBoxFuture<'a, Result<(), McpError>>;

    /// The operation is over, whatever its outcome (the flow's bookkeeping may end with it).
    fn finished(&self, _op: &mut Self::Operation) {}

    /// The refusal in a response of `status` with these headers, if the flow recovers from it:
    /// [`Refusal::of`]. (A flow whose challenge reader loads on first use reads a 403's there.)
    fn refusal<'a>(
        &'a self,
        status: u16,
        www_authenticate: Option<String>,
        dpop_nonce: Option<String>,
    ) -> LocalBoxFuture<'a, Result<Option<Refusal>, McpError>> {
        Box::pin(std::future::ready(Ok(Refusal::of(
            status,
            www_authenticate,
            dpop_nonce,
        ))))
    }

    /// The `Authorization` value requests go with now, if any (what the response cache keys
    /// private results by, as a fingerprint).
    fn credential(&self) -> Option<Secret> {
        None
    }
}

/// What the HTTP layer holds (`Rc<dyn Authorize>`): sends a request with credentials.
pub trait Authorize {
    /// Sends `request` with credentials until the server accepts it, answers a status the
    /// flow does not recover from, or the flow gives up (the error, in the context `what`).
    /// On `Ok`, the request's kept response is the answer.
    fn send<'a>(
        &'a self,
        request: &'a mut dyn Request,
        what: &'a str,
    ) -> LocalBoxFuture<'a, Result<(), McpError>>;

    /// The `Authorization` value requests go with now, if any ([`Flow::credential`]).
    fn credential(&self) -> Option<Secret>;
}

impl<F: Flow> Authorize for F {
    fn credential(&self) -> Option<Secret> {
        Flow::credential(self)
    }

    fn send<'a>(
        &'a self,
        request: &'a mut dyn Request,
        what: &'a str,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        Box::pin(send(self, request, what))
    }
}

/// The loop: stamp credentials → send → on a 401 or `403 insufficient_scope`, release the
/// refused body and recover → send again. The flow bounds the number of recoveries per
/// operation.
pub async fn send<F: Flow>(
    flow: &F,
    request: &mut dyn Request,
    what: &str,
) -> Result<(), McpError> {
    let mut op = F::Operation::default();
    let result = attempts(flow, request, what, &mut op).await;
    flow.finished(&mut op);
    result
}

/// [`send`]'s loop, within the operation `op`.
async fn attempts<F: Flow>(
    flow: &F,
    request: &mut dyn Request,
    what: &str,
    op: &mut F::Operation,
) -> Result<(), McpError> {
    loop {
        let ticket = flow
            .before_request(op, request.method(), request.url())
            .await?;
        let status = request.send(&ticket.credentials).await?;
        if (200..300).contains(&status) {
            let nonce = request.header("dpop-nonce");
            flow.accepted(&ticket, request.url(), nonce.as_deref());
            return Ok(());
        }
        let www_authenticate = request.header("www-authenticate");
        let nonce = request.header("dpop-nonce");
        let Some(refusal) = flow.refusal(status, www_authenticate, nonce).await? else {
            return Ok(());
        };
        request.release();
        request.recovering(None, false);
        let recovered = flow.recover(&ticket, &refusal, request.url(), op).await;
        request.recovering(recovered.as_ref().err(), true);
        recovered.map_err(|e| e.with_context(what))?;
    }
}

#[cfg(test)]
mod tests {
    use super::Refusal;

    #[test]
    fn a_401_is_recovered_from_and_a_403_only_for_insufficient_scope() {
        let scope = Some(r#"Bearer error="insufficient_scope", scope="files:write""#.to_string());
        let of = |status, header: &Option<String>| Refusal::of(status, header.clone(), None);
        assert!(of(401, &None).is_some());
        assert!(of(403, &scope).is_some());
        assert!(of(403, &Some(r#"Bearer error="invalid_token""#.into())).is_none());
        assert!(of(403, &None).is_none());
        assert!(of(500, &scope).is_none());
        // `when`: the same rule with the challenge read by the caller
        assert!(Refusal::when(401, false, None, None).is_some());
        assert!(Refusal::when(403, true, scope.clone(), None).is_some());
        assert!(Refusal::when(403, false, scope.clone(), None).is_none());
        assert!(Refusal::when(404, true, scope, None).is_none());
        let kept = Refusal::when(401, false, Some("Bearer".into()), Some("n1".into()));
        assert_eq!(kept.and_then(|r| r.dpop_nonce).as_deref(), Some("n1"));
    }
}
