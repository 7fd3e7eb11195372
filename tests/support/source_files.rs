//! The repository's files, for tests that read source (tests/layering.rs, tests/error_kinds.rs).

use std::path::PathBuf;

/// Every file under `dirs` (recursively) whose extension is `ext`, in no particular order.
pub fn files_with_extension(dirs: impl IntoIterator<Item = PathBuf>, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.into_iter().collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    out
}
