//! Tests of `auth::tokens`.

use super::*;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

fn client(secret: Option<&str>) -> ClientInformation {
    ClientInformation {
        client_id: "my client:1".into(),
        client_secret: secret.map(Secret::from),
        token_endpoint_auth_method: None,
        issuer: Some("https://as".into()),
        client_secret_expires_at: None,
    }
}

#[test]
fn authorization_code_bodies_per_method() {
    let code = Secret::new("c0de");
    let verifier = Secret::new("v".repeat(43));
    let r = authorization_code_request(
        &client(None),
        AuthMethod::None,
        &code,
        &verifier,
        "http://localhost:3000/cb",
        Some("https://mcp.example"),
    )
    .unwrap();
    assert_eq!(
        r.body.expose(),
        format!(
            "grant_type=authorization_code&code=c0de&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcb&code_verifier={}&resource=https%3A%2F%2Fmcp.example&client_id=my+client%3A1",
            "v".repeat(43)
        )
    );
    assert!(r.authorization.is_none());
    let r = authorization_code_request(
        &client(Some("s&p")),
        AuthMethod::ClientSecretPost,
        &code,
        &verifier,
        "x:/cb",
        None,
    )
    .unwrap();
    assert!(r
        .body
        .expose()
        .ends_with("&client_id=my+client%3A1&client_secret=s%26p"));
    assert!(!r.body.expose().contains("resource"));
    let r = authorization_code_request(
        &client(Some("s&p")),
        AuthMethod::ClientSecretBasic,
        &code,
        &verifier,
        "x:/cb",
        None,
    )
    .unwrap();
    assert!(!r.body.expose().contains("client_"));
    assert!(authorization_code_request(
        &client(None),
        AuthMethod::ClientSecretBasic,
        &code,
        &verifier,
        "x:/cb",
        None
    )
    .is_err());
}

#[test]
fn basic_credentials_are_form_encoded_first() {
    // RFC 6749 §2.3.1: "my client:1" → "my+client%3A1", "p@ss w:rd" → "p%40ss+w%3Ard".
    let a = basic_authorization("my client:1", &Secret::new("p@ss w:rd"));
    let expected = format!("Basic {}", STANDARD.encode("my+client%3A1:p%40ss+w%3Ard"));
    assert_eq!(a.expose(), expected);
    assert_eq!(
        basic_authorization("id", &Secret::new("secret")).expose(),
        "Basic aWQ6c2VjcmV0"
    );
}

#[test]
fn refresh_bodies() {
    let r = refresh_request(
        &client(None),
        AuthMethod::None,
        &Secret::new("rt/1"),
        Some("https://mcp.example/mcp"),
    )
    .unwrap();
    assert_eq!(
        r.body.expose(),
        "grant_type=refresh_token&refresh_token=rt%2F1&resource=https%3A%2F%2Fmcp.example%2Fmcp&client_id=my+client%3A1"
    );
}

#[test]
fn secrets_never_reach_debug() {
    let r = authorization_code_request(
        &client(Some("TOPSECRET")),
        AuthMethod::ClientSecretBasic,
        &Secret::new("THECODE"),
        &Secret::new("V".repeat(43)),
        "x:/cb",
        None,
    )
    .unwrap();
    let d = format!("{r:?} {:?}", client(Some("TOPSECRET")));
    for s in ["TOPSECRET", "THECODE", "VVVV", "Basic"] {
        assert!(!d.contains(s), "{s} in {d}");
    }
    let t = parse_token_response(
        r#"{"access_token":"AT-SECRET","token_type":"Bearer","refresh_token":"RT-SECRET"}"#,
        0,
        None,
        "https://as",
    )
    .unwrap();
    let d = format!("{t:?}");
    assert!(!d.contains("AT-SECRET") && !d.contains("RT-SECRET"), "{d}");
    let e = authorization_code_request(
        &client(None),
        AuthMethod::ClientSecretPost,
        &Secret::new("THECODE"),
        &Secret::new("x"),
        "x:/cb",
        None,
    )
    .unwrap_err();
    assert!(!e.message.contains("THECODE"));
}

