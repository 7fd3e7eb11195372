//! Validating the documents discovery fetches: protected resource metadata (RFC 9728) and
//! authorization-server metadata (RFC 8414 / OpenID Connect Discovery), with the MCP rules:
//! the PRM `resource` must cover the server URL, the AS `issuer` must be the issuer it was
//! fetched for (exactly, as strings), PKCE `S256` is required, endpoints are https (or
//! loopback http).

use crate::json::{Map, Value};

use crate::protocol::error::McpError;

use super::errors;
use super::url;

/// Largest metadata document accepted, in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

fn object(what: &str, body: &str) -> Result<Map<String, Value>, McpError> {
    if body.len() > MAX_DOCUMENT_BYTES {
        return Err(errors::metadata(format!(
            "{what} is too large ({} bytes)",
            body.len()
        )));
    }
    match crate::json::from_str(body) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(errors::metadata(format!("{what} is not a JSON object"))),
        Err(e) => Err(errors::metadata(format!("{what} is not valid JSON: {e}"))),
    }
}

fn string(o: &Map<String, Value>, what: &str, key: &str) -> Result<Option<String>, McpError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(errors::metadata(format!("{what}: {key} is not a string"))),
    }
}

fn strings(o: &Map<String, Value>, what: &str, key: &str) -> Result<Option<Vec<String>>, McpError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| errors::metadata(format!("{what}: {key} holds a non-string")))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(errors::metadata(format!("{what}: {key} is not an array"))),
    }
}

fn flag(o: &Map<String, Value>, key: &str) -> bool {
    o.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// Protected resource metadata, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceMetadata {
    /// `resource`, verbatim: sent as the RFC 8707 `resource` parameter.
    pub resource: String,
    /// `authorization_servers` (at least one), issuers as received.
    pub authorization_servers: Vec<String>,
    /// `scopes_supported`, if listed.
    pub scopes_supported: Option<Vec<String>>,
    /// `resource_name`, if given (for display).
    pub resource_name: Option<String>,
}

impl ResourceMetadata {
    /// The authorization server to use: the first listed.
    pub fn issuer(&self) -> &str {
        self.authorization_servers
            .first()
            .map(String::as_str)
            .unwrap_or_default()
    }
}

/// True when `resource` covers `server_url`: same origin (scheme and host case-insensitive,
/// default ports implied) and the resource's path is a whole-segment prefix of the server's
/// (`/api` covers `/api` and `/api/mcp`, not `/apix`; a bare origin covers everything).
pub fn resource_covers(resource: &str, server_url: &str) -> bool {
    let (Some(r), Some(s)) = (url::split(resource), url::split(server_url)) else {
        return false;
    };
    if r.origin_key() != s.origin_key() || r.fragment.is_some() {
        return false;
    }
    let with_slash = |p: &str| {
        if p.ends_with('/') {
            p.to_string()
        } else {
            [p, "/"].concat()
        }
    };
    with_slash(s.path).starts_with(&with_slash(r.path))
}

/// Reads and validates a PRM document fetched for the MCP server at `server_url`. A
/// `resource` that does not cover the server URL is `resource_mismatch`: stop before any
/// authorization request.
pub fn parse_resource_metadata(body: &str, server_url: &str) -> Result<ResourceMetadata, McpError> {
    const WHAT: &str = "Protected resource metadata";
    let o = object(WHAT, body)?;
    let resource = string(&o, WHAT, "resource")?
        .ok_or_else(|| errors::metadata(format!("{WHAT} has no resource")))?;
    if !resource_covers(&resource, server_url) {
        return Err(errors::resource_mismatch(&resource, server_url));
    }
    let authorization_servers = strings(&o, WHAT, "authorization_servers")?.unwrap_or_default();
    if authorization_servers.is_empty() {
        return Err(errors::metadata(format!(
            "{WHAT} lists no authorization_servers"
        )));
    }
    for issuer in &authorization_servers {
        if !url::is_acceptable_endpoint(issuer)
            || url::split(issuer).is_some_and(|u| u.query.is_some())
        {
            return Err(errors::metadata(format!(
                "{WHAT} names an authorization server that is not an https URL: {}",
                errors::clean_text(issuer)
            )));
        }
    }
    Ok(ResourceMetadata {
        resource,
        authorization_servers,
        scopes_supported: strings(&o, WHAT, "scopes_supported")?,
        resource_name: string(&o, WHAT, "resource_name")?,
    })
}

