//! JOSE for client assertions and DPoP, as pure functions: JWS compact serialization (RFC 7515)
//! with ES256 / RS256 (RFC 7518), JWT claims for `private_key_jwt` and the jwt-bearer grant
//! (RFC 7519, RFC 7523), JWK thumbprints (RFC 7638) and DPoP proofs (RFC 9449).
//!
//! The crate never hashes or signs: the host does (WebCrypto in the browser). These functions
//! build the exact bytes to hash or sign ([`signing_input`], [`thumbprint_input`]) and assemble
//! what the host returns ([`compact`], [`thumbprint`], [`ath`]). A JWS is made in three steps:
//! `input = signing_input(&header, &claims)`, the host signs `input.as_bytes()`, then
//! `compact(&input, &signature)`.
//!
//! Keys: only EC P-256 (ES256) and RSA (RS256). Private JWK members never leave
//! [`public_jwk`]; PEM keys are read as PKCS#8 ([`pkcs8_der_from_pem`]), the format
//! `crypto.subtle.importKey("pkcs8", …)` takes, and no error message ever contains key
//! material. Errors are `McpError`s of kind `input` (a key or PEM the application supplied).

use crate::json::{json, Map, Value};
use crate::util::base64::{decode, Alphabet};

use crate::protocol::error::{ErrorKind, McpError};

use super::pkce::base64url;
use super::url;

/// `client_assertion_type` for `private_key_jwt` (RFC 7523 §2.2).
pub const CLIENT_ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/// `grant_type` of the JWT bearer authorization grant (RFC 7523 §2.1).
pub const JWT_BEARER_GRANT: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// `grant_type` of OAuth token exchange (RFC 8693 §2.1).
pub const TOKEN_EXCHANGE_GRANT: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
/// Token type of an OpenID Connect ID token (RFC 8693 §3), the `subject_token_type` of ID-JAG.
pub const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";
/// Token type of an Identity Assertion JWT Authorization Grant (ID-JAG), the
/// `requested_token_type` of cross-app access.
pub const ID_JAG_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id-jag";
/// `typ` of a DPoP proof (RFC 9449 §4.2).
pub const DPOP_TYP: &str = "dpop+jwt";
/// Longest token [`jwt_payload`] looks into, in bytes.
pub const MAX_JWT_BYTES: usize = 64 * 1024;
/// Longest PEM text [`pkcs8_der_from_pem`] reads, in bytes.
pub const MAX_PEM_BYTES: usize = 64 * 1024;
/// Smallest RSA modulus accepted, in bytes (2048 bits, RFC 7518 §3.3).
pub const MIN_RSA_MODULUS_BYTES: usize = 256;

/// A JWS signature algorithm this client signs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alg {
    /// ECDSA P-256 with SHA-256; WebCrypto `{ name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" }`.
    Es256,
    /// RSASSA-PKCS1-v1_5 with SHA-256; WebCrypto `{ name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }`.
    Rs256,
}

impl Alg {
    /// The algorithm named by a JWS `alg` value (exact case), if supported.
    pub fn parse(s: &str) -> Option<Alg> {
        match s {
            "ES256" => Some(Alg::Es256),
            "RS256" => Some(Alg::Rs256),
            _ => None,
        }
    }

    /// The JWS `alg` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Alg::Es256 => "ES256",
            Alg::Rs256 => "RS256",
        }
    }

    /// The algorithm a JWK's key type signs with (EC P-256 → ES256, RSA → RS256).
    pub fn of_jwk(jwk: &Value) -> Option<Alg> {
        match (str_member(jwk, "kty"), str_member(jwk, "crv")) {
            (Some("EC"), Some("P-256")) => Some(Alg::Es256),
            (Some("RSA"), _) => Some(Alg::Rs256),
            _ => None,
        }
    }
}

/// Compact JSON of `v`, base64url without padding.
pub fn b64url_json(v: &Value) -> String {
    base64url(v.to_string().as_bytes())
}

/// The JWS Signing Input: `b64url(header) + "." + b64url(claims)`, the bytes the host signs.
pub fn signing_input(header: &Value, claims: &Value) -> String {
    let (header, claims) = (b64url_json(header), b64url_json(claims));
    [header.as_str(), ".", claims.as_str()].concat()
}

/// The JWS Compact Serialization: `signing_input + "." + b64url(signature)`.
pub fn compact(signing_input: &str, signature: &[u8]) -> String {
    [signing_input, ".", &base64url(signature)].concat()
}

fn str_member<'a>(jwk: &'a Value, name: &str) -> Option<&'a str> {
    jwk.get(name).and_then(Value::as_str)
}

fn b64url_member(jwk: &Value, name: &str) -> Option<Vec<u8>> {
    str_member(jwk, name).and_then(|s| decode(s, Alphabet::UrlNoPad))
}

fn pem_error(message: &str) -> McpError {
    McpError::input(message.to_string())
}

fn key_error(message: &str) -> McpError {
    super::errors::auth_error(
        ErrorKind::DpopError,
        message.to_string(),
        crate::json::Value::Null,
    )
}

