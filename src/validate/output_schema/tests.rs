//! The output-schema validator against schemas and results of real tools.

mod results {
    use super::super::*;

    fn sum_schema_2020() -> Value {
        json!({
            "type": "object",
            "properties": {
                "sum": { "type": "integer" },
                "terms": { "type": "array", "items": { "type": "number" } }
            },
            "required": ["sum"]
        })
    }

    /// What the TypeScript SDK emits (zod-to-json-schema).
    fn weather_schema_draft7() -> Value {
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "temperature": { "type": "number" },
                "conditions": { "type": "string", "enum": ["sunny", "cloudy", "rainy"] }
            },
            "required": ["temperature", "conditions"],
            "additionalProperties": false
        })
    }

    fn ok_result(structured: Value) -> Value {
        json!({
            "content": [{ "type": "text", "text": structured.to_string() }],
            "structuredContent": structured
        })
    }

    #[test]
    fn valid_2020_12_result_passes() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        assert_eq!(v.validate(&json!({"sum": 3, "terms": [1, 2]})), Ok(()));
        assert!(check_result("add", &v, &ok_result(json!({"sum": 3}))).is_ok());
    }

    #[test]
    fn type_mismatch_names_the_pointer() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        let errors = v.validate(&json!({"sum": "x"})).unwrap_err();
        assert_eq!(
            errors,
            vec![r#"/sum: "x" is not of type "integer""#.to_string()]
        );

        let errors = v
            .validate(&json!({"sum": 1, "terms": [1, "two"]}))
            .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("/terms/1: "), "{errors:?}");

        let e = check_result("add", &v, &ok_result(json!({"sum": "x"}))).unwrap_err();
        assert_eq!(e.code, INVALID_PARAMS);
        assert!(e.is_local());
        assert_eq!(e.kind(), Some(crate::protocol::error::ErrorKind::Protocol));
        assert!(e.message.contains("add"), "{}", e.message);
        assert!(e.message.contains("/sum"), "{}", e.message);
        let data = e.into_parts().data.unwrap();
        assert_eq!(data["tool"], "add");
        assert_eq!(data["errors"][0], r#"/sum: "x" is not of type "integer""#);
    }

    #[test]
    fn missing_required_property_is_reported() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        let errors = v.validate(&json!({"terms": []})).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("(root): "), "{errors:?}");
        assert!(
            errors[0].contains(r#""sum" is a required property"#),
            "{errors:?}"
        );
    }

    #[test]
    fn draft_07_schema_from_typescript_sdk() {
        let v = OutputValidator::compile(&weather_schema_draft7()).unwrap();
        let good = json!({"temperature": 21.5, "conditions": "sunny"});
        assert_eq!(v.validate(&good), Ok(()));
        assert!(check_result("weather", &v, &ok_result(good)).is_ok());

        let extra = json!({"temperature": 21.5, "conditions": "sunny", "wind": 3});
        let errors = v.validate(&extra).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("wind"), "{errors:?}");

        let errors = v
            .validate(&json!({"temperature": "warm", "conditions": "foggy"}))
            .unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors.iter().any(|e| e.starts_with("/temperature: ")));
        assert!(errors.iter().any(|e| e.starts_with("/conditions: ")));
    }

    #[test]
    fn dialect_follows_dollar_schema() {
        // `prefixItems` is a 2020-12 keyword: enforced by default, ignored under draft-07.
        let tuple = json!({"type": "array", "prefixItems": [{"type": "string"}]});
        let v = OutputValidator::compile(&tuple).unwrap();
        assert!(v.validate(&json!([1])).is_err());

        let mut draft7 = tuple.clone();
        draft7["$schema"] = json!("http://json-schema.org/draft-07/schema#");
        let v = OutputValidator::compile(&draft7).unwrap();
        assert_eq!(v.validate(&json!([1])), Ok(()));
    }

    #[test]
    fn local_refs_resolve() {
        let schema = json!({
            "$defs": { "point": { "type": "object", "required": ["x"] } },
            "type": "object",
            "properties": { "at": { "$ref": "#/$defs/point" } }
        });
        let v = OutputValidator::compile(&schema).unwrap();
        assert_eq!(v.validate(&json!({"at": {"x": 1}})), Ok(()));
        let errors = v.validate(&json!({"at": {}})).unwrap_err();
        assert!(errors[0].starts_with("/at: "), "{errors:?}");
    }

    #[test]
    fn error_results_are_not_checked() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        let result = json!({
            "content": [{ "type": "text", "text": "division by zero" }],
            "isError": true
        });
        assert!(check_result("add", &v, &result).is_ok());
        let wrong = json!({"isError": true, "structuredContent": {"sum": "x"}});
        assert!(check_result("add", &v, &wrong).is_ok());
    }

    #[test]
    fn missing_structured_content_is_an_error() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        let result = json!({"content": [{ "type": "text", "text": "3" }]});
        let e = check_result("add", &v, &result).unwrap_err();
        assert_eq!(e.code, INVALID_PARAMS);
        assert_eq!(e.kind(), Some(crate::protocol::error::ErrorKind::Protocol));
        assert!(e.message.contains("add"), "{}", e.message);
        assert!(e.message.contains("structured content"), "{}", e.message);
        assert_eq!(
            e.into_parts().data.unwrap()["errors"][0],
            "structuredContent is missing"
        );
        // `isError: false` is checked like an absent flag.
        let result = json!({"content": [], "isError": false});
        assert!(check_result("add", &v, &result).is_err());
    }

    #[test]
    fn invalid_schemas_are_rejected() {
        let err = OutputValidator::compile(&json!({"type": "integr"})).unwrap_err();
        assert!(err.starts_with("invalid outputSchema"), "{err}");
        assert!(err.contains("integr"), "{err}");

        let err =
            OutputValidator::compile(&json!({"type": "object", "required": "sum"})).unwrap_err();
        assert!(err.starts_with("invalid outputSchema"), "{err}");

        let err = OutputValidator::compile(&json!("object")).unwrap_err();
        assert!(err.contains("must be a JSON object"), "{err}");
    }

    #[test]
    fn remote_refs_fail_without_fetching() {
        let schema = json!({
            "type": "object",
            "properties": { "x": { "$ref": "https://example.invalid/schemas/x.json" } }
        });
        let err = OutputValidator::compile(&schema).unwrap_err();
        assert!(
            err.contains("https://example.invalid/schemas/x.json"),
            "{err}"
        );
        assert!(err.contains("not resolved"), "{err}");

        let unknown_dialect = json!({"$schema": "https://example.invalid/meta", "type": "object"});
        let err = OutputValidator::compile(&unknown_dialect).unwrap_err();
        assert!(err.starts_with("invalid outputSchema"), "{err}");
    }

    #[test]
    fn many_errors_are_capped() {
        let schema = json!({"type": "array", "items": {"type": "string"}});
        let v = OutputValidator::compile(&schema).unwrap();
        let errors = v
            .validate(&json!((0..50).collect::<Vec<i32>>()))
            .unwrap_err();
        assert_eq!(errors.len(), MAX_ERRORS + 1);
        assert_eq!(errors.last().unwrap(), "(more errors omitted)");
    }
}

