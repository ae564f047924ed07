//! A tool's `inputSchema` compiled by the core and its calls' `arguments` checked against it
//! (the one validator both eras use): the keywords tool schemas use, local `$ref`s, refusals at
//! compile time with a JSON Pointer into the schema, the bounds, and (properties) that no
//! schema and no value panics and a check always ends with a verdict its issues agree with.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use mcp_tasks_wasm::validate::schema::{ToolSchema, ToolSchemaLimits};
use proptest::prelude::*;
use serde_json::{json, Value};

fn compile(schema: Value) -> ToolSchema {
    ToolSchema::compile(&schema, ToolSchemaLimits::default())
        .unwrap_or_else(|e| panic!("{schema} should compile: {e:?}"))
}

fn refused(schema: Value) -> Vec<String> {
    match ToolSchema::compile(&schema, ToolSchemaLimits::default()) {
        Ok(_) => panic!("{schema} should be refused"),
        Err(list) => list
            .into_iter()
            .map(|i| format!("{}: {}", i.pointer, i.message))
            .collect(),
    }
}

fn ok(s: &ToolSchema, v: Value) {
    let c = s.check(&v);
    assert!(c.valid && c.issues.is_empty(), "{v} should pass: {c:?}");
}

fn bad(s: &ToolSchema, v: Value) -> Vec<String> {
    let c = s.check(&v);
    assert!(!c.valid && !c.issues.is_empty(), "{v} should fail");
    c.issues
        .into_iter()
        .map(|i| format!("{}: {}", i.pointer, i.message))
        .collect()
}

fn has(lines: &[String], needle: &str) {
    assert!(
        lines.iter().any(|l| l.contains(needle)),
        "expected an issue containing {needle:?}, got {lines:#?}"
    );
}

#[test]
fn slow_compute_seconds_must_be_a_number() {
    let s = compile(json!({"type": "object", "properties": {"seconds": {"type": "number"}}}));
    ok(&s, json!({"seconds": 7}));
    ok(&s, json!({}));
    ok(&s, json!({"seconds": 0.5, "other": true}));
    let l = bad(&s, json!({"seconds": "seven"}));
    assert_eq!(l, vec!["/seconds: expected number, found string"]);
    has(&bad(&s, json!([])), ": expected object, found array");
}

#[test]
fn accepts_any_object() {
    for any in [
        json!({"type": "object"}),
        json!({"type": "object", "properties": {}}),
        json!({"type": "object", "properties": {"a": true, "b": {"description": "x"}}, "title": "t"}),
    ] {
        assert!(compile(any.clone()).accepts_any_object(), "{any}");
    }
    for some in [
        json!({"type": "object", "properties": {"a": {"type": "string"}}}),
        json!({"type": "object", "required": ["a"]}),
        json!({"type": "object", "additionalProperties": false}),
        json!({"type": "object", "maxProperties": 3}),
        json!({"type": "object", "anyOf": [{"required": ["a"]}]}),
        json!({"type": "object", "not": {}}),
        json!({"type": "object", "$ref": "#/$defs/a", "$defs": {"a": {"required": ["a"]}}}),
    ] {
        assert!(!compile(some.clone()).accepts_any_object(), "{some}");
    }
}