/// The checked public members of a JWK, in the order RFC 7638 sorts them.
enum PublicKey<'a> {
    Ec { x: &'a str, y: &'a str },
    Rsa { n: &'a str, e: &'a str },
}

fn public_members(jwk: &Value) -> Result<PublicKey<'_>, McpError> {
    if !jwk.is_object() {
        return Err(key_error("A JWK must be a JSON object"));
    }
    match str_member(jwk, "kty") {
        Some("EC") => {
            if str_member(jwk, "crv") != Some("P-256") {
                return Err(key_error(
                    "Only EC keys on curve P-256 (ES256) and RSA keys (RS256) are supported",
                ));
            }
            let coordinate = |name| b64url_member(jwk, name).is_some_and(|b| b.len() == 32);
            if !coordinate("x") || !coordinate("y") {
                return Err(key_error(
                    "An EC P-256 JWK needs x and y: 32 bytes each, base64url without padding",
                ));
            }
            Ok(PublicKey::Ec {
                x: str_member(jwk, "x").unwrap_or_default(),
                y: str_member(jwk, "y").unwrap_or_default(),
            })
        }
        Some("RSA") => {
            let n = b64url_member(jwk, "n");
            let e = b64url_member(jwk, "e");
            match (n, e) {
                (Some(n), Some(e)) if !e.is_empty() && n.first().is_some_and(|b| *b != 0) => {
                    if n.len() < MIN_RSA_MODULUS_BYTES {
                        return Err(key_error("RSA keys must be at least 2048 bits long"));
                    }
                    Ok(PublicKey::Rsa {
                        n: str_member(jwk, "n").unwrap_or_default(),
                        e: str_member(jwk, "e").unwrap_or_default(),
                    })
                }
                _ => Err(key_error(
                    "An RSA JWK needs n and e: unsigned big-endian integers, base64url without padding",
                )),
            }
        }
        Some(_) => Err(key_error(
            "Only EC P-256 (ES256) and RSA (RS256) keys are supported",
        )),
        None => Err(key_error("A JWK needs a kty")),
    }
}

/// The public JWK of `jwk` (public or private): EC `kty, crv, x, y` or RSA `kty, n, e`, in that
/// order, nothing else (never `d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`, `ext`, `key_ops`,
/// `alg`, `use`, `kid`). Refuses keys that are not EC P-256 or RSA (≥ 2048 bits).
pub fn public_jwk(jwk: &Value) -> Result<Value, McpError> {
    Ok(match public_members(jwk)? {
        PublicKey::Ec { x, y } => json!({ "kty": "EC", "crv": "P-256", "x": x, "y": y }),
        PublicKey::Rsa { n, e } => json!({ "kty": "RSA", "n": n, "e": e }),
    })
}

/// The RFC 7638 §3 thumbprint input: the required members in lexicographic order, no
/// whitespace (EC `crv, kty, x, y`; RSA `e, kty, n`). The host hashes its UTF-8 bytes.
pub fn thumbprint_input(jwk: &Value) -> Result<String, McpError> {
    let mut m = Map::new();
    match public_members(jwk)? {
        PublicKey::Ec { x, y } => {
            m.insert("crv".into(), "P-256".into());
            m.insert("kty".into(), "EC".into());
            m.insert("x".into(), x.into());
            m.insert("y".into(), y.into());
        }
        PublicKey::Rsa { n, e } => {
            m.insert("e".into(), e.into());
            m.insert("kty".into(), "RSA".into());
            m.insert("n".into(), n.into());
        }
    }
    Ok(Value::Object(m).to_string())
}

/// The JWK SHA-256 thumbprint (RFC 7638), base64url, from the host's SHA-256 of
/// [`thumbprint_input`]: what `cnf.jkt` and `dpop_jkt` carry.
pub fn thumbprint(sha256_digest: &[u8; 32]) -> String {
    base64url(sha256_digest)
}

/// The DPoP `htu` of `url`: the URL without query and fragment (RFC 9449 §4.2), as a string
/// prefix; nothing is normalized (case, port, trailing `/` are kept as given).
pub fn htu(url: &str) -> String {
    match url::split(url) {
        Some(u) => [u.scheme, "://", u.authority, u.path].concat(),
        None => url[..url.find(['?', '#']).unwrap_or(url.len())].to_string(),
    }
}

/// The DPoP proof header: `{ "typ": "dpop+jwt", "alg": …, "jwk": … }` (`public_jwk` from
/// [`public_jwk`]).
pub fn dpop_header(alg: Alg, public_jwk: &Value) -> Value {
    json!({ "typ": DPOP_TYP, "alg": alg.as_str(), "jwk": public_jwk })
}

