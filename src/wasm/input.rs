//! Turning a JS value (a JSON string or an already-parsed object) into JSON text, without
//! losing what JSON cannot carry.

use js_sys::{JsString, Reflect, RegExp, TypeError, Uint8Array, JSON};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::model::ProtocolVersion;
use crate::validate::{self, input_report, surrogates, Code, ValidationReport};

#[wasm_bindgen]
extern "C" {
    /// The runtime's `TextEncoder` (Node, Deno and browsers all have it).
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, source: &JsString, dest: &Uint8Array) -> EncodeIntoResult;
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> f64;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> f64;
}

#[wasm_bindgen]
extern "C" {
    /// A JS string, for `String.prototype.isWellFormed` (caught: older runtimes lack it).
    type WellFormed;
    #[wasm_bindgen(method, catch, js_name = isWellFormed)]
    fn is_well_formed(this: &WellFormed) -> Result<bool, JsValue>;
}

thread_local! {
    static ENCODER: TextEncoder = TextEncoder::new();
}

/// A lone surrogate of a JS string (a high one not followed by a low one, or a low one not
/// preceded by a high one).
const LONE_SURROGATE: &str =
    r"[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]";

/// Whether a JS string holds no lone surrogate (`isWellFormed`, or the same test by regular
/// expression where the runtime lacks it).
fn well_formed(s: &JsString) -> bool {
    s.unchecked_ref::<WellFormed>()
        .is_well_formed()
        .unwrap_or_else(|_| !RegExp::new(LONE_SURROGATE, "").test(&String::from(s)))
}

/// JSON text whose raw lone surrogates (JS strings may hold them; UTF-8 cannot) are written as
/// `\uDxxx` escapes, which mean the same inside a JSON string and which the core carries
/// ([`surrogates`]). A lone surrogate right after a backslash (an invalid escape either way)
/// becomes U+FFFD, so invalid text stays invalid. Well-formed strings are returned as they are.
fn escape_lone_surrogates(s: &JsString) -> JsString {
    if well_formed(s) {
        return s.clone();
    }
    let pattern = RegExp::new(LONE_SURROGATE, "g");
    let escape =
        wasm_bindgen::closure::Closure::<dyn FnMut(JsString, u32, JsString) -> JsString>::new(
            |m: JsString, offset: u32, whole: JsString| -> JsString {
                let mut slashes = 0u32;
                while offset > slashes
                    && whole.char_code_at(offset - slashes - 1) == f64::from(b'\\')
                {
                    slashes += 1;
                }
                if slashes % 2 == 1 {
                    return JsString::from("\u{FFFD}");
                }
                let unit = m.char_code_at(0) as u32;
                JsString::from(format!("\\u{unit:04x}").as_str())
            },
        );
    s.replace_by_pattern_with_function(&pattern, escape.as_ref().unchecked_ref())
}

/// Strings from this many UTF-16 units on are copied into wasm memory by
/// `TextEncoder.encodeInto`, which is many times faster on long text than the glue's
/// character loop; shorter ones take the glue's path, which has less fixed cost.
const ENCODE_INTO_FROM: u32 = 512;

/// The report of a string whose UTF-8 form is larger than `max_bytes`.
fn too_large(units: u32, max_bytes: usize) -> ValidationReport {
    input_report(
        Code::TooLarge,
        format!(
            "the message has {units} UTF-16 units, more than the limit of {max_bytes} bytes of UTF-8"
        ),
    )
}