#[test]
fn keywords_tool_schemas_use() {
    let s = compile(json!({
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 2},
            "x": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "s": {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^a", "format": "email"},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3, "uniqueItems": true},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
            "mode": {"enum": ["a", "b"]},
            "k": {"const": 3},
            "o": {"type": "object", "minProperties": 1, "maxProperties": 2},
            "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "one": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 5}]},
            "all": {"allOf": [{"minimum": 0}, {"maximum": 5}]},
            "no": {"not": {"type": "null"}},
            "t": true,
            "f": false
        },
        "required": ["n"],
        "additionalProperties": false,
        "x-vendor": "ignored"
    }));
    ok(
        &s,
        json!({"n": 4, "x": 0.5, "s": "añ😀", "tags": ["a", "b"], "pair": ["a", 1], "mode": "a",
            "k": 3.0, "o": {"a": 1}, "either": 3, "one": 2, "all": 5, "no": 0, "t": null}),
    );
    // pattern and format are annotations: "zz" does not start with "a", "no" is no email.
    ok(&s, json!({"n": 2, "s": "zz"}));
    has(&bad(&s, json!({})), "/n: missing required member \"n\"");
    has(
        &bad(&s, json!({"n": 12})),
        "/n: expected a number <= 10, found 12",
    );
    has(
        &bad(&s, json!({"n": 0})),
        "/n: expected a number >= 1, found 0",
    );
    has(
        &bad(&s, json!({"n": 3})),
        "/n: expected a multiple of 2, found 3",
    );
    has(
        &bad(&s, json!({"n": 2.5})),
        "/n: expected integer, found number",
    );
    has(
        &bad(&s, json!({"n": 2, "x": 1})),
        "/x: expected a number < 1, found 1",
    );
    has(
        &bad(&s, json!({"n": 2, "x": 0})),
        "/x: expected a number > 0, found 0",
    );
    has(
        &bad(&s, json!({"n": 2, "s": "a"})),
        "/s: expected at least 2 characters, found 1",
    );
    // Code points, not UTF-16 units or bytes: four emoji are four characters.
    has(
        &bad(&s, json!({"n": 2, "s": "😀😀😀😀"})),
        "/s: expected at most 3 characters, found 4",
    );
    has(
        &bad(&s, json!({"n": 2, "tags": []})),
        "/tags: expected at least 1 items, found 0",
    );
    has(
        &bad(&s, json!({"n": 2, "tags": ["a", "b", "a"]})),
        "/tags: expected unique items, but items 0 and 2 are equal",
    );
    has(
        &bad(&s, json!({"n": 2, "tags": ["a", 1]})),
        "/tags/1: expected string, found integer",
    );
    has(
        &bad(&s, json!({"n": 2, "pair": [1, 1]})),
        "/pair/0: expected string, found integer",
    );
    has(
        &bad(&s, json!({"n": 2, "pair": ["a", 1, 2]})),
        "/pair/2: no value is allowed here",
    );
    has(
        &bad(&s, json!({"n": 2, "mode": "c"})),
        "/mode: expected one of \"a\" or \"b\", found \"c\"",
    );
    has(&bad(&s, json!({"n": 2, "k": 4})), "/k: expected 3, found 4");
    has(
        &bad(&s, json!({"n": 2, "o": {}})),
        "/o: expected at least 1 members, found 0",
    );
    has(
        &bad(&s, json!({"n": 2, "o": {"a": 1, "b": 2, "c": 3}})),
        "/o: expected at most 2 members, found 3",
    );
    has(
        &bad(&s, json!({"n": 2, "either": true})),
        "/either: expected integer or string, found boolean",
    );
    has(
        &bad(&s, json!({"n": 2, "one": 6})),
        "/one: must match exactly one alternative",
    );
    has(
        &bad(&s, json!({"n": 2, "all": 6})),
        "/all: expected a number <= 5, found 6",
    );
    has(&bad(&s, json!({"n": 2, "no": null})), "/no: must not match");
    has(
        &bad(&s, json!({"n": 2, "f": 1})),
        "/f: no value is allowed here",
    );
    has(
        &bad(&s, json!({"n": 2, "extra": 1})),
        "/extra: unexpected member \"extra\"",
    );
    // 0.3 is a multiple of 0.1 (binary floats round).
    let m = compile(json!({"type": "object", "properties": {"p": {"multipleOf": 0.1}}}));
    ok(&m, json!({"p": 0.3}));
    bad(&m, json!({"p": 0.35}));
}

