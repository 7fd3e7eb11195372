//! Tokens: the token request bodies (authorization code with PKCE, refresh), client
//! authentication, reading the token response and the AS error response, and the lifecycle
//! decisions (when to refresh, what a 401 means, what a failed refresh means).
//!
//! Every body and `Authorization` value is a [`Secret`]: none of them reaches `Debug` output
//! or an error message.

use crate::json::{Map, Value};
use crate::util::base64::{encode, Alphabet};

use crate::protocol::error::{ErrorKind, McpError};

use super::client::{AuthMethod, ClientInformation};
use super::errors;
use super::form;
use crate::util::secret::Secret;

/// Content type of token request bodies.
pub const CONTENT_TYPE: &str = "application/x-www-form-urlencoded";

/// Refresh this long before expiry (ms), by default.
pub const DEFAULT_SKEW_MS: u64 = 60_000;

/// Largest token response accepted, in bytes.
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;

/// A token endpoint request: POST `body` with [`CONTENT_TYPE`], plus `authorization` as the
/// `Authorization` header when set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRequest {
    /// The form body.
    pub body: Secret,
    /// `Basic …` for `client_secret_basic`.
    pub authorization: Option<Secret>,
}

/// The `Authorization: Basic` value of RFC 6749 §2.3.1: id and secret form-urlencoded, joined
/// with `:`, base64.
pub fn basic_authorization(client_id: &str, secret: &Secret) -> Secret {
    let (id, secret) = (form::encode(client_id), form::encode(secret.expose()));
    let pair = [id.as_str(), ":", secret.as_str()].concat();
    Secret::new(["Basic ", &encode(pair, Alphabet::Standard)].concat())
}

pub use super::jose::{
    CLIENT_ASSERTION_TYPE, ID_JAG_TOKEN_TYPE as ID_JAG_TYPE, ID_TOKEN_TYPE, JWT_BEARER_GRANT,
    TOKEN_EXCHANGE_GRANT,
};

fn with_client_auth<'a>(
    pairs: Vec<(&'a str, &'a str)>,
    client: &'a ClientInformation,
    method: AuthMethod,
) -> Result<TokenRequest, McpError> {
    with_client_auth_assertion(pairs, client, method, None)
}

/// Adds client authentication by `method` to a token request's `pairs`; `private_key_jwt`
/// needs the signed `client_assertion`.
pub fn with_client_auth_assertion<'a>(
    mut pairs: Vec<(&'a str, &'a str)>,
    client: &'a ClientInformation,
    method: AuthMethod,
    client_assertion: Option<&'a Secret>,
) -> Result<TokenRequest, McpError> {
    let mut authorization = None;
    match (method, &client.client_secret) {
        (AuthMethod::PrivateKeyJwt, _) => {
            let assertion = client_assertion.ok_or_else(|| {
                McpError::input("private_key_jwt needs a signed client assertion")
            })?;
            pairs.push(("client_id", &client.client_id));
            pairs.push(("client_assertion_type", CLIENT_ASSERTION_TYPE));
            pairs.push(("client_assertion", assertion.expose()));
        }
        (AuthMethod::None, _) => pairs.push(("client_id", &client.client_id)),
        (AuthMethod::ClientSecretPost, Some(secret)) => {
            pairs.push(("client_id", &client.client_id));
            pairs.push(("client_secret", secret.expose()));
        }
        (AuthMethod::ClientSecretBasic, Some(secret)) => {
            authorization = Some(basic_authorization(&client.client_id, secret));
        }
        (m, None) => {
            return Err(McpError::input(format!(
                "token_endpoint_auth_method {} needs a client_secret",
                m.as_str()
            )))
        }
    }
    let body = form::encode_pairs(&pairs);
    Ok(TokenRequest {
        body: Secret::new(body),
        authorization,
    })
}

