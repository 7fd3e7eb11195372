//! The properties checked by the authorization fuzz targets (what a hostile resource server,
//! authorization server or IdP sends), on one input each; like `checks.rs`, a failed property
//! panics. Replayed by `tests/fuzz_auth_corpus.rs` (the `auth` feature only).

use mcp_wasm_client::auth::challenge::{self, AuthHint, ChallengeError};
use mcp_wasm_client::auth::{discovery, jose, metadata, registration, scopes, tokens, url};
use mcp_wasm_client::json::Value;
use mcp_wasm_client::protocol::error::McpError;

fn json(data: &[u8]) -> Option<Value> {
    mcp_wasm_client::json::from_slice(data).ok()
}

/// An error built from network data: it has a kind, a one-line message of bounded size.
fn clear_error(e: &McpError, what: &str) {
    assert!(e.kind.is_some(), "{what}: an error without a kind: {e:?}");
    assert!(!e.message.is_empty(), "{what}: an empty message");
    assert!(
        !e.message.contains(['\r', '\n', '\0']),
        "{what}: a line break or NUL in the message: {:?}",
        e.message
    );
}

/// True for an RFC 9110 `tchar`.
fn tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// The header `challenges` would be sent as: params as quoted-strings with `\` escapes.
fn challenges_header(challenges: &[challenge::Challenge]) -> String {
    let one = |c: &challenge::Challenge| match &c.token68 {
        Some(t) => format!("{} {t}", c.scheme),
        None => {
            let params: Vec<String> = c
                .params
                .iter()
                .map(|(k, v)| format!("{k}=\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\"")))
                .collect();
            format!("{} {}", c.scheme, params.join(", "))
        }
    };
    challenges.iter().map(one).collect::<Vec<_>>().join(", ")
}

/// Input: a `WWW-Authenticate` value (bytes read as UTF-8, lossily, as `fetch` would not).
///
/// Properties: at most `MAX_ITEMS` challenges of at most `MAX_ITEMS` params; schemes and
/// param names are non-empty tokens, names lowercased and unique per challenge; a challenge has
/// a token68 or params, not both; written back (quoted) it parses to the same challenges; the
/// hint takes its fields from the first Bearer/DPoP challenge that has them.
pub fn check_www_authenticate(data: &[u8]) {
    let header = String::from_utf8_lossy(data);
    let parsed = challenge::parse(&header);
    assert!(parsed.len() <= challenge::MAX_ITEMS, "too many challenges");
    for c in &parsed {
        assert!(
            !c.scheme.is_empty() && c.scheme.chars().all(tchar),
            "scheme {:?}",
            c.scheme
        );
        assert!(c.params.len() <= challenge::MAX_ITEMS, "too many params");
        assert!(
            c.token68.is_none() || c.params.is_empty(),
            "token68 and params"
        );
        for (i, (k, _)) in c.params.iter().enumerate() {
            assert!(!k.is_empty() && k.chars().all(tchar), "param name {k:?}");
            assert_eq!(*k, k.to_ascii_lowercase(), "param name not lowercased");
            assert!(
                c.params[..i].iter().all(|(o, _)| o != k),
                "repeated param {k:?}"
            );
        }
    }
    // Only challenges that have params or a token68 survive a rewrite unchanged (a bare
    // `Scheme` is written back as `Scheme ` and reads the same).
    let again = challenge::parse(&challenges_header(&parsed));
    assert_eq!(parsed, again, "parse(write(parse(h))) != parse(h)");

    let hint = AuthHint::from_header(Some(&header));
    assert_eq!(hint, AuthHint::from_challenges(&parsed));
    assert_eq!(AuthHint::from_header(None), AuthHint::default());
    let ours: Vec<_> = parsed
        .iter()
        .filter(|c| c.is("Bearer") || c.is("DPoP"))
        .collect();
    assert_eq!(hint.bearer, ours.iter().any(|c| c.is("Bearer")));
    assert_eq!(hint.dpop, ours.iter().any(|c| c.is("DPoP")));
    let first = |name: &str| ours.iter().find_map(|c| c.param(name));
    assert_eq!(
        hint.resource_metadata.as_deref(),
        first("resource_metadata")
    );
    assert_eq!(hint.error, first("error").map(ChallengeError::from_code));
    if hint.scope.is_some() {
        assert!(first("scope").is_some(), "a scope no challenge carried");
    }
    assert_eq!(
        hint.is_insufficient_scope(),
        hint.error == Some(ChallengeError::InsufficientScope)
    );
    // What the client does next with these values: split scopes, find the PRM.
    if let Some(scope) = &hint.scope {
        for s in scopes::split(scope) {
            assert!(!s.is_empty() && !s.contains(' '), "scope token {s:?}");
        }
        let _ = scopes::union("files:read", scope);
        let _ = scopes::covers("files:read", scope);
    }
    match discovery::prm_urls(
        "https://mcp.example.com/mcp",
        hint.resource_metadata.as_deref(),
    ) {
        Ok(urls) => assert!(!urls.is_empty()),
        Err(e) => clear_error(&e, "prm_urls"),
    }
}

