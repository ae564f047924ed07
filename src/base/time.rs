//! Time on the wire: RFC 3339 timestamps (the ISO 8601 profile of §A.d / §B.d), parsed and
//! written in one place, and millisecond numbers (`ttl`, `ttlMs`, `pollInterval`, …).
//!
//! The text is read and written here, byte by byte, exactly as chrono's
//! `DateTime::parse_from_rfc3339`, `to_rfc3339` and `to_rfc3339_opts(Millis, true)` do (the
//! tests compare them on generated input): chrono's own parser and writers cost 6.6 KB of the
//! module (1.9 KB gzip). chrono is left for the [`Instant`] type and its calendar (the date
//! checks of `NaiveDate::from_ymd_opt`, offsets). No clock: time is injected as Unix ms by the
//! callers.

use chrono::{DateTime, FixedOffset, NaiveDate};
use serde_json::Value;

/// A parsed timestamp, with the offset it was written with.
pub type Instant = DateTime<FixedOffset>;

/// The largest integer JSON numbers carry exactly (2^53 − 1), the bound of the V26 schema.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Parses an RFC 3339 date-time with a time zone; `None` for anything else. What chrono's
/// `parse_from_rfc3339` accepts: `YYYY-MM-DD`, `T`, `t` or a space, `hh:mm:ss` (`60` for a leap
/// second), an optional `.` and one or more digits (the first 9 count), then `Z`, `z` or a sign
/// (`+`, `-`, or U+2212) with `hh:mm` (hours 0–23, minutes 0–59); nothing after.
pub fn parse(s: &str) -> Option<Instant> {
    let p = parts(s)?;
    let tz = FixedOffset::east_opt(i32::try_from(p.offset).ok()?)?;
    NaiveDate::from_ymd_opt(p.year as i32, p.month as u32, p.day as u32)?
        .and_hms_nano_opt(p.hour as u32, p.minute as u32, p.second as u32, p.nano)?
        .and_local_timezone(tz)
        .single()
}

/// A timestamp reduced to what comparing needs: its seconds since 1970 in UTC and its
/// nanoseconds (beyond 10^9 in a leap second). Ordered as the [`Instant`] it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stamp {
    secs: i64,
    nanos: u32,
}

/// [`parse`] without chrono's calendar (the validator only checks and compares timestamps):
/// `Some` exactly when `parse` is, ordered as its instants (the tests compare them).
pub fn stamp(s: &str) -> Option<Stamp> {
    let p = parts(s)?;
    let days = match p.month {
        2 if p.year % 4 == 0 && (p.year % 100 != 0 || p.year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    };
    if !(1..=days).contains(&p.day) {
        return None;
    }
    let secs =
        days_from_civil(p.year, p.month, p.day) * 86_400 + p.hour * 3600 + p.minute * 60 + p.second
            - p.offset;
    Some(Stamp {
        secs,
        nanos: p.nano,
    })
}

/// The fields of an RFC 3339 date-time as written, the date not yet checked against the
/// calendar (the rest of the grammar of [`parse`] is).
struct Parts {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    nano: u32,
    /// Seconds east of UTC.
    offset: i64,
}

fn parts(s: &str) -> Option<Parts> {
    let b = s.as_bytes();
    let digit = |i: usize| {
        b.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| i64::from(c - b'0'))
    };
    let two = |t: u8, u: u8| {
        (t.is_ascii_digit() && u.is_ascii_digit())
            .then(|| i64::from(t - b'0') * 10 + i64::from(u - b'0'))
    };
    // `YYYY-MM-DDThh:mm:ss`, then the fraction and the offset.
    let head = <[u8; 19]>::try_from(b.get(..19)?).ok()?;
    let [y1, y2, y3, y4, b'-', m1, m2, b'-', d1, d2, b'T' | b't' | b' ', h1, h2, b':', i1, i2, b':', s1, s2] =
        head
    else {
        return None;
    };
    let year = two(y1, y2)? * 100 + two(y3, y4)?;
    let (month, day) = (two(m1, m2)?, two(d1, d2)?);
    let (hour, minute) = (two(h1, h2)?, two(i1, i2)?);
    let (second, leap) = match two(s1, s2)? {
        60 => (59, 1_000_000_000),
        sec => (sec, 0),
    };
    if hour >= 24 || minute >= 60 || second >= 60 {
        return None;
    }
    let byte = |i: usize, c: u8| (b.get(i) == Some(&c)).then_some(());
    let mut at = 19;
    let mut nano: u32 = leap;
    if byte(19, b'.').is_some() {
        at = 20;
        let digits = b
            .get(20..)?
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        let mut frac: u32 = 0;
        for i in 0..9 {
            frac = frac * 10 + if i < digits { digit(20 + i)? as u32 } else { 0 };
        }
        nano += frac;
        at += digits;
    }
    let rest = b.get(at..)?;
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        _ => {
            let (negative, r) = match rest {
                [b'+', r @ ..] => (false, r),
                [b'-', r @ ..] => (true, r),
                [0xe2, 0x88, 0x92, r @ ..] => (true, r), // U+2212 MINUS SIGN
                _ => return None,
            };
            let (h, m) = match r {
                [h1 @ b'0'..=b'9', h2 @ b'0'..=b'9', b':', m1 @ b'0'..=b'5', m2 @ b'0'..=b'9'] => (
                    i64::from(h1 - b'0') * 10 + i64::from(h2 - b'0'),
                    i64::from(m1 - b'0') * 10 + i64::from(m2 - b'0'),
                ),
                _ => return None,
            };
            let secs = h * 3600 + m * 60;
            if secs >= 86_400 {
                return None;
            }
            if negative {
                -secs
            } else {
                secs
            }
        }
    };
    Some(Parts {
        year,
        month,
        day,
        hour,
        minute,
        second,
        nano,
        offset,
    })
}