/// `grant_type=authorization_code` with the code, `redirect_uri`, the PKCE verifier and the
/// PRM `resource` (verbatim), authenticated by `method`.
pub fn authorization_code_request(
    client: &ClientInformation,
    method: AuthMethod,
    code: &Secret,
    code_verifier: &Secret,
    redirect_uri: &str,
    resource: Option<&str>,
) -> Result<TokenRequest, McpError> {
    let mut pairs = vec![
        ("grant_type", "authorization_code"),
        ("code", code.expose()),
        ("redirect_uri", redirect_uri),
        ("code_verifier", code_verifier.expose()),
    ];
    if let Some(r) = resource {
        pairs.push(("resource", r));
    }
    with_client_auth(pairs, client, method)
}

/// `grant_type=refresh_token` with the PRM `resource`, authenticated by `method`.
pub fn refresh_request(
    client: &ClientInformation,
    method: AuthMethod,
    refresh_token: &Secret,
    resource: Option<&str>,
) -> Result<TokenRequest, McpError> {
    let mut pairs = vec![
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh_token.expose()),
    ];
    if let Some(r) = resource {
        pairs.push(("resource", r));
    }
    with_client_auth(pairs, client, method)
}

fn push_scope_resource<'a>(
    pairs: &mut Vec<(&'a str, &'a str)>,
    scope: Option<&'a str>,
    resource: Option<&'a str>,
) {
    if let Some(s) = scope.filter(|s| !s.is_empty()) {
        pairs.push(("scope", s));
    }
    if let Some(r) = resource {
        pairs.push(("resource", r));
    }
}

/// A grant without a user: the JWT bearer grant (RFC 7523 §2.1) with `assertion` (a workload
/// JWT or an ID-JAG), else `grant_type=client_credentials`; with `scope` and the PRM
/// `resource`, authenticated by `method` (`client_assertion` for `private_key_jwt`).
pub fn static_grant_request(
    client: &ClientInformation,
    method: AuthMethod,
    assertion: Option<&Secret>,
    scope: Option<&str>,
    resource: Option<&str>,
    client_assertion: Option<&Secret>,
) -> Result<TokenRequest, McpError> {
    let mut pairs = match assertion {
        Some(a) => vec![("grant_type", JWT_BEARER_GRANT), ("assertion", a.expose())],
        None => vec![("grant_type", "client_credentials")],
    };
    push_scope_resource(&mut pairs, scope, resource);
    with_client_auth_assertion(pairs, client, method, client_assertion)
}

/// The RFC 8693 exchange of an ID token for an ID-JAG at the enterprise IdP: `audience` is
/// the MCP authorization server's issuer, `resource` the PRM resource; the IdP client
/// authenticates with its secret (Basic) or by `client_id` alone.
pub fn id_jag_exchange_request(
    idp_client: &ClientInformation,
    id_token: &Secret,
    audience: &str,
    resource: Option<&str>,
    scope: Option<&str>,
) -> Result<TokenRequest, McpError> {
    let mut pairs = vec![
        ("grant_type", TOKEN_EXCHANGE_GRANT),
        ("requested_token_type", ID_JAG_TYPE),
        ("subject_token", id_token.expose()),
        ("subject_token_type", ID_TOKEN_TYPE),
        ("audience", audience),
    ];
    push_scope_resource(&mut pairs, scope, resource);
    let method = if idp_client.client_secret.is_some() {
        AuthMethod::ClientSecretBasic
    } else {
        AuthMethod::None
    };
    with_client_auth(pairs, idp_client, method)
}

/// The ID-JAG of a token exchange response (its `access_token`, RFC 8693 §2.2.1).
pub fn parse_exchange_response(status: u16, body: &str) -> Result<Secret, McpError> {
    if !(200..300).contains(&status) {
        return Err(parse_error_response(status, body).to_error());
    }
    let o = json_object(body).ok_or_else(|| {
        token_error("The identity provider answered the token exchange with something that is not a JSON object")
    })?;
    match o.get("access_token") {
        Some(Value::String(s)) if !s.is_empty() => Ok(Secret::new(s.clone())),
        _ => Err(token_error(
            "The token exchange response has no access_token (ID-JAG)",
        )),
    }
}

/// Tokens held for one issuer. `Debug` redacts the tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenSet {
    /// `access_token`.
    pub access_token: Secret,
    /// `token_type` as received (`Bearer` or `DPoP`, any case).
    pub token_type: String,
    /// `refresh_token`, if any.
    pub refresh_token: Option<Secret>,
    /// When the access token expires (ms since the epoch), from `expires_in`.
    pub expires_at_ms: Option<u64>,
    /// The granted scope (the response's, else the one requested).
    pub scope: Option<String>,
    /// The issuer that issued them.
    pub issuer: String,
}

