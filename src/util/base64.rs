//! Base64 (RFC 4648): the standard alphabet with padding (`Basic` credentials, `=?base64?…?=`
//! header values, PEM) and the URL-safe one without (JOSE, PKCE). Decoding is strict: only the
//! alphabet, padding exactly where it belongs, and zero unused trailing bits, so one text means
//! one byte string. Hand-written: the `base64` crate's general engine cost ~5 KB of wasm for these
//! two uses; tests check every result against the crate.

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Which alphabet, and whether `=` padding is written (and required when decoding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alphabet {
    /// `+/` with `=` padding.
    Standard,
    /// `-_` without padding.
    UrlNoPad,
}

impl Alphabet {
    fn table(self) -> &'static [u8; 64] {
        match self {
            Alphabet::Standard => STD,
            Alphabet::UrlNoPad => URL,
        }
    }
}

/// `bytes` as base64 text.
pub fn encode(bytes: impl AsRef<[u8]>, alphabet: Alphabet) -> String {
    let (bytes, table) = (bytes.as_ref(), alphabet.table());
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (chunk[0] as u32) << 16
            | (*chunk.get(1).unwrap_or(&0) as u32) << 8
            | *chunk.get(2).unwrap_or(&0) as u32;
        for i in 0..=chunk.len() {
            out.push(table[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
        if alphabet == Alphabet::Standard {
            for _ in chunk.len()..3 {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes of base64 `text`; `None` unless it is canonical base64 of that alphabet.
pub fn decode(text: impl AsRef<[u8]>, alphabet: Alphabet) -> Option<Vec<u8>> {
    let (mut text, table) = (text.as_ref(), alphabet.table());
    if alphabet == Alphabet::Standard {
        if text.len() % 4 != 0 {
            return None;
        }
        let pad = text
            .iter()
            .rev()
            .take(2)
            .take_while(|&&c| c == b'=')
            .count();
        text = &text[..text.len() - pad];
    }
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let v = table.iter().position(|t| t == c)? as u32;
            n |= v << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = chunk.len() - 1;
        // The bits after the last whole byte must be zero (canonical form).
        if keep < 3 && n & (0xFF_FFFF >> (8 * keep)) != 0 {
            return None;
        }
        out.extend_from_slice(&bytes[..keep]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    use base64::Engine as _;

    #[test]
    fn rfc4648_vectors() {
        for (plain, b64) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain, Alphabet::Standard), b64);
            assert_eq!(decode(b64, Alphabet::Standard).unwrap(), plain.as_bytes());
            let url = b64.trim_end_matches('=');
            assert_eq!(encode(plain, Alphabet::UrlNoPad), url);
            assert_eq!(decode(url, Alphabet::UrlNoPad).unwrap(), plain.as_bytes());
        }
    }

    #[test]
    fn agrees_with_the_base64_crate() {
        let mut seed = 0x2545_f491_u32;
        for len in 0..300usize {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    seed as u8
                })
                .collect();
            let s = STANDARD.encode(&bytes);
            let u = URL_SAFE_NO_PAD.encode(&bytes);
            assert_eq!(encode(&bytes, Alphabet::Standard), s);
            assert_eq!(encode(&bytes, Alphabet::UrlNoPad), u);
            assert_eq!(decode(&s, Alphabet::Standard).unwrap(), bytes);
            assert_eq!(decode(&u, Alphabet::UrlNoPad).unwrap(), bytes);
        }
    }

    #[test]
    fn refuses_what_the_crate_refuses() {
        let bad_std = [
            "Zg", "Zg=", "Zh==", "Zm9=", "Z===", "Zg==Zg==", "Zm9v!", "Zm-v", "====", "Zm9vY===",
        ];
        for t in bad_std {
            assert_eq!(decode(t, Alphabet::Standard), None, "{t}");
            assert!(STANDARD.decode(t).is_err(), "crate accepts {t}");
        }
        let bad_url = ["Zg==", "Zh", "Zm9", "Z", "Zm+v", "Zm/v", "Zm9vY"];
        for t in bad_url {
            assert_eq!(decode(t, Alphabet::UrlNoPad), None, "{t}");
            assert!(URL_SAFE_NO_PAD.decode(t).is_err(), "crate accepts {t}");
        }
    }
}