/// Authorization-server metadata, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerMetadata {
    /// `issuer`, equal to the issuer it was fetched for.
    pub issuer: String,
    /// `authorization_endpoint`.
    pub authorization_endpoint: String,
    /// `token_endpoint`.
    pub token_endpoint: String,
    /// `registration_endpoint` (dynamic registration), if offered.
    pub registration_endpoint: Option<String>,
    /// `scopes_supported`, if listed.
    pub scopes_supported: Option<Vec<String>>,
    /// `code_challenge_methods_supported` (contains `S256`).
    pub code_challenge_methods_supported: Vec<String>,
    /// `token_endpoint_auth_methods_supported`; absent means `client_secret_basic` (RFC 8414).
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// `grant_types_supported`, if listed.
    pub grant_types_supported: Option<Vec<String>>,
    /// `client_id_metadata_document_supported`: CIMD client IDs are accepted.
    pub client_id_metadata_document_supported: bool,
    /// `authorization_response_iss_parameter_supported` (RFC 9207): callbacks carry `iss`.
    pub authorization_response_iss_parameter_supported: bool,
    /// `dpop_signing_alg_values_supported`, if listed.
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
}

impl ServerMetadata {
    /// True when the AS lists `scope` in `scopes_supported`.
    pub fn supports_scope(&self, scope: &str) -> bool {
        self.scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|x| x == scope))
    }

    /// The token endpoint auth methods, with RFC 8414's default when absent.
    pub fn auth_methods(&self) -> Vec<String> {
        self.token_endpoint_auth_methods_supported
            .clone()
            .unwrap_or_else(|| vec!["client_secret_basic".to_string()])
    }

    /// The metadata a 2025-03-26 server without any document implies: its default
    /// endpoints, S256 assumed (PKCE is mandatory there), no `iss` support advertised.
    pub fn legacy_defaults(issuer: &str, endpoints: &super::discovery::LegacyEndpoints) -> Self {
        ServerMetadata {
            issuer: issuer.to_string(),
            authorization_endpoint: endpoints.authorization_endpoint.clone(),
            token_endpoint: endpoints.token_endpoint.clone(),
            registration_endpoint: Some(endpoints.registration_endpoint.clone()),
            scopes_supported: None,
            code_challenge_methods_supported: vec!["S256".to_string()],
            token_endpoint_auth_methods_supported: None,
            grant_types_supported: None,
            client_id_metadata_document_supported: false,
            authorization_response_iss_parameter_supported: false,
            dpop_signing_alg_values_supported: None,
        }
    }
}

fn endpoint(o: &Map<String, Value>, key: &str, required: bool) -> Result<Option<String>, McpError> {
    const WHAT: &str = "Authorization server metadata";
    let value = string(o, WHAT, key)?;
    match &value {
        None if required => Err(errors::metadata(format!("{WHAT} has no {key}"))),
        Some(v) if !url::is_acceptable_endpoint(v) => Err(errors::metadata(format!(
            "{WHAT}: {key} must be an https URL (http only for loopback hosts), without a fragment: {}",
            errors::clean_text(v)
        ))),
        _ => Ok(value),
    }
}

/// Reads and validates AS metadata fetched for `expected_issuer`: `issuer` must equal it
/// exactly (`issuer_mismatch` otherwise), `code_challenge_methods_supported` must list
/// `S256` (else the AS is refused), endpoints must be https or loopback http.
pub fn parse_server_metadata(
    body: &str,
    expected_issuer: &str,
) -> Result<ServerMetadata, McpError> {
    server_metadata(&object(AS_WHAT, body)?, expected_issuer)
}

const AS_WHAT: &str = "Authorization server metadata";

