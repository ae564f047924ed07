//! [`Jitter`]: the scheduler's seeded randomness, the SplitMix64
//! ([`DeterministicRandom`]) with its state read back so that a serialized scheduler resumes the
//! same sequence. Jitter spreads polls; it guards nothing, so it needs no CSPRNG.

use crate::base::random::DeterministicRandom;

/// A seeded SplitMix64 stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jitter {
    rng: DeterministicRandom,
}

impl Jitter {
    pub fn new(seed: u64) -> Self {
        Jitter {
            rng: DeterministicRandom::new(seed),
        }
    }

    /// The state, for serialization ([`Jitter::new`] resumes from it).
    pub fn state(&self) -> u64 {
        self.rng.state()
    }

    /// An integer in `0..=max` (the modulo bias, under 2^-40 for delays below a day, is
    /// irrelevant to spreading polls). One draw per call, `max = 0` included, so the sequence
    /// depends only on the number of delays computed.
    pub fn up_to(&mut self, max: u64) -> u64 {
        let r = self.rng.next_u64();
        match max.checked_add(1) {
            Some(n) => r % n,
            None => r,
        }
    }
}
