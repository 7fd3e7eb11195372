//! The client's identity at one authorization server: [`ClientInformation`] (bound to the
//! issuer that issued it, SEP-2352) and how it authenticates at the token endpoint
//! ([`AuthMethod`]).

use crate::util::secret::Secret;

/// `token_endpoint_auth_method`s this client can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMethod {
    /// `none`: a public client; `client_id` in the body.
    None,
    /// `client_secret_basic`: HTTP Basic with the form-urlencoded id and secret.
    ClientSecretBasic,
    /// `client_secret_post`: `client_id` and `client_secret` in the body.
    ClientSecretPost,
    /// `private_key_jwt`: a signed client assertion (RFC 7523 §2.2).
    PrivateKeyJwt,
}

impl AuthMethod {
    /// Reads a method name; `None` for ones this client does not implement.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "none" => Some(AuthMethod::None),
            "client_secret_basic" => Some(AuthMethod::ClientSecretBasic),
            "client_secret_post" => Some(AuthMethod::ClientSecretPost),
            "private_key_jwt" => Some(AuthMethod::PrivateKeyJwt),
            _ => None,
        }
    }

    /// The method's name.
    pub fn as_str(self) -> &'static str {
        match self {
            AuthMethod::None => "none",
            AuthMethod::ClientSecretBasic => "client_secret_basic",
            AuthMethod::ClientSecretPost => "client_secret_post",
            AuthMethod::PrivateKeyJwt => "private_key_jwt",
        }
    }
}

/// The method to use: the one registered (when this client implements it), else `none`
/// without a secret, else the first of `client_secret_basic`, `client_secret_post` the AS
/// lists (`supported` already defaults to basic when the AS lists nothing).
pub fn choose_auth_method(
    registered: Option<&str>,
    supported: &[String],
    has_secret: bool,
) -> AuthMethod {
    if let Some(m) = registered
        .and_then(AuthMethod::parse)
        .filter(|m| *m != AuthMethod::PrivateKeyJwt)
    {
        if m == AuthMethod::None || has_secret {
            return m;
        }
    }
    if !has_secret {
        return AuthMethod::None;
    }
    for m in [AuthMethod::ClientSecretBasic, AuthMethod::ClientSecretPost] {
        if supported.iter().any(|s| s == m.as_str()) {
            return m;
        }
    }
    AuthMethod::ClientSecretBasic
}

/// The method for credentials the application configured (a `grant`): `private_key_jwt`
/// with a key; with a secret the `preferred` method (default `client_secret_basic`) unless
/// the AS lists only the other one; `none` without either.
pub fn choose_static_method(
    preferred: Option<AuthMethod>,
    supported: &[String],
    has_secret: bool,
    has_key: bool,
) -> AuthMethod {
    if has_key {
        return AuthMethod::PrivateKeyJwt;
    }
    if !has_secret {
        return AuthMethod::None;
    }
    let lists = |m: AuthMethod| supported.iter().any(|s| s == m.as_str());
    let first = preferred
        .filter(|m| {
            matches!(
                m,
                AuthMethod::ClientSecretBasic | AuthMethod::ClientSecretPost
            )
        })
        .unwrap_or(AuthMethod::ClientSecretBasic);
    let other = if first == AuthMethod::ClientSecretBasic {
        AuthMethod::ClientSecretPost
    } else {
        AuthMethod::ClientSecretBasic
    };
    if !lists(first) && lists(other) {
        other
    } else {
        first
    }
}

/// A client's credentials. `Debug` redacts the secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientInformation {
    /// `client_id` (for CIMD, the metadata document's https URL).
    pub client_id: String,
    /// `client_secret`, for confidential clients.
    pub client_secret: Option<Secret>,
    /// The registered `token_endpoint_auth_method`, if known.
    pub token_endpoint_auth_method: Option<String>,
    /// The issuer these credentials belong to; `None` for pre-registered credentials given
    /// without one (they are bound to the first AS they are used with: [`Self::bind`]).
    pub issuer: Option<String>,
    /// `client_secret_expires_at` (seconds since the epoch, 0 = never), if given.
    pub client_secret_expires_at: Option<u64>,
}