#[test]
fn draft07_forms() {
    let s = compile(json!({
        "type": "object",
        "properties": {
            "t": {"type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "integer"}},
            "e": {"type": "number", "exclusiveMinimum": true, "minimum": 0}
        }
    }));
    ok(&s, json!({"t": ["a", 1, 2], "e": 0}));
    has(
        &bad(&s, json!({"t": ["a", "b"]})),
        "/t/1: expected integer, found string",
    );
}

#[test]
fn local_refs() {
    let s = compile(json!({
        "type": "object",
        "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
        "definitions": {"Name": {"type": "string", "minLength": 1}},
        "properties": {
            "from": {"$ref": "#/$defs/Point"},
            "to": {"$ref": "#/$defs/Point"},
            "name": {"$ref": "#/definitions/Name"},
            "child": {"$ref": "#"},
            "x": {"$ref": "#/properties/name"}
        }
    }));
    ok(
        &s,
        json!({"from": {"x": 1}, "child": {"child": {"name": "n"}}, "x": "y"}),
    );
    has(
        &bad(&s, json!({"from": {}})),
        "/from/x: missing required member \"x\"",
    );
    has(
        &bad(&s, json!({"to": {"x": "1"}})),
        "/to/x: expected number, found string",
    );
    has(
        &bad(&s, json!({"child": {"child": {"name": ""}}})),
        "/child/child/name: expected at least 1 characters",
    );
    has(
        &bad(&s, json!({"x": ""})),
        "/x: expected at least 1 characters",
    );
    // A discriminated union over refs names the branches by their definitions.
    let u = compile(json!({
        "type": "object",
        "$defs": {
            "Circle": {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
            "Square": {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
        },
        "properties": {"shape": {"oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}]}}
    }));
    ok(&u, json!({"shape": {"kind": "square", "side": 2}}));
    let l = bad(&u, json!({"shape": {"kind": "circle", "r": "2"}}));
    has(
        &l,
        "/shape: matches none of Circle, Square (by \"kind\": Circle)",
    );
    has(&l, "/shape/r: expected number, found string");
}

#[test]
fn refused_at_compile_with_a_pointer() {
    has(
        &refused(json!("object")),
        ": an inputSchema must be a JSON Schema object",
    );
    has(
        &refused(json!(null)),
        "an inputSchema must be a JSON Schema object",
    );
    has(
        &refused(json!({"properties": {}})),
        "/type: an inputSchema must say \"type\": \"object\"",
    );
    has(&refused(json!({"type": "string"})), "/type:");
    has(
        &refused(json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Nope"}}})),
        "/properties/a/$ref: $ref \"#/$defs/Nope\" points at nothing in the schema",
    );
    has(
        &refused(
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}}),
        ),
        "/properties/a/$ref: only local references",
    );
    has(
        &refused(json!({"type": "object", "properties": {"a": {"type": "strng"}}})),
        "/properties/a/type: \"type\" must be one of",
    );
    has(
        &refused(json!({"type": "object", "properties": {"a": 3}})),
        "/properties/a: a schema must be an object or a boolean",
    );
    has(
        &refused(json!({"type": "object", "required": "a"})),
        "/required: \"required\" must be an array of strings",
    );
    has(
        &refused(json!({"type": "object", "properties": []})),
        "/properties: \"properties\" must be an object",
    );
    has(
        &refused(json!({"type": "object", "properties": {"a": {"minLength": -1}}})),
        "/properties/a/minLength",
    );
    has(
        &refused(json!({"type": "object", "properties": {"a": {"multipleOf": 0}}})),
        "/properties/a/multipleOf",
    );
    has(
        &refused(json!({"type": "object", "properties": {"a": {"maximum": "9"}}})),
        "/properties/a/maximum",
    );
    has(
        &refused(json!({"type": "object", "anyOf": {}})),
        "/anyOf: \"anyOf\" must be an array",
    );
    has(
        &refused(json!({"type": "object", "properties": {"a/b": {"enum": 1}}})),
        "/properties/a~1b/enum",
    );
}

#[test]
fn schema_size_is_bounded() {
    let mut props = serde_json::Map::new();
    for i in 0..50 {
        props.insert(format!("p{i}"), json!({"type": "string"}));
    }
    let schema = json!({"type": "object", "properties": props});
    let small = ToolSchemaLimits {
        max_nodes: 20,
        ..ToolSchemaLimits::default()
    };
    let e = ToolSchema::compile(&schema, small).unwrap_err();
    assert!(e[0].message.contains("more than 20 subschemas"), "{e:?}");
    assert!(ToolSchema::compile(&schema, ToolSchemaLimits::default()).is_ok());
}

#[test]
fn exponential_schemas_run_out_of_steps_not_time() {
    // Each level tries both branches over the whole rest of the value: 2^depth without a bound.
    let s = ToolSchema::compile(
        &json!({"type": "object", "$defs": {"n": {"anyOf": [
            {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}, "allOf": [false]},
            {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}}
        ]}}, "properties": {"c": {"$ref": "#/$defs/n"}}}),
        ToolSchemaLimits {
            max_steps: 10_000,
            ..ToolSchemaLimits::default()
        },
    )
    .unwrap();
    let mut v = json!({});
    for _ in 0..100 {
        v = json!({"c": v});
    }
    let c = s.check(&v);
    assert!(!c.valid);
    assert_eq!(c.issues.len(), 1);
    assert!(
        c.issues[0].message.contains("too complex to check"),
        "{c:?}"
    );
    // A self-reference that never descends into the value ends too.
    let r = compile(
        json!({"type": "object", "$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "properties": {"x": {"$ref": "#/$defs/a"}}}),
    );
    assert!(!r.check(&json!({"x": 1})).valid);
    // Many equal-looking items under uniqueItems spend the budget too.
    let u = ToolSchema::compile(
        &json!({"type": "object", "properties": {"l": {"uniqueItems": true}}}),
        ToolSchemaLimits {
            max_steps: 1_000,
            ..ToolSchemaLimits::default()
        },
    )
    .unwrap();
    let items: Vec<Value> = (0..1000).map(|i| json!(i)).collect();
    assert!(!u.check(&json!({"l": items})).valid);
}

#[test]
fn issues_are_capped() {
    let mut props = serde_json::Map::new();
    let mut args = serde_json::Map::new();
    for i in 0..100 {
        props.insert(format!("p{i}"), json!({"type": "string"}));
        args.insert(format!("p{i}"), json!(i));
    }
    let s = compile(json!({"type": "object", "properties": props}));
    let c = s.check(&Value::Object(args));
    assert_eq!(c.issues.len(), 20);
    assert_eq!(c.omitted, 80);
}

// ---- properties ------------------------------------------------------------------------------

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-5i64..5).prop_map(Value::from),
        (-5.0f64..5.0).prop_map(Value::from),
        "[a-c😀]{0,3}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-c]", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

const KEYWORDS: [&str; 30] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "additionalItems",
    "propertyNames",
];

/// Schema-like values: objects whose keys are mostly keywords, with values of any shape, and
/// refs that may or may not resolve.
fn schema_like() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::from),
        prop::sample::select(vec![
            "object", "string", "integer", "number", "array", "null", "nope"
        ])
        .prop_map(Value::from),
        prop::sample::select(vec![
            "#",
            "#/$defs/a",
            "#/$defs/b",
            "#/properties/a",
            "x.json"
        ])
        .prop_map(Value::from),
        (-3i64..5).prop_map(Value::from),
        Just(json!(0.5)),
    ];
    leaf.prop_recursive(5, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    prop::sample::select(KEYWORDS.to_vec()).prop_map(str::to_string),
                    "[a-b]".prop_map(String::from)
                ],
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_schemas_and_arguments_never_panic(schema in schema_like(), args in json_value()) {
        let mut root = match schema {
            Value::Object(m) => m,
            other => { let mut m = serde_json::Map::new(); m.insert("not".into(), other); m }
        };
        root.insert("type".into(), json!("object"));
        let limits = ToolSchemaLimits { max_nodes: 500, max_steps: 20_000 };
        if let Ok(s) = ToolSchema::compile(&Value::Object(root), limits) {
            let c = s.check(&args);
            prop_assert_eq!(c.valid, c.issues.is_empty());
            prop_assert!(c.issues.len() <= 20);
            for i in &c.issues {
                prop_assert!(i.pointer.is_empty() || i.pointer.starts_with('/'));
            }
            // Deterministic: the same check gives the same answer.
            prop_assert_eq!(s.check(&args), c);
        }
    }

    #[test]
    fn an_object_schema_accepts_what_its_properties_accept(
        args in prop::collection::btree_map("[a-c]", -5i64..5, 0..4)
    ) {
        let s = compile(json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "number"}},
            "additionalProperties": {"type": "integer"}}));
        let v = Value::Object(args.into_iter().map(|(k, n)| (k, Value::from(n))).collect());
        prop_assert!(s.check(&v).valid);
    }
}
