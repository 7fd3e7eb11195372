//! What every 2026 result may say about itself: `resultType` (absent means `complete`).

use super::{view, Field};
use crate::json::Value;
use serde::Deserialize;

/// The result's own kind, as it arrived.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResultHead {
    /// `complete`, `input_required`, `task`, or something this client does not know.
    pub result_type: Field<String>,
}

impl ResultHead {
    /// Reads a result's head (`None` when the result is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn result_types_as_sent() {
        let head = |v| ResultHead::read(&v).unwrap().result_type;
        assert_eq!(head(json!({})), Field::Absent);
        assert_eq!(head(json!({"resultType": null})), Field::Null);
        assert_eq!(
            head(json!({"resultType": "task"})),
            Field::Is("task".into())
        );
        assert_eq!(head(json!({"resultType": 3})), Field::Wrong(json!(3)));
        assert!(ResultHead::read(&json!([])).is_none());
    }
}
