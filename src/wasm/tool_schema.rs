//! `ToolArgumentsSchema`: a tool's `inputSchema` compiled by the core, and the check of each
//! call's `arguments` against it (the one validator of both eras; TaskHost uses it).

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::input::{bad, js_to_json, to_js, why_not_read};
use crate::validate::schema::{
    ArgumentsCheck, SchemaIssue, ToolSchema, ToolSchemaLimits, DEFAULT_MAX_CHECK_STEPS,
    DEFAULT_MAX_SCHEMA_NODES,
};
use crate::validate::DEFAULT_MAX_BYTES;

/// A compiled tool `inputSchema` (JSON Schema, `"type": "object"` at its root).
#[wasm_bindgen]
pub struct ToolArgumentsSchema {
    inner: ToolSchema,
}

#[wasm_bindgen]
impl ToolArgumentsSchema {
    /// Compiles the `inputSchema` of tool `tool`. Throws a `TypeError` naming the tool and a
    /// JSON Pointer into the schema when it cannot be compiled (not an object schema, a `$ref`
    /// to nothing, a malformed keyword, more than `maxNodes` subschemas: default 10,000).
    /// `maxSteps` bounds each check (default 1,000,000 subschemas applied to values).
    #[wasm_bindgen(constructor)]
    pub fn new(
        tool: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown")] schema: JsValue,
        max_nodes: Option<u32>,
        max_steps: Option<u32>,
    ) -> Result<ToolArgumentsSchema, JsValue> {
        let value = json_of(&schema).map_err(|r| {
            bad(format!(
                "tool {tool}: inputSchema is not JSON ({})",
                why_not_read(&r)
            ))
        })?;
        let limits = ToolSchemaLimits {
            max_nodes: max_nodes.map_or(DEFAULT_MAX_SCHEMA_NODES, |n| n as usize),
            max_steps: max_steps.map_or(DEFAULT_MAX_CHECK_STEPS, u64::from),
        };
        ToolSchema::compile(&value, limits)
            .map(|inner| ToolArgumentsSchema { inner })
            .map_err(|issues| {
                let list: Vec<String> = issues
                    .iter()
                    .map(|i| {
                        let at = if i.pointer.is_empty() {
                            "#"
                        } else {
                            &i.pointer
                        };
                        format!("at {at}: {}", i.message)
                    })
                    .collect();
                bad(format!(
                    "tool {tool}: inputSchema cannot be used: {}",
                    list.join("; ")
                ))
            })
    }

    /// Whether the schema accepts every JSON object (`{ "type": "object" }`, properties without
    /// constraints): a caller may then skip `check` for an object it knows is plain JSON.
    #[wasm_bindgen(js_name = acceptsAnyObject)]
    pub fn accepts_any_object(&self) -> bool {
        self.inner.accepts_any_object()
    }

    /// Checks a call's `arguments` (a JS value): `valid`, or the issues with JSON Pointers into
    /// the arguments (at most 20; `omitted` counts the rest).
    pub fn check(
        &self,
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
    ) -> Result<Ts<ArgumentsCheck>, JsValue> {
        let check = match json_of(&args) {
            Ok(value) => self.inner.check(&value),
            Err(r) => ArgumentsCheck {
                valid: false,
                issues: vec![SchemaIssue {
                    pointer: String::new(),
                    message: why_not_read(&r),
                }],
                omitted: 0,
            },
        };
        to_js(&check).map(Ts::new_unchecked).map_err(JsValue::from)
    }
}

/// A JS value as JSON (a string is a string value here, not JSON text to parse).
fn json_of(v: &JsValue) -> Result<serde_json::Value, crate::validate::ValidationReport> {
    match v.as_string() {
        Some(s) => Ok(serde_json::Value::String(s)),
        None => js_to_json(v, DEFAULT_MAX_BYTES),
    }
}