impl TokenSet {
    /// True for a DPoP-bound token.
    pub fn is_dpop(&self) -> bool {
        self.token_type.eq_ignore_ascii_case("DPoP")
    }

    /// The `Authorization` header value for MCP requests (`Bearer <token>` / `DPoP <token>`).
    pub fn authorization(&self) -> Secret {
        let scheme = if self.is_dpop() { "DPoP" } else { "Bearer" };
        Secret::new([scheme, " ", self.access_token.expose()].concat())
    }

    /// A refresh's result: its tokens, keeping the old refresh token (and scope) when the
    /// response carries none (RFC 6749 §6).
    pub fn refreshed(self, previous: &TokenSet) -> TokenSet {
        TokenSet {
            refresh_token: self
                .refresh_token
                .or_else(|| previous.refresh_token.clone()),
            scope: self.scope.or_else(|| previous.scope.clone()),
            ..self
        }
    }
}

/// An OAuth error response (RFC 6749 §5.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthError {
    /// `error`.
    pub error: String,
    /// `error_description`, as received.
    pub error_description: Option<String>,
    /// The HTTP status.
    pub status: u16,
}

impl OAuthError {
    /// The `token_error` McpError a UI shows (description cleaned).
    pub fn to_error(&self) -> McpError {
        errors::oauth_error(
            ErrorKind::TokenError,
            "The authorization server refused the token request",
            &self.error,
            self.error_description.as_deref(),
            Some(self.status),
        )
    }
}

fn json_object(body: &str) -> Option<Map<String, Value>> {
    if body.len() > MAX_RESPONSE_BYTES {
        return None;
    }
    match crate::json::from_str(body) {
        Ok(Value::Object(o)) => Some(o),
        _ => None,
    }
}

/// Reads an error response of the token (or registration) endpoint: its `error` and
/// `error_description`, or a generic `error` when the body is not one.
pub fn parse_error_response(status: u16, body: &str) -> OAuthError {
    let o = json_object(body);
    let get = |k: &str| {
        o.as_ref()
            .and_then(|o| o.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    OAuthError {
        error: get("error").unwrap_or_else(|| format!("http_{status}")),
        error_description: get("error_description"),
        status,
    }
}

fn token_error(message: impl Into<String>) -> McpError {
    errors::auth_error(ErrorKind::TokenError, message, Value::Null)
}

/// Reads a successful token response: `access_token` (required), `token_type` (`Bearer` or
/// `DPoP`; `Bearer` when absent), `expires_in` (seconds: number or numeric string),
/// `refresh_token`, `scope` (else `requested_scope`). A 2xx carrying `error` is that error.
pub fn parse_token_response(
    body: &str,
    now_ms: u64,
    requested_scope: Option<&str>,
    issuer: &str,
) -> Result<TokenSet, McpError> {
    let o = json_object(body).ok_or_else(|| {
        token_error("The token endpoint answered something that is not a JSON object")
    })?;
    if o.get("error").and_then(Value::as_str).is_some() {
        return Err(parse_error_response(200, body).to_error());
    }
    let access_token = match o.get("access_token") {
        Some(Value::String(s)) if !s.is_empty() => Secret::new(s.clone()),
        _ => return Err(token_error("The token response has no access_token")),
    };
    let token_type = match o.get("token_type") {
        None | Some(Value::Null) => "Bearer".to_string(),
        Some(Value::String(t))
            if t.eq_ignore_ascii_case("bearer") || t.eq_ignore_ascii_case("dpop") =>
        {
            t.clone()
        }
        Some(other) => {
            let shown = other
                .as_str()
                .map(errors::clean_text)
                .unwrap_or_else(|| "non-string".into());
            return Err(token_error(format!("Unsupported token_type: {shown}")));
        }
    };
    let expires_in = match o.get("expires_in") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => crate::util::number::parse(s),
        Some(_) => None,
    };
    let expires_at_ms = expires_in
        .filter(|s| s.is_finite())
        .map(|s| now_ms.saturating_add((s.max(0.0) * 1000.0).min(u64::MAX as f64) as u64));
    let refresh_token = o
        .get("refresh_token")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(Secret::from);
    let scope = o
        .get("scope")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| requested_scope.map(str::to_string));
    Ok(TokenSet {
        access_token,
        token_type,
        refresh_token,
        expires_at_ms,
        scope,
        issuer: issuer.to_string(),
    })
}

