//! The authorization-code sign-in, sequenced: the client's credentials at the AS (held,
//! CIMD, or a dynamic registration), the authorization request with PKCE (kept as the
//! pending authorization), the page, and the callback's code redeemed; finishing a sign-in
//! that went to the AS by redirect; signing out.

use super::grants::TokenCall;
use super::host::fetched;
use super::{AuthHost, AuthRequest, Authorized, Authorizer};
use crate::auth::authorize::{AuthorizationRequest, PendingAuthorization};
use crate::auth::client::{choose_auth_method, ClientInformation};
use crate::auth::errors;
use crate::auth::metadata::ServerMetadata;
use crate::auth::pkce;
use crate::auth::registration::{self, RegistrationPath};
use crate::auth::store::Pending;
use crate::auth::tokens::{self, TokenRequest};
use crate::json::json;
use crate::protocol::error::{ErrorKind, McpError};
use crate::util::secret::Secret;
use futures::future::LocalBoxFuture;

/// The `state_mismatch` of a callback without a pending authorization.
fn no_pending() -> McpError {
    errors::state_mismatch(
        "No authorization is pending for this server (already finished, or started by another client configuration)",
    )
}

/// What signing out forgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignOut {
    /// The tokens.
    Tokens,
    /// The tokens, the client registrations, any pending authorization and the discovered
    /// metadata.
    Everything,
}

impl<H: AuthHost> Authorizer<H> {
    /// One authorization request with `scope`, its callback, and the code redeemed.
    pub(super) async fn authorize_with(&self, scope: Option<String>) -> Result<(), McpError> {
        let (resource, meta) = {
            let st = self.state.borrow();
            (st.prm.as_ref().map(|p| p.resource.clone()), st.meta.clone())
        };
        let meta = meta.ok_or_else(|| errors::metadata("No authorization server is known"))?;
        let client = self.client_at(&meta).await?;
        let verifier = pkce::verifier_from_random(&self.host.random(32)?)?;
        let digest = self
            .host
            .sha256(verifier.expose().as_bytes().to_vec())
            .await?;
        let state = pkce::state_from_random(&self.host.random(16)?)?;
        let url = AuthorizationRequest {
            endpoint: meta.authorization_endpoint.clone(),
            client_id: client.client_id.clone(),
            redirect_uri: self.config.redirect_uri.clone(),
            state: state.clone(),
            code_challenge: pkce::s256_challenge(&verifier, |_| digest)?,
            scope: scope.clone(),
            resource: resource.clone(),
        }
        .url()?;
        let pending = Pending {
            request: PendingAuthorization {
                state: state.clone(),
                code_verifier: verifier,
                redirect_uri: self.config.redirect_uri.clone(),
                issuer: meta.issuer.clone(),
                iss_supported: meta.authorization_response_iss_parameter_supported,
                resource,
                scope,
                used: false,
            },
            token_endpoint: meta.token_endpoint.clone(),
            auth_methods: meta.auth_methods(),
        };
        self.state.borrow_mut().stored.pending = Some(pending);
        self.persist().await?;
        match self
            .host
            .authorize(url, state, self.config.redirect_uri.clone())
            .await?
        {
            Authorized::Callback(callback) => self.redeem(client, &callback).await,
            Authorized::Redirected => Err(errors::auth_error(
                ErrorKind::AuthRedirect,
                "The page went to the authorization server; on the callback page call finishAuthorization(location.href), then connect()",
                json!({ "authorizationServer": meta.issuer }),
            )),
        }
    }

    /// The client's credentials at the AS of `meta`: held ones bound to it, a CIMD URL, or
    /// a new dynamic registration (stored).
    async fn client_at(&self, meta: &ServerMetadata) -> Result<ClientInformation, McpError> {
        let configured = self.configured_client();
        let path = {
            let st = self.state.borrow();
            let mut known: Vec<&ClientInformation> = Vec::new();
            if let Some(c) = &configured {
                known.push(c);
            }
            known.extend(st.stored.clients.iter());
            registration::choose(&known, self.config.client_metadata_url.as_deref(), meta)?
        };
        let client = match path {
            RegistrationPath::Known(c) => {
                if !configured.is_some_and(|k| k.issuer.is_none() && k.client_id == c.client_id) {
                    return Ok(c);
                }
                // First use of clientInformation given without an issuer: remember the
                // binding (not the secret) so it never follows the server to another AS.
                self.state
                    .borrow_mut()
                    .stored
                    .clients
                    .push(ClientInformation {
                        client_secret: None,
                        ..c.clone()
                    });
                c
            }
            RegistrationPath::MetadataDocument(c) => return Ok(c),
            RegistrationPath::Dynamic { endpoint } => self.register(&endpoint, meta).await?,
        };
        self.persist().await?;
        Ok(client)
    }

