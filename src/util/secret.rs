//! [`Secret`]: a string that must never be shown. Its `Debug` prints `Secret(<redacted>)`, it
//! has no `Display`, and the only way to the text is [`Secret::expose`], named so that every
//! use is visible in review.

/// A credential (token, client secret, PKCE verifier, authorization code).
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps `value`.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret text, for putting on the wire.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Self {
        Secret::new(s)
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Self {
        Secret(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_redacts() {
        let s = Secret::new("hunter2");
        assert_eq!(format!("{s:?}"), "Secret(<redacted>)");
        assert!(!format!("{:#?}", Some(s.clone())).contains("hunter2"));
        assert_eq!(s.expose(), "hunter2");
        assert_eq!(Secret::from("a"), Secret::from(String::from("a")));
    }
}
