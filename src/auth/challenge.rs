//! `WWW-Authenticate` (RFC 9110 §11.6.1): one header value may hold several challenges
//! (`Bearer …, DPoP …`, or several headers joined with `, ` by `fetch`), each a scheme with a
//! token68 or comma-separated `name=value` parameters (token or quoted-string with `\`
//! escapes). Scheme and parameter names are case-insensitive. Parsing is lenient where servers
//! are sloppy (an unquoted `resource_metadata=https://…`) and never panics: whatever cannot be
//! parsed ends the header, and what was parsed before it is kept.

use super::scopes;

/// One challenge: its scheme as received and its token68 or parameters.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Challenge {
    /// The auth scheme as received (`Bearer`, `dpop`...); compare with [`Challenge::is`].
    pub scheme: String,
    /// The token68 form (`Basic abc==`), when the challenge has one instead of parameters.
    pub token68: Option<String>,
    /// Parameters in order, names lowercased, values unescaped; a repeated name keeps its
    /// first value.
    pub params: Vec<(String, String)>,
}

impl Challenge {
    /// True when the scheme is `scheme`, case-insensitively.
    pub fn is(&self, scheme: &str) -> bool {
        self.scheme.eq_ignore_ascii_case(scheme)
    }

    /// The value of parameter `name` (case-insensitive).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The `error` of a Bearer/DPoP challenge (RFC 6750 §3.1, RFC 9449 §7.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChallengeError {
    /// `invalid_request`.
    InvalidRequest,
    /// `invalid_token`: the token is expired, revoked or malformed.
    InvalidToken,
    /// `insufficient_scope`: the token lacks scopes (a 403 step-up).
    InsufficientScope,
    /// `invalid_dpop_proof`.
    InvalidDpopProof,
    /// `use_dpop_nonce`: retry with the `DPoP-Nonce` value.
    UseDpopNonce,
    /// Any other code, as received.
    Other(String),
}

impl ChallengeError {
    /// Reads an `error` parameter value.
    pub fn from_code(code: &str) -> Self {
        match code {
            "invalid_request" => ChallengeError::InvalidRequest,
            "invalid_token" => ChallengeError::InvalidToken,
            "insufficient_scope" => ChallengeError::InsufficientScope,
            "invalid_dpop_proof" => ChallengeError::InvalidDpopProof,
            "use_dpop_nonce" => ChallengeError::UseDpopNonce,
            other => ChallengeError::Other(other.to_string()),
        }
    }
}

/// What an MCP client takes from a 401/403's challenges: the first value of each field across
/// the `Bearer` and `DPoP` challenges, in header order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AuthHint {
    /// A `Bearer` challenge was present.
    pub bearer: bool,
    /// A `DPoP` challenge was present.
    pub dpop: bool,
    /// `resource_metadata`: the PRM URL to fetch.
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes the server wants, its valid RFC 6749 scope-tokens only
    /// (`crate::auth::scopes::valid`; `None` when it had none).
    pub scope: Option<String>,
    /// `error`.
    pub error: Option<ChallengeError>,
    /// `error_description`, as received (clean it before display).
    pub error_description: Option<String>,
    /// The DPoP challenge's `algs` (space-delimited).
    pub dpop_algs: Option<String>,
}

impl AuthHint {
    /// The hint of a parsed header.
    pub fn from_challenges(challenges: &[Challenge]) -> Self {
        let mut hint = AuthHint::default();
        for c in challenges {
            let bearer = c.is("Bearer");
            let dpop = c.is("DPoP");
            if !bearer && !dpop {
                continue;
            }
            hint.bearer |= bearer;
            hint.dpop |= dpop;
            let take = |slot: &mut Option<String>, name: &str| {
                if slot.is_none() {
                    *slot = c.param(name).map(str::to_string);
                }
            };
            take(&mut hint.resource_metadata, "resource_metadata");
            take(&mut hint.scope, "scope");
            take(&mut hint.error_description, "error_description");
            if dpop {
                take(&mut hint.dpop_algs, "algs");
            }
            if hint.error.is_none() {
                hint.error = c.param("error").map(ChallengeError::from_code);
            }
        }
        hint.scope = hint.scope.as_deref().and_then(scopes::valid);
        hint
    }

