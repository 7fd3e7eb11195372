//! JOSE for client assertions and DPoP (RFC 7515, 7519, 7523, 7638, 9449), as pure string
//! and JSON work: the bytes to sign, the compact serialization, public JWKs and their
//! thumbprint input, DPoP proof and client assertion claims, and reading a JWT's claims.
//! Hashing and signing are the host's (WebCrypto); an ECDSA P-256 signature from WebCrypto is
//! already the raw 64-byte `r || s` JWS wants.

use serde_json::{json, Map, Value};

use crate::protocol::error::{ErrorKind, McpError};

use super::errors;
use super::pkce::base64url;

/// A JWS signing algorithm this client signs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alg {
    /// ECDSA P-256 with SHA-256.
    Es256,
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    Rs256,
}

impl Alg {
    /// Reads `ES256` / `RS256`.
    pub fn parse(s: &str) -> Option<Alg> {
        match s {
            "ES256" => Some(Alg::Es256),
            "RS256" => Some(Alg::Rs256),
            _ => None,
        }
    }

    /// The JOSE name.
    pub fn as_str(self) -> &'static str {
        match self {
            Alg::Es256 => "ES256",
            Alg::Rs256 => "RS256",
        }
    }
}

/// Compact JSON, base64url without padding.
pub fn b64url_json(v: &Value) -> String {
    base64url(v.to_string().as_bytes())
}

/// The JWS signing input: `base64url(header) "." base64url(claims)`.
pub fn signing_input(header: &Value, claims: &Value) -> String {
    format!("{}.{}", b64url_json(header), b64url_json(claims))
}

/// The compact JWS: the signing input, `.`, the base64url signature.
pub fn compact(signing_input: &str, signature: &[u8]) -> String {
    format!("{signing_input}.{}", base64url(signature))
}

fn dpop_error(message: impl Into<String>) -> McpError {
    errors::auth_error(ErrorKind::DpopError, message, Value::Null)
}

fn member<'a>(o: &'a Map<String, Value>, k: &str) -> Result<&'a str, McpError> {
    o.get(k)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| dpop_error(format!("The public key has no {k}")))
}

/// The public members of an EC P-256 or RSA JWK, in a fixed order; private members and
/// `ext`, `key_ops`, `alg`, `use` are never copied.
pub fn public_jwk(jwk: &Value) -> Result<Value, McpError> {
    let o = jwk
        .as_object()
        .ok_or_else(|| dpop_error("The public key is not a JWK object"))?;
    match o.get("kty").and_then(Value::as_str) {
        Some("EC") if o.get("crv").and_then(Value::as_str) == Some("P-256") => Ok(json!({
            "kty": "EC", "crv": "P-256", "x": member(o, "x")?, "y": member(o, "y")?,
        })),
        Some("RSA") => Ok(json!({ "kty": "RSA", "n": member(o, "n")?, "e": member(o, "e")? })),
        _ => Err(dpop_error("Only EC P-256 and RSA keys are supported")),
    }
}

/// The RFC 7638 §3 thumbprint input: the required members in lexicographic order, no
/// whitespace (EC: crv, kty, x, y; RSA: e, kty, n).
pub fn thumbprint_input(jwk: &Value) -> Result<String, McpError> {
    let p = public_jwk(jwk)?;
    let get = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or_default();
    let quoted = |s: &str| Value::String(s.to_string()).to_string();
    Ok(match get("kty") {
        "EC" => format!(
            "{{\"crv\":{},\"kty\":\"EC\",\"x\":{},\"y\":{}}}",
            quoted(get("crv")),
            quoted(get("x")),
            quoted(get("y"))
        ),
        _ => format!(
            "{{\"e\":{},\"kty\":\"RSA\",\"n\":{}}}",
            quoted(get("e")),
            quoted(get("n"))
        ),
    })
}

/// The thumbprint of a SHA-256 digest of [`thumbprint_input`] (base64url).
pub fn thumbprint(sha256_digest: &[u8; 32]) -> String {
    base64url(sha256_digest)
}

/// RFC 9449 §4.2 `htu`: the URL without its query and fragment, otherwise as given.
pub fn htu(url: &str) -> String {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    url[..end].to_string()
}

/// The DPoP proof header: `typ` `dpop+jwt`, `alg`, the public `jwk`.
pub fn dpop_header(alg: Alg, public_jwk: &Value) -> Value {
    json!({ "typ": "dpop+jwt", "alg": alg.as_str(), "jwk": public_jwk })
}

/// The DPoP proof claims: `jti`, `htm`, `htu`, `iat`, and `ath` / `nonce` when given.
pub fn dpop_claims(
    jti: &str,
    htm: &str,
    url: &str,
    iat_s: u64,
    ath: Option<&str>,
    nonce: Option<&str>,
) -> Value {
    let mut c = json!({ "jti": jti, "htm": htm, "htu": htu(url), "iat": iat_s });
    if let Some(a) = ath {
        c["ath"] = json!(a);
    }
    if let Some(n) = nonce {
        c["nonce"] = json!(n);
    }
    c
}

/// `ath`: base64url of the SHA-256 of the ASCII access token (the caller hashes).
pub fn ath(sha256_of_access_token: &[u8; 32]) -> String {
    base64url(sha256_of_access_token)
}

