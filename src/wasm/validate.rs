//! `validateMessage` and the rules table.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use crate::model::ProtocolVersion;
use crate::validate::{self, Context, ValidateOptions, ValidationReport, DEFAULT_MAX_BYTES};

pub(crate) use super::input::to_js;
use super::input::{js_to_json, Members};
use crate::convert::ConversionReport;

/// Reads the options object; bad options are a thrown `TypeError`, never a panic.
pub(crate) fn read_options(
    options: Option<Ts<ValidateOptions>>,
) -> Result<ValidateOptions, JsValue> {
    let Some(o) = Members::of(options.map_or(JsValue::UNDEFINED, JsValue::from), "options")? else {
        return Ok(ValidateOptions::default());
    };
    Ok(ValidateOptions {
        version: o.version("version")?,
        in_reply_to: o.strict_string("inReplyTo")?,
        max_bytes: o.u32("maxBytes")?,
        max_issues: o.u32("maxIssues")?,
        headers: o.strings("headers")?,
    })
}

/// Validates one JS value or JSON string against the core with the given context.
pub(crate) fn validate_js(
    message: &JsValue,
    options: &ValidateOptions,
    ctx: &Context,
) -> (ValidationReport, Option<serde_json::Value>) {
    let max = options
        .max_bytes
        .map(|m| m as usize)
        .unwrap_or(DEFAULT_MAX_BYTES);
    match js_to_json(message, max) {
        Ok(value) => (validate::validate_value(&value, ctx), Some(value)),
        Err(report) => (report, None),
    }
}

/// Validates one MCP message of protocol 2025-11-25 or 2026-07-28: a JS value or a JSON
/// string. Never throws on a bad message: the report says what is wrong. Throws a `TypeError` only
/// when `options` itself is malformed.
#[wasm_bindgen(js_name = validateMessage, unchecked_return_type = "ValidationReport")]
pub fn validate_message(
    #[wasm_bindgen(unchecked_param_type = "unknown")] message: JsValue,
    options: Option<Ts<ValidateOptions>>,
) -> Result<JsValue, JsValue> {
    let options = read_options(options)?;
    let (report, _) = validate_js(&message, &options, &Context::from(&options));
    super::input::parse_json_text(&report.to_json())
        .map_err(|_| JsError::new("internal: JSON.parse refused the report").into())
}

/// The rules table: every issue code with the TASKS-SPEC rules it enforces.
#[wasm_bindgen(
    unchecked_return_type = "Array<{ code: string; severity: Severity; spec: string; summary: string }>"
)]
pub fn rules() -> Result<JsValue, JsError> {
    to_js(&validate::RULES)
}

/// Converts a task (a V25 `Task` or a V26 `Task`/`DetailedTask`) to the other version:
/// `ttl` ⇄ `ttlMs`, `pollInterval` ⇄ `pollIntervalMs`; every dropped or reinterpreted member is
/// reported in `issues`.
#[wasm_bindgen(js_name = convertTask, unchecked_return_type = "ConversionReport")]
pub fn convert_task(
    #[wasm_bindgen(unchecked_param_type = "unknown")] task: JsValue,
    to: Ts<ProtocolVersion>,
) -> Result<JsValue, JsValue> {
    let to = read_version(to)?;
    match js_to_json(&task, DEFAULT_MAX_BYTES) {
        Ok(value) => to_js(&crate::convert::convert_task(&value, None, to)),
        Err(report) => to_js(&not_converted(report, to)),
    }
    .map_err(JsValue::from)
}

/// Converts a `CreateTaskResult` between the V25 nested and the V26 flat shape.
#[wasm_bindgen(js_name = convertCreateTaskResult, unchecked_return_type = "ConversionReport")]
pub fn convert_create_task_result(
    #[wasm_bindgen(unchecked_param_type = "unknown")] result: JsValue,
    to: Ts<ProtocolVersion>,
) -> Result<JsValue, JsValue> {
    let to = read_version(to)?;
    match js_to_json(&result, DEFAULT_MAX_BYTES) {
        Ok(value) => to_js(&crate::convert::convert_create_task_result(&value, to)),
        Err(report) => to_js(&not_converted(report, to)),
    }
    .map_err(JsValue::from)
}

/// The target version: a bad one is a `TypeError`, as every malformed argument.
fn read_version(v: Ts<ProtocolVersion>) -> Result<ProtocolVersion, JsValue> {
    super::input::js_version(&v.into()).ok_or_else(|| {
        super::input::bad(format!(
            "the target version must be {}",
            ProtocolVersion::EXPECTED
        ))
    })
}

fn not_converted(report: ValidationReport, to: ProtocolVersion) -> ConversionReport {
    ConversionReport {
        ok: false,
        from: None,
        to,
        value: None,
        issues: report.issues,
    }
}