#[test]
fn token_responses() {
    let t = parse_token_response(
        r#"{"access_token":"at","token_type":"bearer","expires_in":3600,"refresh_token":"rt","scope":"a b"}"#,
        1_000,
        Some("x"),
        "https://as",
    )
    .unwrap();
    assert_eq!(t.expires_at_ms, Some(3_601_000));
    assert_eq!(t.scope.as_deref(), Some("a b"));
    assert_eq!(t.authorization().expose(), "Bearer at");
    assert!(!t.is_dpop());
    let t = parse_token_response(
        r#"{"access_token":"at","token_type":"DPoP","expires_in":"60"}"#,
        0,
        Some("req"),
        "https://as",
    )
    .unwrap();
    assert_eq!(t.expires_at_ms, Some(60_000));
    assert_eq!(t.scope.as_deref(), Some("req"));
    assert_eq!(t.authorization().expose(), "DPoP at");
    let t = parse_token_response(r#"{"access_token":"at","expires_in":-5}"#, 7, None, "i").unwrap();
    assert_eq!(
        (t.token_type.as_str(), t.expires_at_ms),
        ("Bearer", Some(7))
    );
    let t =
        parse_token_response(r#"{"access_token":"at","expires_in":1e300}"#, 7, None, "i").unwrap();
    assert_eq!(t.expires_at_ms, Some(u64::MAX));
    let t =
        parse_token_response(r#"{"access_token":"at","expires_in":"soon"}"#, 7, None, "i").unwrap();
    assert_eq!(t.expires_at_ms, None);
}

#[test]
fn bad_token_responses() {
    for body in [
        "",
        "[]",
        "{",
        r#"{"token_type":"Bearer"}"#,
        r#"{"access_token":""}"#,
        r#"{"access_token":5}"#,
        r#"{"access_token":"a","token_type":"mac"}"#,
        r#"{"access_token":"a","token_type":7}"#,
        r#"{"error":"invalid_grant","error_description":"expired"}"#,
    ] {
        let e = parse_token_response(body, 0, None, "i").unwrap_err();
        assert_eq!(e.kind, Some(ErrorKind::TokenError), "{body}");
    }
    let e = parse_token_response(r#"{"error":"invalid_grant"}"#, 0, None, "i").unwrap_err();
    assert_eq!(e.data_json().unwrap()["oauthError"], "invalid_grant");
}

#[test]
fn error_responses() {
    let e = parse_error_response(
        400,
        r#"{"error":"invalid_grant","error_description":"Code\nreused"}"#,
    );
    assert_eq!(e.error, "invalid_grant");
    let m = e.to_error();
    assert_eq!(
        m.message,
        "The authorization server refused the token request: invalid_grant (Code reused)"
    );
    assert_eq!(m.data_json().unwrap()["status"], 400);
    let e = parse_error_response(502, "<html>bad gateway</html>");
    assert_eq!(e.error, "http_502");
    assert_eq!(e.error_description, None);
    assert_eq!(
        on_refresh_error(Some(&parse_error_response(
            400,
            r#"{"error":"invalid_grant"}"#
        ))),
        RefreshFailure::DropTokens
    );
    assert_eq!(
        on_refresh_error(Some(&parse_error_response(
            401,
            r#"{"error":"invalid_client"}"#
        ))),
        RefreshFailure::DropClient
    );
    assert_eq!(on_refresh_error(Some(&e)), RefreshFailure::Fail);
    assert_eq!(on_refresh_error(None), RefreshFailure::Fail);
}

fn tokens(exp: Option<u64>, refresh: bool) -> TokenSet {
    TokenSet {
        access_token: Secret::new("at"),
        token_type: "Bearer".into(),
        refresh_token: refresh.then(|| Secret::new("rt")),
        expires_at_ms: exp,
        scope: Some("a".into()),
        issuer: "https://as".into(),
    }
}

#[test]
fn before_request_decisions() {
    assert_eq!(
        before_request(None, 0, DEFAULT_SKEW_MS),
        BeforeRequest::Anonymous
    );
    assert_eq!(
        before_request(Some(&tokens(None, true)), u64::MAX, 0),
        BeforeRequest::Send
    );
    let t = tokens(Some(100_000), true);
    assert_eq!(
        before_request(Some(&t), 39_999, 60_000),
        BeforeRequest::Send
    );
    assert_eq!(
        before_request(Some(&t), 40_000, 60_000),
        BeforeRequest::Refresh
    );
    assert_eq!(
        before_request(Some(&t), u64::MAX, u64::MAX),
        BeforeRequest::Refresh
    );
    let t = tokens(Some(100_000), false);
    assert_eq!(
        before_request(Some(&t), 99_999, 60_000),
        BeforeRequest::Send
    );
    assert_eq!(
        before_request(Some(&t), 100_000, 60_000),
        BeforeRequest::Authorize
    );
}

#[test]
fn unauthorized_decisions() {
    assert_eq!(
        on_unauthorized(SentToken::None, true, false),
        Recovery::Discover
    );
    assert_eq!(
        on_unauthorized(SentToken::Accepted, true, false),
        Recovery::Rediscover
    );
    assert_eq!(
        on_unauthorized(SentToken::Unproven, true, false),
        Recovery::Refresh
    );
    assert_eq!(
        on_unauthorized(SentToken::Unproven, true, true),
        Recovery::Authorize
    );
    assert_eq!(
        on_unauthorized(SentToken::Unproven, false, false),
        Recovery::Authorize
    );
    assert_eq!(
        after_rediscovery("https://as", "https://as2", true, false),
        AfterRediscovery::Reregister
    );
    assert_eq!(
        after_rediscovery("https://as", "https://as/", true, false),
        AfterRediscovery::Reregister
    );
    assert_eq!(
        after_rediscovery("https://as", "https://as", true, false),
        AfterRediscovery::Refresh
    );
    assert_eq!(
        after_rediscovery("https://as", "https://as", true, true),
        AfterRediscovery::Authorize
    );
    assert_eq!(
        after_rediscovery("https://as", "https://as", false, false),
        AfterRediscovery::Authorize
    );
}

#[test]
fn refresh_keeps_the_old_refresh_token() {
    let old = tokens(Some(1), true);
    let mut new = tokens(Some(2), false);
    new.scope = None;
    let merged = new.refreshed(&old);
    assert_eq!(merged.refresh_token, Some(Secret::new("rt")));
    assert_eq!(merged.scope.as_deref(), Some("a"));
    assert_eq!(merged.expires_at_ms, Some(2));
}
