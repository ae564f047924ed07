//! The numbers of the compact saved form (`Scheduler::serialize`, `SchedulerConfig::to_json`):
//! non-negative integers, `null` for "none". Below `config` and `state`, which both write it.

use serde_json::Value;

/// "None" in the compact form (`null` in JSON): the entry's sentinels are this value.
pub(super) const NONE: u64 = u64::MAX;

/// A number of the compact form: `null` for [`NONE`].
pub(super) fn num(n: u64) -> Value {
    if n == NONE {
        Value::Null
    } else {
        Value::from(n)
    }
}

/// Reads [`num`]'s form.
pub(super) fn read_num(v: &Value) -> Option<u64> {
    if v.is_null() {
        Some(NONE)
    } else {
        v.as_u64().filter(|&n| n != NONE)
    }
}

/// `[name, numbers…]`, or the numbers alone.
pub(super) fn row(name: Option<&str>, numbers: &[u64]) -> Value {
    let mut row = Vec::with_capacity(numbers.len() + 1);
    if let Some(name) = name {
        row.push(Value::from(name));
    }
    for &n in numbers {
        row.push(num(n));
    }
    Value::Array(row)
}