/// The DPoP proof claims: `jti`, `htm`, `htu` (via [`htu`]), `iat`, and `ath` / `nonce` when
/// given (RFC 9449 §4.2).
pub fn dpop_claims(
    jti: &str,
    htm: &str,
    url: &str,
    iat_s: u64,
    ath: Option<&str>,
    nonce: Option<&str>,
) -> Value {
    let mut claims = json!({ "jti": jti, "htm": htm, "htu": htu(url), "iat": iat_s });
    if let Some(ath) = ath {
        claims["ath"] = ath.into();
    }
    if let Some(nonce) = nonce {
        claims["nonce"] = nonce.into();
    }
    claims
}

/// The DPoP `ath` claim: base64url of the host's SHA-256 of the ASCII access token
/// (RFC 9449 §4.2).
pub fn ath(sha256_of_access_token: &[u8; 32]) -> String {
    base64url(sha256_of_access_token)
}

/// A client assertion header: `alg`, `typ` `"JWT"` (RFC 7519 §5.1; optional, sent as the
/// TypeScript SDK does) and `kid` when given.
pub fn client_assertion_header(alg: Alg, kid: Option<&str>) -> Value {
    let mut header = json!({ "alg": alg.as_str(), "typ": "JWT" });
    if let Some(kid) = kid {
        header["kid"] = kid.into();
    }
    header
}

/// Client assertion claims (RFC 7523 §3): `iss` = `sub` = `client_id`, `aud` = the AS issuer
/// string verbatim, `jti`, `iat`, `exp` = `iat + lifetime`.
pub fn client_assertion_claims(
    client_id: &str,
    audience: &str,
    jti: &str,
    iat_s: u64,
    lifetime_s: u64,
) -> Value {
    json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "jti": jti,
        "iat": iat_s,
        "exp": iat_s.saturating_add(lifetime_s),
    })
}

fn b64url_json_object(part: &str) -> Option<Map<String, Value>> {
    let bytes = decode(part, Alphabet::UrlNoPad)?;
    // Through &str, as every other JSON text the crate reads.
    match crate::json::from_str(std::str::from_utf8(&bytes).ok()?) {
        Ok(Value::Object(o)) => Some(o),
        _ => None,
    }
}

/// The claims of `token` if it is a compact JWS (three base64url parts, a header object with
/// `alg`, a payload object), else `None` (opaque tokens). Unverified: for comparisons only.
pub fn jwt_payload(token: &str) -> Option<Value> {
    if token.len() > MAX_JWT_BYTES {
        return None;
    }
    let mut parts = token.split('.');
    let (header, payload, signature) = (parts.next()?, parts.next()?, parts.next()?);
    // The signature is not verified (the claims are only compared), so its part is not read.
    if parts.next().is_some() || signature.contains(['=', '+', '/']) {
        return None;
    }
    let header = b64url_json_object(header)?;
    header.get("alg").and_then(Value::as_str)?;
    b64url_json_object(payload).map(Value::Object)
}

/// The `cnf.jkt` of a JWT access token (RFC 9449 §6.1), to compare with our [`thumbprint`];
/// `None` for opaque tokens and JWTs without one.
pub fn cnf_jkt(token: &str) -> Option<String> {
    jwt_payload(token)?
        .get("cnf")?
        .get("jkt")?
        .as_str()
        .map(str::to_string)
}

const PEM_BEGIN: &str = "-----BEGIN PRIVATE KEY-----";
const PEM_END: &str = "-----END PRIVATE KEY-----";

/// The DER bytes of a PKCS#8 PEM private key (`-----BEGIN PRIVATE KEY-----`, any line breaks
/// or whitespace in the body), for `crypto.subtle.importKey("pkcs8", …)`. PKCS#1
/// (`RSA PRIVATE KEY`) and SEC1 (`EC PRIVATE KEY`) are refused with the command that converts
/// them; errors never contain key material. The bytes are a private key: never log them.
pub fn pkcs8_der_from_pem(pem: &str) -> Result<Vec<u8>, McpError> {
    if pem.len() > MAX_PEM_BYTES {
        return Err(pem_error("The PEM private key is too large"));
    }
    let Some(start) = pem.find(PEM_BEGIN) else {
        return Err(pem_error(
            if pem.contains("-----BEGIN RSA PRIVATE KEY-----")
                || pem.contains("-----BEGIN EC PRIVATE KEY-----")
            {
                "The private key is in PKCS#1/SEC1 PEM (BEGIN RSA/EC PRIVATE KEY); convert it to PKCS#8: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem"
            } else if pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") {
                "The private key is encrypted; decrypt it to unencrypted PKCS#8: openssl pkey -in key.pem -out key-pkcs8.pem"
            } else {
                "Expected a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)"
            },
        ));
    };
    let body_start = start + PEM_BEGIN.len();
    let Some(len) = pem[body_start..].find(PEM_END) else {
        return Err(pem_error(
            "The PEM private key has no -----END PRIVATE KEY----- line",
        ));
    };
    let body: String = pem[body_start..body_start + len]
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let der = decode(body, Alphabet::Standard)
        .ok_or_else(|| pem_error("The PEM private key's body is not valid base64"))?;
    if !is_private_key_info(&der) {
        return Err(pem_error(
            "The PEM private key's body is not a PKCS#8 PrivateKeyInfo",
        ));
    }
    Ok(der)
}

