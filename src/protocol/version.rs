//! Protocol revisions and the two eras (legacy handshake, modern stateless).

/// Every revision this client knows, oldest first.
pub const KNOWN_VERSIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];
/// What `initialize` offers.
pub const LATEST_LEGACY: &str = "2025-11-25";
/// What the discover probe and a modern pin use.
pub const LATEST_MODERN: &str = "2026-07-28";
/// Modern revisions this client speaks.
pub const MODERN_VERSIONS: [&str; 1] = [LATEST_MODERN];

/// The two protocol eras.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2025-11-25 and older: `initialize`, sessions, server→client requests.
    Legacy,
    /// 2026-07-28 and later: `_meta` envelope on every request, no handshake.
    Modern,
}

/// True for a known handshake-era revision.
pub fn is_legacy(v: &str) -> bool {
    KNOWN_VERSIONS[..4].contains(&v)
}

/// True for a modern revision this client speaks.
pub fn is_modern(v: &str) -> bool {
    MODERN_VERSIONS.contains(&v)
}

/// The era of a known revision.
pub fn era_of(v: &str) -> Option<Era> {
    if is_modern(v) {
        Some(Era::Modern)
    } else if is_legacy(v) {
        Some(Era::Legacy)
    } else {
        None
    }
}

/// The newest modern revision both sides speak, from a server's list.
pub fn best_mutual_modern<'a>(server: impl IntoIterator<Item = &'a str>) -> Option<&'static str> {
    let server: Vec<&str> = server.into_iter().collect();
    MODERN_VERSIONS
        .iter()
        .rev()
        .find(|v| server.contains(v))
        .copied()
}

/// What the `mode` option asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Probe with `server/discover`, fall back to `initialize`.
    Auto,
    /// `initialize` only, no probe.
    Legacy,
    /// A pinned modern revision, no traffic on connect.
    Pinned(&'static str),
}

impl Mode {
    /// Parses the `mode` option; a handshake-era version gets a hint to use "legacy".
    pub fn parse(s: &str) -> Result<Mode, String> {
        match s {
            "auto" => Ok(Mode::Auto),
            "legacy" => Ok(Mode::Legacy),
            v => {
                if let Some(m) = MODERN_VERSIONS.iter().find(|m| **m == v) {
                    Ok(Mode::Pinned(m))
                } else if is_legacy(v) {
                    Err(["mode ", &crate::util::quote::quoted(v), " is a handshake-era revision: use mode: \"legacy\" (initialize negotiates it)"].concat())
                } else {
                    Err(format!(
                        "mode {} is not one of \"auto\", \"legacy\", {}",
                        crate::util::quote::quoted(v),
                        crate::util::quote::join(
                            &MODERN_VERSIONS.map(crate::util::quote::quoted),
                            ", "
                        )
                    ))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eras() {
        assert_eq!(era_of("2024-11-05"), Some(Era::Legacy));
        assert_eq!(era_of("2025-11-25"), Some(Era::Legacy));
        assert_eq!(era_of("2026-07-28"), Some(Era::Modern));
        assert_eq!(era_of("2027-01-01"), None);
    }

    #[test]
    fn mutual_modern() {
        assert_eq!(
            best_mutual_modern(["2026-07-28", "2027-01-01"]),
            Some("2026-07-28")
        );
        assert_eq!(best_mutual_modern(["2025-11-25"]), None);
    }

    #[test]
    fn modes() {
        assert_eq!(Mode::parse("auto"), Ok(Mode::Auto));
        assert_eq!(Mode::parse("legacy"), Ok(Mode::Legacy));
        assert_eq!(Mode::parse("2026-07-28"), Ok(Mode::Pinned("2026-07-28")));
        assert!(Mode::parse("2025-06-18")
            .unwrap_err()
            .contains("use mode: \"legacy\""));
        assert!(Mode::parse("fast").unwrap_err().contains("not one of"));
    }
}
