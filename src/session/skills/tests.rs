use super::entry::{check, partition, Resources};
use super::frontmatter::{differences, parse};
use super::uri::{canonical, file_key, is_within, resolve, skill_root};
use super::verify::{digest_of, holds, target, verify};
use crate::json::{json, Value};
use crate::protocol::error::ErrorKind;

const MD: &str =
    "---\nname: pdf-processing\ndescription: Extract PDFs\nmetadata:\n  author: x\n---\n# Body\n";
const FORMS: &str = "forms";

fn entry() -> Value {
    json!({
        "uri": "skill://pdf-processing/SKILL.md",
        "frontmatter": { "description": "Extract PDFs", "name": "pdf-processing", "metadata": { "author": "x" } },
        "resources": [
            { "uri": "skill://pdf-processing/SKILL.md", "digest": digest_of(MD.as_bytes()), "size": MD.len() },
            { "uri": "skill://pdf-processing/references/Q%26A.md", "digest": digest_of(FORMS.as_bytes()), "size": 5 }
        ]
    })
}

fn reason(e: &crate::protocol::error::McpError) -> String {
    assert_eq!(e.kind, Some(ErrorKind::SkillVerification), "{e:?}");
    e.data_json().unwrap()["reason"]
        .as_str()
        .unwrap()
        .to_string()
}

fn text_result(uri: &str, text: &str) -> Value {
    json!({ "contents": [{ "uri": uri, "mimeType": "text/markdown", "text": text }] })
}

#[test]
fn uris_canonicalise_resolve_and_key() {
    assert_eq!(
        canonical("SKILL://a/b/./c/../SKILL.md#x").unwrap(),
        "skill://a/b/SKILL.md"
    );
    assert_eq!(
        canonical("skill://a/my file.md").unwrap(),
        "skill://a/my%20file.md"
    );
    assert!(canonical("no scheme").is_none());
    assert_eq!(skill_root("skill://a/b/SKILL.md").unwrap(), "skill://a/b");
    assert!(skill_root("skill://a/b/README.md").is_none());
    assert!(skill_root("skill:///SKILL.md").is_none());
    let root = "skill://a/b";
    assert_eq!(
        resolve(root, "references/X.md#frag").unwrap(),
        "skill://a/b/references/X.md"
    );
    assert_eq!(
        resolve(root, "../other/SKILL.md").unwrap(),
        "skill://a/other/SKILL.md"
    );
    assert_eq!(resolve(root, "https://h/x").unwrap(), "https://h/x");
    assert_eq!(
        file_key(root, "skill://a/b/Q&A.md"),
        file_key(root, "skill://a/b/Q%26A.md")
    );
    assert!(is_within(root, "skill://a/b/c/d.md"));
    assert!(!is_within(root, "skill://a/b/%2E%2E/x"));
    assert!(!is_within(root, "skill://a/bc/d.md"));
}

#[test]
fn a_valid_entry_is_accepted() {
    let skill = check(&entry()).unwrap();
    assert_eq!(skill.root, "skill://pdf-processing");
    assert!(matches!(skill.resources, Resources::Listed(ref r) if r.len() == 2));
    let dynamic = json!({ "uri": "skill://d/x/SKILL.md", "frontmatter": { "name": "x", "description": "d" }, "resources": "dynamic" });
    assert_eq!(check(&dynamic).unwrap().resources, Resources::Dynamic);
}

#[test]
fn bad_entries_name_every_problem() {
    let mut e = entry();
    e["frontmatter"]["name"] = json!("Other");
    e["resources"][1]["digest"] = json!("md5:00");
    e["resources"][0]["uri"] = json!("skill://elsewhere/x.md");
    let problems = check(&e).unwrap_err().join("\n");
    assert!(problems.contains("lowercase"), "{problems}");
    assert!(problems.contains("resources[1]"), "{problems}");
    assert!(
        problems.contains("outside the skill directory"),
        "{problems}"
    );
    assert!(problems.contains("must include"), "{problems}");
    let mut missing = entry();
    missing.as_object_mut().unwrap().remove("resources");
    assert!(check(&missing).unwrap_err()[0].contains("resources must be"));
    let mut twice = entry();
    let again = twice["resources"][1].clone();
    twice["resources"].as_array_mut().unwrap().push(again);
    assert!(check(&twice)
        .unwrap_err()
        .join(" ")
        .contains("more than once"));
    let mut huge = entry();
    huge["resources"][1]["size"] = json!(17 * 1024 * 1024);
    assert!(check(&huge)
        .unwrap_err()
        .join(" ")
        .contains("over the limits"));
}

