//! The authorization flow, sequenced: the rules of the sibling modules applied over an
//! [`AuthHost`] that fetches, stores, hashes and shows the authorization page. Pure async,
//! so it runs natively against a fake host (`tests/auth_flow.rs`).
//!
//! The HTTP transport asks [`Authorizer::before_request`] for the `Authorization` value of
//! every MCP request (refreshing a token about to expire), reports a 2xx with
//! [`Authorizer::accepted`], and hands a 401 or `403 insufficient_scope` to
//! [`Authorizer::recover`]: `Ok` means "send the request again", `Err` is the call's error.
//! Recoveries are serialized (one sign-in at a time, however many requests met the 401); a
//! request that finds the tokens changed while it waited just retries.

use crate::util::small_map::SmallMap;
use std::cell::RefCell;

use crate::json::{json, Value};
use futures::future::LocalBoxFuture;

use crate::protocol::error::{ErrorKind, McpError};

use super::authorize::{AuthorizationRequest, PendingAuthorization};
use super::challenge::AuthHint;
use super::client::{choose_auth_method, choose_static_method, AuthMethod, ClientInformation};
use super::discovery::{self, Verdict};
use super::errors;
use super::jose::{self, Alg};
use super::metadata::{self, ResourceMetadata, ServerMetadata};
use super::pkce;
use super::registration::{self, RegistrationPath};
use super::scopes::{self, Budget, StepUpPolicy};
use super::secret::Secret;
use super::store::{self, Grant, Pending, Stored};
use super::tokens::{self, BeforeRequest, Recovery, RefreshFailure, SentToken, TokenRequest};

/// Recoveries (401/403 handled) allowed within one operation before it fails.
pub const MAX_RECOVERIES: u32 = 4;

/// An HTTP request of the flow (metadata GET, registration or token POST). The body and
/// `authorization` are [`Secret`]s: `Debug` shows neither.
#[derive(Debug)]
pub struct AuthRequest {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The URL, as built by the rules.
    pub url: String,
    /// `Content-Type` of the body.
    pub content_type: Option<&'static str>,
    /// The body (a form with codes or secrets, or registration JSON).
    pub body: Option<Secret>,
    /// `Authorization` (client_secret_basic).
    pub authorization: Option<Secret>,
    /// Largest body to read.
    pub max_bytes: usize,
    /// A `DPoP` proof header, for token requests of a DPoP client.
    pub dpop: Option<String>,
}

impl AuthRequest {
    /// A request of `method` to `url`.
    pub fn new(
        method: &'static str,
        url: &str,
        content_type: Option<&'static str>,
        body: Option<Secret>,
        authorization: Option<Secret>,
        max_bytes: usize,
    ) -> Self {
        AuthRequest {
            method,
            url: url.to_string(),
            content_type,
            body,
            authorization,
            max_bytes,
            dpop: None,
        }
    }
}

/// What came back: status and body (redirects are not followed: a 3xx is a status).
#[derive(Debug, Clone)]
pub struct AuthResponse {
    /// HTTP status.
    pub status: u16,
    /// The body, as text.
    pub body: String,
    /// `DPoP-Nonce`, if the server sent one.
    pub dpop_nonce: Option<String>,
}

/// The authorization page's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Authorized {
    /// The callback URL (or its query), from a popup, a headless fetch or the application.
    Callback(String),
    /// The page navigated away to the AS (redirect mode): the callback arrives on another
    /// page load, through [`Authorizer::finish`].
    Redirected,
}

/// What the flow needs from its host.
pub trait AuthHost {
    /// Sends `request`. A failed fetch is an `McpError` of kind `auth_cors` (a browser hid
    /// the reason) or `network`.
    fn fetch(&self, request: AuthRequest) -> LocalBoxFuture<'_, Result<AuthResponse, McpError>>;
    /// Milliseconds since the epoch.
    fn now_ms(&self) -> u64;
    /// `len` cryptographically random bytes.
    fn random(&self, len: usize) -> Result<Vec<u8>, McpError>;
    /// SHA-256 of `data`.
    fn sha256(&self, data: Vec<u8>) -> LocalBoxFuture<'_, Result<[u8; 32], McpError>>;
    /// The stored text under `key`.
    fn load(&self, key: String) -> LocalBoxFuture<'_, Result<Option<String>, McpError>>;
    /// Stores `value` under `key` (`None`: delete it).
    fn save(&self, key: String, value: Option<String>) -> LocalBoxFuture<'_, Result<(), McpError>>;
    /// Shows the authorization page at `url` and waits for the callback to `redirect_uri`.
    fn authorize(
        &self,
        url: String,
        state: String,
        redirect_uri: String,
    ) -> LocalBoxFuture<'_, Result<Authorized, McpError>>;
    /// Signs `input` with the client's private key (`private_key_jwt`), as JWS wants it.
    fn sign_client(&self, _input: Vec<u8>) -> LocalBoxFuture<'_, Result<Vec<u8>, McpError>> {
        Box::pin(async { Err(McpError::input("This host has no client signing key")) })
    }
    /// The `jwt_bearer` assertion for the AS `issuer` (the application's callback).
    fn assertion(
        &self,
        _issuer: String,
        _resource: Option<String>,
        _scope: Option<String>,
    ) -> LocalBoxFuture<'_, Result<Secret, McpError>> {
        Box::pin(async { Err(McpError::input("This host has no assertion callback")) })
    }
    /// The DPoP key's public JWK (the key is made, or loaded, on first use).
    fn dpop_public_jwk(&self) -> LocalBoxFuture<'_, Result<Value, McpError>> {
        Box::pin(async { Err(McpError::input("This host has no DPoP key")) })
    }
    /// Signs `input` with the DPoP key (ES256, raw r||s).
    fn sign_dpop(&self, _input: Vec<u8>) -> LocalBoxFuture<'_, Result<Vec<u8>, McpError>> {
        Box::pin(async { Err(McpError::input("This host has no DPoP key")) })
    }
}