/// A JS string as a Rust string, refused (`too-large`) when its UTF-8 form is larger than
/// `max_bytes`, without copying more than `max_bytes` bytes into wasm memory:
///
/// * Every UTF-16 unit takes at least one byte of UTF-8 (a BMP character of one unit takes 1–3
///   bytes, a surrogate pair of two units 4 bytes, a lone surrogate 3), so a string of more
///   units than `max_bytes` is too large before anything is copied.
/// * Otherwise the buffer holds at most `min(3 × units, max_bytes)` bytes and
///   `TextEncoder.encodeInto` stops at its end: a string it could not read whole is too large.
fn js_string(s: &JsString, max_bytes: usize) -> Result<String, ValidationReport> {
    let units = s.length();
    if units as usize > max_bytes {
        return Err(too_large(units, max_bytes));
    }
    let escaped = escape_lone_surrogates(s);
    let s = &escaped;
    let units = s.length();
    if units < ENCODE_INTO_FROM {
        return Ok(String::from(s));
    }
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    let cap = (units as usize).saturating_mul(3).min(max_bytes);
    let mut buf = vec![0u8; cap];
    let Ok(memory) = wasm_bindgen::memory().dyn_into::<js_sys::WebAssembly::Memory>() else {
        return Ok(String::from(s));
    };
    let (at, len) = (buf.as_ptr() as u32, buf.len() as u32);
    let done = ENCODER.with(|e| encode_into(e, &memory, s, at, len));
    if (done.read() as u64) < u64::from(units) {
        return Err(too_large(units, max_bytes));
    }
    buf.truncate(done.written() as usize);
    // encodeInto writes well-formed UTF-8 (lone surrogates become U+FFFD).
    Ok(String::from_utf8(buf)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// `encoder.encodeInto(s, view)` for a view of the `len` bytes at `at` in wasm memory.
///
/// Every JS value Rust receives (the memory's buffer, the view) is registered in the bindings'
/// table of JS values, whose bookkeeping lives in wasm memory: registering one may allocate,
/// grow the memory and so detach the buffer it was made on, and a view of a detached buffer has
/// no bytes (encodeInto would write nothing). So the buffer and the view are checked after they
/// crossed and taken again when detached; from the check to encodeInto nothing allocates.
fn encode_into(
    encoder: &TextEncoder,
    memory: &js_sys::WebAssembly::Memory,
    s: &JsString,
    at: u32,
    len: u32,
) -> EncodeIntoResult {
    let mut view = Uint8Array::new_with_length(0);
    for _ in 0..4 {
        let buffer: js_sys::ArrayBuffer = memory.buffer().unchecked_into();
        if buffer.byte_length() >= at.saturating_add(len) {
            view = Uint8Array::new_with_byte_offset_and_length(&buffer, at, len);
            if view.byte_length() == len {
                break;
            }
        }
    }
    encoder.encode_into(s, &view)
}

/// A JS string argument (a status message, a scheduler key, …) as a Rust string, its lone
/// surrogates and U+FDD0 carried as the core carries them in JSON ([`surrogates`]), so they come
/// back unchanged in answers: `text`, the conversion of the string `s` (`as_string`), when it
/// crossed exactly ([`exactness`]), else `s` read again through `JSON.stringify`.
pub(crate) fn carried(s: &JsValue, text: String) -> String {
    if exactness(s, &text).is_ok() {
        return text;
    }
    JSON::stringify(s)
        .ok()
        .and_then(|json| json.as_string())
        // Parsed as a `Value`, not as a `String`: a typed deserialize would link serde's
        // error formatting of floats (about 14 KB of `f64` Display; BENCHMARKS.md "Size").
        .and_then(
            |json| match crate::base::json::parse(&surrogates::carry(&json).0) {
                Ok(Value::String(text)) => Some(text),
                _ => None,
            },
        )
        .unwrap_or(text)
}

/// Whether `text`, the conversion of the JS string `s`, is the same string: `s` is well-formed
/// UTF-16 (wasm-bindgen's conversion, like `String::from`, turns a lone surrogate into U+FFFD, so
/// `"a\ud800"` and `"a\udfff"` would be one string) and `text` holds no U+FDD0 (the marker of
/// carried surrogates, [`surrogates`]: answers would read a U+FDD0 back as part of one).
/// Otherwise why not, for an argument that must cross exactly (a session). The runtime is asked
/// whether `s` is well-formed only when `text` holds a U+FFFD (which a lone surrogate always
/// becomes): no second crossing for the usual text.
pub(crate) fn exactness(s: &JsValue, text: &str) -> Result<(), &'static str> {
    if text.contains('\u{FFFD}') && !well_formed(s.unchecked_ref()) {
        return Err("must be well-formed text (it holds a lone surrogate)");
    }
    if text.contains(surrogates::MARK) {
        return Err("must not hold U+FDD0 (a noncharacter the package uses internally)");
    }
    Ok(())
}

/// A string as the core carries it ([`surrogates`]: lone surrogates as U+FDD0 + hex, U+FDD0
/// doubled) as the JS string it was: as it is when it holds no U+FDD0, else through its JSON text.
pub(crate) fn carried_to_js(s: &str) -> Result<JsValue, JsValue> {
    if !s.contains(surrogates::MARK) {
        return Ok(JsValue::from_str(s));
    }
    to_js(&Value::String(s.to_owned())).map_err(JsValue::from)
}

/// JSON text from the core as a JS value: `JSON.parse`, after the carried lone surrogates are
/// written back as escapes ([`surrogates::restore`]).
pub(crate) fn parse_json_text(text: &str) -> Result<JsValue, JsValue> {
    JSON::parse(&surrogates::restore(text))
}

/// The message as JSON text: a string is taken as it is; any other value goes through
/// `JSON.stringify` (what would be sent on the wire). Values JSON cannot carry give a report,
/// and so does text larger than `max_bytes` (checked before it is copied into wasm memory).
pub fn message_text(message: &JsValue, max_bytes: usize) -> Result<String, ValidationReport> {
    if let Some(s) = message.dyn_ref::<JsString>() {
        return js_string(s, max_bytes);
    }
    if message.is_undefined() {
        return Err(input_report(Code::NotJsonValue, "the message is undefined"));
    }
    match JSON::stringify(message) {
        Ok(s) => match s.dyn_into::<JsString>() {
            Ok(s) => js_string(&s, max_bytes),
            Err(_) => Err(input_report(
                Code::NotJsonValue,
                "the value has no JSON form (a function or a symbol)",
            )),
        },
        Err(e) => {
            let why = Reflect::get(&e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "JSON.stringify failed".to_string());
            Err(input_report(
                Code::NotJsonValue,
                format!("the value cannot be turned into JSON: {why}"),
            ))
        }
    }
}

/// `JSON.stringify` turns `NaN`, `±Infinity` and `undefined` array elements into `null`.
/// Every `null` of the parsed text is looked up in the original value; one that was not a
/// real `null` there gives a `not-json-value` issue path.
pub fn find_lossy_nulls(original: &JsValue, parsed: &Value) -> Option<String> {
    fn walk(orig: &JsValue, v: &Value, path: &mut String) -> bool {
        match v {
            Value::Null => !orig.is_null(),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if !contains_null(item) {
                        continue;
                    }
                    let child = Reflect::get_u32(orig, i as u32).unwrap_or(JsValue::UNDEFINED);
                    let len = path.len();
                    path.push_str(&format!("/{i}"));
                    if walk(&child, item, path) {
                        return true;
                    }
                    path.truncate(len);
                }
                false
            }
            Value::Object(map) => {
                // Objects with toJSON (Date, …) were transformed: their JSON is authoritative.
                if Reflect::has(orig, &JsValue::from_str("toJSON")).unwrap_or(false) {
                    return false;
                }
                for (k, item) in map {
                    if !contains_null(item) {
                        continue;
                    }
                    // By its JS name: the carried one (U+FDD0 + hex) would miss the member
                    // and call its `null` lossy.
                    let child = carried_to_js(k)
                        .and_then(|key| Reflect::get(orig, &key))
                        .unwrap_or(JsValue::UNDEFINED);
                    let len = path.len();
                    path.push_str(&crate::validate::report::pointer("", k));
                    if walk(&child, item, path) {
                        return true;
                    }
                    path.truncate(len);
                }
                false
            }
            _ => false,
        }
    }
    fn contains_null(v: &Value) -> bool {
        match v {
            Value::Null => true,
            Value::Array(a) => a.iter().any(contains_null),
            Value::Object(m) => m.values().any(contains_null),
            _ => false,
        }
    }
    if !contains_null(parsed) {
        return None;
    }
    let mut path = String::new();
    if walk(original, parsed, &mut path) {
        Some(path)
    } else {
        None
    }
}