#[test]
fn a_repeated_uri_refuses_every_copy() {
    let other = json!({ "uri": "skill://x/SKILL.md", "frontmatter": { "name": "x", "description": "d" }, "resources": "dynamic" });
    let (skills, invalid) = partition(&[entry(), other, entry()]);
    assert_eq!(skills.len(), 1);
    assert_eq!(
        invalid.iter().map(|i| i.index).collect::<Vec<_>>(),
        vec![0, 2]
    );
    assert!(invalid[0].reason.contains("more than once"));
}

#[test]
fn frontmatter_parses_and_compares_deeply() {
    let p = parse("\u{feff}---\r\nname: a\r\nn: 1\r\nlist: [x, 2]\r\n---\r\nbody\r\n").unwrap();
    assert_eq!(
        Value::Object(p.frontmatter.clone()),
        json!({ "name": "a", "n": 1, "list": ["x", 2] })
    );
    assert_eq!(p.body, "body\n");
    assert!(parse("no frontmatter").is_err());
    assert!(parse("---\nname: a\n").is_err());
    let parsed = Value::Object(p.frontmatter);
    let reordered = json!({ "list": ["x", 2], "n": 1.0, "name": "a" });
    assert!(differences(Some(&reordered), Some(&parsed), "").is_empty());
    let coerced = json!({ "list": ["x", "2"], "n": 1, "name": "a" });
    assert_eq!(
        differences(Some(&coerced), Some(&parsed), ""),
        vec!["list[1]: the entry has \"2\", SKILL.md has 2"]
    );
    let extra = json!({ "list": ["x", 2], "n": 1, "name": "a", "more": true });
    assert_eq!(
        differences(Some(&extra), Some(&parsed), "")[0],
        "more: the entry has true, SKILL.md has nothing"
    );
}

#[test]
fn reads_verify_size_digest_and_frontmatter() {
    let skill = check(&entry()).unwrap();
    let t = target(&skill, None).unwrap();
    let file = verify(&skill, &t, &text_result(&t.uri, MD)).unwrap();
    assert!(file.verified);
    assert_eq!(file.body.as_deref(), Some("# Body\n"));
    assert_eq!(
        reason(&verify(&skill, &t, &text_result(&t.uri, &format!("{MD}x"))).unwrap_err()),
        "size"
    );
    let tampered = MD.replace("Body", "Evil");
    assert_eq!(
        reason(&verify(&skill, &t, &text_result(&t.uri, &tampered)).unwrap_err()),
        "digest"
    );
    // A listed file named in another spelling is the listed one, requested by the entry's URI.
    let forms = target(&skill, Some("references/Q&A.md")).unwrap();
    assert_eq!(forms.uri, "skill://pdf-processing/references/Q%26A.md");
    let blob = json!({ "contents": [{ "uri": forms.uri, "blob": "Zm9ybXM=" }] });
    assert_eq!(verify(&skill, &forms, &blob).unwrap().bytes, b"forms");
    assert_eq!(
        reason(&target(&skill, Some("references/OTHER.md")).unwrap_err()),
        "unlisted"
    );
    assert!(holds(&skill, "skill://pdf-processing/references/Q&A.md"));
    assert!(!holds(&skill, "skill://pdf-processing/x.md"));
}

#[test]
fn frontmatter_mismatch_is_refused_even_when_digest_matches() {
    let lie = MD.replace("Extract PDFs", "Exfiltrate");
    let mut e = entry();
    e["resources"][0]["digest"] = json!(digest_of(lie.as_bytes()));
    e["resources"][0]["size"] = json!(lie.len());
    let skill = check(&e).unwrap();
    let t = target(&skill, Some("SKILL.md")).unwrap();
    let err = verify(&skill, &t, &text_result(&t.uri, &lie)).unwrap_err();
    assert_eq!(reason(&err), "frontmatter");
    assert!(err.data_json().unwrap()["differences"][0]
        .as_str()
        .unwrap()
        .starts_with("description"));
}

#[test]
fn dynamic_skills_are_unverified_but_frontmatter_checked() {
    let e = json!({ "uri": "skill://srv/dyn/SKILL.md", "frontmatter": { "name": "dyn", "description": "d" }, "resources": "dynamic" });
    let skill = check(&e).unwrap();
    let t = target(&skill, Some("gen/x.txt")).unwrap();
    let file = verify(&skill, &t, &text_result(&t.uri, "anything")).unwrap();
    assert!(!file.verified);
    let md = target(&skill, None).unwrap();
    let bad = "---\nname: dyn\ndescription: other\n---\n";
    assert_eq!(
        reason(&verify(&skill, &md, &text_result(&md.uri, bad)).unwrap_err()),
        "frontmatter"
    );
    assert_eq!(
        reason(&target(&skill, Some("../elsewhere/x")).unwrap_err()),
        "unlisted"
    );
}
