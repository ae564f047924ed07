//! Injected randomness: [`RandomSource`], task ids drawn from it, the operating system's CSPRNG
//! for native hosts ([`OsRandom`]) and a deterministic source for tests and simulations.
//!
//! The core never reads randomness by itself: the wasm bindings pass `crypto.getRandomValues`
//! (present in browsers, Node and Deno), native hosts pass [`OsRandom`] or their own CSPRNG. A
//! draw can fail ([`RandomUnavailable`]); the store then refuses the operation (-32603) rather
//! than hand out a weak id. Ids are never derived from request ids (§D 18, 39, 84).

use std::fmt;

/// A source of random bytes. Production sources MUST be cryptographically secure: task ids are
/// bearer handles (§D 39, 84) and the cursor key guards `tasks/list` cursors.
pub trait RandomSource {
    /// Fills `buf` with random bytes, or says why it cannot (`buf` is then not to be used).
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable>;
}

/// A random source that could not deliver: why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomUnavailable(pub String);

impl fmt::Display for RandomUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no secure random bytes: {}", self.0)
    }
}

impl std::error::Error for RandomUnavailable {}

impl<R: RandomSource + ?Sized> RandomSource for &mut R {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        (**self).fill(buf)
    }
}

impl<R: RandomSource + ?Sized> RandomSource for Box<R> {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        (**self).fill(buf)
    }
}

/// The operating system's CSPRNG (through the `getrandom` crate): the source for native hosts.
/// Not in the wasm build, where the bindings pass `crypto.getRandomValues`.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, Copy, Default)]
pub struct OsRandom;

#[cfg(not(target_arch = "wasm32"))]
impl RandomSource for OsRandom {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        getrandom::fill(buf).map_err(|e| RandomUnavailable(e.to_string()))
    }
}

/// Bytes of entropy in a task id (128 bits).
pub const ID_BYTES: usize = 16;

/// A fresh task id: 128 random bits as 32 lowercase hex characters (url- and header-safe).
pub fn new_task_id(rng: &mut impl RandomSource) -> Result<String, RandomUnavailable> {
    let mut bytes = [0u8; ID_BYTES];
    rng.fill(&mut bytes)?;
    Ok(hex(&bytes))
}

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

/// Whether `id` has the form of the ids [`new_task_id`] draws: 32 lowercase hex characters.
pub fn is_task_id(id: &str) -> bool {
    unhex::<ID_BYTES>(id).is_some()
}

/// A deterministic source (SplitMix64) for tests, simulations and virtual time.
/// **Not cryptographic: never use it to serve real clients.**
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeterministicRandom {
    state: u64,
}

impl DeterministicRandom {
    pub fn new(seed: u64) -> Self {
        DeterministicRandom { state: seed }
    }

    /// The next 16 bytes (infallible, unlike [`RandomSource::fill`]).
    pub fn next_16(&mut self) -> [u8; 16] {
        let mut out = [0u8; 16];
        self.fill_infallible(&mut out);
        out
    }

    fn fill_infallible(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            for (d, s) in chunk.iter_mut().zip(bytes) {
                *d = s;
            }
        }
    }

    /// The state: [`DeterministicRandom::new`] with it resumes the same sequence.
    pub fn state(&self) -> u64 {
        self.state
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl RandomSource for DeterministicRandom {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        self.fill_infallible(buf);
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    // §D 18, 84: 128-bit ids, url-safe, fresh per draw.
    #[test]
    fn ids_are_128_bit_hex() {
        let mut rng = DeterministicRandom::new(7);
        let a = new_task_id(&mut rng).unwrap();
        let b = new_task_id(&mut rng).unwrap();
        assert_eq!(a.len(), 32);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_ne!(a, b);
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn os_random_draws_distinct_ids() {
        let mut os = OsRandom;
        let ids: std::collections::HashSet<String> =
            (0..64).map(|_| new_task_id(&mut os).unwrap()).collect();
        assert_eq!(ids.len(), 64);
    }

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
