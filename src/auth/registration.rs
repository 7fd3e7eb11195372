//! Who the client is at an authorization server, in the MCP order: pre-registered (or
//! previously registered) credentials for that issuer → a client ID metadata document (CIMD,
//! when the AS says `client_id_metadata_document_supported`) → dynamic registration
//! (RFC 7591) at `registration_endpoint`. Credentials are bound to the issuer that issued
//! them and never sent to another AS (SEP-2352): an AS change means registering again.

use crate::json::{json, Map, Value};

use crate::protocol::error::{ErrorKind, McpError};

use super::client::ClientInformation;
use super::errors;
use super::metadata::ServerMetadata;
use super::tokens::parse_error_response;
use super::url;
use crate::util::secret::Secret;

/// How the client gets its `client_id` at one AS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegistrationPath {
    /// Use these credentials (given by the application or stored from an earlier
    /// registration with this issuer).
    Known(ClientInformation),
    /// Use the CIMD URL as the `client_id` (a public client, auth method `none`).
    MetadataDocument(ClientInformation),
    /// POST [`registration_body`] to this endpoint, then [`parse_registration_response`].
    Dynamic {
        /// The AS `registration_endpoint`.
        endpoint: String,
    },
}

/// Checks a CIMD URL: https, with a path other than `/`, no fragment, no userinfo.
pub fn check_metadata_url(cimd_url: &str) -> Result<(), McpError> {
    let ok = url::split(cimd_url).is_some_and(|u| {
        u.scheme.eq_ignore_ascii_case("https")
            && !u.has_userinfo()
            && u.fragment.is_none()
            && u.path.len() > 1
    });
    if ok {
        Ok(())
    } else {
        Err(McpError::input(format!(
            "clientMetadataUrl must be an https URL with a path: {}",
            errors::clean_text(cimd_url)
        )))
    }
}

/// The registration path for the AS of `meta` (see the module doc). `known` are credentials
/// held (the application's `clientInformation`, then stored ones); those bound to another
/// issuer are skipped.
pub fn choose(
    known: &[&ClientInformation],
    cimd_url: Option<&str>,
    meta: &ServerMetadata,
) -> Result<RegistrationPath, McpError> {
    if let Some(c) = known.iter().find(|c| c.usable_with(&meta.issuer)) {
        let mut c = (*c).clone();
        c.bind(&meta.issuer);
        return Ok(RegistrationPath::Known(c));
    }
    if let (Some(cimd), true) = (cimd_url, meta.client_id_metadata_document_supported) {
        check_metadata_url(cimd)?;
        return Ok(RegistrationPath::MetadataDocument(ClientInformation {
            client_id: cimd.to_string(),
            client_secret: None,
            token_endpoint_auth_method: Some("none".to_string()),
            issuer: Some(meta.issuer.clone()),
            client_secret_expires_at: None,
        }));
    }
    if let Some(endpoint) = &meta.registration_endpoint {
        return Ok(RegistrationPath::Dynamic {
            endpoint: endpoint.clone(),
        });
    }
    Err(errors::registration_rejected(format!(
        "The authorization server {} offers no way to register this client (no registration_endpoint{}): pass clientInformation",
        errors::clean_text(&meta.issuer),
        if cimd_url.is_some() {
            ", and it does not accept client ID metadata documents"
        } else {
            ""
        }
    )))
}

/// `native` when every redirect URI is loopback http or a custom scheme; `web` otherwise
/// (SEP-837).
pub fn application_type(redirect_uris: &[String]) -> &'static str {
    let native = |u: &String| match url::scheme_of(u) {
        Some(s) if s.eq_ignore_ascii_case("https") => false,
        Some(s) if s.eq_ignore_ascii_case("http") => {
            url::split(u).is_some_and(|p| url::is_loopback_host(p.host()))
        }
        Some(_) => true,
        None => false,
    };
    if !redirect_uris.is_empty() && redirect_uris.iter().all(native) {
        "native"
    } else {
        "web"
    }
}