/// Parses an RFC 3339 date-time into Unix milliseconds (`None` before 1970 or unparsable).
pub fn parse_ms(s: &str) -> Option<u64> {
    parse(s).and_then(|t| u64::try_from(t.timestamp_millis()).ok())
}

/// The latest instant chrono represents (+262142-12-31T23:59:59.999…Z), in Unix ms.
const MAX_MS: u64 = (days_from_civil(262_142, 12, 31) * 86_400_000 + 86_399_999) as u64;

/// RFC 3339 UTC with millisecond precision (`2025-11-25T10:30:00.000Z`), as both versions emit
/// (§A.d, §B.d). Instants beyond chrono's range print as its largest instant (year 262142).
pub fn format_ms(ms: u64) -> String {
    let ms = ms.min(MAX_MS);
    let mut out = String::with_capacity(24);
    let secs = (ms / 1000) as i64;
    write_date_time(&mut out, secs);
    out.push('.');
    push_digits(&mut out, (ms % 1000) as u32, 3);
    out.push('Z');
    out
}

/// `at` as chrono's `to_rfc3339` writes it: in its own offset (`+00:00`, never `Z`), with as
/// many fraction digits as it needs (none, 3, 6 or 9).
pub fn rfc3339(at: &Instant) -> String {
    let offset = at.offset().local_minus_utc();
    let secs = at.timestamp() + i64::from(offset);
    let mut nano = at.timestamp_subsec_nanos();
    let mut out = String::with_capacity(32);
    // A leap second (nanoseconds beyond 10^9 on second 59) prints as second 60.
    let leap = nano >= 1_000_000_000;
    if leap {
        nano -= 1_000_000_000;
    }
    write_date_time(&mut out, secs);
    if leap {
        out.pop();
        out.pop();
        out.push_str("60");
    }
    if nano != 0 {
        out.push('.');
        if nano % 1_000_000 == 0 {
            push_digits(&mut out, nano / 1_000_000, 3);
        } else if nano % 1000 == 0 {
            push_digits(&mut out, nano / 1000, 6);
        } else {
            push_digits(&mut out, nano, 9);
        }
    }
    let minutes = (offset.unsigned_abs() + 30) / 60;
    out.push(if offset < 0 { '-' } else { '+' });
    push_digits(&mut out, minutes / 60, 2);
    out.push(':');
    push_digits(&mut out, minutes % 60, 2);
    out
}

/// Writes `YYYY-MM-DDThh:mm:ss` of `secs` seconds since 1970 (chrono's way: years beyond
/// 0–9999 with a sign and at least 4 digits).
fn write_date_time(out: &mut String, secs: i64) {
    let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400) as u32;
    if (0..=9999).contains(&year) {
        push_digits(out, year as u32, 4);
    } else {
        out.push(if year < 0 { '-' } else { '+' });
        push_digits(out, year.unsigned_abs() as u32, 4);
    }
    out.push('-');
    push_digits(out, month, 2);
    out.push('-');
    push_digits(out, day, 2);
    out.push('T');
    push_digits(out, sod / 3600, 2);
    out.push(':');
    push_digits(out, sod / 60 % 60, 2);
    out.push(':');
    push_digits(out, sod % 60, 2);
}

