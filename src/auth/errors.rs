//! The errors of the authorization flow: `McpError`s with an auth `ErrorKind`, code
//! `AUTHORIZATION_FAILED`, and messages a UI can show. Text that comes from an authorization
//! server (`error_description`) is cleaned ([`clean_text`]) before it reaches a message, and no
//! constructor here ever takes a secret.

use crate::json::{json, Value};

use crate::protocol::error::{ErrorKind, McpError, AUTHORIZATION_FAILED};

/// Longest server-supplied text (in characters) put into an error message.
pub const MAX_SERVER_TEXT: usize = 300;

/// A local authorization error of `kind` with `message` and extra `data` fields.
pub fn auth_error(kind: ErrorKind, message: impl Into<String>, extra: Value) -> McpError {
    McpError::local(AUTHORIZATION_FAILED, kind, message, extra)
}

/// Metadata (PRM or AS) is missing, malformed or unusable.
pub fn metadata(message: impl Into<String>) -> McpError {
    auth_error(ErrorKind::AuthMetadata, message, Value::Null)
}

/// An authorization response larger than the flow reads (`max_bytes`): the document exists
/// but is refused (`auth_metadata`); `how` says how the host found out.
pub fn response_too_large(url: &str, max_bytes: usize, how: &str) -> McpError {
    auth_error(
        ErrorKind::AuthMetadata,
        format!("The response of {url} is larger than {max_bytes} bytes ({how})"),
        json!({ "url": url, "maxBytes": max_bytes }),
    )
}

/// The browser blocked the sign-in popup: `data.authorizationUrl` is the page to offer as a
/// link (it carries the state and the PKCE challenge, never a secret).
pub fn popup_blocked(authorization_url: &str) -> McpError {
    auth_error(
        ErrorKind::PopupBlocked,
        "The browser blocked the sign-in popup: call client.signIn() in the click handler (it opens the window before any await), pass a window opened there (authorizeWithPopup({ window })), or show data.authorizationUrl as a link",
        json!({ "authorizationUrl": authorization_url }),
    )
}

/// The server requires authorization that could not be obtained.
pub fn unauthorized(message: impl Into<String>) -> McpError {
    auth_error(ErrorKind::Unauthorized, message, Value::Null)
}

/// An issuer (metadata `issuer` or callback `iss`) differs from the expected one.
pub fn issuer_mismatch(what: &str, expected: &str, got: Option<&str>) -> McpError {
    let message = match got {
        Some(got) => format!(
            "Authorization server {what} mismatch: expected {}, got {}",
            clean_text(expected),
            clean_text(got)
        ),
        None => format!(
            "Authorization server {what} missing: expected {}",
            clean_text(expected)
        ),
    };
    auth_error(
        ErrorKind::IssuerMismatch,
        message,
        json!({ "expected": expected, "received": got }),
    )
}

/// The protected resource metadata's `resource` does not cover the server URL.
pub fn resource_mismatch(resource: &str, server_url: &str) -> McpError {
    auth_error(
        ErrorKind::ResourceMismatch,
        format!(
            "Protected resource metadata is for {}, not for {}",
            clean_text(resource),
            clean_text(server_url)
        ),
        json!({ "resource": resource, "serverUrl": server_url }),
    )
}

/// The callback's `state` is missing, wrong or already used.
pub fn state_mismatch(message: impl Into<String>) -> McpError {
    auth_error(ErrorKind::StateMismatch, message, Value::Null)
}

/// More scopes are needed and the client will not (or may no longer) ask for them.
pub fn insufficient_scope(message: impl Into<String>, scope: Option<&str>) -> McpError {
    auth_error(
        ErrorKind::InsufficientScope,
        message,
        json!({ "scope": scope }),
    )
}

/// Registration is refused by the AS or no registration path exists.
pub fn registration_rejected(message: impl Into<String>) -> McpError {
    auth_error(ErrorKind::RegistrationRejected, message, Value::Null)
}

