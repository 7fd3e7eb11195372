//! Proofs the flow signs through its host: DPoP proofs (RFC 9449) with the newest nonce of
//! each origin, the check that a DPoP-bound token names this client's key, and
//! `private_key_jwt` client assertions (RFC 7523).

use super::{AuthHost, Authorizer};
use crate::auth::errors;
use crate::auth::jose::{self, Alg};
use crate::auth::pkce;
use crate::auth::tokens::TokenSet;
use crate::auth::url;
use crate::json::Value;
use crate::protocol::error::{ErrorKind, McpError};
use crate::util::secret::Secret;

/// Lifetime of a client assertion, in seconds.
const CLIENT_ASSERTION_LIFETIME_S: u64 = 300;

impl<H: AuthHost> Authorizer<H> {
    /// A `private_key_jwt` client assertion for the AS `audience`, signed by the host.
    pub(super) async fn client_assertion(
        &self,
        client_id: &str,
        audience: &str,
        alg: Alg,
    ) -> Result<Secret, McpError> {
        let jti = pkce::base64url(&self.host.random(16)?);
        let now_s = self.host.now_ms() / 1000;
        let header = jose::client_assertion_header(alg, None);
        let claims = jose::client_assertion_claims(
            client_id,
            audience,
            &jti,
            now_s,
            CLIENT_ASSERTION_LIFETIME_S,
        );
        let input = jose::signing_input(&header, &claims);
        let signature = self.host.sign_client(input.as_bytes().to_vec()).await?;
        Ok(Secret::new(jose::compact(&input, &signature)))
    }

    /// Keeps a `DPoP-Nonce` the server at `url` sent (on any response) for the next proof;
    /// a value that is not a valid nonce ([`jose::dpop_nonce`]) is ignored.
    pub fn remember_nonce(&self, url: &str, nonce: &str) {
        let Some(nonce) = jose::dpop_nonce(nonce).filter(|_| self.config.dpop) else {
            return;
        };
        if let Some(origin) = url::split(url).map(|u| u.origin_key()) {
            self.state
                .borrow_mut()
                .dpop_nonces
                .insert(origin, nonce.to_string());
        }
    }

    /// The DPoP key's public JWK and its thumbprint, asked of the host once.
    async fn dpop_key(&self) -> Result<(), McpError> {
        if self.state.borrow().dpop_key.is_some() {
            return Ok(());
        }
        let jwk = jose::public_jwk(&self.host.dpop_public_jwk().await?)?;
        let digest = self
            .host
            .sha256(jose::thumbprint_input(&jwk)?.into_bytes())
            .await?;
        self.state.borrow_mut().dpop_key = Some((jwk, jose::thumbprint(&digest)));
        Ok(())
    }

    /// A DPoP proof for `method` `url` (with `ath` for an access token), carrying the
    /// newest nonce of that origin.
    pub(super) async fn dpop_proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&Secret>,
    ) -> Result<String, McpError> {
        self.dpop_key().await?;
        let jti = pkce::base64url(&self.host.random(16)?);
        let ath = match access_token {
            Some(t) => Some(jose::ath(
                &self.host.sha256(t.expose().as_bytes().to_vec()).await?,
            )),
            None => None,
        };
        let origin = url::split(url).map(|u| u.origin_key());
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

    /// A DPoP proof for `method` `url` when DPoP is on, else none.
    pub(super) async fn dpop_proof_if_on(
        &self,
        method: &str,
        url: &str,
    ) -> Result<Option<String>, McpError> {
        if !self.config.dpop {
            return Ok(None);
        }
        self.dpop_proof(method, url, None).await.map(Some)
    }

    /// Checks that DPoP-bound `tokens` that are a readable JWT name this client's key
    /// (`cnf.jkt`); an opaque one is trusted on the AS's `token_type`. The token request's
    /// proof made (or found) the key, so its thumbprint is known.
    pub(super) fn check_bound_key(&self, tokens: &TokenSet) -> Result<(), McpError> {
        if !(self.config.dpop && tokens.is_dpop()) {
            return Ok(());
        }
        let Some(jkt) = jose::cnf_jkt(tokens.access_token.expose()) else {
            return Ok(());
        };
        let other = (self.state.borrow().dpop_key.as_ref()).is_none_or(|(_, ours)| *ours != jkt);
        if other {
            return Err(errors::auth_error(
                ErrorKind::DpopError,
                "The access token is bound to another DPoP key (cnf.jkt differs from this client's key thumbprint)",
                Value::Null,
            ));
        }
        Ok(())
    }
}
