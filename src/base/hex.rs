//! Lowercase hex: task ids, cursor seals, the scheduler's saved jitter state.

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        for nibble in [b >> 4, b & 0x0f] {
            if let Some(&d) = DIGITS.get(usize::from(nibble)) {
                s.push(char::from(d));
            }
        }
    }
    s
}

/// Parses lowercase hex (the one form [`hex`] writes) into exactly `N` bytes: upper-case
/// digits are refused, so every value has one encoding.
pub fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    let digits = s.as_bytes();
    if digits.len() != N * 2 {
        return None;
    }
    let digit = |d: u8| match d {
        b'0'..=b'9' => Some(d - b'0'),
        b'a'..=b'f' => Some(d - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; N];
    for (slot, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        let hi = digit(*pair.first()?)?;
        let lo = digit(*pair.get(1)?)?;
        *slot = hi * 16 + lo;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips() {
        let bytes = [0u8, 1, 0xab, 0xff];
        assert_eq!(hex(&bytes), "0001abff");
        assert_eq!(unhex::<4>("0001abff"), Some(bytes));
        assert_eq!(unhex::<4>("0001abf"), None);
        assert_eq!(unhex::<4>("0001abfg"), None);
        assert_eq!(unhex::<2>("+1ab"), None);
        // One canonical form: upper-case digits are refused.
        assert_eq!(unhex::<4>("0001ABFF"), None);
        assert_eq!(unhex::<4>("0001abFf"), None);
    }
}
