//! `application/x-www-form-urlencoded`: the encoding of token and registration request bodies,
//! of the authorization URL's query, and of `client_secret_basic` credentials (RFC 6749 §2.3.1),
//! and the decoding of callback queries.

/// Encodes one name or value: ASCII alphanumerics and `*-._` stay, a space becomes `+`, every
/// other byte `%XX` (uppercase hex).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 15) as usize] as char);
            }
        }
    }
    out
}

/// `name=value&…` from pairs, in order.
pub fn encode_pairs(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (k, v) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(&encode(k));
        out.push('=');
        out.push_str(&encode(v));
    }
    out
}

/// Decodes one component: `+` is a space, `%XX` a byte; a `%` not followed by two hex digits
/// stays as it is; bytes that are not UTF-8 become U+FFFD.
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hi = bytes.get(i + 1).and_then(|b| (*b as char).to_digit(16));
                let lo = bytes.get(i + 2).and_then(|b| (*b as char).to_digit(16));
                if let (Some(hi), Some(lo)) = (hi, lo) {
                    out.push((hi * 16 + lo) as u8);
                    i += 3;
                    continue;
                }
                out.push(b'%');
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The pairs of a query string or form body, decoded, in order (duplicates kept; empty
/// segments skipped; a segment without `=` has an empty value).
pub fn parse(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|s| !s.is_empty())
        .map(|s| match s.find('=') {
            Some(i) => (decode(&s[..i]), decode(&s[i + 1..])),
            None => (decode(s), String::new()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_like_the_form_serializer() {
        assert_eq!(encode("a b+c/d=é~!*-._"), "a+b%2Bc%2Fd%3D%C3%A9%7E%21*-._");
        assert_eq!(encode(""), "");
        assert_eq!(
            encode_pairs(&[("grant_type", "authorization_code"), ("x y", "1&2")]),
            "grant_type=authorization_code&x+y=1%262"
        );
    }

    #[test]
    fn decodes_and_round_trips() {
        assert_eq!(decode("a+b%2Bc%2fd%C3%A9"), "a b+c/dé");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz%4"), "%zz%4");
        assert_eq!(decode("%FF"), "\u{FFFD}");
        for s in ["plain", "sp ace", "ü+&=%", "\u{0}\u{7f}"] {
            assert_eq!(decode(&encode(s)), s);
        }
    }

    #[test]
    fn parses_queries() {
        assert_eq!(
            parse("code=abc&state=x%20y&&flag&iss=https%3A%2F%2Fas&state=2"),
            vec![
                ("code".into(), "abc".into()),
                ("state".into(), "x y".into()),
                ("flag".into(), String::new()),
                ("iss".into(), "https://as".into()),
                ("state".into(), "2".into()),
            ]
        );
        assert!(parse("").is_empty());
        assert_eq!(parse("=v"), vec![(String::new(), "v".into())]);
    }
}
