//! PKCE (RFC 7636) with S256 only, and the `state` value. Randomness and hashing come from the
//! host (WebCrypto in the browser): the verifier is made from random bytes passed in, and the
//! challenge from a SHA-256 function passed in, so this stays pure.

use crate::util::base64::{encode, Alphabet};

use crate::protocol::error::McpError;

use crate::util::secret::Secret;

/// The only challenge method this client uses.
pub const METHOD: &str = "S256";

/// Shortest verifier RFC 7636 allows.
pub const MIN_VERIFIER: usize = 43;
/// Longest verifier RFC 7636 allows.
pub const MAX_VERIFIER: usize = 128;

/// Base64url without padding.
pub fn base64url(bytes: &[u8]) -> String {
    encode(bytes, Alphabet::UrlNoPad)
}

/// Checks a verifier: 43 to 128 characters of `[A-Za-z0-9-._~]`.
pub fn check_verifier(verifier: &str) -> Result<(), McpError> {
    let ok_len = (MIN_VERIFIER..=MAX_VERIFIER).contains(&verifier.len());
    let ok_chars = verifier
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));
    if ok_len && ok_chars {
        Ok(())
    } else {
        Err(McpError::input(format!(
            "A PKCE code_verifier must be {MIN_VERIFIER} to {MAX_VERIFIER} characters of A-Z a-z 0-9 - . _ ~ (got {} characters)",
            verifier.chars().count()
        )))
    }
}

/// A verifier from 32 to 96 random bytes (base64url: 43 to 128 characters).
pub fn verifier_from_random(random: &[u8]) -> Result<Secret, McpError> {
    if !(32..=96).contains(&random.len()) {
        return Err(McpError::input(format!(
            "A PKCE verifier needs 32 to 96 random bytes, got {}",
            random.len()
        )));
    }
    Ok(Secret::new(base64url(random)))
}

/// The S256 `code_challenge` of `verifier`: base64url(SHA-256(ASCII(verifier))), with the
/// host's SHA-256.
pub fn s256_challenge(
    verifier: &Secret,
    sha256: impl Fn(&[u8]) -> [u8; 32],
) -> Result<String, McpError> {
    check_verifier(verifier.expose())?;
    Ok(base64url(&sha256(verifier.expose().as_bytes())))
}

/// A `state` value from at least 16 random bytes (base64url).
pub fn state_from_random(random: &[u8]) -> Result<String, McpError> {
    if random.len() < 16 {
        return Err(McpError::input(format!(
            "An OAuth state needs at least 16 random bytes, got {}",
            random.len()
        )));
    }
    Ok(base64url(random))
}

/// A small SHA-256 (FIPS 180-4) for tests only (these and tests/support): the crate itself
/// never hashes, so no build links it.
#[doc(hidden)]
pub fn test_sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                block[4 * i],
                block[4 * i + 1],
                block[4 * i + 2],
                block[4 * i + 3],
            ]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn the_test_sha256_is_sha256() {
        assert_eq!(
            hex(&test_sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&test_sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&test_sha256(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn rfc7636_appendix_b() {
        let random: [u8; 32] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212,
            37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ];
        let verifier = verifier_from_random(&random).unwrap();
        assert_eq!(
            verifier.expose(),
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        );
        assert_eq!(
            s256_challenge(&verifier, test_sha256).unwrap(),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn verifier_rules() {
        assert!(check_verifier(&"a".repeat(43)).is_ok());
        assert!(check_verifier(&"-._~".repeat(32)).is_ok());
        assert!(check_verifier(&"a".repeat(42)).is_err());
        assert!(check_verifier(&"a".repeat(129)).is_err());
        assert!(check_verifier(&format!("{}+", "a".repeat(43))).is_err());
        assert!(check_verifier(&format!("{}=", "a".repeat(43))).is_err());
        assert!(check_verifier(&"é".repeat(43)).is_err());
        assert!(s256_challenge(&Secret::new("short"), test_sha256).is_err());
        assert!(verifier_from_random(&[0; 31]).is_err());
        assert!(verifier_from_random(&[0; 97]).is_err());
        assert_eq!(
            verifier_from_random(&[0xff; 96]).unwrap().expose().len(),
            128
        );
        let e = check_verifier("secret-ish").unwrap_err();
        assert!(!e.message.contains("secret-ish"));
    }

    #[test]
    fn state_values() {
        assert_eq!(
            state_from_random(&[0; 16]).unwrap(),
            "AAAAAAAAAAAAAAAAAAAAAA"
        );
        assert!(state_from_random(&[0; 15]).is_err());
    }
}