/// Credentials the application configured for a grant without a user.
#[derive(Debug, Clone)]
pub struct StaticClient {
    /// `clientId`, `clientSecret`, `issuer` (binds them to one AS).
    pub info: ClientInformation,
    /// `method`: the preferred secret method.
    pub method: Option<AuthMethod>,
    /// The signing algorithm of the host's private key (`private_key_jwt`), if one is held.
    pub signing: Option<Alg>,
}

/// Where a `jwt_bearer` assertion comes from.
#[derive(Debug, Clone)]
pub enum AssertionSource {
    /// The application's `assertion` callback (workload identity).
    Callback,
    /// `idJagAssertion(...)`: an RFC 8693 exchange of an ID token at the enterprise IdP.
    IdJag {
        /// The IdP token endpoint.
        token_endpoint: String,
        /// The user's ID token.
        id_token: Secret,
        /// The application's client at the IdP.
        idp_client: ClientInformation,
    },
}

/// Which grant obtains tokens.
#[derive(Debug, Clone, Default)]
pub enum GrantConfig {
    /// The authorization-code flow with PKCE (a user signs in).
    #[default]
    AuthorizationCode,
    /// `client_credentials` (machine to machine).
    ClientCredentials(StaticClient),
    /// RFC 7523 JWT bearer (workload identity, enterprise ID-JAG).
    JwtBearer(StaticClient, AssertionSource),
}

/// The application's `auth` options, read and checked.
#[derive(Debug, Clone, Default)]
pub struct AuthConfig {
    /// The MCP server URL, as given.
    pub server_url: String,
    /// Where the AS sends the user back.
    pub redirect_uri: String,
    /// `clientMetadata`: the RFC 7591 body for dynamic registration.
    pub client_metadata: Option<Value>,
    /// `clientMetadataUrl`: the CIMD `client_id`.
    pub client_metadata_url: Option<String>,
    /// `clientInformation`: pre-registered credentials.
    pub client_information: Option<ClientInformation>,
    /// `scope`: used when neither the challenge nor the PRM names scopes.
    pub scope: Option<String>,
    /// `onInsufficientScope`.
    pub step_up: StepUpPolicy,
    /// `maxStepUp`.
    pub max_step_up: u32,
    /// `grant`: how tokens are obtained.
    pub grant: GrantConfig,
    /// `dpop`: sender-constrained tokens (RFC 9449).
    pub dpop: bool,
}

impl AuthConfig {
    /// True unless `clientMetadata.grant_types` leaves out `refresh_token`.
    fn wants_refresh(&self) -> bool {
        match self
            .client_metadata
            .as_ref()
            .and_then(|m| m.get("grant_types"))
        {
            Some(Value::Array(a)) => a.iter().any(|g| g.as_str() == Some("refresh_token")),
            _ => true,
        }
    }
}

/// What a request was sent with: the generation of the tokens it carried.
#[derive(Debug, Clone)]
pub struct Ticket {
    /// The `Authorization` value, if any.
    pub authorization: Option<Secret>,
    /// The `DPoP` proof to send with it.
    pub dpop: Option<String>,
    generation: u64,
}

/// The authorization attempts of one operation (an MCP request and its retries).
#[derive(Debug, Default)]
pub struct Operation {
    budget: Option<Budget>,
    refreshed: bool,
    recoveries: u32,
    nonce_retried: bool,
}

/// The signed-in state shown to the application (`client.authorization`): never a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The issuer of the tokens.
    pub issuer: String,
    /// The granted scope.
    pub scope: Option<String>,
    /// When the access token expires (ms since the epoch).
    pub expires_at_ms: Option<u64>,
}

#[derive(Default)]
struct State {
    loaded: bool,
    stored: Stored,
    /// The server accepted the current access token at least once.
    accepted: bool,
    /// Bumped whenever the tokens change.
    generation: u64,
    prm: Option<ResourceMetadata>,
    meta: Option<ServerMetadata>,
    /// DPoP nonces by origin (RFC 9449 §8, §9).
    dpop_nonces: SmallMap<String, String>,
    /// The DPoP key's public JWK and its RFC 7638 thumbprint.
    dpop_key: Option<(Value, String)>,
}

/// The authorization flow of one client.
pub struct Authorizer<H: AuthHost> {
    config: AuthConfig,
    host: H,
    state: RefCell<State>,
    /// Held while tokens are being obtained or refreshed.
    busy: crate::util::lock::Lock,
}

impl<H: AuthHost> std::fmt::Debug for Authorizer<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authorizer")
            .field("server_url", &self.config.server_url)
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

/// A token request `body` with its `client_assertion` replaced by `fresh`.
fn with_client_assertion(body: &Secret, fresh: &Secret) -> Secret {
    let pairs = super::form::parse(body.expose());
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| match k.as_str() {
            "client_assertion" => (k.as_str(), fresh.expose()),
            _ => (k.as_str(), v.as_str()),
        })
        .collect();
    Secret::new(super::form::encode_pairs(&pairs))
}