/// `n` in decimal, zero-padded to at least `width` digits.
fn push_digits(out: &mut String, n: u32, width: u32) {
    let mut div = 1u32;
    let mut len = 1;
    while len < width || n / div >= 10 {
        div *= 10;
        len += 1;
    }
    while div > 0 {
        out.push(char::from(b'0' + (n / div % 10) as u8));
        div /= 10;
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
const fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
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
    match v {
        Value::Number(n) => millis_of(n),
        _ => Millis::NotANumber,
    }
}

/// Classifies a number as a millisecond value ([`millis`] of a JSON number).
pub fn millis_of(n: &serde_json::Number) -> Millis {
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
    use chrono::Utc;

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

    fn as_stamp(t: &Instant) -> Stamp {
        Stamp {
            secs: t.timestamp(),
            nanos: t.timestamp_subsec_nanos(),
        }
    }

    /// Stamps order as the instants they stand for.
    #[test]
    fn stamps_order_as_instants() {
        let all = [
            "2025-11-25T10:30:00Z",
            "2025-11-25T10:30:00.5Z",
            "2025-11-25T10:29:60Z",
            "2025-11-25T10:29:60.5Z",
            "2025-11-25T10:29:59.999999999Z",
            "2025-11-25T11:30:00+01:00",
            "2025-11-25T11:30:00.1+01:00",
            "2025-11-25T09:30:00-01:00",
            "0000-01-01T00:00:00+23:59",
            "9999-12-31T23:59:60.999999999-23:59",
            "2024-02-29T00:00:00Z",
        ];
        for a in all {
            for b in all {
                let (ta, tb) = (parse(a).unwrap(), parse(b).unwrap());
                assert_eq!(
                    stamp(a).unwrap().cmp(&stamp(b).unwrap()),
                    ta.cmp(&tb),
                    "{a} {b}"
                );
            }
        }
    }

    /// chrono's parser and writers, which `parse`, `rfc3339` and `format_ms` replace.
    fn chrono_format_ms(ms: u64) -> String {
        i64::try_from(ms)
            .ok()
            .and_then(DateTime::<Utc>::from_timestamp_millis)
            .unwrap_or(DateTime::<Utc>::MAX_UTC)
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
    }

    #[test]
    fn parse_and_rfc3339_match_chrono() {
        let dates = [
            "2025-11-25",
            "0000-02-29",
            "0000-01-01",
            "1900-02-29",
            "2000-02-29",
            "2024-02-29",
            "2023-02-29",
            "2024-02-30",
            "9999-12-31",
            "1970-01-01",
            "1969-12-31",
            "2025-13-01",
            "2025-00-10",
            "2025-04-31",
            "2025-04-30",
            "2025-11-00",
            "2025-1-01",
            "20251125",
            "2025/11/25",
            "２025-11-25",
            "",
        ];
        let seps = ["T", "t", " ", "_", ""];
        let times = [
            "10:30:00", "23:59:60", "00:00:60", "00:00:00", "24:00:00", "23:60:00", "12:34:61",
            "1:30:00", "10:30", "10-30-00", "1a:30:00",
        ];
        let fracs = [
            "",
            ".",
            ".5",
            ".123",
            ".123456",
            ".123456789",
            ".1234567891234",
            ".000000001",
            ".0",
            ".999999999",
            ".x",
            ".12a",
            ".000100",
        ];
        let offsets = [
            "Z",
            "z",
            "+00:00",
            "-00:00",
            "+01:00",
            "-05:30",
            "+23:59",
            "+24:00",
            "-23:59",
            "+05:60",
            "+05:9x",
            "+0530",
            "+05",
            "+05:3",
            "\u{2212}05:00",
            "\u{2212}00:00",
            "Z ",
            "",
            "+05:30:00",
            "UTC",
            "ZZ",
            "-",
            "+a5:00",
        ];
        let mut checked = 0;
        for d in dates {
            for sep in seps {
                for t in times {
                    for f in fracs {
                        for o in offsets {
                            let s = format!("{d}{sep}{t}{f}{o}");
                            let ours = parse(&s);
                            let theirs = DateTime::parse_from_rfc3339(&s).ok();
                            assert_eq!(ours, theirs, "{s}");
                            assert_eq!(stamp(&s), ours.map(|t| as_stamp(&t)), "{s}");
                            let offset =
                                |t: Option<Instant>| t.map(|t| t.offset().local_minus_utc());
                            assert_eq!(offset(ours), offset(theirs), "{s}");
                            if let (Some(a), Some(b)) = (ours, theirs) {
                                assert_eq!(rfc3339(&a), b.to_rfc3339(), "{s}");
                                assert_eq!(a.timestamp_millis(), b.timestamp_millis(), "{s}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn format_ms_matches_chrono() {
        let mut rng = crate::base::random::DeterministicRandom::new(7);
        let mut values = vec![
            0,
            1,
            999,
            1000,
            86_399_999,
            86_400_000,
            951_782_400_000,     // 2000-02-29
            253_402_300_799_999, // 9999-12-31T23:59:59.999Z
            253_402_300_800_000, // +10000-01-01
            MAX_MS - 1,
            MAX_MS,
            MAX_MS + 1,
            i64::MAX as u64,
            i64::MAX as u64 + 1,
            u64::MAX,
        ];
        for _ in 0..20_000 {
            let r = rng.next_u64();
            values.push(r % 253_402_300_800_000);
            values.push(r >> (r % 64));
        }
        for ms in values {
            assert_eq!(format_ms(ms), chrono_format_ms(ms), "{ms}");
        }
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
