//! Token requests, sequenced: the grants without a user (`client_credentials`, the JWT bearer
//! grant with the application's assertion or an ID-JAG from an enterprise IdP), refresh, and
//! the one path every token request takes (a DPoP proof, one `use_dpop_nonce` retry, the
//! tokens checked and stored as the grant). Also which client credentials the flow holds for
//! an authorization server.

use super::host::fetched;
use super::{AssertionSource, AuthHost, AuthRequest, Authorizer, GrantConfig, StaticClient};
use crate::auth::client::{
    choose_auth_method, choose_static_method, AuthMethod, ClientInformation,
};
use crate::auth::errors;
use crate::auth::form;
use crate::auth::jose::Alg;
use crate::auth::store::Grant;
use crate::auth::tokens::{self, RefreshFailure, TokenRequest, TokenSet};
use crate::json::{json, Value};
use crate::protocol::error::{ErrorKind, McpError};
use crate::util::secret::Secret;

/// A token request `body` with its `client_assertion` replaced by `fresh`.
fn with_client_assertion(body: &Secret, fresh: &Secret) -> Secret {
    let pairs = form::parse(body.expose());
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| match k.as_str() {
            "client_assertion" => (k.as_str(), fresh.expose()),
            _ => (k.as_str(), v.as_str()),
        })
        .collect();
    Secret::new(form::encode_pairs(&pairs))
}

/// A token request: where it goes, what it asked for, and what its tokens are stored with.
pub(super) struct TokenCall<'a> {
    pub(super) endpoint: String,
    pub(super) request: TokenRequest,
    /// The scope requested (the tokens' scope when the response names none).
    pub(super) scope: Option<&'a str>,
    pub(super) issuer: &'a str,
    /// Re-signs a `private_key_jwt` client assertion for a DPoP nonce retry.
    pub(super) signer: Option<(&'a str, Alg)>,
    pub(super) resource: Option<String>,
    pub(super) auth_methods: Vec<String>,
    /// The tokens a refresh replaces.
    pub(super) previous: Option<&'a TokenSet>,
}

/// A token request that failed: the error, and what a refresh does about it (see
/// [`tokens::on_refresh_error`]; anything but an OAuth error response fails the call and
/// keeps the tokens).
pub(super) struct TokenFailure {
    pub(super) error: McpError,
    pub(super) on_refresh: RefreshFailure,
}

impl From<McpError> for TokenFailure {
    fn from(error: McpError) -> Self {
        TokenFailure {
            error,
            on_refresh: RefreshFailure::Fail,
        }
    }
}

/// What a grant without a user needs of the known PRM and AS metadata, checked.
struct GrantTarget<'a> {
    client: &'a StaticClient,
    issuer: String,
    token_endpoint: String,
    auth_methods: Vec<String>,
    resource: Option<String>,
    scope: Option<String>,
}

/// The `grant_type` a grant without a user asks for.
fn grant_type(grant: &GrantConfig) -> &'static str {
    match grant {
        GrantConfig::ClientCredentials(_) => "client_credentials",
        _ => tokens::JWT_BEARER_GRANT,
    }
}

impl<H: AuthHost> Authorizer<H> {
    /// `client_credentials` or `jwt_bearer` at the AS of the discovered metadata. A failure
    /// is final for this operation: a refused assertion is never sent again.
    pub(super) async fn obtain_by_grant(
        &self,
        challenge_scope: Option<&str>,
    ) -> Result<(), McpError> {
        let target = self.grant_target(challenge_scope)?;
        let client = target.client;
        let method = choose_static_method(
            client.method,
            &target.auth_methods,
            client.info.client_secret.is_some(),
            client.signing.is_some(),
        );
        let client_assertion = match (method, client.signing) {
            (AuthMethod::PrivateKeyJwt, Some(alg)) => Some(
                self.client_assertion(&client.info.client_id, &target.issuer, alg)
                    .await?,
            ),
            _ => None,
        };
        let assertion = match &self.config.grant {
            GrantConfig::JwtBearer(_, source) => Some(self.assertion(source, &target).await?),
            _ => None,
        };
        let request = tokens::static_grant_request(
            &client.info,
            method,
            assertion.as_ref(),
            target.scope.as_deref(),
            target.resource.as_deref(),
            client_assertion.as_ref(),
        )?;
        let signer = match (&client_assertion, client.signing) {
            (Some(_), Some(alg)) => Some((client.info.client_id.as_str(), alg)),
            _ => None,
        };
        let call = TokenCall {
            endpoint: target.token_endpoint,
            request,
            scope: target.scope.as_deref(),
            issuer: &target.issuer,
            signer,
            resource: target.resource.clone(),
            auth_methods: target.auth_methods.clone(),
            previous: None,
        };
        self.grant_tokens(call).await.map_err(|f| f.error)
    }