/// Splits `data` at the first newline: (the first line, the rest).
fn first_line(data: &[u8]) -> (String, String) {
    let cut = data.iter().position(|b| *b == b'\n').unwrap_or(data.len());
    let rest = data.get(cut + 1..).unwrap_or_default();
    (
        String::from_utf8_lossy(&data[..cut]).into_owned(),
        String::from_utf8_lossy(rest).into_owned(),
    )
}

/// Input: a URL line (the MCP server URL, also the expected issuer) then a metadata document.
/// Both documents are parsed: as protected-resource metadata (RFC 9728) for that server, and
/// as authorization-server metadata (RFC 8414) for that issuer, strict and legacy.
///
/// Properties: an accepted PRM's `resource` covers the server URL and names https issuers
/// from which the AS metadata URLs derive; accepted AS metadata has exactly the expected issuer
/// (legacy: one on the same origin), S256, acceptable endpoints; refusals are clear errors.
pub fn check_auth_metadata(data: &[u8]) {
    let (url, body) = first_line(data);
    match metadata::parse_resource_metadata(&body, &url) {
        Ok(prm) => {
            assert!(
                metadata::resource_covers(&prm.resource, &url),
                "resource does not cover"
            );
            assert!(!prm.authorization_servers.is_empty());
            assert_eq!(prm.issuer(), prm.authorization_servers[0]);
            for issuer in &prm.authorization_servers {
                assert!(url::is_acceptable_endpoint(issuer));
                match discovery::as_metadata_urls(issuer) {
                    Ok(urls) => assert!(urls.len() >= 2),
                    Err(e) => clear_error(&e, "as_metadata_urls"),
                }
            }
        }
        Err(e) => clear_error(&e, "parse_resource_metadata"),
    }
    let checked = |m: &metadata::ServerMetadata| {
        assert!(m
            .code_challenge_methods_supported
            .iter()
            .any(|s| s == "S256"));
        for e in [&m.authorization_endpoint, &m.token_endpoint]
            .into_iter()
            .chain(m.registration_endpoint.as_ref())
        {
            assert!(url::is_acceptable_endpoint(e), "endpoint {e:?}");
        }
        let _ = m.auth_methods();
        let _ = m.supports_scope("files:read");
    };
    match metadata::parse_server_metadata(&body, &url) {
        Ok(m) => {
            assert_eq!(m.issuer, url, "issuer differs from the expected one");
            checked(&m);
        }
        Err(e) => clear_error(&e, "parse_server_metadata"),
    }
    match metadata::parse_legacy_server_metadata(&body, &url) {
        Ok(m) => {
            let origin = |u: &str| url::split(u).map(|u| u.origin_key());
            assert!(
                m.issuer == url || origin(&m.issuer) == origin(&url),
                "issuer off-origin"
            );
            checked(&m);
        }
        Err(e) => clear_error(&e, "parse_legacy_server_metadata"),
    }
}

/// The fields of a token, exchange or registration response that hold credentials.
const SECRET_FIELDS: [&str; 3] = ["access_token", "refresh_token", "client_secret"];

/// `body` with every credential replaced by `x`s of the same length (and the credentials), when
/// it is a JSON object holding any: the reference an error or `Debug` text is compared with.
fn without_secrets(body: &str) -> Option<(String, Vec<String>)> {
    let Ok(Value::Object(mut o)) = mcp_wasm_client::json::from_str::<Value>(body) else {
        return None;
    };
    let mut secrets = Vec::new();
    for k in SECRET_FIELDS {
        if let Some(Value::String(s)) = o.get_mut(k) {
            secrets.push(std::mem::replace(s, "x".repeat(s.len())));
        }
    }
    (!secrets.is_empty()).then(|| (Value::Object(o).to_string(), secrets))
}

/// Fails when `shown` (what the original body gave) holds a credential that `reference` (what
/// the same body without credentials gave) does not: that text came from the credential.
fn assert_no_secret(shown: &str, reference: &str, secrets: &[String], what: &str) {
    for s in secrets.iter().filter(|s| s.len() >= 6) {
        assert!(
            !shown.contains(s.as_str()) || reference.contains(s.as_str()),
            "{what}: a credential reached the text: {shown}"
        );
    }
}