/// The RFC 7591 request body: the application's `clientMetadata` with defaults filled in
/// where absent: `redirect_uris` = `[redirect_uri]` (when present it must list it),
/// `application_type` (derived), `grant_types` (`authorization_code`, plus `refresh_token`
/// when `want_refresh`), `response_types` = `["code"]`, `token_endpoint_auth_method` =
/// `none`.
pub fn registration_body(
    client_metadata: Option<&Value>,
    redirect_uri: &str,
    want_refresh: bool,
) -> Result<String, McpError> {
    let mut m: Map<String, Value> = match client_metadata {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(o)) => o.clone(),
        Some(_) => return Err(McpError::input("clientMetadata must be an object")),
    };
    let uris: Vec<String> = match m.get("redirect_uris") {
        None | Some(Value::Null) => vec![redirect_uri.to_string()],
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str().map(str::to_string).ok_or_else(|| {
                    McpError::input("clientMetadata.redirect_uris must hold strings")
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(McpError::input(
                "clientMetadata.redirect_uris must be an array",
            ))
        }
    };
    if !uris.iter().any(|u| u == redirect_uri) {
        return Err(McpError::input(
            "clientMetadata.redirect_uris must include redirectUri",
        ));
    }
    let app_type = application_type(&uris);
    m.insert("redirect_uris".into(), json!(uris));
    m.entry("application_type")
        .or_insert_with(|| json!(app_type));
    m.entry("grant_types").or_insert_with(|| {
        if want_refresh {
            json!(["authorization_code", "refresh_token"])
        } else {
            json!(["authorization_code"])
        }
    });
    m.entry("response_types").or_insert_with(|| json!(["code"]));
    m.entry("token_endpoint_auth_method")
        .or_insert_with(|| json!("none"));
    Ok(Value::Object(m).to_string())
}

