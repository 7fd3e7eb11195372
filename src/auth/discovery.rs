//! Where to look, in order: protected resource metadata (RFC 9728), authorization-server
//! metadata (RFC 8414 and OpenID Connect Discovery, in the MCP order), and the 2025-03-26
//! fallbacks. URLs are built from the strings received (no trailing `/` is added anywhere);
//! what to do with each answer is [`verdict`].

use crate::protocol::error::McpError;

use super::errors;
use super::url::{self, Url};

/// Well-known suffix of protected resource metadata.
pub const PRM_SUFFIX: &str = "/.well-known/oauth-protected-resource";
/// Well-known suffix of OAuth authorization-server metadata.
pub const OAUTH_AS_SUFFIX: &str = "/.well-known/oauth-authorization-server";
/// Well-known suffix of OpenID Connect provider configuration.
pub const OIDC_SUFFIX: &str = "/.well-known/openid-configuration";

fn parse_http<'a>(what: &str, u: &'a str) -> Result<Url<'a>, McpError> {
    match url::split(u) {
        Some(p)
            if p.scheme.eq_ignore_ascii_case("https") || p.scheme.eq_ignore_ascii_case("http") =>
        {
            Ok(p)
        }
        _ => Err(errors::metadata(format!(
            "{what} is not an http(s) URL: {}",
            errors::clean_text(u)
        ))),
    }
}

/// The path without one trailing `/` (`/mcp/` → `/mcp`, `/` → ``).
fn trimmed_path<'a>(u: &Url<'a>) -> &'a str {
    u.path.strip_suffix('/').unwrap_or(u.path)
}

/// The PRM URLs to try, in order, for the MCP server at `server_url`: the challenge's
/// `resource_metadata` alone when it was given; else the path-inserted well-known URL (the
/// server URL's query kept, as RFC 9728 §3.1 inserts between host and path) and then the
/// root one. A server URL without a path gets the root URL only.
pub fn prm_urls(
    server_url: &str,
    resource_metadata: Option<&str>,
) -> Result<Vec<String>, McpError> {
    if let Some(rm) = resource_metadata {
        let u = parse_http("resource_metadata", rm)?;
        if !u.is_secure_or_loopback() || u.has_userinfo() {
            return Err(errors::metadata(format!(
                "resource_metadata must be an https URL: {}",
                errors::clean_text(rm)
            )));
        }
        return Ok(vec![rm.to_string()]);
    }
    let u = parse_http("The server URL", server_url)?;
    let origin = u.origin();
    let path = trimmed_path(&u);
    let root = [origin.as_str(), PRM_SUFFIX].concat();
    if path.is_empty() {
        return Ok(vec![root]);
    }
    let (mark, query) = u.query.map_or(("", ""), |q| ("?", q));
    Ok(vec![
        [origin.as_str(), PRM_SUFFIX, path, mark, query].concat(),
        root,
    ])
}

/// The authorization-server metadata URLs for `issuer`, in the MCP order. With a path
/// (`https://as/tenant1`): OAuth path-inserted, OIDC path-inserted, OIDC path-appended.
/// Without one: the OAuth and OIDC root forms.
pub fn as_metadata_urls(issuer: &str) -> Result<Vec<String>, McpError> {
    let u = parse_http("The authorization server issuer", issuer)?;
    if u.query.is_some() || u.fragment.is_some() {
        return Err(errors::metadata(format!(
            "An issuer has no query or fragment: {}",
            errors::clean_text(issuer)
        )));
    }
    let origin = u.origin();
    let path = trimmed_path(&u);
    if path.is_empty() {
        return Ok(vec![
            [origin.as_str(), OAUTH_AS_SUFFIX].concat(),
            [origin.as_str(), OIDC_SUFFIX].concat(),
        ]);
    }
    Ok(vec![
        [origin.as_str(), OAUTH_AS_SUFFIX, path].concat(),
        [origin.as_str(), OIDC_SUFFIX, path].concat(),
        [origin.as_str(), path, OIDC_SUFFIX].concat(),
    ])
}

/// 2025-03-26 (no PRM): the authorization server is the MCP server's origin (`scheme://host`
/// as received, no trailing `/`); this is the issuer expected of its metadata.
pub fn legacy_issuer(server_url: &str) -> Result<String, McpError> {
    Ok(parse_http("The server URL", server_url)?.origin())
}

/// The default endpoints of a 2025-03-26 server without metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegacyEndpoints {
    /// `<origin>/authorize`.
    pub authorization_endpoint: String,
    /// `<origin>/token`.
    pub token_endpoint: String,
    /// `<origin>/register`.
    pub registration_endpoint: String,
}

/// 2025-03-26, no metadata at all: `/authorize`, `/token`, `/register` on the origin.
pub fn legacy_endpoints(server_url: &str) -> Result<LegacyEndpoints, McpError> {
    let origin = legacy_issuer(server_url)?;
    Ok(LegacyEndpoints {
        authorization_endpoint: origin.clone() + "/authorize",
        token_endpoint: origin.clone() + "/token",
        registration_endpoint: origin + "/register",
    })
}