    /// The hint of a raw `WWW-Authenticate` value (`None`: the header was absent or
    /// unreadable, e.g. not exposed by CORS).
    pub fn from_header(header: Option<&str>) -> Self {
        header
            .map(|h| Self::from_challenges(&parse(h)))
            .unwrap_or_default()
    }

    /// True for `error="insufficient_scope"`.
    pub fn is_insufficient_scope(&self) -> bool {
        matches!(self.error, Some(ChallengeError::InsufficientScope))
    }
}

/// Upper bound on challenges and on parameters per challenge kept from one header.
pub const MAX_ITEMS: usize = 64;

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn is_token68_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~+/".contains(&b)
}

struct Cursor<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.i).copied()
    }
    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }
    fn skip_ws_commas(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b',')) {
            self.i += 1;
        }
    }
    fn take_while(&mut self, f: impl Fn(u8) -> bool) -> &'a str {
        let start = self.i;
        while self.peek().is_some_and(&f) {
            self.i += 1;
        }
        // Only ASCII bytes are ever consumed by the predicates used here, so `start..i`
        // falls on char boundaries; `get` keeps that an invariant rather than a panic.
        self.s.get(start..self.i).unwrap_or_default()
    }
    fn at_end_or_comma(&self) -> bool {
        matches!(self.peek(), None | Some(b','))
    }
    /// A quoted string starting at `"`; `None` when unterminated.
    fn quoted(&mut self) -> Option<String> {
        self.i += 1;
        let mut out = Vec::new();
        let bytes = self.s.as_bytes();
        while let Some(&b) = bytes.get(self.i) {
            self.i += 1;
            match b {
                b'"' => return Some(String::from_utf8_lossy(&out).into_owned()),
                b'\\' => {
                    let &next = bytes.get(self.i)?;
                    out.push(next);
                    self.i += 1;
                }
                _ => out.push(b),
            }
        }
        None
    }
    /// An unquoted value: a token, leniently anything up to whitespace or a comma.
    fn bare_value(&mut self) -> &'a str {
        self.take_while(|b| !matches!(b, b' ' | b'\t' | b',' | b'"'))
    }
}

/// Parses a `WWW-Authenticate` value into its challenges.
pub fn parse(header: &str) -> Vec<Challenge> {
    let mut out = Vec::new();
    let mut c = Cursor { s: header, i: 0 };
    loop {
        c.skip_ws_commas();
        if c.peek().is_none() || out.len() == MAX_ITEMS {
            break;
        }
        let scheme = c.take_while(is_tchar);
        if scheme.is_empty() {
            break;
        }
        let mut challenge = Challenge {
            scheme: scheme.to_string(),
            ..Challenge::default()
        };
        c.skip_ws();
        if c.at_end_or_comma() {
            out.push(challenge);
            continue;
        }
        if let Some(t68) = token68(&mut c) {
            challenge.token68 = Some(t68);
            out.push(challenge);
            continue;
        }
        let after = auth_params(&mut c, &mut challenge);
        // A challenge whose parameters were all garbage is dropped.
        if !challenge.params.is_empty() {
            out.push(challenge);
        }
        if after == After::End {
            break;
        }
    }
    out
}

/// A token68 (`abc==` standing alone before the end or a comma); otherwise `None`, the
/// cursor left where it was.
fn token68(c: &mut Cursor<'_>) -> Option<String> {
    let start = c.i;
    let t68 = c.take_while(is_token68_char);
    let eqs = c.take_while(|b| b == b'=');
    c.skip_ws();
    if !t68.is_empty() && c.at_end_or_comma() {
        return Some(format!("{t68}{eqs}"));
    }
    c.i = start;
    None
}

/// What follows a challenge's auth-params.
#[derive(Debug, PartialEq, Eq)]
enum After {
    /// Another challenge starts at the cursor.
    Another,
    /// The header ends here (or the rest is garbage).
    End,
}

