//! Lone UTF-16 surrogates in JSON text, carried through Rust strings.
//!
//! JSON text may hold a lone surrogate (`"\ud83d"`, text cut inside an emoji): `JSON.parse`
//! and the official schemas accept it, RFC 8259 §8.2 calls it unpredictable, and a Rust
//! `String` cannot hold it (serde_json refuses such an escape). So that such a message is not
//! called "not JSON", and a tool result holding one is stored and answered unchanged, the text
//! is rewritten before parsing ([`carry`]) and after serialising ([`restore`]):
//!
//! * a lone surrogate escape `\uDxxx` becomes the noncharacter U+FDD0 followed by its four
//!   lowercase hex digits (U+FDD0 is "permanently reserved for internal use");
//! * a genuine U+FDD0 (raw or escaped) becomes U+FDD0 twice, so the encoding is reversible;
//! * [`restore`] turns U+FDD0 + four hex digits of a surrogate back into `\uDxxx` and a doubled
//!   U+FDD0 back into one, in JSON text written by serde_json (which never escapes either).
//!
//! Surrogate pairs written as two escapes stay as they are (serde_json reads them). Inside the
//! core such a string is an ordinary string (`"\u{FDD0}d83d"`), compared and stored as any other.

use std::borrow::Cow;

/// The marker: U+FDD0, a noncharacter.
pub const MARK: char = '\u{FDD0}';

fn hex4(b: &[u8]) -> Option<u16> {
    let s = std::str::from_utf8(b.get(..4)?).ok()?;
    if !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(s, 16).ok()
}

fn is_high(u: u16) -> bool {
    (0xD800..=0xDBFF).contains(&u)
}

fn is_low(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}

/// Whether `text` may need [`carry`]: it holds U+FDD0 or a `\u` escape of a surrogate or of
/// U+FDD0 (a quick test with false positives only).
fn may_need(text: &str) -> bool {
    // One pass over the bytes for `\` and for 0xEF, the lead byte of U+FDD0 (EF B7 90).
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(at) = next_special(b, from) {
        if b.get(at) == Some(&0xEF) {
            if b.get(at + 1..at + 3) == Some(&[0xB7, 0x90]) {
                return true;
            }
            from = at + 1;
            continue;
        }
        if let (Some(b'u'), Some(d)) = (b.get(at + 1), b.get(at + 2)) {
            if matches!(d, b'd' | b'D' | b'f' | b'F') {
                return true;
            }
        }
        from = at + 2;
    }
    false
}

/// The first `\` or 0xEF in `b` from `from`, looked for eight bytes at a time (a word with
/// neither is skipped whole: this scan runs over every message the byte path reads).
fn next_special(b: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    /// Whether a byte of `w` is zero (exact as to whether; not as to which).
    fn has_zero(w: u64) -> bool {
        w.wrapping_sub(ONES) & !w & HIGHS != 0
    }
    let mut i = from;
    while let Some(word) = b.get(i..i + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()) {
        let w = u64::from_le_bytes(word);
        if has_zero(w ^ (ONES * u64::from(b'\\'))) || has_zero(w ^ (ONES * 0xEF)) {
            break;
        }
        i += 8;
    }
    b.get(i..)?
        .iter()
        .position(|&c| c == b'\\' || c == 0xEF)
        .map(|p| i + p)
}

