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

pub use crate::base::hex::{hex, unhex};

/// Whether `id` has the form of the ids [`new_task_id`] draws: 32 lowercase hex characters.
pub fn is_task_id(id: &str) -> bool {
    unhex::<ID_BYTES>(id).is_some()
}

/// The deterministic source (SplitMix64, [`crate::base::random`]) for tests, simulations and
/// virtual time. **Not cryptographic: never use it to serve real clients.**
pub use crate::base::random::DeterministicRandom;

impl RandomSource for DeterministicRandom {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        self.fill_bytes(buf);
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
}
