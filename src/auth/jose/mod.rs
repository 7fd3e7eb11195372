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

/// Longest `DPoP-Nonce` kept, in bytes (RFC 9449 sets no limit; real nonces are < 100 bytes).
pub const MAX_DPOP_NONCE_BYTES: usize = 1024;

/// A `DPoP-Nonce` header value (RFC 9449 §8.1: `nonce = 1*NQCHAR`, `%x21 / %x23-5B / %x5D-7E`)
/// as sent, or `None` when it is empty, too long or holds another byte (a space, `"`, `\`, a
/// control or non-ASCII character): such a nonce is not kept, nor echoed in a proof.
pub fn dpop_nonce(value: &str) -> Option<&str> {
    let nqchar = |b: &u8| matches!(b, 0x21 | 0x23..=0x5b | 0x5d..=0x7e);
    (!value.is_empty() && value.len() <= MAX_DPOP_NONCE_BYTES && value.bytes().all(|b| nqchar(&b)))
        .then_some(value)
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
mod tests;
