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
use super::secret::Secret;

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
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine as _;

    fn client(secret: Option<&str>) -> ClientInformation {
        ClientInformation {
            client_id: "my client:1".into(),
            client_secret: secret.map(Secret::from),
            token_endpoint_auth_method: None,
            issuer: Some("https://as".into()),
            client_secret_expires_at: None,
        }
    }

    #[test]
    fn authorization_code_bodies_per_method() {
        let code = Secret::new("c0de");
        let verifier = Secret::new("v".repeat(43));
        let r = authorization_code_request(
            &client(None),
            AuthMethod::None,
            &code,
            &verifier,
            "http://localhost:3000/cb",
            Some("https://mcp.example"),
        )
        .unwrap();
        assert_eq!(
            r.body.expose(),
            format!(
                "grant_type=authorization_code&code=c0de&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcb&code_verifier={}&resource=https%3A%2F%2Fmcp.example&client_id=my+client%3A1",
                "v".repeat(43)
            )
        );
        assert!(r.authorization.is_none());
        let r = authorization_code_request(
            &client(Some("s&p")),
            AuthMethod::ClientSecretPost,
            &code,
            &verifier,
            "x:/cb",
            None,
        )
        .unwrap();
        assert!(r
            .body
            .expose()
            .ends_with("&client_id=my+client%3A1&client_secret=s%26p"));
        assert!(!r.body.expose().contains("resource"));
        let r = authorization_code_request(
            &client(Some("s&p")),
            AuthMethod::ClientSecretBasic,
            &code,
            &verifier,
            "x:/cb",
            None,
        )
        .unwrap();
        assert!(!r.body.expose().contains("client_"));
        assert!(authorization_code_request(
            &client(None),
            AuthMethod::ClientSecretBasic,
            &code,
            &verifier,
            "x:/cb",
            None
        )
        .is_err());
    }

    #[test]
    fn basic_credentials_are_form_encoded_first() {
        // RFC 6749 §2.3.1: "my client:1" → "my+client%3A1", "p@ss w:rd" → "p%40ss+w%3Ard".
        let a = basic_authorization("my client:1", &Secret::new("p@ss w:rd"));
        let expected = format!("Basic {}", STANDARD.encode("my+client%3A1:p%40ss+w%3Ard"));
        assert_eq!(a.expose(), expected);
        assert_eq!(
            basic_authorization("id", &Secret::new("secret")).expose(),
            "Basic aWQ6c2VjcmV0"
        );
    }

    #[test]
    fn refresh_bodies() {
        let r = refresh_request(
            &client(None),
            AuthMethod::None,
            &Secret::new("rt/1"),
            Some("https://mcp.example/mcp"),
        )
        .unwrap();
        assert_eq!(
            r.body.expose(),
            "grant_type=refresh_token&refresh_token=rt%2F1&resource=https%3A%2F%2Fmcp.example%2Fmcp&client_id=my+client%3A1"
        );
    }

    #[test]
    fn secrets_never_reach_debug() {
        let r = authorization_code_request(
            &client(Some("TOPSECRET")),
            AuthMethod::ClientSecretBasic,
            &Secret::new("THECODE"),
            &Secret::new("V".repeat(43)),
            "x:/cb",
            None,
        )
        .unwrap();
        let d = format!("{r:?} {:?}", client(Some("TOPSECRET")));
        for s in ["TOPSECRET", "THECODE", "VVVV", "Basic"] {
            assert!(!d.contains(s), "{s} in {d}");
        }
        let t = parse_token_response(
            r#"{"access_token":"AT-SECRET","token_type":"Bearer","refresh_token":"RT-SECRET"}"#,
            0,
            None,
            "https://as",
        )
        .unwrap();
        let d = format!("{t:?}");
        assert!(!d.contains("AT-SECRET") && !d.contains("RT-SECRET"), "{d}");
        let e = authorization_code_request(
            &client(None),
            AuthMethod::ClientSecretPost,
            &Secret::new("THECODE"),
            &Secret::new("x"),
            "x:/cb",
            None,
        )
        .unwrap_err();
        assert!(!e.message.contains("THECODE"));
    }

    #[test]
    fn token_responses() {
        let t = parse_token_response(
            r#"{"access_token":"at","token_type":"bearer","expires_in":3600,"refresh_token":"rt","scope":"a b"}"#,
            1_000,
            Some("x"),
            "https://as",
        )
        .unwrap();
        assert_eq!(t.expires_at_ms, Some(3_601_000));
        assert_eq!(t.scope.as_deref(), Some("a b"));
        assert_eq!(t.authorization().expose(), "Bearer at");
        assert!(!t.is_dpop());
        let t = parse_token_response(
            r#"{"access_token":"at","token_type":"DPoP","expires_in":"60"}"#,
            0,
            Some("req"),
            "https://as",
        )
        .unwrap();
        assert_eq!(t.expires_at_ms, Some(60_000));
        assert_eq!(t.scope.as_deref(), Some("req"));
        assert_eq!(t.authorization().expose(), "DPoP at");
        let t =
            parse_token_response(r#"{"access_token":"at","expires_in":-5}"#, 7, None, "i").unwrap();
        assert_eq!(
            (t.token_type.as_str(), t.expires_at_ms),
            ("Bearer", Some(7))
        );
        let t = parse_token_response(r#"{"access_token":"at","expires_in":1e300}"#, 7, None, "i")
            .unwrap();
        assert_eq!(t.expires_at_ms, Some(u64::MAX));
        let t = parse_token_response(r#"{"access_token":"at","expires_in":"soon"}"#, 7, None, "i")
            .unwrap();
        assert_eq!(t.expires_at_ms, None);
    }

    #[test]
    fn bad_token_responses() {
        for body in [
            "",
            "[]",
            "{",
            r#"{"token_type":"Bearer"}"#,
            r#"{"access_token":""}"#,
            r#"{"access_token":5}"#,
            r#"{"access_token":"a","token_type":"mac"}"#,
            r#"{"access_token":"a","token_type":7}"#,
            r#"{"error":"invalid_grant","error_description":"expired"}"#,
        ] {
            let e = parse_token_response(body, 0, None, "i").unwrap_err();
            assert_eq!(e.kind, Some(ErrorKind::TokenError), "{body}");
        }
        let e = parse_token_response(r#"{"error":"invalid_grant"}"#, 0, None, "i").unwrap_err();
        assert_eq!(e.data_json().unwrap()["oauthError"], "invalid_grant");
    }

    #[test]
    fn error_responses() {
        let e = parse_error_response(
            400,
            r#"{"error":"invalid_grant","error_description":"Code\nreused"}"#,
        );
        assert_eq!(e.error, "invalid_grant");
        let m = e.to_error();
        assert_eq!(
            m.message,
            "The authorization server refused the token request: invalid_grant (Code reused)"
        );
        assert_eq!(m.data_json().unwrap()["status"], 400);
        let e = parse_error_response(502, "<html>bad gateway</html>");
        assert_eq!(e.error, "http_502");
        assert_eq!(e.error_description, None);
        assert_eq!(
            on_refresh_error(Some(&parse_error_response(
                400,
                r#"{"error":"invalid_grant"}"#
            ))),
            RefreshFailure::DropTokens
        );
        assert_eq!(
            on_refresh_error(Some(&parse_error_response(
                401,
                r#"{"error":"invalid_client"}"#
            ))),
            RefreshFailure::DropClient
        );
        assert_eq!(on_refresh_error(Some(&e)), RefreshFailure::Fail);
        assert_eq!(on_refresh_error(None), RefreshFailure::Fail);
    }

    fn tokens(exp: Option<u64>, refresh: bool) -> TokenSet {
        TokenSet {
            access_token: Secret::new("at"),
            token_type: "Bearer".into(),
            refresh_token: refresh.then(|| Secret::new("rt")),
            expires_at_ms: exp,
            scope: Some("a".into()),
            issuer: "https://as".into(),
        }
    }

    #[test]
    fn before_request_decisions() {
        assert_eq!(
            before_request(None, 0, DEFAULT_SKEW_MS),
            BeforeRequest::Anonymous
        );
        assert_eq!(
            before_request(Some(&tokens(None, true)), u64::MAX, 0),
            BeforeRequest::Send
        );
        let t = tokens(Some(100_000), true);
        assert_eq!(
            before_request(Some(&t), 39_999, 60_000),
            BeforeRequest::Send
        );
        assert_eq!(
            before_request(Some(&t), 40_000, 60_000),
            BeforeRequest::Refresh
        );
        assert_eq!(
            before_request(Some(&t), u64::MAX, u64::MAX),
            BeforeRequest::Refresh
        );
        let t = tokens(Some(100_000), false);
        assert_eq!(
            before_request(Some(&t), 99_999, 60_000),
            BeforeRequest::Send
        );
        assert_eq!(
            before_request(Some(&t), 100_000, 60_000),
            BeforeRequest::Authorize
        );
    }

    #[test]
    fn unauthorized_decisions() {
        assert_eq!(
            on_unauthorized(SentToken::None, true, false),
            Recovery::Discover
        );
        assert_eq!(
            on_unauthorized(SentToken::Accepted, true, false),
            Recovery::Rediscover
        );
        assert_eq!(
            on_unauthorized(SentToken::Unproven, true, false),
            Recovery::Refresh
        );
        assert_eq!(
            on_unauthorized(SentToken::Unproven, true, true),
            Recovery::Authorize
        );
        assert_eq!(
            on_unauthorized(SentToken::Unproven, false, false),
            Recovery::Authorize
        );
        assert_eq!(
            after_rediscovery("https://as", "https://as2", true, false),
            AfterRediscovery::Reregister
        );
        assert_eq!(
            after_rediscovery("https://as", "https://as/", true, false),
            AfterRediscovery::Reregister
        );
        assert_eq!(
            after_rediscovery("https://as", "https://as", true, false),
            AfterRediscovery::Refresh
        );
        assert_eq!(
            after_rediscovery("https://as", "https://as", true, true),
            AfterRediscovery::Authorize
        );
        assert_eq!(
            after_rediscovery("https://as", "https://as", false, false),
            AfterRediscovery::Authorize
        );
    }

    #[test]
    fn refresh_keeps_the_old_refresh_token() {
        let old = tokens(Some(1), true);
        let mut new = tokens(Some(2), false);
        new.scope = None;
        let merged = new.refreshed(&old);
        assert_eq!(merged.refresh_token, Some(Secret::new("rt")));
        assert_eq!(merged.scope.as_deref(), Some("a"));
        assert_eq!(merged.expires_at_ms, Some(2));
    }
}