/// What one reader made of a body: `Ok` as its `Debug` (tokens redacted), or the error.
fn shown<T: std::fmt::Debug>(r: &Result<T, McpError>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(e) => format!("{} {:?}", e.message, e.data),
    }
}

/// Input: two bytes of HTTP status (big-endian, mod 600), then a token-endpoint body; the same
/// body is read as a token, error, token-exchange (ID-JAG) and registration response.
///
/// Properties: accepted tokens have an access token, a Bearer/DPoP type, an expiry not before
/// now; errors are clear; neither an error nor a `Debug` ever shows the access token, refresh
/// token or client secret the body held (compared with the same body without them).
pub fn check_token_response(data: &[u8]) {
    const NOW: u64 = 1_750_000_000_000;
    const ISSUER: &str = "https://as.example.com";
    let status = data
        .get(..2)
        .map_or(200, |s| u16::from_be_bytes([s[0], s[1]]) % 600);
    let body = String::from_utf8_lossy(data.get(2..).unwrap_or_default()).into_owned();
    let read = |body: &str| {
        let oauth = tokens::parse_error_response(status, body);
        [
            shown(&tokens::parse_token_response(
                body,
                NOW,
                Some("files:read"),
                ISSUER,
            )),
            shown(&Ok::<_, McpError>(oauth.clone())),
            shown(&Err::<(), _>(oauth.to_error())),
            shown(&tokens::parse_exchange_response(status, body)),
            shown(&registration::parse_registration_response(
                status, body, ISSUER,
            )),
        ]
    };
    let texts = read(&body);
    if let Some((reference_body, secrets)) = without_secrets(&body) {
        let reference = read(&reference_body);
        for (i, (t, r)) in texts.iter().zip(&reference).enumerate() {
            assert_no_secret(t, r, &secrets, &format!("reader {i}"));
        }
    }
    match tokens::parse_token_response(&body, NOW, Some("files:read"), ISSUER) {
        Ok(t) => {
            assert!(!t.access_token.expose().is_empty());
            assert!(t.token_type.eq_ignore_ascii_case("bearer") || t.is_dpop());
            assert!(
                t.expires_at_ms.is_none_or(|e| e >= NOW),
                "expires before now"
            );
            assert_eq!(t.issuer, ISSUER);
            assert!(t
                .authorization()
                .expose()
                .ends_with(t.access_token.expose()));
            let _ = tokens::before_request(Some(&t), NOW, tokens::DEFAULT_SKEW_MS);
            let _ = jose::cnf_jkt(t.access_token.expose());
        }
        Err(e) => clear_error(&e, "parse_token_response"),
    }
    let oauth = tokens::parse_error_response(status, &body);
    clear_error(&oauth.to_error(), "parse_error_response");
    let _ = tokens::on_refresh_error(Some(&oauth));
    match tokens::parse_exchange_response(status, &body) {
        Ok(jag) => assert!(!jag.expose().is_empty()),
        Err(e) => clear_error(&e, "parse_exchange_response"),
    }
    match registration::parse_registration_response(status, &body, ISSUER) {
        Ok(c) => assert!(!c.client_id.is_empty()),
        Err(e) => clear_error(&e, "parse_registration_response"),
    }
}

