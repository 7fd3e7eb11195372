//! What the flow needs of its host: [`AuthHost`] (fetch, the clock, randomness, SHA-256,
//! storage, the authorization page, signing keys), and the requests and responses of its
//! fetches.

use crate::auth::tokens::{self, TokenRequest};
use crate::json::Value;
use crate::protocol::error::McpError;
use crate::util::secret::Secret;
use futures::future::LocalBoxFuture;

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

    /// A POST of `request` (a body of `content_type`, with its `Authorization`) to `url`,
    /// with a DPoP proof if given; the answer is read up to the token response cap.
    pub fn post(
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
    /// page load, through [`super::Authorizer::finish`].
    Redirected,
}

/// What the flow needs from its host.
pub trait AuthHost {
    /// Sends `request`. A failed fetch is an `McpError` of kind `auth_cors` (a browser hid
    /// the reason) or `network`; a body over `request.max_bytes` is
    /// [`crate::auth::errors::response_too_large`], found while reading (nothing past the cap
    /// is read).
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

/// A fetch's outcome; a failed fetch names `what` and the URL.
pub(super) fn fetched(
    response: Result<AuthResponse, McpError>,
    what: &str,
    url: &str,
) -> Result<AuthResponse, McpError> {
    response.map_err(|e| e.with_context([what, url].concat()))
}