/// A JS value (or JSON string) as parsed JSON: the one way JS input enters the core. Input that
/// is not JSON, too large, too deep, or carries what JSON cannot gives a report instead.
pub fn js_to_json(message: &JsValue, max_bytes: usize) -> Result<Value, ValidationReport> {
    let text = message_text(message, max_bytes)?;
    let value = validate::parse(&text, max_bytes)?;
    if !message.is_string() {
        if let Some(path) = find_lossy_nulls(message, &value) {
            let mut r = input_report(
                Code::NotJsonValue,
                "NaN, Infinity or undefined: JSON would send null here",
            );
            if let Some(issue) = r.issues.first_mut() {
                issue.path = path;
            }
            return Err(r);
        }
    }
    Ok(value)
}

/// A bad argument: a `TypeError` naming it.
pub(crate) fn bad(message: String) -> JsValue {
    TypeError::new(&message).into()
}

/// The largest integer a JS number carries exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// An optional argument: `None` for `undefined` / `null`.
pub(crate) fn given(v: Option<JsValue>) -> Option<JsValue> {
    v.filter(|v| !v.is_undefined() && !v.is_null())
}

/// `Date.now()` (a clock before 1970 reads as 0).
pub(crate) fn date_now() -> u64 {
    js_sys::Date::now().max(0.0) as u64
}

/// An optional `limit` argument: a non-negative integer, default (and beyond `usize`) unlimited.
pub(crate) fn read_limit(limit: Option<JsValue>) -> Result<usize, JsValue> {
    match given(limit) {
        None => Ok(usize::MAX),
        Some(limit) => as_u64(&limit)
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .ok_or_else(|| bad("`limit` must be a non-negative integer".to_string())),
    }
}

