//! Every tracked source and documentation file stays under 650 lines (issue 36): a longer one is
//! split by subject (tests into modules or files named after what they test, helpers into a
//! module they share). The files are `git ls-files`' list, read from the work tree; lock files
//! (`*.lock`, `package-lock.json`), `bench/results.json` (written by bench/run.mjs) and binary
//! files (a NUL byte, or not UTF-8) are not counted. Outside a git checkout the test says so and
//! passes.

use std::path::Path;
use std::process::Command;

/// The first line count that fails.
const LIMIT: usize = 650;

/// Tracked files that are not counted: generated lock files and benchmark results.
fn exempt(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.ends_with(".lock") || name == "package-lock.json" || path == "bench/results.json"
}

/// The lines of a text file (the last one with or without its line end); None for binary files.
fn lines(bytes: &[u8]) -> Option<usize> {
    if bytes.contains(&0) {
        return None;
    }
    std::str::from_utf8(bytes)
        .ok()
        .map(|text| text.lines().count())
}

#[test]
fn every_tracked_source_and_doc_file_is_under_650_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = match Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output()
    {
        Ok(out) if out.status.success() => out.stdout,
        _ => {
            eprintln!("file_sizes: no git checkout at {}: skipped", root.display());
            return;
        }
    };
    let mut long = Vec::new();
    let mut counted = 0;
    for path in listed.split(|&b| b == 0).filter(|p| !p.is_empty()) {
        let path = String::from_utf8_lossy(path);
        if exempt(&path) {
            continue;
        }
        // A tracked file deleted in the work tree, or a submodule's directory: nothing to count.
        let Ok(bytes) = std::fs::read(root.join(&*path)) else {
            continue;
        };
        let Some(n) = lines(&bytes) else {
            continue;
        };
        counted += 1;
        if n >= LIMIT {
            long.push(format!("{path}: {n} lines"));
        }
    }
    assert!(counted > 0, "git ls-files listed no text file");
    long.sort();
    assert!(
        long.is_empty(),
        "{} file(s) of {LIMIT} lines or more; split each by subject:\n{}",
        long.len(),
        long.join("\n")
    );
}

#[test]
fn lock_files_bench_results_and_binaries_are_not_counted() {
    assert!(exempt("Cargo.lock"));
    assert!(exempt("fuzz/Cargo.lock"));
    assert!(exempt("tests/js/package-lock.json"));
    assert!(exempt("bench/results.json"));
    assert!(!exempt("tests/results.json"));
    assert!(!exempt("src/lib.rs"));
    assert!(!exempt("docs/lock.md"));
    assert_eq!(lines(b"a\nb\n"), Some(2));
    assert_eq!(lines(b"a\nb"), Some(2));
    assert_eq!(lines(b"a\r\nb\r\n"), Some(2));
    assert_eq!(lines(b"\x89PNG\r\n\x1a\n\0\0"), None);
    assert_eq!(lines(b"\xff\xfe"), None);
}