/// A token request: where it goes, what it asked for, and what its tokens are stored with.
struct TokenCall<'a> {
    endpoint: String,
    request: TokenRequest,
    /// The scope requested (the tokens' scope when the response names none).
    scope: Option<&'a str>,
    issuer: &'a str,
    /// Re-signs a `private_key_jwt` client assertion for a DPoP nonce retry.
    signer: Option<(&'a str, Alg)>,
    resource: Option<String>,
    auth_methods: Vec<String>,
    /// The tokens a refresh replaces.
    previous: Option<&'a tokens::TokenSet>,
}

/// One metadata URL tried, with its status (`None`: the fetch failed).
type Tried = Vec<(String, Option<u16>)>;

fn tried_json(tried: &Tried) -> Value {
    Value::Array(
        tried
            .iter()
            .map(|(url, status)| json!({ "url": url, "status": status }))
            .collect(),
    )
}

fn not_found(what: &str, tried: &Tried) -> McpError {
    let mut message = format!("No {what} found; tried ");
    for (i, (url, status)) in tried.iter().enumerate() {
        if i > 0 {
            message.push_str(", ");
        }
        message.push_str(url);
        match status {
            Some(s) => message.push_str(&format!(" ({s})")),
            None => message.push_str(" (fetch failed)"),
        }
    }
    errors::auth_error(
        ErrorKind::AuthMetadata,
        message,
        json!({ "tried": tried_json(tried) }),
    )
}

/// The `state_mismatch` of a callback without a pending authorization.
fn no_pending() -> McpError {
    errors::state_mismatch(
        "No authorization is pending for this server (already finished, or started by another client configuration)",
    )
}

/// A POST of `request` (a body of `content_type`, with its `Authorization`) to `url`.
fn post_request(
    url: &str,
    content_type: &'static str,
    request: TokenRequest,
    dpop: Option<String>,
) -> AuthRequest {
    let mut req = AuthRequest::new(
        "POST",
        url,
        Some(content_type),
        Some(request.body),
        request.authorization,
        tokens::MAX_RESPONSE_BYTES,
    );
    req.dpop = dpop;
    req
}

/// A fetch's outcome; a failed fetch names `what` and the URL.
fn fetched(
    response: Result<AuthResponse, McpError>,
    what: &str,
    url: &str,
) -> Result<AuthResponse, McpError> {
    response.map_err(|e| e.with_context([what, url].concat()))
}

/// The PRM URLs to try: a challenge's `resource_metadata` first, then the well-known ones.
fn prm_url_list(server_url: &str, hint: &AuthHint) -> Result<Vec<String>, McpError> {
    let mut urls = discovery::prm_urls(server_url, hint.resource_metadata.as_deref())?;
    if hint.resource_metadata.is_some() {
        // A challenge's URL that fails falls back to the well-known ones.
        for u in discovery::prm_urls(server_url, None)? {
            if !urls.contains(&u) {
                urls.push(u);
            }
        }
    }
    Ok(urls)
}

/// The 2025-03-26 authorization server of a server without PRM: its origin, if https.
fn legacy_issuer(server_url: &str) -> Result<String, McpError> {
    let issuer = discovery::legacy_issuer(server_url)?;
    if !super::url::is_acceptable_endpoint(&issuer) {
        return Err(errors::metadata(format!(
            "The server {} has no protected resource metadata, and its own origin (the 2025-03-26 authorization server) is not https: credentials are not sent there",
            errors::clean_text(server_url)
        )));
    }
    Ok(issuer)
}

/// The AS metadata from the document `found` at one of `tried` (`legacy`: of a server
/// without PRM, whose AS may have none: then the default endpoints).
fn server_metadata(
    found: Option<String>,
    tried: &Tried,
    issuer: &str,
    legacy: bool,
    server_url: &str,
) -> Result<ServerMetadata, McpError> {
    match (found, legacy) {
        (Some(body), false) => metadata::parse_server_metadata(&body, issuer),
        (Some(body), true) => metadata::parse_legacy_server_metadata(&body, issuer),
        (None, false) => Err(not_found("authorization server metadata", tried)),
        (None, true) => Ok(ServerMetadata::legacy_defaults(
            issuer,
            &discovery::legacy_endpoints(server_url)?,
        )),
    }
}

impl<H: AuthHost> Authorizer<H> {
    /// A flow for `config` over `host`; storage is read on first use.
    pub fn new(config: AuthConfig, host: H) -> Self {
        Authorizer {
            config,
            host,
            state: RefCell::new(State::default()),
            busy: Default::default(),
        }
    }

    /// The host (for the JS layer's own use of it).
    pub fn host(&self) -> &H {
        &self.host
    }

    /// The signed-in state, or `None`.
    pub fn status(&self) -> Option<Status> {
        let st = self.state.borrow();
        st.stored.grant.as_ref().map(|g| Status {
            issuer: g.tokens.issuer.clone(),
            scope: g.tokens.scope.clone(),
            expires_at_ms: g.tokens.expires_at_ms,
        })
    }

