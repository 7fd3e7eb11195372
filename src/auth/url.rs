//! A string-level URL splitter, just enough for OAuth discovery: scheme, authority, path,
//! query, fragment, as the slices received. Nothing is normalized (no trailing `/` is ever
//! added, case is kept), because issuers and resources are compared as the exact strings the
//! servers sent. Comparisons that are about origins use [`Url::origin_key`].

/// A URL split into its parts, borrowing the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Url<'a> {
    /// The scheme as received (`https`, `HTTP`...).
    pub scheme: &'a str,
    /// Everything between `//` and the path: `[userinfo@]host[:port]`.
    pub authority: &'a str,
    /// The path, possibly empty (`https://as` has path `""`).
    pub path: &'a str,
    /// The query without its `?`, if there is a `?`.
    pub query: Option<&'a str>,
    /// The fragment without its `#`, if there is a `#`.
    pub fragment: Option<&'a str>,
}

/// Splits an absolute URL with an authority (`scheme://authority/path?query#fragment`).
/// `None` for anything else: no scheme, no `//`, an empty host, a bad port, whitespace or
/// control characters anywhere.
pub fn split(url: &str) -> Option<Url<'_>> {
    if url.is_empty() || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    if !valid_scheme(scheme) {
        return None;
    }
    let rest = url[colon + 1..].strip_prefix("//")?;
    let (rest, fragment) = match rest.find('#') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (rest, query) = match rest.find('?') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let parsed = Url {
        scheme,
        authority,
        path,
        query,
        fragment,
    };
    let host = parsed.host();
    if host.is_empty() || host == "[]" {
        return None;
    }
    if host.starts_with('[') != host.ends_with(']') {
        return None;
    }
    if !host.starts_with('[') && host.contains([':', '[', ']']) {
        return None;
    }
    if let Some(port) = parsed.port() {
        if !port.bytes().all(|b| b.is_ascii_digit()) || port.len() > 5 {
            return None;
        }
    }
    Some(parsed)
}

/// The scheme of any URL (`com.example.app` in `com.example.app:/cb`), if it has a valid one.
pub fn scheme_of(url: &str) -> Option<&str> {
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    valid_scheme(scheme).then_some(scheme)
}

fn valid_scheme(scheme: &str) -> bool {
    let mut bytes = scheme.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.')
}

impl<'a> Url<'a> {
    /// The authority without userinfo: `host[:port]`.
    pub fn host_port(&self) -> &'a str {
        match self.authority.rfind('@') {
            Some(i) => &self.authority[i + 1..],
            None => self.authority,
        }
    }

    /// The host as received: a name, an IPv4 address, or `[v6]` with its brackets.
    pub fn host(&self) -> &'a str {
        let hp = self.host_port();
        if hp.starts_with('[') {
            match hp.find(']') {
                Some(i) => &hp[..=i],
                None => hp,
            }
        } else {
            match hp.rfind(':') {
                Some(i) => &hp[..i],
                None => hp,
            }
        }
    }

    /// The port as received (`None` when absent or empty).
    pub fn port(&self) -> Option<&'a str> {
        let hp = self.host_port();
        let after_host = &hp[self.host().len()..];
        after_host.strip_prefix(':').filter(|p| !p.is_empty())
    }

    /// True when the authority carries userinfo (`user@host`).
    pub fn has_userinfo(&self) -> bool {
        self.authority.contains('@')
    }

    /// `scheme://host[:port]` as received (userinfo dropped), with no trailing `/`.
    pub fn origin(&self) -> String {
        [self.scheme, "://", self.host_port()].concat()
    }

    /// The origin for comparisons: scheme and host lowercased, a default port (80 for http,
    /// 443 for https) removed. Never used as an identifier, only compared.
    pub fn origin_key(&self) -> String {
        let scheme = self.scheme.to_ascii_lowercase();
        let host = self.host().to_ascii_lowercase();
        let default = match scheme.as_str() {
            "http" => Some("80"),
            "https" => Some("443"),
            _ => None,
        };
        match self.port().map(|p| p.trim_start_matches('0')) {
            Some(p) if Some(p) != default => [&scheme, "://", &host, ":", p].concat(),
            _ => [&scheme, "://", &host].concat(),
        }
    }

    /// True for `https`, and for `http` to a loopback host ([`is_loopback_host`]).
    pub fn is_secure_or_loopback(&self) -> bool {
        if self.scheme.eq_ignore_ascii_case("https") {
            return true;
        }
        self.scheme.eq_ignore_ascii_case("http") && is_loopback_host(self.host())
    }
}