impl ClientInformation {
    /// True when these credentials may be sent to the AS `issuer` (exact string match).
    pub fn usable_with(&self, issuer: &str) -> bool {
        self.issuer.as_deref().is_none_or(|i| i == issuer)
    }

    /// Binds unbound credentials to `issuer` (first use); bound ones stay as they are.
    pub fn bind(&mut self, issuer: &str) {
        if self.issuer.is_none() {
            self.issuer = Some(issuer.to_string());
        }
    }

    /// True when the secret has expired at `now_s` (seconds since the epoch).
    pub fn secret_expired(&self, now_s: u64) -> bool {
        self.client_secret.is_some()
            && self
                .client_secret_expires_at
                .is_some_and(|t| t != 0 && t <= now_s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn method_choice() {
        assert_eq!(
            choose_auth_method(None, &v(&["client_secret_basic"]), false),
            AuthMethod::None
        );
        assert_eq!(
            choose_auth_method(None, &v(&["none", "client_secret_post"]), true),
            AuthMethod::ClientSecretPost
        );
        assert_eq!(
            choose_auth_method(
                None,
                &v(&["client_secret_post", "client_secret_basic"]),
                true
            ),
            AuthMethod::ClientSecretBasic
        );
        assert_eq!(
            choose_auth_method(None, &v(&["private_key_jwt"]), true),
            AuthMethod::ClientSecretBasic
        );
        assert_eq!(
            choose_auth_method(
                Some("client_secret_post"),
                &v(&["client_secret_basic"]),
                true
            ),
            AuthMethod::ClientSecretPost
        );
        assert_eq!(
            choose_auth_method(Some("client_secret_post"), &[], false),
            AuthMethod::None
        );
        assert_eq!(
            choose_auth_method(Some("none"), &[], true),
            AuthMethod::None
        );
        assert_eq!(
            choose_auth_method(Some("private_key_jwt"), &v(&["client_secret_basic"]), true),
            AuthMethod::ClientSecretBasic
        );
        for m in [
            AuthMethod::None,
            AuthMethod::ClientSecretBasic,
            AuthMethod::ClientSecretPost,
        ] {
            assert_eq!(AuthMethod::parse(m.as_str()), Some(m));
        }
    }

    #[test]
    fn binding_to_an_issuer() {
        let mut c = ClientInformation {
            client_id: "id".into(),
            client_secret: Some(Secret::new("shh-very-secret")),
            token_endpoint_auth_method: None,
            issuer: None,
            client_secret_expires_at: Some(0),
        };
        assert!(c.usable_with("https://a"));
        c.bind("https://a");
        c.bind("https://b");
        assert!(c.usable_with("https://a"));
        assert!(!c.usable_with("https://b"));
        assert!(!c.usable_with("https://a/"));
        assert!(!c.secret_expired(u64::MAX));
        c.client_secret_expires_at = Some(100);
        assert!(c.secret_expired(100));
        assert!(!c.secret_expired(99));
        assert!(!format!("{c:?}").contains("shh-very-secret"));
    }

    #[test]
    fn static_methods_follow_the_preference_unless_the_as_lists_only_the_other() {
        let basic_only = vec!["client_secret_basic".to_string()];
        let post_only = vec!["client_secret_post".to_string()];
        let both = vec![
            "client_secret_post".to_string(),
            "client_secret_basic".to_string(),
        ];
        use AuthMethod::*;
        assert_eq!(
            choose_static_method(Option::None, &both, true, false),
            ClientSecretBasic
        );
        assert_eq!(
            choose_static_method(Some(ClientSecretPost), &both, true, false),
            ClientSecretPost
        );
        assert_eq!(
            choose_static_method(Some(ClientSecretPost), &basic_only, true, false),
            ClientSecretBasic
        );
        assert_eq!(
            choose_static_method(Option::None, &post_only, true, false),
            ClientSecretPost
        );
        assert_eq!(
            choose_static_method(Option::None, &both, false, true),
            PrivateKeyJwt
        );
        assert_eq!(
            choose_static_method(Option::None, &both, false, false),
            AuthMethod::None
        );
    }
}