/// An optional `now` argument (Unix ms, default `Date.now()`).
pub(crate) fn read_now(now: Option<JsValue>) -> Result<u64, JsValue> {
    match given(now) {
        None => Ok(date_now()),
        Some(now) => as_u64(&now).ok_or_else(bad_now),
    }
}

/// A JS value as a protocol version: the one reader of the bindings ([`ProtocolVersion::parse`]).
pub(crate) fn js_version(v: &JsValue) -> Option<ProtocolVersion> {
    v.as_string().as_deref().and_then(ProtocolVersion::parse)
}

/// A JS value as a non-negative integer that JS carries exactly.
pub(crate) fn as_u64(v: &JsValue) -> Option<u64> {
    v.as_f64().and_then(safe_u64)
}

/// A number as a non-negative integer that JS carries exactly.
pub(crate) fn safe_u64(x: f64) -> Option<u64> {
    (x.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER).contains(&x)).then_some(x as u64)
}

/// A number as an integer that JS carries exactly (either sign).
pub(crate) fn safe_i64(x: f64) -> Option<i64> {
    (x.fract() == 0.0 && x.abs() <= MAX_SAFE_INTEGER).then_some(x as i64)
}

/// `now` (Unix ms) as a number: a non-negative safe integer.
#[cfg_attr(not(feature = "store-js"), allow(dead_code))]
pub(crate) fn now_ms(now: f64) -> Result<u64, JsValue> {
    safe_u64(now).ok_or_else(bad_now)
}

fn bad_now() -> JsValue {
    bad("`now` must be a non-negative integer (Unix milliseconds)".to_string())
}

/// A protocol version argument; anything else is a `TypeError` "`what` must be …".
pub(crate) fn read_version(v: &JsValue, what: &str) -> Result<ProtocolVersion, JsValue> {
    js_version(v).ok_or_else(|| bad(format!("{what} must be {}", ProtocolVersion::EXPECTED)))
}

/// Whether the report of [`js_to_json`] refused input larger than its limit.
#[cfg_attr(not(feature = "store-js"), allow(dead_code))]
pub(crate) fn too_large_input(report: &ValidationReport) -> bool {
    report
        .issues
        .first()
        .is_some_and(|i| i.code == Code::TooLarge.as_str())
}

/// What the report of [`js_to_json`] says first ("" when nothing).
pub(crate) fn why_not_read(report: &ValidationReport) -> String {
    report
        .issues
        .first()
        .map_or_else(String::new, |i| i.message.clone())
}

/// A JS object read member by member (`Reflect.get`); a malformed member is
/// a `TypeError` naming it.
pub(crate) struct Members {
    object: JsValue,
    what: &'static str,
}

// The lenient readers (`opt`, `ms`, …) serve the `store-js` classes only.
#[cfg_attr(not(feature = "store-js"), allow(dead_code))]
impl Members {
    /// `None` for `undefined` / `null`; a `TypeError` for anything but a plain object.
    pub(crate) fn of(value: JsValue, what: &'static str) -> Result<Option<Members>, JsValue> {
        if value.is_undefined() || value.is_null() {
            Ok(None)
        } else if value.is_object() && !js_sys::Array::is_array(&value) {
            Ok(Some(Members {
                object: value,
                what,
            }))
        } else {
            Err(bad(format!("`{what}` must be an object")))
        }
    }

    /// The member, `None` when `undefined`; `Some(null)` stays.
    pub(crate) fn raw(&self, key: &str) -> Result<Option<JsValue>, JsValue> {
        let v = Reflect::get(&self.object, &JsValue::from_str(key))?;
        Ok((!v.is_undefined()).then_some(v))
    }

    pub(crate) fn bad(&self, key: &str, expected: &str) -> JsValue {
        bad(format!("invalid {}: `{key}` must be {expected}", self.what))
    }

    /// An optional member; `null` counts as absent.
    pub(crate) fn opt<T>(
        &self,
        key: &str,
        expected: &str,
        read: impl Fn(&JsValue) -> Option<T>,
    ) -> Result<Option<T>, JsValue> {
        match self.raw(key)? {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(None),
            Some(v) => read(&v).map(Some).ok_or_else(|| self.bad(key, expected)),
        }
    }

