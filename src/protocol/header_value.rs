//! Header values for `Mcp-Name` / `Mcp-Param-*`: plain visible ASCII, else the base64 sentinel.

use crate::util::base64::{decode, encode, Alphabet};

/// Encodes a value for an `Mcp-Name` or `Mcp-Param-*` header (spec: Value Encoding).
pub fn encode_header_value(value: &str) -> String {
    let plain_ok = !value.is_empty()
        && value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && !value.starts_with(' ')
        && !value.ends_with(' ')
        && !looks_like_sentinel(value);
    if plain_ok || value.is_empty() {
        value.to_string()
    } else {
        format!("=?base64?{}?=", encode(value, Alphabet::Standard))
    }
}

fn looks_like_sentinel(v: &str) -> bool {
    v.starts_with("=?base64?") && v.ends_with("?=")
}

/// Decodes a header value written by [`encode_header_value`] (used by tests and fault servers).
pub fn decode_header_value(value: &str) -> Option<String> {
    if looks_like_sentinel(value) && value.len() >= 11 {
        let inner = &value[9..value.len() - 2];
        String::from_utf8(decode(inner, Alphabet::Standard)?).ok()
    } else {
        Some(value.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine as _;

    #[test]
    fn plain_ascii_passes_through() {
        assert_eq!(encode_header_value("get_weather"), "get_weather");
        assert_eq!(encode_header_value("file:///a b"), "file:///a b");
    }

    #[test]
    fn non_ascii_whitespace_and_sentinels_are_base64() {
        assert_eq!(encode_header_value("café"), "=?base64?Y2Fmw6k=?=");
        assert_eq!(
            encode_header_value(" padded"),
            format!("=?base64?{}?=", STANDARD.encode(" padded"))
        );
        assert_eq!(
            encode_header_value("a\tb"),
            format!("=?base64?{}?=", STANDARD.encode("a\tb"))
        );
        let tricky = "=?base64?abc?=";
        let enc = encode_header_value(tricky);
        assert_ne!(enc, tricky);
        assert_eq!(decode_header_value(&enc).as_deref(), Some(tricky));
    }

    #[test]
    fn round_trip() {
        for v in ["x", "日本語", "trailing ", "line\nbreak"] {
            assert_eq!(
                decode_header_value(&encode_header_value(v)).as_deref(),
                Some(v)
            );
        }
    }
}