mod own_tests {
    use super::super::*;

    fn regex_stub(pattern: &str, text: &str) -> Option<bool> {
        // Enough for the tests: a literal prefix anchor `^abc`, or `(` marks an invalid pattern.
        if pattern.contains('(') {
            return None;
        }
        Some(match pattern.strip_prefix('^') {
            Some(p) => text.starts_with(p),
            None => text.contains(pattern),
        })
    }

    #[test]
    fn combinators_conditionals_and_bounds() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
                "kind": {"oneOf": [{"const": "a"}, {"const": "b"}]},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 2},
                "any": {"anyOf": [{"type": "null"}, {"type": "integer"}]},
                "no": {"not": {"type": "string"}}
            },
            "if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["n"]},
            "additionalProperties": {"type": "boolean"}
        });
        let v = OutputValidator::compile(&schema).unwrap();
        assert_eq!(
            v.validate(
                &json!({"n": 1.5, "kind": "a", "tags": ["x"], "any": null, "no": 1, "flag": true})
            ),
            Ok(())
        );
        let errors = v.validate(&json!({"n": 0.3, "kind": "c", "tags": ["x", "x", "y"], "any": 1.5, "no": "s", "flag": 3})).unwrap_err();
        let has = |p: &str| errors.iter().any(|e| e.starts_with(p));
        for p in ["/n:", "/kind:", "/tags:", "/any:", "/no:", "/flag:"] {
            assert!(has(p), "{p} in {errors:?}");
        }
        let errors = v.validate(&json!({"kind": "a"})).unwrap_err();
        assert!(
            errors[0].contains("\"n\" is a required property"),
            "{errors:?}"
        );
    }

    #[test]
    fn integers_and_numbers_compare_by_value() {
        let v = OutputValidator::compile(&json!({"type": "integer", "enum": [1, 2]})).unwrap();
        assert_eq!(v.validate(&json!(1.0)), Ok(()));
        assert!(v.validate(&json!(1.5)).is_err());
    }

    #[test]
    fn draft_04_exclusive_bounds_and_tuples() {
        let v = OutputValidator::compile(&json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "array",
            "items": [{"type": "number", "maximum": 5, "exclusiveMaximum": true}], "additionalItems": false})).unwrap();
        assert_eq!(v.validate(&json!([4])), Ok(()));
        assert!(v.validate(&json!([5])).is_err());
        assert!(v.validate(&json!([1, 2])).is_err());
    }

    #[test]
    fn patterns_need_a_matcher_and_a_valid_expression() {
        let schema = json!({"type": "string", "pattern": "^ab"});
        assert!(OutputValidator::compile(&schema)
            .unwrap_err()
            .contains("no regular-expression engine"));
        let v = OutputValidator::compile_with(&schema, Some(regex_stub)).unwrap();
        assert_eq!(v.validate(&json!("abc")), Ok(()));
        assert_eq!(
            v.validate(&json!("xab")).unwrap_err()[0],
            r#"(root): "xab" does not match "^ab""#
        );
        assert!(
            OutputValidator::compile_with(&json!({"pattern": "(("}), Some(regex_stub))
                .unwrap_err()
                .contains("not a valid regular expression")
        );
    }

    #[test]
    fn unsupported_keywords_and_cycles() {
        assert!(
            OutputValidator::compile(&json!({"unevaluatedProperties": false}))
                .unwrap_err()
                .contains("not supported")
        );
        let cyclic = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
        let v = OutputValidator::compile(&cyclic).unwrap();
        assert!(v.validate(&json!(1)).unwrap_err()[0].contains("too deep"));
        let recursive = json!({"type": "object", "properties": {"child": {"$ref": "#"}}});
        let v = OutputValidator::compile(&recursive).unwrap();
        assert_eq!(v.validate(&json!({"child": {"child": {}}})), Ok(()));
        assert!(v.validate(&json!({"child": {"child": 3}})).unwrap_err()[0]
            .starts_with("/child/child:"));
    }
}

mod budget_tests {
    use super::super::*;

    #[test]
    fn exponential_schemas_stop_at_the_step_budget() {
        let schema = json!({"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"});
        let v = OutputValidator::compile(&schema).unwrap();
        let errors = v.validate(&json!({"x": 1})).unwrap_err();
        assert!(errors[0].contains(TOO_COMPLEX), "{errors:?}");
        let warning = check_result("t", &v, &json!({"structuredContent": {"x": 1}})).unwrap();
        assert!(warning.unwrap().contains("not checked"));
        // The budget is per call: a simple schema on the same validator type still works.
        let ok = OutputValidator::compile(&json!({"type": "integer"})).unwrap();
        assert_eq!(ok.validate(&json!(1)), Ok(()));
    }
}
