//! [`Jitter`]: the scheduler's seeded randomness (SplitMix64, as the store's
//! `DeterministicRandom`, but with its state readable so that a serialized scheduler resumes
//! the same sequence). Jitter spreads polls; it guards nothing, so it needs no CSPRNG.

/// A seeded SplitMix64 stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jitter {
    state: u64,
}

impl Jitter {
    pub fn new(seed: u64) -> Self {
        Jitter { state: seed }
    }

    /// The state, for serialization ([`Jitter::new`] resumes from it).
    pub fn state(&self) -> u64 {
        self.state
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// An integer in `0..=max` (the modulo bias, under 2^-40 for delays below a day, is
    /// irrelevant to spreading polls). One draw per call, `max = 0` included, so the sequence
    /// depends only on the number of delays computed.
    pub fn up_to(&mut self, max: u64) -> u64 {
        let r = self.next_u64();
        match max.checked_add(1) {
            Some(n) => r % n,
            None => r,
        }
    }
}
