//! Time on the wire: RFC 3339 timestamps (the ISO 8601 profile of §A.d / §B.d), parsed and
//! written in one place, and millisecond numbers (`ttl`, `ttlMs`, `pollInterval`, …).
//!
//! chrono is used for exactly two things here: `DateTime::parse_from_rfc3339` and
//! `to_rfc3339_opts` (no clock: time is injected as Unix ms by the callers).

use chrono::{DateTime, FixedOffset, SecondsFormat, Utc};
use serde_json::Value;

/// A parsed timestamp, with the offset it was written with.
pub type Instant = DateTime<FixedOffset>;

/// The largest integer JSON numbers carry exactly (2^53 − 1), the bound of the V26 schema.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Parses an RFC 3339 date-time with a time zone; `None` for anything else.
pub fn parse(s: &str) -> Option<Instant> {
    DateTime::parse_from_rfc3339(s).ok()
}

/// Parses an RFC 3339 date-time into Unix milliseconds (`None` before 1970 or unparsable).
pub fn parse_ms(s: &str) -> Option<u64> {
    parse(s).and_then(|t| u64::try_from(t.timestamp_millis()).ok())
}

/// RFC 3339 UTC with millisecond precision (`2025-11-25T10:30:00.000Z`), as both versions emit
/// (§A.d, §B.d). Instants beyond chrono's range (year 262143) print as its largest instant.
pub fn format_ms(ms: u64) -> String {
    let dt = i64::try_from(ms)
        .ok()
        .and_then(DateTime::<Utc>::from_timestamp_millis)
        .unwrap_or(DateTime::<Utc>::MAX_UTC);
    dt.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// What a number is, for millisecond members.
pub enum Millis {
    /// A non-negative integer (`5` or `5.0`).
    Ok(f64),
    Negative,
    Fractional,
    TooLarge,
    NotANumber,
}

/// Classifies a millisecond value.
pub fn millis(v: &Value) -> Millis {
    let Value::Number(n) = v else {
        return Millis::NotANumber;
    };
    if let Some(u) = n.as_u64() {
        return if (u as f64) > MAX_SAFE_INTEGER {
            Millis::TooLarge
        } else {
            Millis::Ok(u as f64)
        };
    }
    if let Some(i) = n.as_i64() {
        return if i < 0 {
            Millis::Negative
        } else {
            Millis::Ok(i as f64)
        };
    }
    match n.as_f64() {
        Some(f) if f.fract() != 0.0 => Millis::Fractional,
        Some(f) if f < 0.0 => Millis::Negative,
        Some(f) if f > MAX_SAFE_INTEGER => Millis::TooLarge,
        Some(f) => Millis::Ok(f),
        None => Millis::NotANumber,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_utc_millis() {
        let s = format_ms(1_764_066_600_000);
        assert_eq!(s, "2025-11-25T10:30:00.000Z");
        assert_eq!(parse_ms(&s), Some(1_764_066_600_000));
        assert_eq!(
            parse_ms("2025-11-25T11:30:00+01:00"),
            Some(1_764_066_600_000)
        );
        assert!(
            parse("2025-11-25T10:30:00").is_none(),
            "a time zone is required"
        );
        assert!(parse("yesterday").is_none());
    }

    #[test]
    fn classifies_millis() {
        assert!(matches!(millis(&serde_json::json!(5)), Millis::Ok(x) if x == 5.0));
        assert!(matches!(millis(&serde_json::json!(5.0)), Millis::Ok(_)));
        assert!(matches!(millis(&serde_json::json!(-1)), Millis::Negative));
        assert!(matches!(
            millis(&serde_json::json!(1.5)),
            Millis::Fractional
        ));
        assert!(matches!(
            millis(&serde_json::json!(1e300)),
            Millis::TooLarge
        ));
        assert!(matches!(
            millis(&serde_json::json!("5")),
            Millis::NotANumber
        ));
    }
}