/// The algorithm of a PKCS#8 key (EC P-256 → ES256, rsaEncryption → RS256), to choose the
/// WebCrypto import parameters; `None` for other keys or bytes that are not PKCS#8.
pub fn pkcs8_alg(der: &[u8]) -> Option<Alg> {
    // id-ecPublicKey (1.2.840.10045.2.1), prime256v1 (1.2.840.10045.3.1.7),
    // rsaEncryption (1.2.840.113549.1.1.1).
    const EC: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
    const P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
    const RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
    let (algorithm_identifier, _) = private_key_info(der)?;
    let (tag, oid, rest) = der_tlv(algorithm_identifier)?;
    if tag != 0x06 {
        return None;
    }
    if oid == EC {
        let (tag, curve, _) = der_tlv(rest)?;
        (tag == 0x06 && curve == P256).then_some(Alg::Es256)
    } else {
        (oid == RSA).then_some(Alg::Rs256)
    }
}

fn is_private_key_info(der: &[u8]) -> bool {
    private_key_info(der).is_some()
}

/// PrivateKeyInfo ::= SEQUENCE { version INTEGER (0|1), AlgorithmIdentifier, OCTET STRING, … }:
/// the AlgorithmIdentifier's contents and the private key octets.
fn private_key_info(der: &[u8]) -> Option<(&[u8], &[u8])> {
    let (tag, info, rest) = der_tlv(der)?;
    if tag != 0x30 || !rest.is_empty() {
        return None;
    }
    let (tag, version, info) = der_tlv(info)?;
    if tag != 0x02 || !matches!(version, [0] | [1]) {
        return None;
    }
    let (tag, algorithm, info) = der_tlv(info)?;
    if tag != 0x30 {
        return None;
    }
    let (tag, key, _) = der_tlv(info)?;
    (tag == 0x04 && !key.is_empty()).then_some((algorithm, key))
}

/// One DER TLV with a one-byte tag and a definite length: (tag, contents, the rest).
fn der_tlv(der: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, der) = der.split_first()?;
    let (&first, mut der) = der.split_first()?;
    let len = if first < 0x80 {
        usize::from(first)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || der.len() < count {
            return None;
        }
        let mut len = 0usize;
        for &b in &der[..count] {
            len = (len << 8) | usize::from(b);
        }
        der = &der[count..];
        len
    };
    (der.len() >= len).then(|| (tag, &der[..len], &der[len..]))
}