/// What to do before sending an MCP request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BeforeRequest {
    /// No tokens: send without `Authorization` (the server says whether it needs any).
    Anonymous,
    /// Send with the access token.
    Send,
    /// Refresh first: the token expires within the skew and a refresh token is held.
    Refresh,
    /// The token has expired and cannot be refreshed: authorize again.
    Authorize,
}

/// The decision before a request at `now_ms`, refreshing `skew_ms` before expiry.
pub fn before_request(tokens: Option<&TokenSet>, now_ms: u64, skew_ms: u64) -> BeforeRequest {
    let Some(t) = tokens else {
        return BeforeRequest::Anonymous;
    };
    let Some(exp) = t.expires_at_ms else {
        return BeforeRequest::Send;
    };
    if t.refresh_token.is_some() && now_ms.saturating_add(skew_ms) >= exp {
        BeforeRequest::Refresh
    } else if now_ms >= exp {
        BeforeRequest::Authorize
    } else {
        BeforeRequest::Send
    }
}

/// Which token went with a request that got 401.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SentToken {
    /// None.
    None,
    /// One the server has not accepted yet (just issued, or loaded from storage).
    Unproven,
    /// One the server accepted before.
    Accepted,
}

/// What follows a 401.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// Discover (PRM, AS metadata), register if needed, authorize.
    Discover,
    /// Refresh the token and retry.
    Refresh,
    /// Fetch the PRM again: the server may have moved to another AS; then
    /// [`after_rediscovery`].
    Rediscover,
    /// Authorize again with the same AS.
    Authorize,
}

/// The recovery from a 401 (`refreshed`: a refresh already happened in this operation).
pub fn on_unauthorized(sent: SentToken, has_refresh: bool, refreshed: bool) -> Recovery {
    match sent {
        SentToken::None => Recovery::Discover,
        SentToken::Accepted => Recovery::Rediscover,
        SentToken::Unproven if has_refresh && !refreshed => Recovery::Refresh,
        SentToken::Unproven => Recovery::Authorize,
    }
}

/// What follows a rediscovery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterRediscovery {
    /// Same AS: refresh the token.
    Refresh,
    /// Same AS, nothing to refresh with: authorize again.
    Authorize,
    /// Another AS: drop tokens and credentials bound to the old one, register there
    /// (SEP-2352), authorize.
    Reregister,
}

/// The decision after the PRM was fetched again, naming `discovered_issuer`.
pub fn after_rediscovery(
    token_issuer: &str,
    discovered_issuer: &str,
    has_refresh: bool,
    refreshed: bool,
) -> AfterRediscovery {
    if token_issuer != discovered_issuer {
        AfterRediscovery::Reregister
    } else if has_refresh && !refreshed {
        AfterRediscovery::Refresh
    } else {
        AfterRediscovery::Authorize
    }
}

/// What follows a failed refresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefreshFailure {
    /// `invalid_grant`: the refresh token is dead; drop the tokens and authorize again.
    DropTokens,
    /// `invalid_client` / `unauthorized_client`: the credentials are dead; drop them (and the
    /// tokens) and register again.
    DropClient,
    /// Anything else (5xx, a network failure): fail this call, keep the tokens.
    Fail,
}

/// The verdict on a refresh that failed with `error` (`None`: no OAuth error, e.g. 5xx).
pub fn on_refresh_error(error: Option<&OAuthError>) -> RefreshFailure {
    match error.map(|e| e.error.as_str()) {
        Some("invalid_grant") => RefreshFailure::DropTokens,
        Some("invalid_client" | "unauthorized_client") => RefreshFailure::DropClient,
        _ => RefreshFailure::Fail,
    }
}

#[cfg(test)]
mod tests;