    /// A dynamic registration (RFC 7591) at `endpoint`, kept among the stored clients in
    /// place of any other for this AS (the caller stores it).
    async fn register(
        &self,
        endpoint: &str,
        meta: &ServerMetadata,
    ) -> Result<ClientInformation, McpError> {
        let body = registration::registration_body(
            self.config.client_metadata.as_ref(),
            &self.config.redirect_uri,
            self.config.wants_refresh(),
        )?;
        let request = TokenRequest {
            body: Secret::new(body),
            authorization: None,
        };
        let post = AuthRequest::post(endpoint, "application/json", request, None);
        let response = fetched(self.host.fetch(post).await, "registering at ", endpoint)?;
        let client = registration::parse_registration_response(
            response.status,
            &response.body,
            &meta.issuer,
        )?;
        let mut st = self.state.borrow_mut();
        st.stored.clients.retain(|c| !c.usable_with(&meta.issuer));
        st.stored.clients.push(client.clone());
        Ok(client)
    }

    /// Checks `callback` against the pending authorization and redeems its code for tokens
    /// (stored). A callback without a pending authorization is `state_mismatch`.
    async fn redeem(&self, client: ClientInformation, callback: &str) -> Result<(), McpError> {
        // The pending request is used up whatever the callback says.
        let Some(mut pending) = self.state.borrow_mut().stored.pending.take() else {
            return Err(no_pending());
        };
        self.persist().await?;
        let code = pending.request.accept_callback(callback)?;
        let method = choose_auth_method(
            client.token_endpoint_auth_method.as_deref(),
            &pending.auth_methods,
            client.client_secret.is_some(),
        );
        let request = tokens::authorization_code_request(
            &client,
            method,
            &code,
            &pending.request.code_verifier,
            &pending.request.redirect_uri,
            pending.request.resource.as_deref(),
        )?;
        let call = TokenCall {
            endpoint: pending.token_endpoint,
            request,
            scope: pending.request.scope.as_deref(),
            issuer: &pending.request.issuer,
            signer: None,
            resource: pending.request.resource,
            auth_methods: pending.auth_methods,
            previous: None,
        };
        self.grant_tokens(call).await.map_err(|f| f.error)
    }

    /// Redirect mode: checks the callback against the stored pending authorization and
    /// redeems its code. A callback without a pending authorization is `state_mismatch`.
    pub fn finish<'a>(&'a self, callback: &'a str) -> LocalBoxFuture<'a, Result<(), McpError>> {
        Box::pin(self.finish_inner(callback))
    }

    async fn finish_inner(&self, callback: &str) -> Result<(), McpError> {
        // Storage read, and no recovery under way.
        self.load().await?;
        let _busy = self.busy.lock().await;
        let issuer = match &self.state.borrow().stored.pending {
            Some(p) => p.request.issuer.clone(),
            None => return Err(no_pending()),
        };
        let client = self.held_client(&issuer).ok_or_else(|| {
            errors::registration_rejected(
                "The client registration of the pending authorization is gone",
            )
        })?;
        self.redeem(client, callback).await
    }

    /// Forgets what `what` names.
    pub fn sign_out(&self, what: SignOut) -> LocalBoxFuture<'_, Result<(), McpError>> {
        Box::pin(self.sign_out_inner(what))
    }

    async fn sign_out_inner(&self, what: SignOut) -> Result<(), McpError> {
        // Storage read, and no recovery under way.
        self.load().await?;
        let _busy = self.busy.lock().await;
        self.set_grant(None);
        if what == SignOut::Everything {
            let mut st = self.state.borrow_mut();
            st.stored.clients.clear();
            st.stored.pending = None;
            st.prm = None;
            st.meta = None;
        }
        self.persist().await
    }
}