/// An OAuth error response (`error`, `error_description`) from an endpoint, as a UI message:
/// `"<what>: <error> (<description>)"`, with `data.oauthError` and `data.status`.
pub fn oauth_error(
    kind: ErrorKind,
    what: &str,
    error: &str,
    description: Option<&str>,
    status: Option<u16>,
) -> McpError {
    let error = clean_text(error);
    let message = match description.map(clean_text).filter(|d| !d.is_empty()) {
        Some(d) => format!("{what}: {error} ({d})"),
        None => format!("{what}: {error}"),
    };
    auth_error(
        kind,
        message,
        json!({ "oauthError": error, "status": status }),
    )
}

/// Server text made fit for a message: control characters become spaces, runs of whitespace
/// collapse, and it is cut to [`MAX_SERVER_TEXT`] characters (with `…`).
pub fn clean_text(text: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    let mut space = false;
    for c in text.chars() {
        let c = if c.is_control() || c.is_whitespace() {
            ' '
        } else {
            c
        };
        if c == ' ' {
            if space || out.is_empty() {
                continue;
            }
            space = true;
        } else {
            space = false;
        }
        if count == MAX_SERVER_TEXT {
            out.push('…');
            return out;
        }
        out.push(c);
        count += 1;
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_the_issue_strings() {
        let e = unauthorized("no");
        assert_eq!(e.code, AUTHORIZATION_FAILED);
        assert_eq!(e.data_json().unwrap()["kind"], "unauthorized");
        assert_eq!(metadata("m").data_json().unwrap()["kind"], "auth_metadata");
        assert_eq!(
            issuer_mismatch("issuer", "https://a", Some("https://b"))
                .data_json()
                .unwrap()["kind"],
            "issuer_mismatch"
        );
        assert_eq!(
            resource_mismatch("https://a", "https://b")
                .data_json()
                .unwrap()["kind"],
            "resource_mismatch"
        );
        assert_eq!(
            state_mismatch("s").data_json().unwrap()["kind"],
            "state_mismatch"
        );
        assert_eq!(
            insufficient_scope("s", Some("a b")).data_json().unwrap()["scope"],
            "a b"
        );
        assert_eq!(
            registration_rejected("r").data_json().unwrap()["kind"],
            "registration_rejected"
        );
        let blocked = popup_blocked("https://as.example/authorize?state=s&code_challenge=c");
        let data = blocked.data_json().unwrap();
        assert_eq!(data["kind"], "popup_blocked");
        assert_eq!(
            data["authorizationUrl"],
            "https://as.example/authorize?state=s&code_challenge=c"
        );
        assert_eq!(blocked.code, AUTHORIZATION_FAILED);
        assert!(blocked.message.contains("authorizeWithPopup({ window })"));
        for (k, s) in [
            (ErrorKind::AuthRedirect, "auth_redirect"),
            (ErrorKind::PopupBlocked, "popup_blocked"),
            (ErrorKind::AuthCors, "auth_cors"),
            (ErrorKind::TokenError, "token_error"),
            (ErrorKind::InsufficientScope, "insufficient_scope"),
        ] {
            assert_eq!(k.as_str(), s);
        }
    }

    #[test]
    fn oauth_errors_read_well_and_carry_the_code() {
        let e = oauth_error(
            ErrorKind::TokenError,
            "Token request refused",
            "invalid_grant",
            Some("code\nexpired\u{7}  now"),
            Some(400),
        );
        assert_eq!(
            e.message,
            "Token request refused: invalid_grant (code expired now)"
        );
        let d = e.data_json().unwrap();
        assert_eq!(d["oauthError"], "invalid_grant");
        assert_eq!(d["status"], 400);
        let e = oauth_error(ErrorKind::TokenError, "T", "x", Some("  "), None);
        assert_eq!(e.message, "T: x");
    }

    #[test]
    fn clean_text_caps_and_strips() {
        let long = "é".repeat(1000);
        let c = clean_text(&long);
        assert_eq!(c.chars().count(), MAX_SERVER_TEXT + 1);
        assert!(c.ends_with('…'));
        assert_eq!(clean_text("\u{0}\r\n a\tb \u{1b}[31m"), "a b [31m");
        assert_eq!(clean_text(""), "");
    }
}