/// Reads auth-params (`name=value` or `name="quoted"`, comma-separated) into `challenge`
/// until the header ends, garbage, or the next challenge's scheme.
fn auth_params(c: &mut Cursor<'_>, challenge: &mut Challenge) -> After {
    loop {
        let name_start = c.i;
        let name = c.take_while(is_tchar);
        c.skip_ws();
        if name.is_empty() || c.peek() != Some(b'=') {
            if !name.is_empty() && !challenge.params.is_empty() {
                // `, Scheme2 …`: the next challenge starts here.
                c.i = name_start;
                return After::Another;
            }
            // Garbage: keep what was parsed so far and stop.
            return After::End;
        }
        c.i += 1;
        c.skip_ws();
        let value = if c.peek() == Some(b'"') {
            match c.quoted() {
                Some(v) => v,
                // An unterminated quoted string.
                None => return After::End,
            }
        } else {
            c.bare_value().to_string()
        };
        let name = name.to_ascii_lowercase();
        if challenge.params.len() < MAX_ITEMS && challenge.param(&name).is_none() {
            challenge.params.push((name, value));
        }
        c.skip_ws();
        match c.peek() {
            None => return After::End,
            Some(b',') => {
                c.skip_ws_commas();
                if c.peek().is_none() {
                    return After::End;
                }
            }
            Some(_) => {
                // `a="x" b="y"` without a comma: tolerate as the next parameter.
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_challenge_scope_keeps_its_valid_scope_tokens_only() {
        let h = AuthHint::from_header(Some(
            "Bearer scope=\"read \\\"admin\\\" caf\u{e9} a\u{1}b x\\\\y write\"",
        ));
        assert_eq!(h.scope.as_deref(), Some("read write"));
        // Quoted-pair leftovers and control characters only: no scope at all.
        let h = AuthHint::from_header(Some(
            "Bearer scope=\"\\\"\\\" \u{7f}\", error=\"insufficient_scope\"",
        ));
        assert_eq!(h.scope, None);
        assert!(h.is_insufficient_scope());
        let h = AuthHint::from_header(Some("Bearer scope=mcp:read"));
        assert_eq!(h.scope.as_deref(), Some("mcp:read"));
    }

    fn p(h: &str) -> Vec<Challenge> {
        parse(h)
    }

    #[test]
    fn a_plain_bearer_challenge() {
        let cs = p(
            r#"Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", scope="files:read files:write""#,
        );
        assert_eq!(cs.len(), 1);
        assert!(cs[0].is("bearer"));
        assert_eq!(
            cs[0].param("RESOURCE_METADATA"),
            Some("https://mcp.example/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(cs[0].param("scope"), Some("files:read files:write"));
    }

    #[test]
    fn several_challenges_in_one_value() {
        let cs = p(
            r#"Basic realm="x", DPoP algs="ES256 PS256", error="use_dpop_nonce", Bearer realm="y", error=insufficient_scope, scope="a b""#,
        );
        assert_eq!(cs.len(), 3);
        assert_eq!(cs[0].scheme, "Basic");
        assert_eq!(cs[1].scheme, "DPoP");
        assert_eq!(cs[1].param("algs"), Some("ES256 PS256"));
        assert_eq!(cs[2].param("error"), Some("insufficient_scope"));
        assert_eq!(cs[2].param("scope"), Some("a b"));
        let h = AuthHint::from_challenges(&cs);
        assert!(h.bearer && h.dpop);
        assert_eq!(h.error, Some(ChallengeError::UseDpopNonce));
        assert_eq!(h.scope.as_deref(), Some("a b"));
        assert_eq!(h.dpop_algs.as_deref(), Some("ES256 PS256"));
    }

    #[test]
    fn token68_and_bare_schemes() {
        let cs = p("Negotiate, Basic YWxhZGRpbjpvcGVuc2VzYW1l==, Bearer");
        assert_eq!(cs.len(), 3);
        assert_eq!(cs[0].scheme, "Negotiate");
        assert_eq!(cs[1].token68.as_deref(), Some("YWxhZGRpbjpvcGVuc2VzYW1l=="));
        assert!(cs[1].params.is_empty());
        assert!(cs[2].is("BEARER"));
        let cs = p("Custom abc=");
        assert_eq!(cs[0].token68.as_deref(), Some("abc="));
    }

    #[test]
    fn quoted_strings_unescape() {
        let cs = p(r#"Bearer error_description="say \"hi\", a\\b, c", scope=x"#);
        assert_eq!(
            cs[0].param("error_description"),
            Some(r#"say "hi", a\b, c"#)
        );
        assert_eq!(cs[0].param("scope"), Some("x"));
        let cs = p("Bearer realm=\"caf\u{e9} \\\u{e9}\"");
        assert_eq!(cs[0].param("realm"), Some("caf\u{e9} \u{e9}"));
    }

    #[test]
    fn whitespace_around_equals_and_empty_list_elements() {
        let cs = p(" ,, Bearer  realm = \"r\" ,, ,error = invalid_token ,\t, DPoP algs=ES256 ,");
        assert_eq!(cs.len(), 2);
        assert_eq!(cs[0].param("realm"), Some("r"));
        assert_eq!(cs[0].param("error"), Some("invalid_token"));
        assert_eq!(cs[1].param("algs"), Some("ES256"));
    }

    #[test]
    fn unquoted_urls_are_tolerated() {
        let cs = p("Bearer resource_metadata=https://x.example/.well-known/oauth-protected-resource, error=invalid_token");
        let h = AuthHint::from_challenges(&cs);
        assert_eq!(
            h.resource_metadata.as_deref(),
            Some("https://x.example/.well-known/oauth-protected-resource")
        );
        assert_eq!(h.error, Some(ChallengeError::InvalidToken));
    }

    #[test]
    fn first_value_wins_for_duplicates_and_across_challenges() {
        let cs = p(r#"Bearer scope="a", scope="b", DPoP scope="c", resource_metadata="https://r""#);
        assert_eq!(cs[0].param("scope"), Some("a"));
        let h = AuthHint::from_challenges(&cs);
        assert_eq!(h.scope.as_deref(), Some("a"));
        assert_eq!(h.resource_metadata.as_deref(), Some("https://r"));
    }

    #[test]
    fn other_schemes_are_ignored_by_the_hint() {
        let h = AuthHint::from_header(Some(r#"Basic realm="x", scope="admin""#));
        assert_eq!(h, AuthHint::default());
        assert_eq!(AuthHint::from_header(None), AuthHint::default());
        let h = AuthHint::from_header(Some("Bearer error=\"weird_thing\""));
        assert_eq!(h.error, Some(ChallengeError::Other("weird_thing".into())));
        assert!(!h.is_insufficient_scope());
        assert!(
            AuthHint::from_header(Some("Bearer error=insufficient_scope")).is_insufficient_scope()
        );
    }

    #[test]
    fn malformed_input_keeps_what_parsed_and_never_panics() {
        let cs = p(r#"Bearer scope="a", realm="unterminated"#);
        assert_eq!(cs.len(), 1);
        assert_eq!(cs[0].param("scope"), Some("a"));
        assert!(cs[0].param("realm").is_none());
        assert!(p(r#"Bearer realm="x\"#).is_empty());
        assert!(p("").is_empty());
        assert!(p("   ").is_empty());
        assert!(p("=").is_empty());
        assert!(p("\"Bearer\"").is_empty());
        let cs = p("Bearer =x");
        assert!(cs.is_empty());
        let cs = p("Bearer a=\"1\" b=\"2\"");
        assert_eq!(cs[0].param("b"), Some("2"));
    }

    #[test]
    fn fuzz_like_inputs_never_panic() {
        let pieces = [
            "Bearer",
            "DPoP",
            " ",
            ",",
            "=",
            "\"",
            "\\",
            "a",
            "é",
            "\u{0}",
            "\t",
            "==",
            "x=\"",
            "\"\\\"",
            "realm",
            "\u{1F600}",
            "token68/+",
            "\r\n",
        ];
        // Every sequence of up to four pieces, plus some long ones.
        let mut count = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in pieces {
                        let s = format!("{a}{b}{c}{d}");
                        let cs = parse(&s);
                        let _ = AuthHint::from_challenges(&cs);
                        count += 1;
                    }
                }
            }
        }
        assert!(count > 100_000);
        let long = "Bearer a=b, ".repeat(10_000);
        assert_eq!(parse(&long).len(), MAX_ITEMS);
        let many = format!("Bearer {}", "k=v, ".repeat(10_000));
        assert_eq!(parse(&many)[0].params.len(), 1);
        let many: String = (0..1000).map(|i| format!("k{i}=v,")).collect();
        assert_eq!(parse(&format!("Bearer {many}"))[0].params.len(), MAX_ITEMS);
        let _ = parse(&"\"".repeat(50_000));
        let _ = parse(&"\\".repeat(50_000));
    }
}