/// [`parse_server_metadata`] of the document's object `o`.
fn server_metadata(
    o: &Map<String, Value>,
    expected_issuer: &str,
) -> Result<ServerMetadata, McpError> {
    const WHAT: &str = AS_WHAT;
    let issuer = string(o, WHAT, "issuer")?;
    if issuer.as_deref() != Some(expected_issuer) {
        return Err(errors::issuer_mismatch(
            "issuer",
            expected_issuer,
            issuer.as_deref(),
        ));
    }
    let issuer = issuer.unwrap_or_default();
    let authorization_endpoint = endpoint(o, "authorization_endpoint", true)?.unwrap_or_default();
    let token_endpoint = endpoint(o, "token_endpoint", true)?.unwrap_or_default();
    let registration_endpoint = endpoint(o, "registration_endpoint", false)?;
    if let Some(types) = strings(o, WHAT, "response_types_supported")? {
        if !types.iter().any(|t| t == "code") {
            return Err(errors::metadata(format!(
                "{WHAT}: response_types_supported does not include \"code\""
            )));
        }
    }
    let methods = strings(o, WHAT, "code_challenge_methods_supported")?.unwrap_or_default();
    if !methods.iter().any(|m| m == "S256") {
        return Err(errors::metadata(format!(
            "The authorization server {} does not support PKCE with S256 (code_challenge_methods_supported), so it cannot be used safely",
            errors::clean_text(expected_issuer)
        )));
    }
    Ok(ServerMetadata {
        issuer,
        authorization_endpoint,
        token_endpoint,
        registration_endpoint,
        scopes_supported: strings(o, WHAT, "scopes_supported")?,
        code_challenge_methods_supported: methods,
        token_endpoint_auth_methods_supported: strings(
            o,
            WHAT,
            "token_endpoint_auth_methods_supported",
        )?,
        grant_types_supported: strings(o, WHAT, "grant_types_supported")?,
        client_id_metadata_document_supported: flag(o, "client_id_metadata_document_supported"),
        authorization_response_iss_parameter_supported: flag(
            o,
            "authorization_response_iss_parameter_supported",
        ),
        dpop_signing_alg_values_supported: strings(o, WHAT, "dpop_signing_alg_values_supported")?,
    })
}

