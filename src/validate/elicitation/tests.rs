//! Elicitation answers and forms against the schemas servers send.

mod answers {
    use super::super::*;
    use crate::json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 10},
                "email": {"type": "string", "format": "email"},
                "site": {"type": "string", "format": "uri"},
                "born": {"type": "string", "format": "date"},
                "at": {"type": "string", "format": "date-time"},
                "age": {"type": "integer", "minimum": 0, "maximum": 150, "default": 30},
                "score": {"type": "number", "default": 1.5},
                "ok": {"type": "boolean", "default": true},
                "color": {"type": "string", "enum": ["red", "green"], "default": "red"},
                "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2, "default": ["a"]},
                "nick": {"type": "string", "default": "anon"}
            },
            "required": ["name", "email"]
        })
    }

    #[test]
    fn defaults_fill_only_missing_fields() {
        let mut c = json!({"name": "Ada", "age": 36})
            .as_object()
            .unwrap()
            .clone();
        apply_defaults(&schema(), &mut c);
        assert_eq!(c["age"], 36);
        assert_eq!(c["score"], 1.5);
        assert_eq!(c["ok"], true);
        assert_eq!(c["color"], "red");
        assert_eq!(c["tags"], json!(["a"]));
        assert_eq!(c["nick"], "anon");
        assert!(!c.contains_key("email"));
    }

    #[test]
    fn a_valid_answer_has_no_errors() {
        let c = json!({"name": "Ada", "email": "ada@example.org", "site": "https://x.org/a", "born": "1815-12-10",
            "at": "2026-07-28T10:00:00.5+02:00", "age": 36, "score": 2.5, "ok": false, "color": "green", "size": "l", "tags": ["a", "c"]});
        assert_eq!(validate(&schema(), c.as_object().unwrap()), vec![]);
    }

    #[test]
    fn each_violation_is_named() {
        let c = json!({"name": "A", "site": "not a uri", "born": "2023-02-29", "at": "2026-07-28 10:00",
            "age": 200, "score": "x", "ok": "yes", "color": "blue", "size": "m", "tags": ["a", "b", "z"], "extra": 1});
        let errors = validate(&schema(), c.as_object().unwrap());
        let has = |f: &str, m: &str| errors.iter().any(|e| e.field == f && e.message.contains(m));
        assert!(has("email", "is required"));
        assert!(has("name", "at least 2"));
        assert!(has("site", "valid uri"));
        assert!(has("born", "valid date"));
        assert!(has("at", "valid date-time"));
        assert!(has("age", "at most 150"));
        assert!(has("score", "must be a number"));
        assert!(has("ok", "must be a boolean"));
        assert!(has("color", "one of \"red\", \"green\""));
        assert!(has("size", "one of \"s\", \"l\""));
        assert!(has("tags", "\"z\" is not one of"));
        assert!(has("tags", "at most 2"));
        assert!(has("extra", "not a field"));
        assert_eq!(errors.len(), 13, "{errors:?}");
    }

    #[test]
    fn formats() {
        assert!(format_ok("email", "a.b@c.io"));
        assert!(!format_ok("email", "a@b"));
        assert!(!format_ok("email", "a b@c.io"));
        assert!(format_ok("uri", "mailto:x@y.z"));
        assert!(!format_ok("uri", "/relative"));
        assert!(format_ok("date", "2024-02-29"));
        assert!(!format_ok("date", "2024-13-01"));
        assert!(format_ok("date-time", "2024-02-29T23:59:60Z"));
        assert!(!format_ok("date-time", "2024-02-29T24:00:00Z"));
        assert!(!format_ok("date-time", "2024-02-29T10:00:00"));
        assert!(format_ok("integer-ish-unknown-format", "anything"));
    }

    #[test]
    fn a_wrong_type_names_the_type_with_its_article() {
        let c = json!({"age": "eleven", "score": "high"});
        let errors = validate(&schema(), c.as_object().unwrap());
        let message = |f: &str| {
            errors
                .iter()
                .find(|e| e.field == f)
                .map(|e| e.message.clone())
        };
        assert_eq!(
            message("age").as_deref(),
            Some("must be an integer, got \"eleven\"")
        );
        assert_eq!(
            message("score").as_deref(),
            Some("must be a number, got \"high\"")
        );
    }
}

mod forms {
    use super::super::*;
    use crate::json::json;

    fn every_kind() -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string", "title": "Name", "minLength": 1},
            "email": {"type": "string", "format": "email"},
            "site": {"type": "string", "format": "uri"},
            "born": {"type": "string", "format": "date"},
            "at": {"type": "string", "format": "date-time"},
            "score": {"type": "number", "minimum": 0},
            "age": {"type": "integer", "default": 30},
            "ok": {"type": "boolean"},
            "color": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"]},
            "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 2},
            "pets": {"type": "array", "items": {"anyOf": [{"const": "cat", "title": "Cat"}, {"const": "dog", "title": "Dog"}]}}
        }, "required": ["name", "email"]})
    }

    #[test]
    fn every_field_kind_and_option_shape() {
        let m = form_model(&every_kind()).unwrap();
        let fields = m["fields"].as_array().unwrap();
        let kinds: Vec<&str> = fields.iter().map(|f| f["kind"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            [
                "text",
                "email",
                "uri",
                "date",
                "date-time",
                "number",
                "integer",
                "boolean",
                "single-select",
                "single-select",
                "multi-select",
                "multi-select"
            ]
        );
        assert_eq!(fields[0]["title"], "Name");
        assert_eq!(fields[0]["required"], true);
        assert_eq!(fields[0]["constraints"]["minLength"], 1);
        assert_eq!(fields[6]["default"], 30);
        assert_eq!(
            fields[8]["options"],
            json!([{"value": "r", "label": "Red"}, {"value": "g", "label": "Green"}])
        );
        assert_eq!(
            fields[9]["options"][1],
            json!({"value": "l", "label": "Large"})
        );
        assert_eq!(
            fields[10]["options"][0],
            json!({"value": "a", "label": "a"})
        );
        assert_eq!(
            fields[11]["options"][1],
            json!({"value": "dog", "label": "Dog"})
        );
    }

    #[test]
    fn unsupported_constructs_are_named() {
        assert!(
            form_model(&json!({"type": "object", "properties": {"o": {"type": "object"}}}))
                .unwrap_err()
                .contains("field \"o\"")
        );
        assert!(form_model(
            &json!({"type": "object", "properties": {"p": {"type": "string", "format": "ipv4"}}})
        )
        .unwrap_err()
        .contains("ipv4"));
        assert!(form_model(&json!({"type": "array"})).is_err());
    }

    #[test]
    fn form_strings_are_coerced() {
        let content = json!({"name": "Ada", "score": "2.5", "age": "36", "ok": "on", "tags": "a", "site": "", "email": "a@b.co"});
        let c = coerce_form(&every_kind(), content.as_object().unwrap());
        assert_eq!(
            Value::Object(c.clone()),
            json!({"name": "Ada", "score": 2.5, "age": 36, "ok": true, "tags": ["a"], "email": "a@b.co"})
        );
        assert!(validate(&every_kind(), &c).is_empty());
        let bad = coerce_form(
            &every_kind(),
            json!({"name": "", "email": "x", "age": "3.5"})
                .as_object()
                .unwrap(),
        );
        let errors = validate(&every_kind(), &bad);
        assert!(errors.iter().any(|e| e.field == "email"));
        assert!(errors.iter().any(|e| e.field == "age"));
    }
}