    async fn load(&self) -> Result<(), McpError> {
        if self.state.borrow().loaded {
            return Ok(());
        }
        let text = self.host.load(store::key(&self.config.server_url)).await?;
        let mut st = self.state.borrow_mut();
        if !st.loaded {
            st.stored = Stored::parse(text.as_deref());
            st.loaded = true;
            st.generation += 1;
        }
        Ok(())
    }

    async fn persist(&self) -> Result<(), McpError> {
        let text = self.state.borrow().stored.to_text();
        self.host
            .save(store::key(&self.config.server_url), text)
            .await
    }

    fn set_grant(&self, grant: Option<Grant>) {
        let mut st = self.state.borrow_mut();
        st.stored.grant = grant;
        st.accepted = false;
        st.generation += 1;
    }

    fn ticket(&self) -> Ticket {
        let st = self.state.borrow();
        Ticket {
            authorization: st.stored.grant.as_ref().map(|g| g.tokens.authorization()),
            dpop: None,
            generation: st.generation,
        }
    }

    /// The `Authorization` for the next MCP request: none before sign-in; the access token,
    /// refreshed first when it expires within a minute.
    pub async fn before_request(
        &self,
        op: &mut Operation,
        method: &str,
        url: &str,
    ) -> Result<Ticket, McpError> {
        self.load().await?;
        let static_grant = !matches!(self.config.grant, GrantConfig::AuthorizationCode);
        // A grant without a user gets its next token before the old one lapses: no refresh
        // token needed, no 401 round trip.
        let renew = static_grant && !op.refreshed && self.renewal_due();
        let decide = || {
            let st = self.state.borrow();
            tokens::before_request(
                st.stored.grant.as_ref().map(|g| &g.tokens),
                self.host.now_ms(),
                tokens::DEFAULT_SKEW_MS,
            )
        };
        if renew || !matches!(decide(), BeforeRequest::Anonymous | BeforeRequest::Send) {
            let _busy = self.busy.lock().await;
            if renew {
                if self.renewal_due() {
                    op.refreshed = true;
                    self.budget(op).authorize()?;
                    let scope = self.status().and_then(|s| s.scope);
                    self.obtain_by_grant(scope.as_deref()).await?;
                }
            } else {
                match decide() {
                    BeforeRequest::Refresh if !op.refreshed => {
                        op.refreshed = true;
                        if let Err(e) = self.refresh().await {
                            // A dead refresh token leaves no grant: the server's 401 starts a
                            // sign-in.
                            if self.state.borrow().stored.grant.is_some() {
                                return Err(e);
                            }
                        }
                    }
                    BeforeRequest::Authorize => {
                        // Expired and not refreshable: send without it; the 401 signs in again.
                        self.set_grant(None);
                        self.persist().await?;
                    }
                    _ => {}
                }
            }
        }
        let mut ticket = self.ticket();
        let bound = {
            let st = self.state.borrow();
            st.stored
                .grant
                .as_ref()
                .filter(|g| g.tokens.is_dpop())
                .map(|g| g.tokens.access_token.clone())
        };
        if let (true, Some(token)) = (self.config.dpop, bound) {
            ticket.dpop = Some(self.dpop_proof(method, url, Some(&token)).await?);
        }
        Ok(ticket)
    }

    /// True when the token of a grant without a user expires within the refresh skew and
    /// the authorization server is known (discovered in this client).
    fn renewal_due(&self) -> bool {
        let st = self.state.borrow();
        let expires = st
            .stored
            .grant
            .as_ref()
            .and_then(|g| g.tokens.expires_at_ms);
        st.meta.is_some()
            && expires
                .is_some_and(|e| self.host.now_ms().saturating_add(tokens::DEFAULT_SKEW_MS) >= e)
    }

    /// The server answered a request sent with `ticket` with a success.
    pub fn accepted(&self, ticket: &Ticket) {
        let mut st = self.state.borrow_mut();
        if ticket.generation == st.generation && ticket.authorization.is_some() {
            st.accepted = true;
        }
    }

