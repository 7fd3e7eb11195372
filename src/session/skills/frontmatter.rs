//! A `SKILL.md`'s YAML frontmatter: split from the markdown (BOM dropped, CRLF read as LF, an
//! opening `---` line and a closing one), read with yaml-rust2 (YAML 1.2 core schema) into
//! JSON, and compared with an entry's frontmatter field by field: every key both ways, objects
//! in any key order, arrays in order, numbers by value, no type coercion.

use crate::json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// A parsed `SKILL.md`: its frontmatter and the markdown after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The frontmatter as JSON.
    pub frontmatter: Map<String, Value>,
    /// The markdown after the closing `---` line.
    pub body: String,
}

/// The YAML between the `---` lines and the body after them.
pub fn split(markdown: &str) -> Result<(String, String), String> {
    let text = markdown.strip_prefix('\u{feff}').unwrap_or(markdown);
    let text = text.replace("\r\n", "\n");
    let rest = text
        .strip_prefix("---\n")
        .ok_or("SKILL.md must start with a --- line")?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches('\n').trim_end() == "---" {
            let body = rest[offset + line.len()..].to_string();
            return Ok((rest[..offset].to_string(), body));
        }
        offset += line.len();
    }
    Err("SKILL.md has no closing --- line after its frontmatter".into())
}

fn to_json(y: &Yaml, depth: usize) -> Result<Value, String> {
    if depth > 64 {
        return Err("the frontmatter nests too deeply".into());
    }
    Ok(match y {
        Yaml::Null => Value::Null,
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Integer(i) => Value::Number((*i).into()),
        Yaml::Real(_) => y
            .as_f64()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or("the frontmatter holds a number JSON cannot carry (.inf, .nan)")?,
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Array(items) => Value::Array(
            items
                .iter()
                .map(|i| to_json(i, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Hash(h) => {
            let mut m = Map::new();
            for (k, v) in h {
                let key = k.as_str().ok_or("a frontmatter key is not a string")?;
                m.insert(key.to_string(), to_json(v, depth + 1)?);
            }
            Value::Object(m)
        }
        Yaml::Alias(_) | Yaml::BadValue => {
            return Err("the frontmatter has an alias or a value YAML could not read".into())
        }
    })
}

/// Parses a `SKILL.md`: the frontmatter must be a YAML mapping.
pub fn parse(markdown: &str) -> Result<Parsed, String> {
    let (yaml, body) = split(markdown)?;
    let docs = YamlLoader::load_from_str(&yaml).map_err(|e| format!("invalid YAML: {e}"))?;
    match docs.first().map(|d| to_json(d, 0)).transpose()? {
        Some(Value::Object(frontmatter)) => Ok(Parsed { frontmatter, body }),
        Some(Value::Null) | None => Ok(Parsed {
            frontmatter: Map::new(),
            body,
        }),
        Some(_) => Err("the frontmatter is not a mapping".into()),
    }
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".into(), |v| v.to_string())
}

fn same_number(a: &Number, b: &Number) -> bool {
    a == b || a.as_f64().zip(b.as_f64()).is_some_and(|(x, y)| x == y)
}

/// One line per field that differs between the entry's frontmatter and the parsed one.
pub fn differences(entry: Option<&Value>, parsed: Option<&Value>, path: &str) -> Vec<String> {
    let label = if path.is_empty() {
        "(frontmatter)"
    } else {
        path
    };
    match (entry, parsed) {
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            if a.len() != b.len() {
                return vec![format!(
                    "{label}: the entry has {} items, SKILL.md has {}",
                    a.len(),
                    b.len()
                )];
            }
            (a.iter().zip(b).enumerate())
                .flat_map(|(i, (x, y))| differences(Some(x), Some(y), &format!("{path}[{i}]")))
                .collect()
        }
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            keys.into_iter()
                .flat_map(|k| {
                    let sub = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    differences(a.get(k), b.get(k), &sub)
                })
                .collect()
        }
        (Some(Value::Number(a)), Some(Value::Number(b))) if same_number(a, b) => vec![],
        (a, b) if a == b => vec![],
        (a, b) => vec![format!(
            "{label}: the entry has {}, SKILL.md has {}",
            show(a),
            show(b)
        )],
    }
}