/// Reads the registration response (`status`, `body`) of the AS `issuer`: the credentials,
/// bound to that issuer; an error response (or no `client_id`) is `registration_rejected`.
pub fn parse_registration_response(
    status: u16,
    body: &str,
    issuer: &str,
) -> Result<ClientInformation, McpError> {
    if !(200..300).contains(&status) {
        let e = parse_error_response(status, body);
        return Err(errors::oauth_error(
            ErrorKind::RegistrationRejected,
            "The authorization server refused to register this client",
            &e.error,
            e.error_description.as_deref(),
            Some(status),
        ));
    }
    let o = match crate::json::from_str(body) {
        Ok(Value::Object(o)) if body.len() <= super::tokens::MAX_RESPONSE_BYTES => o,
        _ => {
            return Err(errors::registration_rejected(
                "The registration response is not a JSON object",
            ))
        }
    };
    let client_id = match o.get("client_id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => {
            return Err(errors::registration_rejected(
                "The registration response has no client_id",
            ))
        }
    };
    let str_field = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
    Ok(ClientInformation {
        client_id,
        client_secret: str_field("client_secret")
            .filter(|s| !s.is_empty())
            .map(Secret::from),
        token_endpoint_auth_method: str_field("token_endpoint_auth_method"),
        issuer: Some(issuer.to_string()),
        client_secret_expires_at: o.get("client_secret_expires_at").and_then(Value::as_u64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::discovery::legacy_endpoints;

    fn meta(cimd: bool, dcr: bool) -> ServerMetadata {
        let mut m = ServerMetadata::legacy_defaults(
            "https://as.example",
            &legacy_endpoints("https://as.example").unwrap(),
        );
        m.client_id_metadata_document_supported = cimd;
        if !dcr {
            m.registration_endpoint = None;
        }
        m
    }

    fn info(issuer: Option<&str>) -> ClientInformation {
        ClientInformation {
            client_id: "pre".into(),
            client_secret: Some(Secret::new("SEKRIT")),
            token_endpoint_auth_method: None,
            issuer: issuer.map(str::to_string),
            client_secret_expires_at: None,
        }
    }

    const CIMD: &str = "https://app.example/oauth/client.json";

    #[test]
    fn the_order_of_paths() {
        let pre = info(Some("https://as.example"));
        match choose(&[&pre], Some(CIMD), &meta(true, true)).unwrap() {
            RegistrationPath::Known(c) => assert_eq!(c.client_id, "pre"),
            other => panic!("{other:?}"),
        }
        match choose(&[], Some(CIMD), &meta(true, true)).unwrap() {
            RegistrationPath::MetadataDocument(c) => {
                assert_eq!(c.client_id, CIMD);
                assert_eq!(c.issuer.as_deref(), Some("https://as.example"));
                assert_eq!(c.token_endpoint_auth_method.as_deref(), Some("none"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            choose(&[], Some(CIMD), &meta(false, true)).unwrap(),
            RegistrationPath::Dynamic {
                endpoint: "https://as.example/register".into()
            }
        );
        assert_eq!(
            choose(&[], None, &meta(true, true)).unwrap(),
            RegistrationPath::Dynamic {
                endpoint: "https://as.example/register".into()
            }
        );
        let e = choose(&[], Some(CIMD), &meta(false, false)).unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::RegistrationRejected));
        assert!(e.message.contains("client ID metadata"));
    }

    #[test]
    fn credentials_of_another_issuer_are_never_used() {
        let other = info(Some("https://old-as.example"));
        let slash = info(Some("https://as.example/"));
        assert!(matches!(
            choose(&[&other, &slash], None, &meta(false, true)).unwrap(),
            RegistrationPath::Dynamic { .. }
        ));
        let unbound = info(None);
        match choose(&[&other, &unbound], None, &meta(false, true)).unwrap() {
            RegistrationPath::Known(c) => {
                assert_eq!(c.issuer.as_deref(), Some("https://as.example"))
            }
            p => panic!("{p:?}"),
        }
    }

    #[test]
    fn cimd_urls() {
        assert!(check_metadata_url(CIMD).is_ok());
        for bad in [
            "http://app.example/client.json",
            "https://app.example",
            "https://app.example/",
            "https://app.example/c.json#x",
            "https://u@app.example/c.json",
            "client.json",
        ] {
            assert!(check_metadata_url(bad).is_err(), "{bad}");
            assert!(choose(&[], Some(bad), &meta(true, true)).is_err());
        }
    }

    #[test]
    fn application_types() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            application_type(&v(&["http://localhost:3000/cb"])),
            "native"
        );
        assert_eq!(
            application_type(&v(&["http://127.0.0.1/cb", "com.example.app:/cb"])),
            "native"
        );
        assert_eq!(application_type(&v(&["http://[::1]:8080/cb"])), "native");
        assert_eq!(application_type(&v(&["https://app.example/cb"])), "web");
        assert_eq!(application_type(&v(&["https://localhost/cb"])), "web");
        assert_eq!(
            application_type(&v(&["http://localhost/cb", "https://app.example/cb"])),
            "web"
        );
        assert_eq!(application_type(&v(&["http://app.example/cb"])), "web");
        assert_eq!(application_type(&[]), "web");
    }

    #[test]
    fn registration_bodies() {
        let b: Value = crate::json::from_str(
            &registration_body(
                Some(&json!({"client_name": "Demo"})),
                "http://localhost:3000/cb",
                true,
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(
            b,
            json!({
                "client_name": "Demo",
                "redirect_uris": ["http://localhost:3000/cb"],
                "application_type": "native",
                "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"],
                "token_endpoint_auth_method": "none",
            })
        );
        let b: Value = crate::json::from_str(
            &registration_body(
                Some(&json!({"application_type": "native", "grant_types": ["authorization_code"], "redirect_uris": ["https://a.example/cb", "https://b.example/cb"], "token_endpoint_auth_method": "client_secret_basic"})),
                "https://b.example/cb",
                true,
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(b["application_type"], "native");
        assert_eq!(b["grant_types"], json!(["authorization_code"]));
        assert_eq!(b["token_endpoint_auth_method"], "client_secret_basic");
        let b: Value =
            crate::json::from_str(&registration_body(None, "https://a.example/cb", false).unwrap())
                .unwrap();
        assert_eq!(b["application_type"], "web");
        assert_eq!(b["grant_types"], json!(["authorization_code"]));
        for bad in [
            json!("x"),
            json!({"redirect_uris": "https://a.example/cb"}),
            json!({"redirect_uris": [1]}),
            json!({"redirect_uris": ["https://other.example/cb"]}),
        ] {
            assert_eq!(
                registration_body(Some(&bad), "https://a.example/cb", true)
                    .unwrap_err()
                    .kind,
                Some(ErrorKind::Input)
            );
        }
    }

    #[test]
    fn registration_responses() {
        let c = parse_registration_response(
            201,
            r#"{"client_id":"abc","client_secret":"S3CR3T","client_secret_expires_at":0,"token_endpoint_auth_method":"client_secret_post"}"#,
            "https://as.example",
        )
        .unwrap();
        assert_eq!(c.client_id, "abc");
        assert_eq!(c.client_secret.as_ref().map(Secret::expose), Some("S3CR3T"));
        assert_eq!(c.issuer.as_deref(), Some("https://as.example"));
        assert_eq!(c.client_secret_expires_at, Some(0));
        assert!(!format!("{c:?}").contains("S3CR3T"));
        let e = parse_registration_response(
            400,
            r#"{"error":"invalid_redirect_uri","error_description":"no custom schemes"}"#,
            "i",
        )
        .unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::RegistrationRejected));
        assert!(e
            .message
            .contains("invalid_redirect_uri (no custom schemes)"));
        for body in ["", "[]", r#"{"client_id":""}"#, r#"{"client_id":3}"#] {
            let e = parse_registration_response(201, body, "i").unwrap_err();
            assert_eq!(e.kind, Some(ErrorKind::RegistrationRejected), "{body}");
        }
        let e = parse_registration_response(500, "oops", "i").unwrap_err();
        assert!(e.message.contains("http_500"));
    }
}