/// What to do with one discovery fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// 2xx: read the document.
    Use,
    /// Try the next URL (4xx, or the fetch failed: no CORS on that path, network).
    Next,
    /// Stop: the server failed (5xx, 1xx, 3xx: metadata is never fetched across redirects
    /// here).
    Fail,
}

/// The verdict for a fetch that answered `status` (`None`: the fetch itself failed).
pub fn verdict(status: Option<u16>) -> Verdict {
    match status {
        None => Verdict::Next,
        Some(200..=299) => Verdict::Use,
        Some(400..=499) => Verdict::Next,
        Some(_) => Verdict::Fail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prm_from_the_challenge_only() {
        assert_eq!(
            prm_urls(
                "https://mcp.example/mcp",
                Some("https://mcp.example/prm?x=1")
            )
            .unwrap(),
            vec!["https://mcp.example/prm?x=1"]
        );
        assert!(prm_urls("https://mcp.example/mcp", Some("http://evil.example/prm")).is_err());
        assert!(prm_urls("https://mcp.example/mcp", Some("/relative")).is_err());
        assert!(prm_urls("https://mcp.example/mcp", Some("file:///etc/passwd")).is_err());
        assert_eq!(
            prm_urls(
                "http://localhost:3000/mcp",
                Some("http://localhost:3000/.well-known/oauth-protected-resource/mcp")
            )
            .unwrap()
            .len(),
            1
        );
    }

    #[test]
    fn prm_path_then_root() {
        assert_eq!(
            prm_urls("https://mcp.example/public/mcp", None).unwrap(),
            vec![
                "https://mcp.example/.well-known/oauth-protected-resource/public/mcp",
                "https://mcp.example/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            prm_urls("https://mcp.example/mcp/?t=1#f", None).unwrap(),
            vec![
                "https://mcp.example/.well-known/oauth-protected-resource/mcp?t=1",
                "https://mcp.example/.well-known/oauth-protected-resource",
            ]
        );
        for root in ["https://mcp.example", "https://mcp.example/"] {
            assert_eq!(
                prm_urls(root, None).unwrap(),
                vec!["https://mcp.example/.well-known/oauth-protected-resource"]
            );
        }
        assert_eq!(
            prm_urls("http://user:pw@127.0.0.1:8080/mcp", None).unwrap()[1],
            "http://127.0.0.1:8080/.well-known/oauth-protected-resource"
        );
        assert!(prm_urls("not a url", None).is_err());
    }

    #[test]
    fn as_metadata_in_the_spec_order() {
        assert_eq!(
            as_metadata_urls("https://as/tenant1").unwrap(),
            vec![
                "https://as/.well-known/oauth-authorization-server/tenant1",
                "https://as/.well-known/openid-configuration/tenant1",
                "https://as/tenant1/.well-known/openid-configuration",
            ]
        );
        for issuer in ["https://as", "https://as/"] {
            assert_eq!(
                as_metadata_urls(issuer).unwrap(),
                vec![
                    "https://as/.well-known/oauth-authorization-server",
                    "https://as/.well-known/openid-configuration",
                ]
            );
        }
        assert_eq!(
            as_metadata_urls("http://localhost:9000/a/b/").unwrap()[2],
            "http://localhost:9000/a/b/.well-known/openid-configuration"
        );
        assert!(as_metadata_urls("https://as/x?y=1").is_err());
        assert!(as_metadata_urls("https://as/x#y").is_err());
        assert!(as_metadata_urls("urn:as").is_err());
    }

    #[test]
    fn legacy_fallbacks_on_the_origin() {
        assert_eq!(
            legacy_issuer("https://mcp.example:8443/v1/mcp?x").unwrap(),
            "https://mcp.example:8443"
        );
        let e = legacy_endpoints("http://localhost:3000/mcp").unwrap();
        assert_eq!(e.authorization_endpoint, "http://localhost:3000/authorize");
        assert_eq!(e.token_endpoint, "http://localhost:3000/token");
        assert_eq!(e.registration_endpoint, "http://localhost:3000/register");
        assert_eq!(
            as_metadata_urls(&legacy_issuer("https://m.example/mcp").unwrap()).unwrap()[0],
            "https://m.example/.well-known/oauth-authorization-server"
        );
    }

    #[test]
    fn verdicts() {
        assert_eq!(verdict(Some(200)), Verdict::Use);
        assert_eq!(verdict(Some(404)), Verdict::Next);
        assert_eq!(verdict(Some(401)), Verdict::Next);
        assert_eq!(verdict(None), Verdict::Next);
        assert_eq!(verdict(Some(500)), Verdict::Fail);
        assert_eq!(verdict(Some(302)), Verdict::Fail);
    }
}
