//! The crate's layering, checked on its source: modules (files) form no import cycle, the pure
//! floors never reach up (`json` ← `util` ← `protocol` ← `validate` ← `session` ← `engine` ←
//! `js`, with `transport` and `auth` beside `session`), and in `js` the HTTP wing and the
//! authorization host never import each other (HTTP reaches authorization only through
//! `auth::seam`). Test modules count too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

#[path = "support/source_files.rs"]
mod source_files;
use source_files::files_with_extension;

/// Module path (`engine::request`) of each file under src/, with its source.
fn modules() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for path in files_with_extension([root.clone()], "rs") {
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

/// Whether `module` is `area` or inside it (`js::http` is within `js`, `jsx` is not).
fn within(module: &str, area: &str) -> bool {
    module == area || module.starts_with(&format!("{area}::"))
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
    // Floors, lowest first: json ← util ← protocol ← validate ← session ← engine ← js, with
    // transport and auth beside session.
    let forbidden: [(&str, &[&str]); 8] = [
        // The JSON module is the floor under every other.
        (
            "json",
            &[
                "util",
                "protocol",
                "validate",
                "session",
                "transport",
                "engine",
                "js",
                "auth",
            ],
        ),
        // Generic tools (maps, base64, quoting, numbers, the lock, the oneshot): no MCP meaning.
        (
            "util",
            &[
                "protocol",
                "validate",
                "session",
                "transport",
                "engine",
                "js",
                "auth",
            ],
        ),
        (
            "protocol",
            &["validate", "session", "transport", "engine", "js", "auth"],
        ),
        // The schema validators sit beside session: they know the protocol, not the session.
        (
            "validate",
            &["session", "transport", "engine", "js", "auth"],
        ),
        ("session", &["transport", "engine", "js", "auth"]),
        ("transport", &["session", "engine", "js", "auth"]),
        ("engine", &["js", "auth"]),
        ("auth", &["transport", "engine", "js"]),
    ];
    let mut bad = Vec::new();
    for (module, targets) in graph() {
        for (floor, above) in forbidden {
            if within(&module, floor) {
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

#[test]
fn js_http_and_the_authorization_host_are_apart() {
    let mut bad = Vec::new();
    for (module, targets) in graph() {
        for t in &targets {
            let http_reaches_auth =
                within(&module, "js::http") && (within(t, "js::auth") || within(t, "auth::flow"));
            let auth_reaches_http = within(&module, "js::auth") && within(t, "js::http");
            if http_reaches_auth || auth_reaches_http {
                bad.push(format!("{module} imports {t}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "js HTTP and js auth import each other: {bad:#?}"
    );
}
