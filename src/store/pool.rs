//! Small random draws served from a pool: a source whose every call costs about the same for 16
//! bytes as for 4 KiB (Web Crypto's `getRandomValues`, ≈1.8 µs in Node) is asked for [`POOL`]
//! bytes at once, as Node's `crypto.randomUUID` does. Every byte is handed out once and then
//! forgotten (zeroed).

use super::random::{RandomSource, RandomUnavailable};

/// Bytes drawn per call of the source for small requests (256 task ids).
pub const POOL: usize = 4096;

/// [`RandomSource`] over `inner`, pooled for draws of at most a quarter of [`POOL`]; larger ones
/// go to `inner` directly.
#[derive(Debug)]
pub struct Pooled<S> {
    inner: S,
    /// Unused random bytes: `pool[used..]`.
    pool: Vec<u8>,
    used: usize,
}

impl<S> Pooled<S> {
    /// An empty pool over `inner` (the first small draw fills it).
    pub fn new(inner: S) -> Self {
        Pooled {
            inner,
            pool: Vec::new(),
            used: 0,
        }
    }
}

impl<S: RandomSource> RandomSource for Pooled<S> {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
        if buf.len() > POOL / 4 {
            return self.inner.fill(buf);
        }
        if self.pool.len() - self.used < buf.len() {
            let mut fresh = vec![0u8; POOL];
            self.inner.fill(&mut fresh)?;
            self.pool = fresh;
            self.used = 0;
        }
        let end = self.used + buf.len();
        let Some(bytes) = self.pool.get_mut(self.used..end) else {
            return Err(RandomUnavailable("random pool out of step".into()));
        };
        buf.copy_from_slice(bytes);
        bytes.fill(0); // handed out once
        self.used = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::store::DeterministicRandom;

    /// A source that counts its calls.
    struct Counting(DeterministicRandom, usize);

    impl RandomSource for Counting {
        fn fill(&mut self, buf: &mut [u8]) -> Result<(), RandomUnavailable> {
            self.1 += 1;
            self.0.fill(buf)
        }
    }

    #[test]
    fn small_draws_come_from_one_call_each_byte_once() {
        let mut pooled = Pooled::new(Counting(DeterministicRandom::new(1), 0));
        let mut direct = DeterministicRandom::new(1);
        let mut expected = vec![0u8; POOL];
        direct.fill(&mut expected).unwrap();
        let mut drawn = Vec::new();
        for _ in 0..POOL / 16 {
            let mut id = [0u8; 16];
            pooled.fill(&mut id).unwrap();
            drawn.extend(id);
        }
        assert_eq!(drawn, expected);
        assert_eq!(pooled.inner.1, 1);
        assert!(
            pooled.pool.iter().all(|b| *b == 0),
            "handed-out bytes are forgotten"
        );
        pooled.fill(&mut [0u8; 16]).unwrap();
        assert_eq!(pooled.inner.1, 2, "an empty pool is filled again");
    }

    #[test]
    fn large_draws_and_failures_go_to_the_source() {
        struct Failing;
        impl RandomSource for Failing {
            fn fill(&mut self, _: &mut [u8]) -> Result<(), RandomUnavailable> {
                Err(RandomUnavailable("no".into()))
            }
        }
        let mut pooled = Pooled::new(Counting(DeterministicRandom::new(1), 0));
        pooled.fill(&mut [0u8; POOL / 4 + 1]).unwrap();
        assert_eq!((pooled.inner.1, pooled.pool.len()), (1, 0));
        assert!(Pooled::new(Failing).fill(&mut [0u8; 16]).is_err());
    }
}