/// Input: read three ways: as a compact JWT (an access token or ID-JAG the client reads
/// unverified), as a JWK (JSON), and as a PEM / DER private key.
///
/// Properties: a readable JWT's payload is an object and `cnf_jkt` is its `cnf.jkt`; any JSON
/// object signed into a compact JWS reads back as its JSON text reads; a JWK's public form
/// keeps only the public members, is a fixed point, and its thumbprint input is sorted compact
/// JSON; a PEM accepted is PKCS#8 and its algorithm readable.
pub fn check_jose(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Some(payload) = jose::jwt_payload(&text) {
        assert!(payload.is_object(), "payload is not an object");
        let jkt = payload
            .get("cnf")
            .and_then(|c| c.get("jkt"))
            .and_then(Value::as_str);
        assert_eq!(jose::cnf_jkt(&text).as_deref(), jkt);
    } else {
        assert_eq!(jose::cnf_jkt(&text), None);
    }
    if let Some(v) = json(data) {
        if v.is_object() {
            let header = jose::dpop_header(jose::Alg::Es256, &Value::Null);
            let jws = jose::compact(&jose::signing_input(&header, &v), &[7; 64]);
            // The claims' JSON text is carried unchanged: what reading that text gives (not
            // `v` itself: serde_json's default float parsing is not correctly rounded, so
            // `5E82` reads as 4.999999999999999e82, whose text reads as …95e82).
            let text: Value = mcp_wasm_client::json::from_str(&v.to_string()).expect("our JSON");
            if jws.len() <= jose::MAX_JWT_BYTES {
                assert_eq!(jose::jwt_payload(&jws), Some(text), "claims changed");
            }
        }
        let _ = jose::Alg::of_jwk(&v);
        match jose::public_jwk(&v) {
            Ok(p) => {
                let o = p.as_object().expect("a public JWK is an object");
                for k in o.keys() {
                    assert!(
                        ["kty", "crv", "x", "y", "n", "e"].contains(&k.as_str()),
                        "{k}"
                    );
                }
                assert_eq!(
                    jose::public_jwk(&p).ok(),
                    Some(p.clone()),
                    "not a fixed point"
                );
                let input = jose::thumbprint_input(&v).expect("thumbprint of an accepted JWK");
                assert_eq!(
                    jose::thumbprint_input(&p).ok().as_deref(),
                    Some(input.as_str())
                );
                let t: Value = mcp_wasm_client::json::from_str(&input).expect("JSON input");
                let keys: Vec<&String> = t.as_object().expect("object").keys().collect();
                assert!(keys.windows(2).all(|w| w[0] < w[1]), "members not sorted");
                assert!(
                    !input.contains([' ', '\n']),
                    "whitespace in the thumbprint input"
                );
            }
            Err(e) => {
                clear_error(&e, "public_jwk");
                assert!(jose::thumbprint_input(&v).is_err());
            }
        }
    }
    match jose::pkcs8_der_from_pem(&text) {
        Ok(der) => {
            let _ = jose::pkcs8_alg(&der);
        }
        Err(e) => assert!(!e.message.is_empty()),
    }
    let _ = jose::pkcs8_alg(data);
    let _ = jose::es256_signature_ok(data);
}

/// Input: a `DPoP-Nonce` value, a newline, a `WWW-Authenticate` value, a newline, an
/// authorization-server error body: the `use_dpop_nonce` paths of a resource server (401
/// challenge) and of a token endpoint (400 body).
///
/// Properties: a nonce is kept exactly when it is RFC 9449 NQCHARs within the cap, and a kept
/// one is echoed verbatim in the proof's claims (read back from the compact JWS); the retry
/// decision sees `use_dpop_nonce` exactly when the challenge's or the body's `error` is it.
pub fn check_dpop_nonce(data: &[u8]) {
    let (nonce, rest) = first_line(data);
    let (www, body) = first_line(rest.as_bytes());
    let valid = !nonce.is_empty()
        && nonce.len() <= jose::MAX_DPOP_NONCE_BYTES
        && nonce
            .bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5b | 0x5d..=0x7e));
    let kept = jose::dpop_nonce(&nonce);
    assert_eq!(kept.is_some(), valid, "nonce {nonce:?} kept: {kept:?}");
    if let Some(n) = kept {
        assert_eq!(n, nonce);
        let jwk =
            mcp_wasm_client::json::json!({ "kty": "EC", "crv": "P-256", "x": "eA", "y": "eQ" });
        let claims = jose::dpop_claims(
            "jti",
            "POST",
            "https://as.example.com/token?x#y",
            1,
            None,
            Some(n),
        );
        let input = jose::signing_input(&jose::dpop_header(jose::Alg::Es256, &jwk), &claims);
        let proof = jose::compact(&input, &[1; 64]);
        let read = jose::jwt_payload(&proof).expect("our proof reads back");
        assert_eq!(read.get("nonce").and_then(Value::as_str), Some(n));
        assert_eq!(read["htu"], "https://as.example.com/token");
    }
    let hint = AuthHint::from_header(Some(&www));
    let rs_wants_nonce = hint.error == Some(ChallengeError::UseDpopNonce);
    let named = challenge::parse(&www)
        .iter()
        .filter(|c| c.is("Bearer") || c.is("DPoP"))
        .find_map(|c| c.param("error").map(str::to_string));
    assert_eq!(rs_wants_nonce, named.as_deref() == Some("use_dpop_nonce"));
    let oauth = tokens::parse_error_response(400, &body);
    let as_wants_nonce = oauth.error == "use_dpop_nonce";
    if as_wants_nonce {
        assert!(
            body.contains("use_dpop_nonce") || body.contains("\\u"),
            "{body:?}"
        );
    }
    clear_error(&oauth.to_error(), "parse_error_response");
}
