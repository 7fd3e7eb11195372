//! The crate's layering, checked on its source: modules (files) form no import cycle, and the
//! pure floors never reach up: nothing in `protocol/` imports `session/`, `transport/`,
//! `engine/` or `js/`; nothing in `session/` imports `transport/`, `engine/` or `js/`; nothing
//! in `transport/` or `engine/` imports `js/`; nothing in `auth/` imports `transport/`,
//! `engine/` or `js/`. Test modules count too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module path (`engine::request`) of each file under src/, with its source.
fn modules() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(&root).unwrap().with_extension("");
                let mut parts: Vec<String> = rel
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect();
                if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
                    parts.pop();
                }
                let name = if parts.is_empty() {
                    "crate".into()
                } else {
                    parts.join("::")
                };
                out.insert(name, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    out
}

/// The modules `source` (of module `name`) refers to with `crate::` or `super::` paths,
/// resolved to the longest known module path.
fn imports(name: &str, source: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let parent: Vec<&str> = name.split("::").collect();
    let mut out = BTreeSet::new();
    let code: String = source
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    for (prefix, base) in [
        ("crate::", Vec::new()),
        ("super::", parent[..parent.len().saturating_sub(1)].to_vec()),
    ] {
        let mut rest = code.as_str();
        while let Some(i) = rest.find(prefix) {
            let before = rest[..i].chars().last();
            rest = &rest[i + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let mut segments: Vec<String> = base.iter().map(|s| s.to_string()).collect();
            segments.extend(
                path.split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
            // `super::{a, b}` names several: take the module prefix that exists.
            while !segments.is_empty() && !known.contains(&segments.join("::")) {
                segments.pop();
            }
            let target = segments.join("::");
            if !segments.is_empty() && target != name {
                out.insert(target);
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules();
    let known: BTreeSet<String> = mods.keys().cloned().collect();
    mods.iter()
        .map(|(name, src)| (name.clone(), imports(name, src, &known)))
        .collect()
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let g = graph();
    assert!(g.len() > 30, "found the modules: {:?}", g.keys());
    let mut cycles = Vec::new();
    for (a, targets) in &g {
        for b in targets {
            if g.get(b).is_some_and(|t| t.contains(a)) && a < b {
                cycles.push(format!("{a} <-> {b}"));
            }
        }
    }
    // Longer cycles: a depth-first search from every module.
    fn reaches(
        g: &BTreeMap<String, BTreeSet<String>>,
        from: &str,
        to: &str,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for n in g.get(from).into_iter().flatten() {
            if n == to {
                return true;
            }
            if seen.insert(n.clone()) && reaches(g, n, to, seen) {
                return true;
            }
        }
        false
    }
    for a in g.keys() {
        if reaches(&g, a, a, &mut BTreeSet::new()) {
            cycles.push(format!("{a} is on a cycle"));
        }
    }
    assert!(cycles.is_empty(), "import cycles: {cycles:#?}");
}

#[test]
fn pure_floors_never_import_upward() {
    let forbidden: [(&str, &[&str]); 6] = [
        // The JSON module is the floor under every other.
        (
            "json",
            &["protocol", "session", "transport", "engine", "js", "auth"],
        ),
        ("protocol", &["session", "transport", "engine", "js"]),
        ("session", &["transport", "engine", "js"]),
        ("transport", &["session", "engine", "js"]),
        ("engine", &["js"]),
        ("auth", &["transport", "engine", "js"]),
    ];
    let mut bad = Vec::new();
    for (module, targets) in graph() {
        for (floor, above) in forbidden {
            if module == floor || module.starts_with(&format!("{floor}::")) {
                for t in &targets {
                    let top = t.split("::").next().unwrap_or_default();
                    if above.contains(&top) {
                        bad.push(format!("{module} imports {t}"));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "layering broken: {bad:#?}");
}
