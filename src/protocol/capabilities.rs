//! Client capabilities: registering a callback is declaring the capability, per era.

use super::version::Era;
use crate::json::{json, Map, Value};

/// Which server→client callbacks the user registered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Registered {
    /// An elicitation callback is registered.
    pub elicitation: bool,
    /// A sampling callback is registered.
    pub sampling: bool,
    /// Extra sampling sub-capabilities (e.g. `{"tools": {}}`), used only with `sampling`.
    pub sampling_capabilities: Option<Value>,
    /// A list-roots callback is registered.
    pub roots: bool,
    /// The `tasks` option: the tasks extension (2026) / the `tasks` capability (2025-11-25).
    pub tasks: bool,
}

/// The 2026 tasks extension's id (declared under `extensions`).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Adds `extensions["io.modelcontextprotocol/tasks"] = {}` to a 2026 capabilities object.
pub fn declare_tasks_extension(caps: &mut Map<String, Value>) {
    let extensions = caps.entry("extensions").or_insert_with(|| json!({}));
    if let Value::Object(e) = extensions {
        e.insert(TASKS_EXTENSION.into(), json!({}));
    }
}

impl Registered {
    /// The `ClientCapabilities` object to declare in the given era.
    pub fn capabilities(&self, era: Era) -> Value {
        let mut caps = Map::new();
        if self.elicitation {
            caps.insert("elicitation".into(), json!({ "form": {}, "url": {} }));
        }
        if self.sampling {
            let sampling = match &self.sampling_capabilities {
                Some(Value::Object(o)) => Value::Object(o.clone()),
                _ => json!({}),
            };
            caps.insert("sampling".into(), sampling);
        }
        if self.roots {
            let roots = match era {
                Era::Legacy => json!({ "listChanged": true }),
                Era::Modern => json!({}),
            };
            caps.insert("roots".into(), roots);
        }
        // 2025-11-25: `tasks: {}` says the client knows tasks and hosts none (no `list`,
        // `cancel` or `requests.*`: it serves no task requests of the server's).
        match (self.tasks, era) {
            (false, _) => {}
            (true, Era::Legacy) => {
                caps.insert("tasks".into(), json!({}));
            }
            (true, Era::Modern) => declare_tasks_extension(&mut caps),
        }
        Value::Object(caps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_registered_declares_nothing() {
        assert_eq!(Registered::default().capabilities(Era::Legacy), json!({}));
        assert_eq!(Registered::default().capabilities(Era::Modern), json!({}));
    }

    #[test]
    fn each_callback_declares_its_capability() {
        let all = Registered {
            elicitation: true,
            sampling: true,
            sampling_capabilities: Some(json!({"tools": {}})),
            roots: true,
            tasks: false,
        };
        assert_eq!(
            all.capabilities(Era::Legacy),
            json!({"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}}, "roots": {"listChanged": true}})
        );
        assert_eq!(all.capabilities(Era::Modern)["roots"], json!({}));
        let sampling_caps_alone = Registered {
            sampling_capabilities: Some(json!({"tools": {}})),
            ..Default::default()
        };
        assert_eq!(sampling_caps_alone.capabilities(Era::Modern), json!({}));
    }

    #[test]
    fn the_tasks_option_declares_the_capability_or_the_extension() {
        let tasks = Registered {
            tasks: true,
            ..Default::default()
        };
        assert_eq!(tasks.capabilities(Era::Legacy), json!({"tasks": {}}));
        assert_eq!(
            tasks.capabilities(Era::Modern),
            json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
        );
        let mut caps = Map::new();
        caps.insert("extensions".into(), json!({"x/other": {"a": 1}}));
        declare_tasks_extension(&mut caps);
        assert_eq!(
            Value::Object(caps),
            json!({"extensions": {"x/other": {"a": 1}, "io.modelcontextprotocol/tasks": {}}})
        );
    }
}