/// `localhost`, `127.0.0.0/8` (dotted quad) and `[::1]`, case-insensitively.
pub fn is_loopback_host(host: &str) -> bool {
    if host.eq_ignore_ascii_case("localhost") || host == "[::1]" {
        return true;
    }
    if host.eq_ignore_ascii_case("[0:0:0:0:0:0:0:1]") {
        return true;
    }
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts[0] == "127"
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

/// True when `url` is an absolute http(s) URL that is https or loopback http, without
/// userinfo or fragment: what an OAuth endpoint or issuer may be.
pub fn is_acceptable_endpoint(url: &str) -> bool {
    split(url)
        .is_some_and(|u| u.is_secure_or_loopback() && !u.has_userinfo() && u.fragment.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_the_parts_as_received() {
        let u = split("https://User@AS.example:8443/a/b?x=1&y#frag").unwrap();
        assert_eq!(u.scheme, "https");
        assert_eq!(u.authority, "User@AS.example:8443");
        assert_eq!(u.host(), "AS.example");
        assert_eq!(u.port(), Some("8443"));
        assert_eq!(u.path, "/a/b");
        assert_eq!(u.query, Some("x=1&y"));
        assert_eq!(u.fragment, Some("frag"));
        assert_eq!(u.origin(), "https://AS.example:8443");
        assert!(u.has_userinfo());
    }

    #[test]
    fn a_bare_origin_keeps_its_empty_path() {
        let u = split("https://as").unwrap();
        assert_eq!(u.path, "");
        assert_eq!(u.query, None);
        assert_eq!(u.origin(), "https://as");
        let u = split("https://as?q#").unwrap();
        assert_eq!((u.path, u.query, u.fragment), ("", Some("q"), Some("")));
        let u = split("http://h:/p").unwrap();
        assert_eq!(u.port(), None);
    }

    #[test]
    fn ipv6_hosts() {
        let u = split("http://[::1]:3000/cb").unwrap();
        assert_eq!(u.host(), "[::1]");
        assert_eq!(u.port(), Some("3000"));
        assert!(u.is_secure_or_loopback());
        let u = split("http://[2001:db8::1]/").unwrap();
        assert!(!u.is_secure_or_loopback());
        assert!(split("http://[::1/x").is_none());
        assert!(split("http://::1/x").is_none());
    }

    #[test]
    fn origin_keys_compare_loosely() {
        let a = split("HTTPS://AS.Example:443/x").unwrap();
        let b = split("https://as.example").unwrap();
        assert_eq!(a.origin_key(), b.origin_key());
        let c = split("https://as.example:8443").unwrap();
        assert_ne!(c.origin_key(), b.origin_key());
        let d = split("http://as.example:80/").unwrap();
        assert_eq!(d.origin_key(), "http://as.example");
    }

    #[test]
    fn rejects_what_is_not_a_url() {
        for bad in [
            "",
            "as.example/path",
            "https:/as",
            "https:as",
            "1https://as",
            "https://",
            "https:///path",
            "https://as:port/",
            "https://as:123456/",
            "https://a s/",
            "https://as/\n",
            "https://user@/x",
            "://as",
            "ht tp://as",
        ] {
            assert!(split(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn schemes_of_custom_redirects() {
        assert_eq!(scheme_of("com.example.app:/cb"), Some("com.example.app"));
        assert_eq!(scheme_of("https://x"), Some("https"));
        assert_eq!(scheme_of("/relative"), None);
        assert_eq!(scheme_of("9x:/a"), None);
    }

    #[test]
    fn loopback_hosts() {
        for h in [
            "localhost",
            "LOCALHOST",
            "127.0.0.1",
            "127.255.0.9",
            "[::1]",
        ] {
            assert!(is_loopback_host(h), "{h}");
        }
        for h in [
            "localhost.evil.com",
            "127.0.0.1.evil.com",
            "128.0.0.1",
            "127.0.0",
            "127.0.0.256",
            "127.0.0.1a",
            "[::2]",
            "",
        ] {
            assert!(!is_loopback_host(h), "{h}");
        }
    }

    #[test]
    fn acceptable_endpoints() {
        assert!(is_acceptable_endpoint("https://as.example/token"));
        assert!(is_acceptable_endpoint("http://localhost:9000/token"));
        assert!(is_acceptable_endpoint("http://127.0.0.1/token"));
        assert!(!is_acceptable_endpoint("http://as.example/token"));
        assert!(!is_acceptable_endpoint(
            "http://localhost@evil.example/token"
        ));
        assert!(!is_acceptable_endpoint("https://as.example/token#f"));
        assert!(!is_acceptable_endpoint("ftp://as.example/token"));
        assert!(!is_acceptable_endpoint("javascript:alert(1)"));
    }

    #[test]
    fn never_panics_on_odd_input() {
        for s in [
            "é://x",
            "a://é",
            "a://[é]:1/",
            "a://x:é",
            "h://@",
            "h://@@/",
            "h://[",
            "h://]",
            "h://x:/",
            "h://x?",
            "h://x#?/",
            "h://\u{0}",
        ] {
            let _ = split(s).map(|u| (u.host(), u.port(), u.origin_key()));
        }
    }
}