    /// The configured grant's client and the known AS, checked: the credentials belong to
    /// this AS and it offers the grant.
    fn grant_target(&self, challenge_scope: Option<&str>) -> Result<GrantTarget<'_>, McpError> {
        let grant = &self.config.grant;
        let st = self.state.borrow();
        let meta = st
            .meta
            .as_ref()
            .ok_or_else(|| errors::metadata("No authorization server is known"))?;
        let client = match grant {
            GrantConfig::ClientCredentials(c) | GrantConfig::JwtBearer(c, _) => c,
            GrantConfig::AuthorizationCode => {
                return Err(McpError::input("obtain_by_grant: no grant configured"))
            }
        };
        if !client.info.usable_with(&meta.issuer) {
            return Err(errors::issuer_mismatch(
                "of the configured credentials",
                client.info.issuer.as_deref().unwrap_or_default(),
                Some(&meta.issuer),
            )
            .with_context("The credentials belong to another authorization server; not sent"));
        }
        let wanted = grant_type(grant);
        if let Some(types) = &meta.grant_types_supported {
            if !types.iter().any(|t| t == wanted) {
                return Err(errors::auth_error(
                    ErrorKind::UnsupportedGrant,
                    format!(
                        "The authorization server {} does not offer the {wanted} grant (grant_types_supported)",
                        errors::clean_text(&meta.issuer)
                    ),
                    json!({ "grant": wanted }),
                ));
            }
        }
        Ok(GrantTarget {
            client,
            issuer: meta.issuer.clone(),
            token_endpoint: meta.token_endpoint.clone(),
            auth_methods: meta.auth_methods(),
            resource: st.prm.as_ref().map(|p| p.resource.clone()),
            scope: self.select_scope(challenge_scope, false),
        })
    }

    /// The `jwt_bearer` assertion for `target`: the application's callback, or an ID-JAG
    /// from the enterprise IdP.
    async fn assertion(
        &self,
        source: &AssertionSource,
        target: &GrantTarget<'_>,
    ) -> Result<Secret, McpError> {
        match source {
            AssertionSource::Callback => {
                let a = self
                    .host
                    .assertion(
                        target.issuer.clone(),
                        target.resource.clone(),
                        target.scope.clone(),
                    )
                    .await?;
                if a.expose().is_empty() {
                    return Err(errors::auth_error(
                        ErrorKind::AssertionError,
                        "The assertion callback returned an empty assertion",
                        Value::Null,
                    ));
                }
                Ok(a)
            }
            AssertionSource::IdJag {
                token_endpoint,
                id_token,
                idp_client,
            } => {
                let request = tokens::id_jag_exchange_request(
                    idp_client,
                    id_token,
                    &target.issuer,
                    target.resource.as_deref(),
                    target.scope.as_deref(),
                )?;
                let post = AuthRequest::post(token_endpoint, tokens::CONTENT_TYPE, request, None);
                let response = fetched(
                    self.host.fetch(post).await,
                    "token exchange at ",
                    token_endpoint,
                )?;
                tokens::parse_exchange_response(response.status, &response.body).map_err(|e| {
                    e.with_context("The identity provider refused the ID-JAG exchange")
                })
            }
        }
    }

    /// The token request of `call`, and its tokens stored as the grant. The request is POSTed
    /// with a DPoP proof when configured, and retried once with the AS's nonce on
    /// `use_dpop_nonce`; the call's `signer` (client id, algorithm) re-signs the
    /// `private_key_jwt` client assertion for the retry: the AS may have used up the first
    /// one's `jti` (RFC 7523 §3).
    pub(super) async fn grant_tokens(&self, mut call: TokenCall<'_>) -> Result<(), TokenFailure> {
        let endpoint = call.endpoint.as_str();
        let mut nonce_retried = false;
        let fresh = loop {
            self.count_token_request()?;
            let dpop = self.dpop_proof_if_on("POST", endpoint).await?;
            let post =
                AuthRequest::post(endpoint, tokens::CONTENT_TYPE, call.request.clone(), dpop);
            let response = fetched(self.host.fetch(post).await, "token request to ", endpoint)?;
            if let Some(n) = &response.dpop_nonce {
                self.remember_nonce(endpoint, n);
            }
            if !(200..300).contains(&response.status) {
                let oauth = tokens::parse_error_response(response.status, &response.body);
                if self.config.dpop
                    && oauth.error == "use_dpop_nonce"
                    && response.dpop_nonce.is_some()
                    && !nonce_retried
                {
                    nonce_retried = true;
                    if let Some((client_id, alg)) = call.signer {
                        let fresh = self.client_assertion(client_id, call.issuer, alg).await?;
                        call.request.body = with_client_assertion(&call.request.body, &fresh);
                    }
                    continue;
                }
                return Err(TokenFailure {
                    error: oauth.to_error(),
                    on_refresh: tokens::on_refresh_error(Some(&oauth)),
                });
            }
            let tokens = tokens::parse_token_response(
                &response.body,
                self.host.now_ms(),
                call.scope,
                call.issuer,
            )?;
            self.check_bound_key(&tokens)?;
            break tokens;
        };
        self.set_grant(Some(Grant {
            tokens: match call.previous {
                Some(p) => fresh.refreshed(p),
                None => fresh,
            },
            token_endpoint: call.endpoint,
            resource: call.resource,
            auth_methods: call.auth_methods,
        }));
        Ok(self.persist().await?)
    }

    /// The application's `clientInformation`; given without an issuer, it is bound to the AS
    /// it was first used with (recorded among the stored clients by the sign-in).
    pub(super) fn configured_client(&self) -> Option<ClientInformation> {
        let mut c = self.config.client_information.clone()?;
        if c.issuer.is_none() {
            let st = self.state.borrow();
            if let Some(bound) = st
                .stored
                .clients
                .iter()
                .find(|s| s.client_id == c.client_id)
            {
                c.issuer = bound.issuer.clone();
            }
        }
        Some(c)
    }

    /// The credentials this client holds for `issuer`: the application's, a stored
    /// registration, or else the CIMD URL (a client that got tokens without registering).
    pub(super) fn held_client(&self, issuer: &str) -> Option<ClientInformation> {
        let configured = self.configured_client();
        let st = self.state.borrow();
        configured
            .iter()
            .chain(st.stored.clients.iter())
            .find(|c| c.usable_with(issuer))
            .cloned()
            .or_else(|| {
                self.config
                    .client_metadata_url
                    .as_ref()
                    .map(|u| ClientInformation {
                        client_id: u.clone(),
                        client_secret: None,
                        token_endpoint_auth_method: Some("none".into()),
                        issuer: Some(issuer.to_string()),
                        client_secret_expires_at: None,
                    })
            })
    }

    /// Refreshes the grant. On `invalid_grant` the grant is dropped (and on `invalid_client`
    /// the client too), so the caller can sign in again; other failures keep it.
    pub(super) async fn refresh(&self) -> Result<(), McpError> {
        let Some(grant) = self.state.borrow().stored.grant.clone() else {
            return Err(errors::unauthorized("No tokens to refresh"));
        };
        let Some(refresh_token) = grant.tokens.refresh_token.clone() else {
            return Err(errors::unauthorized("No refresh token"));
        };
        let issuer = grant.tokens.issuer.clone();
        let Some(client) = self.held_client(&issuer) else {
            self.set_grant(None);
            self.persist().await?;
            return Err(errors::unauthorized(
                "No client credentials for the issuer of the tokens",
            ));
        };
        let method = choose_auth_method(
            client.token_endpoint_auth_method.as_deref(),
            &grant.auth_methods,
            client.client_secret.is_some(),
        );
        let request =
            tokens::refresh_request(&client, method, &refresh_token, grant.resource.as_deref())?;
        let call = TokenCall {
            endpoint: grant.token_endpoint.clone(),
            request,
            scope: grant.tokens.scope.as_deref(),
            issuer: &issuer,
            signer: None,
            resource: grant.resource.clone(),
            auth_methods: grant.auth_methods.clone(),
            previous: Some(&grant.tokens),
        };
        let Err(TokenFailure { error, on_refresh }) = self.grant_tokens(call).await else {
            return Ok(());
        };
        match on_refresh {
            RefreshFailure::Fail => return Err(error),
            RefreshFailure::DropTokens => self.set_grant(None),
            RefreshFailure::DropClient => {
                self.set_grant(None);
                self.state
                    .borrow_mut()
                    .stored
                    .clients
                    .retain(|c| c.issuer.as_deref() != Some(&issuer));
            }
        }
        // The error, after the state it leaves is stored.
        self.persist().await?;
        Err(error)
    }
}
