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
}
