//! The known name closest to a misspelt one, for "did you mean …?" in error texts.

/// The name of `known` that `word` most likely meant, if any is close: the same name in another
/// case, a name `word` starts (`timeout` → `timeoutMs`; the shortest such), or the most similar
/// name by Jaro-Winkler similarity when it is close enough. Ties go to the earlier name.
pub fn closest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    if let Some(same) = known.iter().find(|k| k.to_ascii_lowercase() == lower) {
        return Some(same);
    }
    if lower.len() >= 3 {
        let started = known
            .iter()
            .filter(|k| k.to_ascii_lowercase().starts_with(&lower))
            .min_by_key(|k| k.len());
        if let Some(k) = started {
            return Some(k);
        }
    }
    // Jaro-Winkler weighs a shared start and tolerates a missing letter or two anywhere
    // (`timeot` → `timeoutMs`, `mdoe` → `mode`); 0.8 keeps unrelated names out.
    known
        .iter()
        .map(|k| (strsim::jaro_winkler(&lower, &k.to_ascii_lowercase()), *k))
        .filter(|(score, _)| *score >= 0.8)
        .fold(None, |best: Option<(f64, &str)>, (score, k)| match best {
            Some((b, _)) if b >= score => best,
            _ => Some((score, k)),
        })
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::closest;

    const KNOWN: [&str; 5] = [
        "timeoutMs",
        "maxTotalTimeoutMs",
        "samplingCallback",
        "samplingCapabilities",
        "mode",
    ];

    #[test]
    fn suggestions() {
        assert_eq!(closest("timeout", &KNOWN), Some("timeoutMs"));
        assert_eq!(closest("TIMEOUTMS", &KNOWN), Some("timeoutMs"));
        assert_eq!(closest("timeoutMS", &KNOWN), Some("timeoutMs"));
        assert_eq!(closest("samplingCalback", &KNOWN), Some("samplingCallback"));
        assert_eq!(closest("sampling", &KNOWN), Some("samplingCallback"));
        assert_eq!(closest("mdoe", &KNOWN), Some("mode"));
        assert_eq!(closest("timeot", &KNOWN), Some("timeoutMs"));
        assert_eq!(
            closest("maxTotalTimeout", &KNOWN),
            Some("maxTotalTimeoutMs")
        );
        assert_eq!(closest("zzz", &KNOWN), None);
        assert_eq!(closest("odd key", &KNOWN), None);
        assert_eq!(closest("url", &KNOWN), None);
        assert_eq!(closest("x", &KNOWN), None);
        assert_eq!(closest("", &KNOWN), None);
    }
}