/// A client assertion's header (`alg`, `typ` `JWT`, and `kid` when known).
pub fn client_assertion_header(alg: Alg, kid: Option<&str>) -> Value {
    let mut h = json!({ "alg": alg.as_str(), "typ": "JWT" });
    if let Some(k) = kid {
        h["kid"] = json!(k);
    }
    h
}

/// RFC 7523 §3 client assertion claims: `iss` = `sub` = the client id, `aud` = the AS
/// issuer as received, `jti`, `iat`, `exp` = `iat + lifetime_s`.
pub fn client_assertion_claims(
    client_id: &str,
    audience: &str,
    jti: &str,
    iat_s: u64,
    lifetime_s: u64,
) -> Value {
    json!({
        "iss": client_id, "sub": client_id, "aud": audience, "jti": jti,
        "iat": iat_s, "exp": iat_s.saturating_add(lifetime_s),
    })
}

/// The claims of a compact JWS whose payload is a JSON object; `None` for anything else
/// (an opaque token).
pub fn jwt_payload(token: &str) -> Option<Value> {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    let mut parts = token.split('.');
    let (_, payload, _, rest) = (parts.next()?, parts.next()?, parts.next()?, parts.next());
    if rest.is_some() {
        return None;
    }
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    match serde_json::from_slice(&bytes).ok()? {
        Value::Object(o) => Some(Value::Object(o)),
        _ => None,
    }
}

/// `cnf.jkt` of a DPoP-bound JWT access token, if it is a readable JWT that carries one.
pub fn cnf_jkt(token: &str) -> Option<String> {
    jwt_payload(token)?
        .get("cnf")?
        .get("jkt")?
        .as_str()
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::pkce::test_sha256;

    #[test]
    fn rfc7638_thumbprint_example() {
        let jwk = json!({
            "kty": "RSA",
            "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
            "e": "AQAB",
            "alg": "RS256",
            "kid": "2011-04-29"
        });
        let input = thumbprint_input(&jwk).expect("RSA key");
        assert!(input.starts_with("{\"e\":\"AQAB\",\"kty\":\"RSA\",\"n\":\"0vx7"));
        assert_eq!(
            thumbprint(&test_sha256(input.as_bytes())),
            "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
        );
    }

    #[test]
    fn rfc9449_example_key_thumbprint_and_ath() {
        // RFC 9449 §4.1's proof key; §6.1 gives its cnf.jkt.
        let jwk = json!({
            "kty": "EC",
            "x": "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
            "y": "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA",
            "crv": "P-256",
            "d": "private"
        });
        let input = thumbprint_input(&jwk).expect("EC key");
        assert!(!input.contains("private"));
        assert_eq!(
            thumbprint(&test_sha256(input.as_bytes())),
            "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
        );
        // §7.1: the access token and its ath.
        let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU";
        assert_eq!(
            ath(&test_sha256(token.as_bytes())),
            "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
        );
    }

    #[test]
    fn public_jwk_keeps_only_public_members() {
        let jwk = json!({ "kty": "EC", "crv": "P-256", "x": "X", "y": "Y", "d": "D",
                          "ext": true, "key_ops": ["sign"] });
        let p = public_jwk(&jwk).expect("EC");
        assert_eq!(
            p,
            json!({ "kty": "EC", "crv": "P-256", "x": "X", "y": "Y" })
        );
        assert!(public_jwk(&json!({ "kty": "oct", "k": "secret" })).is_err());
        assert!(public_jwk(&json!({ "kty": "EC", "crv": "P-384", "x": "X", "y": "Y" })).is_err());
    }

    #[test]
    fn htu_drops_query_and_fragment_only() {
        assert_eq!(htu("https://s.example/mcp?x=1#f"), "https://s.example/mcp");
        assert_eq!(htu("https://s.example/mcp/"), "https://s.example/mcp/");
        assert_eq!(htu("https://S.example"), "https://S.example");
    }

    #[test]
    fn proofs_and_assertions_carry_the_claims() {
        let c = dpop_claims("j", "POST", "https://s/mcp?q", 7, Some("a"), Some("n"));
        assert_eq!(
            c,
            json!({ "jti": "j", "htm": "POST", "htu": "https://s/mcp", "iat": 7, "ath": "a", "nonce": "n" })
        );
        let h = dpop_header(Alg::Es256, &json!({ "kty": "EC" }));
        assert_eq!(h["typ"], "dpop+jwt");
        let a = client_assertion_claims("cid", "https://as", "j", 100, 300);
        assert_eq!(a["iss"], "cid");
        assert_eq!(a["sub"], "cid");
        assert_eq!(a["aud"], "https://as");
        assert_eq!(a["exp"], 400);
        let input = signing_input(&json!({ "alg": "ES256" }), &json!({ "a": 1 }));
        assert_eq!(input, "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ");
        assert_eq!(
            compact(&input, &[0xff, 0xee]),
            "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ._-4"
        );
    }

    #[test]
    fn cnf_jkt_of_jwts_only() {
        let payload = base64url(br#"{"cnf":{"jkt":"abc"},"sub":"x"}"#);
        assert_eq!(cnf_jkt(&format!("h.{payload}.s")).as_deref(), Some("abc"));
        assert_eq!(cnf_jkt("opaque-token"), None);
        assert_eq!(cnf_jkt("a.b.c"), None);
        assert_eq!(cnf_jkt(&format!("h.{}.s", base64url(b"[1]"))), None);
    }
}
