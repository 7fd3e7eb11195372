//! The authorization request (RFC 6749 §4.1.1 with PKCE, RFC 8707 `resource`): the URL the
//! user (or a headless client following `Location`) visits, and the [`PendingAuthorization`]
//! kept until the callback comes back (see [`super::callback`]).

use crate::protocol::error::McpError;

use super::errors;
use super::form;
use super::pkce;
use super::url;
use crate::util::secret::Secret;

/// The parameters this client puts on the authorization URL; an endpoint whose own query
/// already holds one of them is refused (a parameter must not appear twice).
pub const PARAMS: [&str; 8] = [
    "response_type",
    "client_id",
    "redirect_uri",
    "state",
    "code_challenge",
    "code_challenge_method",
    "scope",
    "resource",
];

/// What an authorization request carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorizationRequest {
    /// The AS `authorization_endpoint`.
    pub endpoint: String,
    /// The client ID (pre-registered, CIMD URL, or from registration).
    pub client_id: String,
    /// Where the AS sends the user back.
    pub redirect_uri: String,
    /// The unguessable `state` ([`pkce::state_from_random`]).
    pub state: String,
    /// The S256 `code_challenge` ([`pkce::s256_challenge`]).
    pub code_challenge: String,
    /// The scope ([`super::scopes::select`]); `None` omits the parameter.
    pub scope: Option<String>,
    /// The PRM `resource`, verbatim; `None` omits it (no PRM: a 2025-03-26 server).
    pub resource: Option<String>,
}

impl AuthorizationRequest {
    /// The authorization URL: the endpoint (its own query kept) plus the parameters.
    pub fn url(&self) -> Result<String, McpError> {
        let parts = url::split(&self.endpoint)
            .filter(|u| u.fragment.is_none())
            .ok_or_else(|| {
                errors::metadata(format!(
                    "Bad authorization_endpoint: {}",
                    errors::clean_text(&self.endpoint)
                ))
            })?;
        if let Some(q) = parts.query {
            if let Some((name, _)) = form::parse(q)
                .into_iter()
                .find(|(k, _)| PARAMS.contains(&k.as_str()))
            {
                return Err(errors::metadata(format!(
                    "The authorization_endpoint already carries {name}"
                )));
            }
        }
        let mut pairs = vec![
            ("response_type", "code"),
            ("client_id", self.client_id.as_str()),
            ("redirect_uri", self.redirect_uri.as_str()),
            ("state", self.state.as_str()),
            ("code_challenge", self.code_challenge.as_str()),
            ("code_challenge_method", pkce::METHOD),
        ];
        if let Some(scope) = &self.scope {
            pairs.push(("scope", scope));
        }
        if let Some(resource) = &self.resource {
            pairs.push(("resource", resource));
        }
        let query = form::encode_pairs(&pairs);
        let sep = match parts.query {
            None => "?",
            Some("") => "",
            Some(q) if q.ends_with('&') => "",
            Some(_) => "&",
        };
        Ok([self.endpoint.as_str(), sep, &query].concat())
    }
}

/// What is kept between the authorization request and its callback. `Debug` redacts the
/// verifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAuthorization {
    /// The `state` sent; the callback must return it, once.
    pub state: String,
    /// The PKCE verifier, sent with the code.
    pub code_verifier: Secret,
    /// The `redirect_uri` sent (the token request repeats it).
    pub redirect_uri: String,
    /// The issuer of the AS the request went to.
    pub issuer: String,
    /// The AS advertised `authorization_response_iss_parameter_supported`.
    pub iss_supported: bool,
    /// The `resource` sent (the token request repeats it).
    pub resource: Option<String>,
    /// The `scope` sent (what is granted when the token response names none).
    pub scope: Option<String>,
    /// The callback was already accepted (state is single-use).
    pub used: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req() -> AuthorizationRequest {
        AuthorizationRequest {
            endpoint: "https://as.example/authorize".into(),
            client_id: "https://app.example/client.json".into(),
            redirect_uri: "http://localhost:3000/callback".into(),
            state: "st8".into(),
            code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM".into(),
            scope: Some("mcp:read offline_access".into()),
            resource: Some("https://mcp.example".into()),
        }
    }

    #[test]
    fn builds_the_url_in_order() {
        assert_eq!(
            req().url().unwrap(),
            "https://as.example/authorize?response_type=code\
             &client_id=https%3A%2F%2Fapp.example%2Fclient.json\
             &redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback&state=st8\
             &code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM\
             &code_challenge_method=S256&scope=mcp%3Aread+offline_access\
             &resource=https%3A%2F%2Fmcp.example"
        );
    }

    #[test]
    fn omits_absent_scope_and_resource_and_keeps_the_endpoint_query() {
        let mut r = req();
        r.scope = None;
        r.resource = None;
        r.endpoint = "https://as.example/authorize?tenant=x".into();
        let u = r.url().unwrap();
        assert!(u.starts_with("https://as.example/authorize?tenant=x&response_type=code&"));
        assert!(!u.contains("scope="));
        assert!(!u.contains("resource="));
        r.endpoint = "https://as.example/authorize?".into();
        assert!(r
            .url()
            .unwrap()
            .starts_with("https://as.example/authorize?response_type"));
    }

    #[test]
    fn refuses_bad_endpoints() {
        for bad in [
            "https://as.example/authorize?client_id=evil",
            "https://as.example/authorize?x=1&STATE=2&state=3",
            "https://as.example/authorize#frag",
            "not a url",
        ] {
            let mut r = req();
            r.endpoint = bad.into();
            assert!(r.url().is_err(), "{bad}");
        }
    }

    #[test]
    fn pending_debug_redacts_the_verifier() {
        let p = PendingAuthorization {
            state: "s".into(),
            code_verifier: Secret::new("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            redirect_uri: "http://localhost/cb".into(),
            issuer: "https://as".into(),
            iss_supported: true,
            resource: None,
            scope: None,
            used: false,
        };
        let d = format!("{p:?}");
        assert!(!d.contains("dBjft"), "{d}");
        assert!(d.contains("redacted"));
    }
}