    /// Handles a 401 or `403 insufficient_scope` met by a request sent with `ticket`:
    /// `Ok(())` means the request should be sent again (with a fresh `before_request`).
    /// Boxed: a rare path, kept out of every request's future.
    pub fn recover<'a>(
        &'a self,
        ticket: &'a Ticket,
        status: u16,
        www_authenticate: Option<&'a str>,
        dpop_nonce: Option<&'a str>,
        url: &'a str,
        op: &'a mut Operation,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        Box::pin(self.recover_inner(ticket, status, www_authenticate, dpop_nonce, url, op))
    }

    async fn recover_inner(
        &self,
        ticket: &Ticket,
        status: u16,
        www_authenticate: Option<&str>,
        dpop_nonce: Option<&str>,
        url: &str,
        op: &mut Operation,
    ) -> Result<(), McpError> {
        let hint = AuthHint::from_header(www_authenticate);
        if let (Some(nonce), true) = (dpop_nonce, self.config.dpop) {
            self.remember_nonce(url, nonce);
            if matches!(
                hint.error,
                Some(super::challenge::ChallengeError::UseDpopNonce)
            ) {
                if op.nonce_retried {
                    return Err(errors::auth_error(
                        ErrorKind::DpopError,
                        "The server asked for a new DPoP nonce twice in a row",
                        Value::Null,
                    ));
                }
                op.nonce_retried = true;
                return Ok(());
            }
        }
        op.recoveries += 1;
        if op.recoveries > MAX_RECOVERIES {
            return Err(self.still_refused(status, &hint));
        }
        let _busy = self.busy.lock().await;
        if self.state.borrow().generation != ticket.generation {
            // Another request changed the tokens meanwhile: try with those.
            return Ok(());
        }
        // A 403's step-up scope: the union of the granted scope and the challenge's.
        let mut step_up = None;
        let mut has_refresh = false;
        let mut rediscover = false;
        let mut old_issuer = None;
        let mut recovery = Recovery::Authorize;
        if status == 403 {
            let granted = self.status().and_then(|s| s.scope).unwrap_or_default();
            step_up = Some(self.budget(op).step_up(
                self.config.step_up,
                &granted,
                hint.scope.as_deref(),
            )?);
        } else {
            let sent;
            (sent, has_refresh) = {
                let st = self.state.borrow();
                let grant = st.stored.grant.as_ref();
                let sent = match (&ticket.authorization, st.accepted) {
                    (None, _) => SentToken::None,
                    (Some(_), true) => SentToken::Accepted,
                    (Some(_), false) => SentToken::Unproven,
                };
                (
                    sent,
                    grant.is_some_and(|g| g.tokens.refresh_token.is_some()),
                )
            };
            recovery = tokens::on_unauthorized(sent, has_refresh, op.refreshed);
            rediscover = matches!(recovery, Recovery::Rediscover | Recovery::Authorize);
        }
        // A refresh first (401), or after a rediscovery that found the same AS; one await
        // for both.
        let mut refresh_now = recovery == Recovery::Refresh;
        let mut discovered = false;
        loop {
            if refresh_now {
                op.refreshed = true;
                match self.refresh().await {
                    Ok(()) => return Ok(()),
                    // A dead refresh token leaves no grant: discover and obtain new tokens.
                    Err(e) if !discovered && self.state.borrow().stored.grant.is_some() => {
                        return Err(e)
                    }
                    Err(_) => {}
                }
            }
            if discovered {
                break;
            }
            if rediscover {
                self.state.borrow_mut().prm = None;
                old_issuer = self.status().map(|s| s.issuer);
            }
            // A 401 always (re)discovers; a step-up only when no AS is known yet.
            if step_up.is_none() || self.state.borrow().meta.is_none() {
                Box::pin(self.discover(&hint)).await?;
            }
            discovered = true;
            refresh_now = rediscover
                && match (&old_issuer, self.state.borrow().meta.as_ref()) {
                    (Some(old), Some(new)) => {
                        tokens::after_rediscovery(old, &new.issuer, has_refresh, op.refreshed)
                            == tokens::AfterRediscovery::Refresh
                    }
                    _ => false,
                };
            if !refresh_now {
                break;
            }
        }
        let scope = if step_up.is_some() {
            step_up
        } else {
            if rediscover {
                // Another AS (SEP-2352): its own registration; old credentials stay bound to
                // the old issuer and are never sent to the new one.
                self.set_grant(None);
            }
            // New tokens by the configured grant, counted against the per-operation budget.
            self.budget(op).authorize()?;
            match &self.config.grant {
                // A sign-in.
                GrantConfig::AuthorizationCode => {
                    self.select_scope(hint.scope.as_deref(), self.config.wants_refresh())
                }
                _ => {
                    // A token just obtained is not renewed again within this operation,
                    // however short its life.
                    op.refreshed = true;
                    return self.obtain_by_grant(hint.scope.as_deref()).await;
                }
            }
        };
        self.authorize_with(scope).await
    }

    /// The scope to request (see [`scopes::select`]) with the known PRM and AS metadata.
    fn select_scope(&self, challenge: Option<&str>, offline: bool) -> Option<String> {
        let st = self.state.borrow();
        scopes::select(
            challenge,
            st.prm.as_ref().and_then(|p| p.scopes_supported.as_deref()),
            self.config.scope.as_deref(),
            st.meta.as_ref().and_then(|m| m.scopes_supported.as_deref()),
            offline,
        )
    }

    /// The operation's authorization budget (`maxStepUp`, and the per-operation cap).
    fn budget<'o>(&self, op: &'o mut Operation) -> &'o mut Budget {
        op.budget
            .get_or_insert_with(|| Budget::new(self.config.max_step_up))
    }

    fn still_refused(&self, status: u16, hint: &AuthHint) -> McpError {
        if status == 403 {
            return errors::insufficient_scope(
                "The server still refuses the request after re-authorization",
                hint.scope.as_deref(),
            );
        }
        errors::auth_error(
            ErrorKind::Unauthorized,
            format!("The server still answers 401 after {MAX_RECOVERIES} attempts to authorize"),
            json!({ "resourceMetadata": hint.resource_metadata, "scope": hint.scope }),
        )
    }

    /// Fetches PRM (unless known) and the AS metadata, checking `resource` and `issuer`.
    async fn discover(&self, hint: &AuthHint) -> Result<(), McpError> {
        let server_url = self.config.server_url.as_str();
        let mut prm = self.state.borrow().prm.clone();
        // First the PRM (unless known), then the AS metadata: one document search each.
        let mut find_prm = prm.is_none();
        let mut issuer = String::new();
        loop {
            let urls = if find_prm {
                prm_url_list(server_url, hint)?
            } else {
                // 2025-03-26 (no PRM): the AS is the server's origin, else default endpoints.
                issuer = match &prm {
                    Some(prm) => prm.issuer().to_string(),
                    None => legacy_issuer(server_url)?,
                };
                discovery::as_metadata_urls(&issuer)?
            };
            // GETs `urls` in order until one reads as a document; none when none exists. A
            // document that exists but fails its checks is the error; so is a 5xx or 3xx;
            // and when every fetch failed for CORS, that `auth_cors` error.
            let mut tried: Tried = Vec::new();
            let mut cors: Option<McpError> = None;
            let mut found = None;
            for url in &urls {
                let response = self
                    .host
                    .fetch(AuthRequest::new(
                        "GET",
                        url,
                        None,
                        None,
                        None,
                        metadata::MAX_DOCUMENT_BYTES,
                    ))
                    .await;
                let status = match &response {
                    Ok(r) => Some(r.status),
                    Err(e) => {
                        if e.kind == Some(ErrorKind::AuthCors) && cors.is_none() {
                            cors = Some(e.clone());
                        }
                        None
                    }
                };
                tried.push((url.clone(), status));
                match discovery::verdict(status) {
                    Verdict::Use => {
                        found = Some(response.map(|r| r.body).unwrap_or_default());
                        break;
                    }
                    Verdict::Next => continue,
                    Verdict::Fail => {
                        return Err(not_found("usable metadata", &tried)
                            .with_context(format!("{url} answered HTTP {}", status.unwrap_or(0))))
                    }
                }
            }
            if let (None, Some(e), true) = (&found, cors, tried.iter().all(|(_, s)| s.is_none())) {
                return Err(e);
            }
            if find_prm {
                find_prm = false;
                if let Some(body) = found {
                    prm = Some(metadata::parse_resource_metadata(&body, server_url)?);
                }
                continue;
            }
            let meta = server_metadata(found, &tried, &issuer, prm.is_none(), server_url)?;
            let mut st = self.state.borrow_mut();
            st.prm = prm;
            st.meta = Some(meta);
            return Ok(());
        }
    }

    /// `client_credentials` or `jwt_bearer` at the AS of the discovered metadata. A failure
    /// is final for this operation: a refused assertion is never sent again.
    async fn obtain_by_grant(&self, challenge_scope: Option<&str>) -> Result<(), McpError> {
        let grant = &self.config.grant;
        // What the request needs of the known PRM and AS metadata, checked.
        let (client, issuer, token_endpoint, auth_methods, resource, scope) = {
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
            let wanted = if matches!(grant, GrantConfig::ClientCredentials(_)) {
                "client_credentials"
            } else {
                tokens::JWT_BEARER_GRANT
            };
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
            let scope = self.select_scope(challenge_scope, false);
            (
                client,
                meta.issuer.clone(),
                meta.token_endpoint.clone(),
                meta.auth_methods(),
                st.prm.as_ref().map(|p| p.resource.clone()),
                scope,
            )
        };
        let method = choose_static_method(
            client.method,
            &auth_methods,
            client.info.client_secret.is_some(),
            client.signing.is_some(),
        );
        let client_assertion = match (method, client.signing) {
            (AuthMethod::PrivateKeyJwt, Some(alg)) => Some(
                self.client_assertion(&client.info.client_id, &issuer, alg)
                    .await?,
            ),
            _ => None,
        };
        let assertion = match grant {
            GrantConfig::JwtBearer(_, source) => Some({
                // The application's callback, or an ID-JAG from the enterprise IdP.
                match source {
                    AssertionSource::Callback => self
                        .host
                        .assertion(issuer.clone(), resource.clone(), scope.clone())
                        .await
                        .and_then(|a| {
                            if a.expose().is_empty() {
                                Err(errors::auth_error(
                                    ErrorKind::AssertionError,
                                    "The assertion callback returned an empty assertion",
                                    Value::Null,
                                ))
                            } else {
                                Ok(a)
                            }
                        }),
                    AssertionSource::IdJag {
                        token_endpoint,
                        id_token,
                        idp_client,
                    } => {
                        let request = tokens::id_jag_exchange_request(
                            idp_client,
                            id_token,
                            &issuer,
                            resource.as_deref(),
                            scope.as_deref(),
                        )?;
                        let response = fetched(
                            self.host
                                .fetch(post_request(
                                    token_endpoint,
                                    tokens::CONTENT_TYPE,
                                    request,
                                    None,
                                ))
                                .await,
                            "token exchange at ",
                            token_endpoint,
                        )?;
                        tokens::parse_exchange_response(response.status, &response.body).map_err(
                            |e| e.with_context("The identity provider refused the ID-JAG exchange"),
                        )
                    }
                }?
            }),
            _ => None,
        };
        let request = tokens::static_grant_request(
            &client.info,
            method,
            assertion.as_ref(),
            scope.as_deref(),
            resource.as_deref(),
            client_assertion.as_ref(),
        )?;
        let signer = match (&client_assertion, client.signing) {
            (Some(_), Some(alg)) => Some((client.info.client_id.as_str(), alg)),
            _ => None,
        };
        self.grant_tokens(
            TokenCall {
                endpoint: token_endpoint,
                request,
                scope: scope.as_deref(),
                issuer: &issuer,
                signer,
                resource,
                auth_methods,
                previous: None,
            },
            &mut RefreshFailure::Fail,
        )
        .await
    }

    /// A `private_key_jwt` client assertion for the AS `audience`, signed by the host.
    async fn client_assertion(
        &self,
        client_id: &str,
        audience: &str,
        alg: Alg,
    ) -> Result<Secret, McpError> {
        let jti = pkce::base64url(&self.host.random(16)?);
        let now_s = self.host.now_ms() / 1000;
        let header = jose::client_assertion_header(alg, None);
        let claims = jose::client_assertion_claims(client_id, audience, &jti, now_s, 300);
        let input = jose::signing_input(&header, &claims);
        let signature = self.host.sign_client(input.as_bytes().to_vec()).await?;
        Ok(Secret::new(jose::compact(&input, &signature)))
    }

    /// Keeps a `DPoP-Nonce` the server at `url` sent (on any response) for the next proof.
    pub fn remember_nonce(&self, url: &str, nonce: &str) {
        if !self.config.dpop {
            return;
        }
        if let Some(origin) = super::url::split(url).map(|u| u.origin_key()) {
            self.state
                .borrow_mut()
                .dpop_nonces
                .insert(origin, nonce.to_string());
        }
    }

    /// A DPoP proof for `method` `url` (with `ath` for an access token), carrying the
    /// newest nonce of that origin.
    async fn dpop_proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&Secret>,
    ) -> Result<String, McpError> {
        // The DPoP key's public JWK, and its thumbprint, are asked of the host once.
        if self.state.borrow().dpop_key.is_none() {
            let jwk = jose::public_jwk(&self.host.dpop_public_jwk().await?)?;
            let digest = self
                .host
                .sha256(jose::thumbprint_input(&jwk)?.into_bytes())
                .await?;
            self.state.borrow_mut().dpop_key = Some((jwk, jose::thumbprint(&digest)));
        }
        let jti = pkce::base64url(&self.host.random(16)?);
        let ath = match access_token {
            Some(t) => Some(jose::ath(
                &self.host.sha256(t.expose().as_bytes().to_vec()).await?,
            )),
            None => None,
        };
        let origin = super::url::split(url).map(|u| u.origin_key());
        let input = {
            let st = self.state.borrow();
            let jwk = st.dpop_key.as_ref().map_or(&Value::Null, |(jwk, _)| jwk);
            let nonce = origin.and_then(|o| st.dpop_nonces.get(&o));
            jose::signing_input(
                &jose::dpop_header(Alg::Es256, jwk),
                &jose::dpop_claims(
                    &jti,
                    method,
                    url,
                    self.host.now_ms() / 1000,
                    ath.as_deref(),
                    nonce.map(String::as_str),
                ),
            )
        };
        let signature = self.host.sign_dpop(input.as_bytes().to_vec()).await?;
        Ok(jose::compact(&input, &signature))
    }

    /// One authorization request with `scope`, its callback, and the code redeemed.
    async fn authorize_with(&self, scope: Option<String>) -> Result<(), McpError> {
        let (resource, meta) = {
            let st = self.state.borrow();
            (st.prm.as_ref().map(|p| p.resource.clone()), st.meta.clone())
        };
        let meta = meta.ok_or_else(|| errors::metadata("No authorization server is known"))?;
        // The client's credentials at this AS: held ones bound to it, a CIMD URL, or a new
        // dynamic registration (stored).
        let configured = self.configured_client();
        let path = {
            let st = self.state.borrow();
            let mut known: Vec<&ClientInformation> = Vec::new();
            if let Some(c) = &configured {
                known.push(c);
            }
            known.extend(st.stored.clients.iter());
            registration::choose(&known, self.config.client_metadata_url.as_deref(), &meta)?
        };
        let mut save = false;
        let client = match path {
            RegistrationPath::Known(c) => {
                if configured.is_some_and(|k| k.issuer.is_none() && k.client_id == c.client_id) {
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
                    save = true;
                }
                c
            }
            RegistrationPath::MetadataDocument(c) => c,
            RegistrationPath::Dynamic { endpoint } => {
                let body = registration::registration_body(
                    self.config.client_metadata.as_ref(),
                    &self.config.redirect_uri,
                    self.config.wants_refresh(),
                )?;
                let request = TokenRequest {
                    body: Secret::new(body),
                    authorization: None,
                };
                let response = fetched(
                    self.host
                        .fetch(post_request(&endpoint, "application/json", request, None))
                        .await,
                    "registering at ",
                    &endpoint,
                )?;
                let client = registration::parse_registration_response(
                    response.status,
                    &response.body,
                    &meta.issuer,
                )?;
                let mut st = self.state.borrow_mut();
                st.stored.clients.retain(|c| !c.usable_with(&meta.issuer));
                st.stored.clients.push(client.clone());
                save = true;
                client
            }
        };
        if save {
            self.persist().await?;
        }
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
        self.grant_tokens(
            TokenCall {
                endpoint: pending.token_endpoint,
                request,
                scope: pending.request.scope.as_deref(),
                issuer: &pending.request.issuer,
                signer: None,
                resource: pending.request.resource,
                auth_methods: pending.auth_methods,
                previous: None,
            },
            &mut RefreshFailure::Fail,
        )
        .await
    }

    /// The token request of `call`, and its tokens stored as the grant. The request is POSTed
    /// with a DPoP proof when configured, and retried once with the AS's nonce on
    /// `use_dpop_nonce`; the call's `signer` (client id, algorithm) re-signs the
    /// `private_key_jwt` client assertion for the retry: the AS may have used up the first
    /// one's `jti` (RFC 7523 §3). An OAuth error response also sets `failure` to what a
    /// refresh does about it (see [`tokens::on_refresh_error`]).
    async fn grant_tokens(
        &self,
        mut call: TokenCall<'_>,
        failure: &mut RefreshFailure,
    ) -> Result<(), McpError> {
        let endpoint = call.endpoint.as_str();
        let mut nonce_retried = false;
        let fresh = loop {
            let dpop = if self.config.dpop {
                Some(self.dpop_proof("POST", endpoint, None).await?)
            } else {
                None
            };
            let response = fetched(
                self.host
                    .fetch(post_request(
                        endpoint,
                        tokens::CONTENT_TYPE,
                        call.request.clone(),
                        dpop,
                    ))
                    .await,
                "token request to ",
                endpoint,
            )?;
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
                *failure = tokens::on_refresh_error(Some(&oauth));
                return Err(oauth.to_error());
            }
            let tokens = tokens::parse_token_response(
                &response.body,
                self.host.now_ms(),
                call.scope,
                call.issuer,
            )?;
            if self.config.dpop && tokens.is_dpop() {
                // A DPoP-bound token that is a readable JWT must name our key (`cnf.jkt`);
                // an opaque one is trusted on the AS's `token_type`.
                // This request's proof made (or found) the key, so its thumbprint is known.
                if let Some(jkt) = jose::cnf_jkt(tokens.access_token.expose()) {
                    let other = (self.state.borrow().dpop_key.as_ref())
                        .is_none_or(|(_, ours)| *ours != jkt);
                    if other {
                        return Err(errors::auth_error(
                            ErrorKind::DpopError,
                            "The access token is bound to another DPoP key (cnf.jkt differs from this client's key thumbprint)",
                            Value::Null,
                        ));
                    }
                }
            }
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
        self.persist().await
    }

    /// The application's `clientInformation`; given without an issuer, it is bound to the AS
    /// it was first used with (recorded among the stored clients by [`Self::authorize_with`]).
    fn configured_client(&self) -> Option<ClientInformation> {
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
    fn held_client(&self, issuer: &str) -> Option<ClientInformation> {
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
    async fn refresh(&self) -> Result<(), McpError> {
        let Some(grant) = self.state.borrow().stored.grant.clone() else {
            return Err(errors::unauthorized("No tokens to refresh"));
        };
        let Some(refresh_token) = grant.tokens.refresh_token.clone() else {
            return Err(errors::unauthorized("No refresh token"));
        };
        let issuer = grant.tokens.issuer.clone();
        // The error, after the state it leaves is stored.
        let error = match self.held_client(&issuer) {
            None => {
                self.set_grant(None);
                errors::unauthorized("No client credentials for the issuer of the tokens")
            }
            Some(client) => {
                let method = choose_auth_method(
                    client.token_endpoint_auth_method.as_deref(),
                    &grant.auth_methods,
                    client.client_secret.is_some(),
                );
                let request = tokens::refresh_request(
                    &client,
                    method,
                    &refresh_token,
                    grant.resource.as_deref(),
                )?;
                let mut failure = RefreshFailure::Fail;
                let Err(e) = self
                    .grant_tokens(
                        TokenCall {
                            endpoint: grant.token_endpoint.clone(),
                            request,
                            scope: grant.tokens.scope.as_deref(),
                            issuer: &issuer,
                            signer: None,
                            resource: grant.resource.clone(),
                            auth_methods: grant.auth_methods.clone(),
                            previous: Some(&grant.tokens),
                        },
                        &mut failure,
                    )
                    .await
                else {
                    return Ok(());
                };
                match failure {
                    RefreshFailure::DropTokens => self.set_grant(None),
                    RefreshFailure::DropClient => {
                        self.set_grant(None);
                        self.state
                            .borrow_mut()
                            .stored
                            .clients
                            .retain(|c| c.issuer.as_deref() != Some(&issuer));
                    }
                    RefreshFailure::Fail => return Err(e),
                }
                e
            }
        };
        self.persist().await?;
        Err(error)
    }

    /// Redirect mode: checks the callback against the stored pending authorization and
    /// redeems its code. A callback without a pending authorization is `state_mismatch`.
    pub fn finish<'a>(&'a self, callback: &'a str) -> LocalBoxFuture<'a, Result<(), McpError>> {
        Box::pin(self.settle(Some(callback), false))
    }

    /// Forgets the tokens (and with `all`, the registrations and any pending request).
    pub fn sign_out(&self, all: bool) -> LocalBoxFuture<'_, Result<(), McpError>> {
        Box::pin(self.settle(None, all))
    }

    /// [`Self::finish`] with the `callback`, else [`Self::sign_out`]: storage read, and no
    /// recovery under way.
    async fn settle(&self, callback: Option<&str>, all: bool) -> Result<(), McpError> {
        self.load().await?;
        let _busy = self.busy.lock().await;
        if let Some(callback) = callback {
            let issuer = match &self.state.borrow().stored.pending {
                Some(p) => p.request.issuer.clone(),
                None => return Err(no_pending()),
            };
            let client = self.held_client(&issuer).ok_or_else(|| {
                errors::registration_rejected(
                    "The client registration of the pending authorization is gone",
                )
            })?;
            return self.redeem(client, callback).await;
        }
        self.set_grant(None);
        if all {
            let mut st = self.state.borrow_mut();
            st.stored.clients.clear();
            st.stored.pending = None;
            st.prm = None;
            st.meta = None;
        }
        self.persist().await
    }
}
