//! Tests of `auth::jose`.

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
        197, 10, 7, 211, 140, 60, 112, 229, 216, 241, 45, 175, 8, 74, 84, 128, 166, 101, 144, 197,
        242, 147, 80, 154, 143, 63, 127, 138, 131, 163, 84, 213,
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
    let e = public_jwk(&json!({ "kty": "OKP", "crv": "Ed25519", "d": "c2VjcmV0" })).unwrap_err();
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
        &format!("{token}.x.y"),                                        // five parts (JWE-shaped)
        &format!("{input}.sig="),                                       // padded signature
        &format!("{input}.s+g"),                                        // not base64url
        &format!("{h}=.{c}.c2ln"),                                      // padded header
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
        0x30, 0x16, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,
        0x01, 0x01, 0x01, 0x05, 0x00, 0x04, 0x02, 0x30, 0x00,
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
    let rsa1 =
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecret\n-----END RSA PRIVATE KEY-----\n";
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

#[test]
fn dpop_nonce_keeps_exactly_rfc_9449_nqchar_values() {
    // RFC 9449 §8.1's example nonce, and every NQCHAR.
    assert_eq!(
        dpop_nonce("eyJ7S_zG.eyJH0-Z.HX4w-7v"),
        Some("eyJ7S_zG.eyJH0-Z.HX4w-7v")
    );
    let all: String = (0x21u8..=0x7e)
        .filter(|b| *b != b'"' && *b != b'\\')
        .map(char::from)
        .collect();
    assert_eq!(dpop_nonce(&all), Some(all.as_str()));
    for bad in [
        "", " ", "a b", "a\"b", "a\\b", "a\tb", "a\u{7f}", "é", "a\r\nb",
    ] {
        assert_eq!(dpop_nonce(bad), None, "{bad:?}");
    }
    let max = "n".repeat(MAX_DPOP_NONCE_BYTES);
    assert!(dpop_nonce(&max).is_some());
    assert_eq!(dpop_nonce(&[max.as_str(), "n"].concat()), None);
}