/// 2025-03-26 servers (no PRM): AS metadata fetched from the MCP server's own origin, whose
/// `issuer` may carry a path on that origin (`<origin>/oauth`: conformance 0.1.16 serves
/// that; 2025-03-26 defined no issuer check). The origin is the trust anchor there, so an
/// issuer on the same origin is accepted and used as stated (callbacks' `iss` must equal it);
/// an issuer on another origin is `issuer_mismatch`.
pub fn parse_legacy_server_metadata(
    body: &str,
    origin_issuer: &str,
) -> Result<ServerMetadata, McpError> {
    let o = object(AS_WHAT, body)?;
    let stated = string(&o, AS_WHAT, "issuer")?;
    let same_origin = |s: &str| {
        let (a, b) = (url::split(s), url::split(origin_issuer));
        matches!((a, b), (Some(a), Some(b)) if a.origin_key() == b.origin_key())
    };
    match stated {
        Some(s) if s != origin_issuer && same_origin(&s) => server_metadata(&o, &s),
        _ => server_metadata(&o, origin_issuer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;
    use crate::protocol::error::ErrorKind;

    fn kind(e: McpError) -> ErrorKind {
        e.kind.unwrap()
    }

    #[test]
    fn resource_coverage() {
        assert!(resource_covers(
            "https://mcp.example",
            "https://mcp.example/mcp"
        ));
        assert!(resource_covers(
            "https://mcp.example/",
            "https://mcp.example/mcp"
        ));
        assert!(resource_covers(
            "https://mcp.example/mcp",
            "https://mcp.example/mcp"
        ));
        assert!(resource_covers(
            "https://mcp.example/mcp",
            "https://mcp.example/mcp/"
        ));
        assert!(resource_covers(
            "https://mcp.example/api",
            "https://mcp.example/api/v1/mcp"
        ));
        assert!(resource_covers(
            "HTTPS://MCP.example:443/mcp",
            "https://mcp.example/mcp?x=1"
        ));
        assert!(resource_covers(
            "http://localhost:3000",
            "http://localhost:3000/mcp"
        ));
        assert!(!resource_covers(
            "https://mcp.example/apix",
            "https://mcp.example/api"
        ));
        assert!(!resource_covers(
            "https://mcp.example/api",
            "https://mcp.example/apix"
        ));
        assert!(!resource_covers(
            "https://mcp.example/mcp/v2",
            "https://mcp.example/mcp"
        ));
        assert!(!resource_covers(
            "https://other.example",
            "https://mcp.example/mcp"
        ));
        assert!(!resource_covers(
            "http://mcp.example",
            "https://mcp.example/mcp"
        ));
        assert!(!resource_covers(
            "https://mcp.example:8443",
            "https://mcp.example/mcp"
        ));
        assert!(!resource_covers(
            "https://mcp.example#f",
            "https://mcp.example/mcp"
        ));
        assert!(!resource_covers("mcp.example", "https://mcp.example/mcp"));
    }

    #[test]
    fn prm_is_read_and_resource_kept_verbatim() {
        let body = json!({
            "resource": "http://localhost:3000",
            "authorization_servers": ["http://localhost:3000/as", "https://as2.example"],
            "scopes_supported": ["mcp:read", "mcp:write"],
            "resource_name": "Demo",
            "bearer_methods_supported": ["header"],
        })
        .to_string();
        let m = parse_resource_metadata(&body, "http://localhost:3000/mcp").unwrap();
        assert_eq!(m.resource, "http://localhost:3000");
        assert_eq!(m.issuer(), "http://localhost:3000/as");
        assert_eq!(m.scopes_supported.unwrap(), vec!["mcp:read", "mcp:write"]);
        assert_eq!(m.resource_name.as_deref(), Some("Demo"));
    }

    #[test]
    fn prm_refusals() {
        let server = "https://mcp.example/mcp";
        let prm = |v: Value| parse_resource_metadata(&v.to_string(), server);
        assert_eq!(
            kind(prm(json!({"resource": "https://evil.example/mcp", "authorization_servers": ["https://as"]})).unwrap_err()),
            ErrorKind::ResourceMismatch
        );
        for bad in [
            json!({"authorization_servers": ["https://as"]}),
            json!({"resource": 7, "authorization_servers": ["https://as"]}),
            json!({"resource": "https://mcp.example"}),
            json!({"resource": "https://mcp.example", "authorization_servers": []}),
            json!({"resource": "https://mcp.example", "authorization_servers": [1]}),
            json!({"resource": "https://mcp.example", "authorization_servers": "https://as"}),
            json!({"resource": "https://mcp.example", "authorization_servers": ["http://as.example"]}),
            json!({"resource": "https://mcp.example", "authorization_servers": ["https://as?x"]}),
            json!({"resource": "https://mcp.example", "authorization_servers": ["https://as"], "scopes_supported": "a b"}),
            json!([1, 2]),
        ] {
            assert_eq!(
                kind(prm(bad.clone()).unwrap_err()),
                ErrorKind::AuthMetadata,
                "{bad}"
            );
        }
        assert_eq!(
            kind(parse_resource_metadata("{", server).unwrap_err()),
            ErrorKind::AuthMetadata
        );
        let huge = format!("{{\"x\":\"{}\"}}", "a".repeat(MAX_DOCUMENT_BYTES));
        assert!(parse_resource_metadata(&huge, server).is_err());
    }

    fn as_doc(issuer: &str) -> Value {
        json!({
            "issuer": issuer,
            "authorization_endpoint": "https://as.example/authorize",
            "token_endpoint": "https://as.example/token",
            "registration_endpoint": "https://as.example/register",
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["plain", "S256"],
            "scopes_supported": ["openid", "offline_access"],
            "client_id_metadata_document_supported": true,
            "authorization_response_iss_parameter_supported": true,
            "token_endpoint_auth_methods_supported": ["none", "client_secret_post"],
        })
    }

    #[test]
    fn as_metadata_is_read() {
        let m = parse_server_metadata(
            &as_doc("https://as.example").to_string(),
            "https://as.example",
        )
        .unwrap();
        assert_eq!(m.issuer, "https://as.example");
        assert_eq!(
            m.registration_endpoint.as_deref(),
            Some("https://as.example/register")
        );
        assert!(m.client_id_metadata_document_supported);
        assert!(m.authorization_response_iss_parameter_supported);
        assert!(m.supports_scope("offline_access"));
        assert!(!m.supports_scope("admin"));
        assert_eq!(m.auth_methods(), vec!["none", "client_secret_post"]);
        let mut d = as_doc("https://as.example");
        d.as_object_mut()
            .unwrap()
            .remove("token_endpoint_auth_methods_supported");
        d["client_id_metadata_document_supported"] = json!("yes");
        let m = parse_server_metadata(&d.to_string(), "https://as.example").unwrap();
        assert_eq!(m.auth_methods(), vec!["client_secret_basic"]);
        assert!(!m.client_id_metadata_document_supported);
    }

    #[test]
    fn issuer_must_match_exactly() {
        for (doc, expected) in [
            ("https://as.example/", "https://as.example"),
            ("https://as.example", "https://as.example/"),
            ("https://AS.example", "https://as.example"),
            ("https://as.example/oauth", "https://as.example"),
        ] {
            let e = parse_server_metadata(&as_doc(doc).to_string(), expected).unwrap_err();
            assert_eq!(kind(e), ErrorKind::IssuerMismatch, "{doc} vs {expected}");
        }
        let mut d = as_doc("x");
        d.as_object_mut().unwrap().remove("issuer");
        let e = parse_server_metadata(&d.to_string(), "https://as.example").unwrap_err();
        assert_eq!(kind(e.clone()), ErrorKind::IssuerMismatch);
        assert!(e.message.contains("missing"));
    }

    #[test]
    fn pkce_s256_is_required() {
        for methods in [json!(["plain"]), json!([]), Value::Null] {
            let mut d = as_doc("https://as.example");
            d["code_challenge_methods_supported"] = methods;
            let e = parse_server_metadata(&d.to_string(), "https://as.example").unwrap_err();
            assert_eq!(kind(e.clone()), ErrorKind::AuthMetadata);
            assert!(e.message.contains("S256"));
        }
    }

    #[test]
    fn endpoints_must_be_https_or_loopback() {
        for (key, value) in [
            (
                "authorization_endpoint",
                json!("http://as.example/authorize"),
            ),
            ("token_endpoint", json!("http://as.example/token")),
            ("registration_endpoint", json!("http://as.example/register")),
            ("token_endpoint", json!("https://as.example/token#frag")),
            ("token_endpoint", json!("/token")),
            ("token_endpoint", Value::Null),
            ("authorization_endpoint", json!(42)),
            ("response_types_supported", json!(["token"])),
        ] {
            let mut d = as_doc("https://as.example");
            d[key] = value.clone();
            let e = parse_server_metadata(&d.to_string(), "https://as.example").unwrap_err();
            assert_eq!(kind(e), ErrorKind::AuthMetadata, "{key}={value}");
        }
        let mut d = as_doc("http://127.0.0.1:9000");
        for (k, v) in [
            ("authorization_endpoint", "http://127.0.0.1:9000/authorize"),
            ("token_endpoint", "http://localhost:9000/token"),
            ("registration_endpoint", "http://[::1]:9000/register"),
        ] {
            d[k] = json!(v);
        }
        assert!(parse_server_metadata(&d.to_string(), "http://127.0.0.1:9000").is_ok());
    }

    #[test]
    fn legacy_defaults_assume_pkce() {
        let e = super::super::discovery::legacy_endpoints("http://localhost:3000/mcp").unwrap();
        let m = ServerMetadata::legacy_defaults("http://localhost:3000", &e);
        assert_eq!(m.token_endpoint, "http://localhost:3000/token");
        assert_eq!(m.code_challenge_methods_supported, vec!["S256"]);
        assert!(!m.authorization_response_iss_parameter_supported);
    }

    #[test]
    fn legacy_metadata_accepts_an_issuer_path_on_the_server_origin_only() {
        let doc = |issuer: &str| {
            json!({
                "issuer": issuer,
                "authorization_endpoint": format!("{issuer}/authorize"),
                "token_endpoint": format!("{issuer}/token"),
                "code_challenge_methods_supported": ["S256"],
            })
            .to_string()
        };
        let m =
            parse_legacy_server_metadata(&doc("http://127.0.0.1:9/oauth"), "http://127.0.0.1:9")
                .expect("same origin");
        assert_eq!(m.issuer, "http://127.0.0.1:9/oauth");
        assert!(
            parse_legacy_server_metadata(&doc("http://127.0.0.1:9"), "http://127.0.0.1:9").is_ok()
        );
        let e =
            parse_legacy_server_metadata(&doc("http://127.0.0.1:10/oauth"), "http://127.0.0.1:9")
                .expect_err("another origin");
        assert_eq!(e.kind, Some(ErrorKind::IssuerMismatch));
    }
}
