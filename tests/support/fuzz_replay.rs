//! Replays a fuzz target's committed inputs (`fuzz/corpus/<target>/*` and
//! `fuzz/artifacts/regressions/<target>/*`) through its check: shared by `tests/fuzz_corpus.rs`
//! and `tests/fuzz_auth_corpus.rs`.

use std::path::{Path, PathBuf};

/// One fuzz target's check.
pub type Check = fn(&[u8]);

/// The files of `dir`, sorted (none when it does not exist).
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

/// Runs `check` on every committed input of `target`; the number of inputs.
pub fn replay(target: &str, check: Check) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut n = 0;
    for dir in [
        root.join("corpus").join(target),
        root.join("artifacts").join("regressions").join(target),
    ] {
        for f in files(&dir) {
            let data = std::fs::read(&f).unwrap();
            let r = std::panic::catch_unwind(|| check(&data));
            assert!(r.is_ok(), "{target}: {} panicked", f.display());
            n += 1;
        }
    }
    n
}