/// True for a 64-byte ES256 signature (`r || s`, 32 bytes each, neither zero): WebCrypto's
/// ECDSA output is already this JWS format (RFC 7518 §3.4), not DER, so it goes to
/// [`compact`] as is.
pub fn es256_signature_ok(sig: &[u8]) -> bool {
    sig.len() == 64 && sig[..32].iter().any(|b| *b != 0) && sig[32..].iter().any(|b| *b != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::pkce::test_sha256;
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    use base64::Engine as _;

    /// RFC 7638 §3.1.
    const RFC7638_N: &str = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";

    /// The `jwk` of the RFC 9449 §4.1 example proof.
    fn rfc9449_jwk() -> Value {
        json!({
            "kty": "EC",
            "x": "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
            "y": "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA",
            "crv": "P-256"
        })
    }

    fn jkt(jwk: &Value) -> String {
        thumbprint(&test_sha256(thumbprint_input(jwk).unwrap().as_bytes()))
    }

    #[test]
    fn algs() {
        assert_eq!(Alg::parse("ES256"), Some(Alg::Es256));
        assert_eq!(Alg::parse("RS256"), Some(Alg::Rs256));
        for bad in ["es256", "HS256", "none", "PS256", "ES384", ""] {
            assert_eq!(Alg::parse(bad), None, "{bad}");
        }
        assert_eq!(Alg::Es256.as_str(), "ES256");
        assert_eq!(Alg::Rs256.as_str(), "RS256");
        assert_eq!(Alg::of_jwk(&rfc9449_jwk()), Some(Alg::Es256));
        assert_eq!(
            Alg::of_jwk(&json!({"kty": "RSA", "n": RFC7638_N, "e": "AQAB"})),
            Some(Alg::Rs256)
        );
        assert_eq!(Alg::of_jwk(&json!({"kty": "EC", "crv": "P-384"})), None);
        assert_eq!(Alg::of_jwk(&json!({"kty": "OKP", "crv": "Ed25519"})), None);
    }

    #[test]
    fn rfc7638_example_thumbprint() {
        let jwk = json!({
            "kty": "RSA",
            "n": RFC7638_N,
            "e": "AQAB",
            "alg": "RS256",
            "kid": "2011-04-29"
        });
        let input = thumbprint_input(&jwk).unwrap();
        assert_eq!(
            input,
            format!(r#"{{"e":"AQAB","kty":"RSA","n":"{RFC7638_N}"}}"#)
        );
        assert_eq!(jkt(&jwk), "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
    }

    #[test]
    fn rfc9449_example_jkt() {
        let jwk = rfc9449_jwk();
        assert_eq!(
            thumbprint_input(&jwk).unwrap(),
            r#"{"crv":"P-256","kty":"EC","x":"l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs","y":"9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"}"#
        );
        // RFC 9449 §6.1: the cnf.jkt of a token bound to the §4.1 example key.
        assert_eq!(jkt(&jwk), "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I");
        // The thumbprint of the private key is the public key's.
        let mut private = jwk.clone();
        private["d"] = "ZHVtbXktcHJpdmF0ZS1zY2FsYXItZm9yLXRlc3RzLi4".into();
        assert_eq!(jkt(&private), jkt(&jwk));
    }

    #[test]
    fn rfc9449_example_ath() {
        let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU";
        assert_eq!(
            ath(&test_sha256(token.as_bytes())),
            "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
        );
        // An opaque token, even with two dots, is not a JWT.
        assert_eq!(jwt_payload(token), None);
        assert_eq!(cnf_jkt(token), None);
    }

    #[test]
    fn rfc7515_a3_compact_serialization() {
        let header = json!({ "alg": "ES256" });
        assert_eq!(b64url_json(&header), "eyJhbGciOiJFUzI1NiJ9");
        // The RFC's payload has CRLFs and spaces, so it is given as its base64url.
        let payload = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ";
        assert_eq!(
            URL_SAFE_NO_PAD.decode(payload).unwrap(),
            b"{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}"
        );
        let input = format!("{}.{payload}", b64url_json(&header));
        let r: [u8; 32] = [
            14, 209, 33, 83, 121, 99, 108, 72, 60, 47, 127, 21, 88, 7, 212, 2, 163, 178, 40, 3, 58,
            249, 124, 126, 23, 129, 154, 195, 22, 158, 166, 101,
        ];
        let s: [u8; 32] = [
            197, 10, 7, 211, 140, 60, 112, 229, 216, 241, 45, 175, 8, 74, 84, 128, 166, 101, 144,
            197, 242, 147, 80, 154, 143, 63, 127, 138, 131, 163, 84, 213,
        ];
        let sig = [r, s].concat();
        assert!(es256_signature_ok(&sig));
        assert_eq!(
            compact(&input, &sig),
            "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
        );
        // Its claims read back.
        let jws = compact(&input, &sig);
        assert_eq!(jwt_payload(&jws).unwrap()["iss"], "joe");
    }

    #[test]
    fn signing_input_is_compact_json() {
        let header = json!({ "alg": "RS256", "typ": "JWT" });
        let claims = json!({ "iss": "a b", "n": 1 });
        let input = signing_input(&header, &claims);
        let (h, c) = input.split_once('.').unwrap();
        assert_eq!(
            URL_SAFE_NO_PAD.decode(h).unwrap(),
            br#"{"alg":"RS256","typ":"JWT"}"#
        );
        assert_eq!(
            URL_SAFE_NO_PAD.decode(c).unwrap(),
            br#"{"iss":"a b","n":1}"#
        );
        assert!(!input.contains('='));
        assert_eq!(compact(&input, &[0xfb, 0xff]), format!("{input}.-_8"));
    }

    #[test]
    fn es256_signatures() {
        assert!(es256_signature_ok(&[1; 64]));
        assert!(!es256_signature_ok(&[1; 63]));
        assert!(!es256_signature_ok(&[1; 70])); // a DER signature is not JWS
        assert!(!es256_signature_ok(&[[0; 32], [1; 32]].concat()));
        assert!(!es256_signature_ok(&[[1; 32], [0; 32]].concat()));
        assert!(!es256_signature_ok(&[]));
    }

    #[test]
    fn public_jwk_keeps_only_public_members_in_order() {
        let private = json!({
            "d": "c2VjcmV0LWQ", "kty": "EC", "use": "sig", "key_ops": ["sign"], "ext": true,
            "alg": "ES256", "kid": "k1", "y": "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA",
            "x": "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs", "crv": "P-256"
        });
        let public = public_jwk(&private).unwrap();
        assert_eq!(
            public.to_string(),
            r#"{"kty":"EC","crv":"P-256","x":"l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs","y":"9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"}"#
        );
        assert!(!public.to_string().contains("c2VjcmV0LWQ"));

        let rsa = json!({
            "kty": "RSA", "n": RFC7638_N, "e": "AQAB", "d": "c2VjcmV0LWQ", "p": "cA", "q": "cQ",
            "dp": "ZHA", "dq": "ZHE", "qi": "cWk", "oth": [], "k": "aw", "alg": "RS256"
        });
        let public = public_jwk(&rsa).unwrap();
        assert_eq!(
            public.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["kty", "n", "e"]
        );
        for secret in [
            "c2VjcmV0LWQ",
            "\"p\"",
            "\"q\"",
            "ZHA",
            "ZHE",
            "cWk",
            "oth",
            "\"k\"",
        ] {
            assert!(!public.to_string().contains(secret), "{secret}");
        }
        // Public twice is the same.
        assert_eq!(public_jwk(&public).unwrap(), public);
    }

    #[test]
    fn public_jwk_refuses_other_keys() {
        let x = "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs";
        for bad in [
            json!("not an object"),
            json!({}),
            json!({ "kty": "oct", "k": "c2VjcmV0LWs" }),
            json!({ "kty": "OKP", "crv": "Ed25519", "x": x }),
            json!({ "kty": "EC", "crv": "P-384", "x": x, "y": x }),
            json!({ "kty": "EC", "crv": "P-256", "x": x }),
            json!({ "kty": "EC", "crv": "P-256", "x": x, "y": "AQAB" }),
            json!({ "kty": "EC", "crv": "P-256", "x": x, "y": format!("{x}=") }),
            json!({ "kty": "EC", "crv": "P-256", "x": x, "y": x.replace('-', "+") }),
            json!({ "kty": "RSA", "n": "AQAB", "e": "AQAB" }),
            json!({ "kty": "RSA", "n": RFC7638_N }),
            json!({ "kty": "RSA", "n": RFC7638_N, "e": "" }),
            json!({ "kty": "RSA", "n": format!("AA{RFC7638_N}"), "e": "AQAB" }),
            json!({ "kty": 1 }),
        ] {
            let e = public_jwk(&bad).unwrap_err();
            assert_eq!(e.data_json().unwrap()["kind"], "dpop_error", "{bad}");
            assert!(thumbprint_input(&bad).is_err(), "{bad}");
            assert!(!e.message.contains("c2VjcmV0"), "{}", e.message);
        }
        let e =
            public_jwk(&json!({ "kty": "OKP", "crv": "Ed25519", "d": "c2VjcmV0" })).unwrap_err();
        assert!(e.message.contains("P-256") && e.message.contains("RSA"));
    }

    #[test]
    fn htu_strips_query_and_fragment_only() {
        for (url, want) in [
            ("https://rs.example/mcp", "https://rs.example/mcp"),
            ("https://rs.example/mcp/", "https://rs.example/mcp/"),
            ("https://rs.example/mcp?x=1", "https://rs.example/mcp"),
            ("https://rs.example/mcp#f", "https://rs.example/mcp"),
            ("https://rs.example/mcp?x=1#f?g", "https://rs.example/mcp"),
            ("https://rs.example/mcp#f?x", "https://rs.example/mcp"),
            ("https://rs.example", "https://rs.example"),
            ("https://rs.example?q", "https://rs.example"),
            (
                "HTTPS://RS.Example:443/A/./b",
                "HTTPS://RS.Example:443/A/./b",
            ),
            ("http://[::1]:8080/token?", "http://[::1]:8080/token"),
            ("not a url?x", "not a url"),
        ] {
            assert_eq!(htu(url), want, "{url}");
        }
    }

    #[test]
    fn dpop_proof_parts() {
        let public = public_jwk(&rfc9449_jwk()).unwrap();
        let header = dpop_header(Alg::Es256, &public);
        assert_eq!(
            header.to_string(),
            r#"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs","y":"9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"}}"#
        );
        // RFC 9449 §4.1's claims.
        let claims = dpop_claims(
            "-BwC3ESc6acc2lTc",
            "POST",
            "https://server.example.com/token",
            1562262616,
            None,
            None,
        );
        assert_eq!(
            claims.to_string(),
            r#"{"jti":"-BwC3ESc6acc2lTc","htm":"POST","htu":"https://server.example.com/token","iat":1562262616}"#
        );
        // RFC 9449 §7.1's resource request proof, with a nonce.
        let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU";
        let a = ath(&test_sha256(token.as_bytes()));
        let claims = dpop_claims(
            "e1j3V_bKic8-LAEB",
            "GET",
            "https://resource.example.org/protectedresource?q=1#x",
            1562262618,
            Some(&a),
            Some("eyJ7S_zG.eyJH0-Z.HX4w-7v"),
        );
        assert_eq!(
            claims["htu"],
            "https://resource.example.org/protectedresource"
        );
        assert_eq!(claims["ath"], "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo");
        assert_eq!(claims["nonce"], "eyJ7S_zG.eyJH0-Z.HX4w-7v");
        assert_eq!(
            claims.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["jti", "htm", "htu", "iat", "ath", "nonce"]
        );
    }

    #[test]
    fn client_assertions() {
        assert_eq!(
            client_assertion_header(Alg::Rs256, None).to_string(),
            r#"{"alg":"RS256","typ":"JWT"}"#
        );
        assert_eq!(
            client_assertion_header(Alg::Es256, Some("key-1")).to_string(),
            r#"{"alg":"ES256","typ":"JWT","kid":"key-1"}"#
        );
        let claims = client_assertion_claims(
            "https://app.example/client.json",
            "https://as.example/",
            "jti-1",
            1_700_000_000,
            300,
        );
        assert_eq!(
            claims.to_string(),
            r#"{"iss":"https://app.example/client.json","sub":"https://app.example/client.json","aud":"https://as.example/","jti":"jti-1","iat":1700000000,"exp":1700000300}"#
        );
        assert_eq!(
            client_assertion_claims("c", "a", "j", u64::MAX - 1, 300)["exp"],
            u64::MAX
        );
        assert_eq!(
            CLIENT_ASSERTION_TYPE,
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
        );
        assert_eq!(
            JWT_BEARER_GRANT,
            "urn:ietf:params:oauth:grant-type:jwt-bearer"
        );
        assert_eq!(
            TOKEN_EXCHANGE_GRANT,
            "urn:ietf:params:oauth:grant-type:token-exchange"
        );
        assert_eq!(ID_TOKEN_TYPE, "urn:ietf:params:oauth:token-type:id_token");
        assert_eq!(ID_JAG_TOKEN_TYPE, "urn:ietf:params:oauth:token-type:id-jag");
    }

    #[test]
    fn jwt_payloads_and_cnf_jkt() {
        let header = json!({ "alg": "ES256", "typ": "at+jwt", "kid": "as-key" });
        let claims = json!({
            "iss": "https://as.example", "sub": "user", "aud": "https://rs.example/mcp",
            "exp": 1_900_000_000u64, "cnf": { "jkt": "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I" }
        });
        let token = compact(&signing_input(&header, &claims), &[7; 64]);
        assert_eq!(jwt_payload(&token), Some(claims.clone()));
        assert_eq!(
            cnf_jkt(&token).as_deref(),
            Some(jkt(&rfc9449_jwk()).as_str())
        );
        // A JWT without cnf, or with a non-string jkt.
        let plain = compact(&signing_input(&header, &json!({ "sub": "u" })), &[7; 64]);
        assert!(jwt_payload(&plain).is_some());
        assert_eq!(cnf_jkt(&plain), None);
        let odd = compact(
            &signing_input(&header, &json!({ "cnf": { "jkt": 5 } })),
            &[7; 64],
        );
        assert_eq!(cnf_jkt(&odd), None);

        let input = signing_input(&header, &claims);
        let (h, c) = input.split_once('.').unwrap();
        for opaque in [
            "",
            "opaque-access-token",
            "a.b",
            "a.b.c",
            "..",
            "2YotnFZFEjr1zCsicMWpAA",
            &input,                                                         // two parts
            &format!("{token}.x.y"),   // five parts (JWE-shaped)
            &format!("{input}.sig="),  // padded signature
            &format!("{input}.s+g"),   // not base64url
            &format!("{h}=.{c}.c2ln"), // padded header
            &format!("{}.{c}.c2ln", b64url_json(&json!({ "typ": "JWT" }))), // no alg
            &format!("{}.{c}.c2ln", b64url_json(&json!(["alg"]))),
            &format!("{h}.{}.c2ln", b64url_json(&json!("claims"))),
            &format!("{h}.{}.c2ln", base64url(b"{not json")),
        ] {
            assert_eq!(jwt_payload(opaque), None, "{opaque}");
            assert_eq!(cnf_jkt(opaque), None, "{opaque}");
        }
        let huge = compact(
            &signing_input(&header, &json!({ "pad": "x".repeat(MAX_JWT_BYTES) })),
            &[7; 64],
        );
        assert_eq!(jwt_payload(&huge), None);
    }

    /// A P-256 key made for these tests (`openssl genpkey -algorithm EC -pkeyopt
    /// ec_paramgen_curve:P-256`); it protects nothing.
    const EC_PKCS8: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQguBDEadEZKshrk09A
TW6qhc/jrYo0GANSRp1qitONn6+hRANCAAQolVgWivT/tup9m7FSn4crHRSDix1h
TwlMj9Z+wkza4F4FJ+zdda8TH5JXWyypAHwhb14GRWWMJRfnHBdIgtXt
-----END PRIVATE KEY-----
";
    /// The same key in SEC1 (`openssl ec`).
    const EC_SEC1: &str = "-----BEGIN EC PRIVATE KEY-----
MHcCAQEEILgQxGnRGSrIa5NPQE1uqoXP462KNBgDUkadaorTjZ+voAoGCCqGSM49
AwEHoUQDQgAEKJVYFor0/7bqfZuxUp+HKx0Ug4sdYU8JTI/WfsJM2uBeBSfs3XWv
Ex+SV1ssqQB8IW9eBkVljCUX5xwXSILV7Q==
-----END EC PRIVATE KEY-----
";
    /// An Ed25519 key (`openssl genpkey -algorithm ED25519`): PKCS#8, but not ES256/RS256.
    const ED25519_PKCS8: &str = "-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIM3Y9w0T5JvNq8Ej9VYILxzoPSfqAmkRe2vXE+OIooG3
-----END PRIVATE KEY-----";

    #[test]
    fn pkcs8_pem() {
        let der = pkcs8_der_from_pem(EC_PKCS8).unwrap();
        assert_eq!(der.len(), 3 + 0x87);
        assert_eq!(&der[..3], &[0x30, 0x81, 0x87]);
        assert_eq!(pkcs8_alg(&der), Some(Alg::Es256));

        // Any wrapping, CRLF, indentation, text around the block (a certificate bundle).
        let body: String = EC_PKCS8
            .lines()
            .filter(|l| !l.starts_with("-----"))
            .collect();
        let rewrapped: String = body
            .as_bytes()
            .chunks(10)
            .map(|c| format!("  {}\r\n", std::str::from_utf8(c).unwrap()))
            .collect();
        let pem = format!(
            "subject=CN=x\r\n-----BEGIN CERTIFICATE-----\r\nMIIB\r\n-----END CERTIFICATE-----\r\n-----BEGIN PRIVATE KEY-----\r\n{rewrapped}-----END PRIVATE KEY-----"
        );
        assert_eq!(pkcs8_der_from_pem(&pem).unwrap(), der);
        let one_line = format!("-----BEGIN PRIVATE KEY-----{body}-----END PRIVATE KEY-----");
        assert_eq!(pkcs8_der_from_pem(&one_line).unwrap(), der);

        let ed = pkcs8_der_from_pem(ED25519_PKCS8).unwrap();
        assert_eq!(pkcs8_alg(&ed), None);

        // An RSA PrivateKeyInfo (the key octets shortened: only the structure is read).
        let rsa = [
            0x30, 0x16, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7,
            0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x04, 0x02, 0x30, 0x00,
        ];
        let pem = format!("{PEM_BEGIN}\n{}\n{PEM_END}\n", STANDARD.encode(rsa));
        assert_eq!(pkcs8_der_from_pem(&pem).unwrap(), rsa);
        assert_eq!(pkcs8_alg(&rsa), Some(Alg::Rs256));
        assert_eq!(pkcs8_alg(&rsa[..10]), None);
        assert_eq!(pkcs8_alg(&[]), None);
    }

    #[test]
    fn pkcs8_pem_refusals_never_show_the_key() {
        let e = pkcs8_der_from_pem(EC_SEC1).unwrap_err();
        assert!(
            e.message.contains("openssl pkcs8 -topk8 -nocrypt"),
            "{}",
            e.message
        );
        assert_eq!(e.data_json().unwrap()["kind"], "input");
        let rsa1 = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecret\n-----END RSA PRIVATE KEY-----\n";
        let e = pkcs8_der_from_pem(rsa1).unwrap_err();
        assert!(e.message.contains("PKCS#8"));
        assert!(e.message.contains("openssl pkcs8 -topk8 -nocrypt"));
        let enc = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqsecret\n-----END ENCRYPTED PRIVATE KEY-----";
        assert!(pkcs8_der_from_pem(enc)
            .unwrap_err()
            .message
            .contains("encrypted"));

        let body: String = EC_PKCS8
            .lines()
            .filter(|l| !l.starts_with("-----"))
            .collect();
        for (i, bad) in [
            String::new(),
            "garbage".to_string(),
            "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----".into(),
            format!("{PEM_BEGIN}\n{body}\n"),                           // no END
            format!("{PEM_BEGIN}\n{PEM_END}"),                          // empty
            format!("{PEM_BEGIN}\n{}!\n{PEM_END}", &body[..40]),        // not base64
            format!("{PEM_BEGIN}\n{}\n{PEM_END}", &body[..body.len() - 1]), // bad length
            format!("{PEM_BEGIN}\n{}\n{PEM_END}", &body[..64]),         // truncated DER
            format!("{PEM_BEGIN}\n{}\n{PEM_END}", STANDARD.encode(b"hello, world")),
            format!("{PEM_BEGIN}\n{}AAAA\n{PEM_END}", body),            // trailing bytes
            format!("{PEM_BEGIN}\n{}\n{PEM_END}", "A".repeat(MAX_PEM_BYTES)),
        ]
        .iter()
        .enumerate()
        {
            let Err(e) = pkcs8_der_from_pem(bad) else {
                panic!("case {i} accepted");
            };
            assert_eq!(e.data_json().unwrap()["kind"], "input");
            for secret in [&body[20..36], &EC_SEC1[40..56], "secret"] {
                assert!(!e.message.contains(secret), "{}", e.message);
            }
        }
    }

    #[test]
    fn der_lengths() {
        assert_eq!(der_tlv(&[0x04, 0x00]), Some((0x04, &[][..], &[][..])));
        assert_eq!(
            der_tlv(&[0x04, 0x81, 0x01, 9, 8]),
            Some((0x04, &[9][..], &[8][..]))
        );
        assert_eq!(der_tlv(&[0x04, 0x80]), None); // indefinite
        assert_eq!(der_tlv(&[0x04, 0x85, 1, 1, 1, 1, 1]), None);
        assert_eq!(der_tlv(&[0x04, 0x02, 1]), None);
        assert_eq!(der_tlv(&[0x04, 0x84, 0xff, 0xff, 0xff, 0xff]), None);
        assert_eq!(der_tlv(&[0x04]), None);
    }
}
