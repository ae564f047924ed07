//! A deterministic PRNG (SplitMix64) for tests, simulations, virtual time and the scheduler's
//! jitter. **Not cryptographic: never use it for ids or keys served to real clients** (the
//! store's `RandomSource` is for those; it is implemented for this type in `store::random`).

/// SplitMix64: the state is one `u64`, so it can be saved and resumed exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeterministicRandom {
    state: u64,
}

impl DeterministicRandom {
    pub fn new(seed: u64) -> Self {
        DeterministicRandom { state: seed }
    }

    /// The next 16 bytes.
    pub fn next_16(&mut self) -> [u8; 16] {
        let mut out = [0u8; 16];
        self.fill_bytes(&mut out);
        out
    }

    /// Fills `buf` with the next bytes of the sequence.
    pub fn fill_bytes(&mut self, buf: &mut [u8]) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resumes_from_its_state() {
        let mut a = DeterministicRandom::new(42);
        a.next_u64();
        let mut b = DeterministicRandom::new(a.state());
        assert_eq!(a.next_16(), b.next_16());
        assert_ne!(a.next_u64(), DeterministicRandom::new(42).next_u64());
    }
}