    /// An optional member where `null` means "none": `None` absent, `Some(None)` null.
    pub(crate) fn nullable<T>(
        &self,
        key: &str,
        expected: &str,
        read: impl Fn(&JsValue) -> Option<T>,
    ) -> Result<Option<Option<T>>, JsValue> {
        match self.raw(key)? {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(Some(None)),
            Some(v) => read(&v)
                .map(|t| Some(Some(t)))
                .ok_or_else(|| self.bad(key, expected)),
        }
    }

    pub(crate) fn ms(&self, key: &str) -> Result<Option<u64>, JsValue> {
        self.opt(key, "a non-negative integer (milliseconds)", as_u64)
    }

    pub(crate) fn count(&self, key: &str) -> Result<Option<usize>, JsValue> {
        self.opt(key, "a non-negative integer", |v| {
            as_u64(v).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
        })
    }

    pub(crate) fn string(&self, key: &str) -> Result<Option<String>, JsValue> {
        self.opt(key, "a string", JsValue::as_string)
    }

    /// An optional string member, its lone surrogates carried ([`carried`]): a task id or a
    /// name the core hands back.
    pub(crate) fn text(&self, key: &str) -> Result<Option<String>, JsValue> {
        self.opt(key, "a string", |v| v.as_string().map(|t| carried(v, t)))
    }

    /// An optional string member that must cross exactly ([`exactness`]): a session.
    pub(crate) fn plain(&self, key: &str) -> Result<Option<String>, JsValue> {
        self.opt(key, "a string", |v| {
            v.as_string().map(|t| exactness(v, &t).map(|()| t))
        })?
        .transpose()
        .map_err(|why| bad(format!("invalid {}: `{key}` {why}", self.what)))
    }

    pub(crate) fn boolean(&self, key: &str) -> Result<Option<bool>, JsValue> {
        self.opt(key, "a boolean", JsValue::as_bool)
    }

    /// A member that, when present, must read as expected: `null` is malformed too (the options
    /// of `validateMessage` and `Conversation`).
    pub(crate) fn strict<T>(
        &self,
        key: &str,
        expected: &str,
        read: impl Fn(&JsValue) -> Option<T>,
    ) -> Result<Option<T>, JsValue> {
        match self.raw(key)? {
            None => Ok(None),
            Some(v) => read(&v).map(Some).ok_or_else(|| self.bad(key, expected)),
        }
    }

    /// A protocol version member (`null` is malformed).
    pub(crate) fn version(&self, key: &str) -> Result<Option<ProtocolVersion>, JsValue> {
        self.strict(key, ProtocolVersion::EXPECTED, js_version)
    }

    /// An optional protocol version member (`null` counts as absent).
    pub(crate) fn opt_version(&self, key: &str) -> Result<Option<ProtocolVersion>, JsValue> {
        self.opt(key, ProtocolVersion::EXPECTED, js_version)
    }

    /// A required protocol version member.
    pub(crate) fn required_version(&self, key: &str) -> Result<ProtocolVersion, JsValue> {
        self.opt_version(key)?
            .ok_or_else(|| self.bad(key, ProtocolVersion::EXPECTED))
    }

    /// A string member (`null` is malformed).
    pub(crate) fn strict_string(&self, key: &str) -> Result<Option<String>, JsValue> {
        self.strict(key, "a string", JsValue::as_string)
    }

    /// A non-negative integer member that fits in 32 bits (`null` is malformed).
    pub(crate) fn u32(&self, key: &str) -> Result<Option<u32>, JsValue> {
        self.strict(key, "a non-negative integer", |v| {
            as_u64(v).and_then(|n| u32::try_from(n).ok())
        })
    }

    /// An object of string values, such as HTTP headers (`null` is malformed).
    pub(crate) fn strings(&self, key: &str) -> Result<Option<Map<String, Value>>, JsValue> {
        self.strict(key, "an object of strings", |v| {
            let obj: &js_sys::Object = v.dyn_ref()?;
            let mut out = Map::new();
            for entry in js_sys::Object::entries(obj).iter() {
                let pair: js_sys::Array = entry.unchecked_into();
                out.insert(
                    pair.get(0).as_string()?,
                    Value::String(pair.get(1).as_string()?),
                );
            }
            Some(out)
        })
    }
}

/// A core value as a plain JS object: serialised to JSON text in Rust and parsed once by
/// `JSON.parse` (one boundary crossing, instead of one per member).
pub fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> Result<JsValue, wasm_bindgen::JsError> {
    let text = crate::base::json::to_text(value).map_err(|e| {
        wasm_bindgen::JsError::new(&format!("internal: cannot convert the result: {e}"))
    })?;
    parse_json_text(&text)
        .map_err(|_| wasm_bindgen::JsError::new("internal: JSON.parse refused the result"))
}