/// `text` with every lone surrogate escape carried as U+FDD0 + hex and every U+FDD0 doubled,
/// and how many lone surrogates it held. Borrowed when nothing changes (the usual case).
pub fn carry(text: &str) -> (Cow<'_, str>, usize) {
    if !may_need(text) {
        return (Cow::Borrowed(text), 0);
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    let mut lone = 0;
    let mut copied = 0; // bytes of `text` already in `out`
    let mut i = 0;
    let mut changed = false;
    while i < b.len() {
        match b.get(i) {
            Some(b'\\') => {
                let escape = (b.get(i + 1) == Some(&b'u'))
                    .then(|| b.get(i + 2..).and_then(hex4))
                    .flatten();
                let Some(u) = escape else {
                    i += 2; // any other escape: two bytes
                    continue;
                };
                let pair_low = b
                    .get(i + 6..i + 8)
                    .filter(|s| *s == b"\\u")
                    .and_then(|_| b.get(i + 8..).and_then(hex4))
                    .filter(|l| is_low(*l));
                let replacement = if u == 0xFDD0 {
                    Some(format!("{MARK}{MARK}"))
                } else if is_high(u) && pair_low.is_some() {
                    i += 12; // a surrogate pair: serde_json reads it
                    continue;
                } else if is_high(u) || is_low(u) {
                    lone += 1;
                    Some(format!("{MARK}{u:04x}"))
                } else {
                    None
                };
                if let Some(r) = replacement {
                    out.push_str(text.get(copied..i).unwrap_or(""));
                    out.push_str(&r);
                    copied = i + 6;
                    changed = true;
                }
                i += 6;
            }
            Some(0xEF) if b.get(i + 1..i + 3) == Some(&[0xB7, 0x90]) => {
                // A raw U+FDD0: doubled.
                out.push_str(text.get(copied..i + 3).unwrap_or(""));
                out.push(MARK);
                copied = i + 3;
                changed = true;
                i += 3;
            }
            _ => i += 1,
        }
    }
    if !changed {
        return (Cow::Borrowed(text), 0);
    }
    out.push_str(text.get(copied..).unwrap_or(""));
    (Cow::Owned(out), lone)
}

/// JSON text written by serde_json from values [`carry`] produced, with the lone surrogates
/// back as `\uDxxx` escapes and doubled U+FDD0 back to one (what `JSON.parse` should read).
pub fn restore(json: &str) -> Cow<'_, str> {
    if !json.contains(MARK) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len());
    let mut rest = json;
    while let Some(at) = rest.find(MARK) {
        out.push_str(rest.get(..at).unwrap_or(""));
        let after = rest.get(at + MARK.len_utf8()..).unwrap_or("");
        if let Some(tail) = after.strip_prefix(MARK) {
            out.push(MARK);
            rest = tail;
            continue;
        }
        let code = after
            .get(..4)
            .filter(|h| h.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')))
            .and_then(|h| u16::from_str_radix(h, 16).ok())
            .filter(|u| is_high(*u) || is_low(*u));
        match code {
            Some(u) => {
                out.push_str(&format!("\\u{u:04x}"));
                rest = after.get(4..).unwrap_or("");
            }
            None => {
                out.push(MARK);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use serde_json::Value;

    fn round_trip(text: &str) -> String {
        let (carried, _) = carry(text);
        let v: Value = serde_json::from_str(&carried).unwrap();
        restore(&serde_json::to_string(&v).unwrap()).into_owned()
    }

    #[test]
    fn lone_surrogates_are_carried_and_restored() {
        let (c, n) = carry(r#"{"a":"x\ud83d","b":"\uDE00y","c":"\ud83d\ude00"}"#);
        assert_eq!(n, 2);
        let v: Value = serde_json::from_str(&c).unwrap();
        assert_eq!(v["a"], format!("x{MARK}d83d"));
        assert_eq!(v["b"], format!("{MARK}de00y"));
        assert_eq!(v["c"], "😀");
        assert_eq!(
            restore(&serde_json::to_string(&v).unwrap()),
            r#"{"a":"x\ud83d","b":"\ude00y","c":"😀"}"#
        );
    }

    #[test]
    fn the_word_scan_finds_what_the_byte_scan_finds() {
        for len in 0..40 {
            for at in 0..len {
                for needle in ["\\ud800", "\u{FDD0}"] {
                    let mut t = "a".repeat(len);
                    t.insert_str(at, needle);
                    assert!(may_need(&t), "{t:?}");
                    assert_eq!(next_special(t.as_bytes(), 0), Some(at), "{t:?}");
                }
            }
            assert!(!may_need(&"\\n".repeat(len)), "{len}");
            assert_eq!(next_special("é".repeat(len).as_bytes(), 0), None);
        }
    }

    #[test]
    fn the_marker_itself_round_trips() {
        assert_eq!(round_trip("[\"\u{FDD0}\"]"), "[\"\u{FDD0}\"]");
        assert_eq!(round_trip(r#"["\ufdd0d83d"]"#), "[\"\u{FDD0}d83d\"]");
        assert_eq!(
            round_trip("[\"\u{FDD0}d83d\",\"\\ud83d\"]"),
            "[\"\u{FDD0}d83d\",\"\\ud83d\"]"
        );
    }

    #[test]
    fn other_text_is_borrowed_and_escapes_are_respected() {
        for t in [r#"{"a":"plain"}"#, r#"["\\ud83d"]"#, r#"["\u00e9\n"]"#] {
            let (c, n) = carry(t);
            assert!(matches!(c, Cow::Borrowed(_)), "{t}");
            assert_eq!(n, 0);
        }
        // An escaped backslash followed by "ud83d" is not an escape.
        assert_eq!(round_trip(r#"["\\ud83d"]"#), r#"["\\ud83d"]"#);
        // A high surrogate escape followed by a non-low escape is lone.
        assert_eq!(round_trip(r#"["\ud83d\u0041"]"#), r#"["\ud83dA"]"#);
        // Two lone highs in a row.
        assert_eq!(round_trip(r#"["\ud83d\ud83d"]"#), r#"["\ud83d\ud83d"]"#);
        // A truncated escape stays invalid JSON.
        let (c, _) = carry(r#"["\ud8"]"#);
        assert!(serde_json::from_str::<Value>(&c).is_err());
    }
}
