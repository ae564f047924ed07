//! Opaque, tamper-evident `tasks/list` cursors (§D 35, 36, 53).
//!
//! A cursor holds the creation sequence number of the last task of a page (a keyset position, so
//! pages stay stable while tasks are created and deleted), **encrypted**, plus a 64-bit MAC over
//! the encrypted position and the caller's listing [`Scope`], both keyed by a 128-bit secret
//! drawn from the random source when the store is created (and kept in snapshots so cursors
//! survive restarts). Encoding: 32 lowercase hex characters (`E(position) (8 bytes) ‖ mac
//! (8 bytes)`); upper-case variants are refused, so a cursor has one form.
//!
//! The sequence number is store-wide (it counts every task created, in every session), so it
//! is never shown in clear: `E` is a 64-bit block cipher, a 4-round Feistel network whose round
//! function is SipHash-2-4 over the scope (a keyed PRF: 4 rounds of Luby–Rackoff give a
//! pseudorandom permutation). A cursor thus tells its holder nothing beyond "a position in my
//! own listing": not how many tasks others created, not how far apart two positions are.
//!
//! The MAC is SipHash-2-4, implemented here: it is a keyed PRF designed for short inputs, its
//! output for a given key is fixed by its specification (the deprecated
//! `core::hash::SipHasher13` documents no such stability, and cursors outlive a build when they
//! sit in a snapshot), and it costs a few dozen lines instead of a crypto crate in the wasm
//! binary. 64 bits are ample here: a forger gains at most a different starting position in a
//! listing that is filtered by the caller's own scope anyway, so a forged cursor can never
//! reveal another session's task; the MAC makes forged, altered and foreign-session cursors
//! fail with -32602 instead of being silently accepted.

use super::random::{hex, unhex};
use super::storage::Scope;

/// The domain separator of cursor MACs (bump the suffix if the payload format changes).
const DOMAIN: &[u8] = b"mcp-tasks-wasm/cursor/2";
/// The domain separator of the position cipher's round function.
const CIPHER_DOMAIN: &[u8] = b"mcp-tasks-wasm/cursor-position/2";
/// Feistel rounds of the position cipher.
const ROUNDS: u8 = 4;

/// The secret key of cursor MACs.
pub type CursorKey = [u8; 16];

/// The cursor that resumes listing after creation sequence `after` for `scope`.
pub fn encode(key: &CursorKey, scope: Scope<'_>, owner: Option<&str>, after: u64) -> String {
    let scope = (scope, owner);
    let sealed = encrypt(key, scope, after);
    let mut bytes = [0u8; 16];
    for (d, s) in bytes.iter_mut().zip(sealed.to_be_bytes()) {
        *d = s;
    }
    for (d, s) in bytes
        .iter_mut()
        .skip(8)
        .zip(mac(key, scope, sealed).to_le_bytes())
    {
        *d = s;
    }
    hex(&bytes)
}

/// The position a cursor resumes after, if this store issued it for this scope.
pub fn decode(key: &CursorKey, scope: Scope<'_>, owner: Option<&str>, cursor: &str) -> Option<u64> {
    let scope = (scope, owner);
    let bytes = unhex::<16>(cursor)?;
    let (pos, tag) = bytes.split_at(8);
    let sealed = u64::from_be_bytes(pos.try_into().ok()?);
    let tag = u64::from_le_bytes(tag.try_into().ok()?);
    // Constant-time comparison is not needed for a 64-bit tag that only gates pagination.
    (tag == mac(key, scope, sealed)).then(|| decrypt(key, scope, sealed))
}

/// A listing's scope and the caller's owner: a cursor is good for both (another owner's cursor
/// in the same session fails like a forged one).
type Listing<'a> = (Scope<'a>, Option<&'a str>);

/// `prefix ‖ scope ‖ owner` as the start of a PRF input (nothing for no owner, so the cursors of
/// callers without one are those issued before owners existed).
fn scoped(prefix: &[u8], (scope, owner): Listing<'_>) -> Vec<u8> {
    let mut msg = Vec::with_capacity(prefix.len() + 32);
    msg.extend_from_slice(prefix);
    match scope {
        Scope::All => msg.push(0),
        Scope::Session(None) => msg.push(1),
        Scope::Session(Some(s)) => {
            msg.push(2);
            msg.extend_from_slice(&(s.len() as u64).to_le_bytes());
            msg.extend_from_slice(s.as_bytes());
        }
    }
    if let Some(owner) = owner {
        msg.push(3);
        msg.extend_from_slice(&(owner.len() as u64).to_le_bytes());
        msg.extend_from_slice(owner.as_bytes());
    }
    msg
}

fn mac(key: &CursorKey, scope: Listing<'_>, sealed: u64) -> u64 {
    let mut msg = scoped(DOMAIN, scope);
    msg.extend_from_slice(&sealed.to_le_bytes());
    siphash24(key, &msg)
}

/// The Feistel round function: 32 bits of SipHash over the scope, the round and a half block.
fn round(key: &CursorKey, prefix: &[u8], r: u8, half: u32) -> u32 {
    let mut msg = prefix.to_vec();
    msg.push(r);
    msg.extend_from_slice(&half.to_le_bytes());
    (siphash24(key, &msg) & 0xffff_ffff) as u32
}

fn split(v: u64) -> (u32, u32) {
    ((v >> 32) as u32, (v & 0xffff_ffff) as u32)
}

fn join(l: u32, r: u32) -> u64 {
    (u64::from(l) << 32) | u64::from(r)
}

/// The position cipher `E` (a 4-round Feistel network, tweaked by the scope).
fn encrypt(key: &CursorKey, scope: Listing<'_>, position: u64) -> u64 {
    let prefix = scoped(CIPHER_DOMAIN, scope);
    let (mut l, mut r) = split(position);
    for i in 0..ROUNDS {
        let next = l ^ round(key, &prefix, i, r);
        l = r;
        r = next;
    }
    join(l, r)
}

/// The inverse of [`encrypt`].
fn decrypt(key: &CursorKey, scope: Listing<'_>, sealed: u64) -> u64 {
    let prefix = scoped(CIPHER_DOMAIN, scope);
    let (mut l, mut r) = split(sealed);
    for i in (0..ROUNDS).rev() {
        let prev = r ^ round(key, &prefix, i, l);
        r = l;
        l = prev;
    }
    join(l, r)
}

/// SipHash-2-4 (Aumasson & Bernstein, 2012) of `msg` under `key`.
pub fn siphash24(key: &[u8; 16], msg: &[u8]) -> u64 {
    let (k0, k1) = key.split_at(8);
    let k0 = le64(k0);
    let k1 = le64(k1);
    let mut v = [
        k0 ^ 0x736f_6d65_7073_6575,
        k1 ^ 0x646f_7261_6e64_6f6d,
        k0 ^ 0x6c79_6765_6e65_7261,
        k1 ^ 0x7465_6462_7974_6573,
    ];
    let mut blocks = msg.chunks_exact(8);
    for block in &mut blocks {
        compress(&mut v, le64(block), 2);
    }
    let mut last = [0u8; 8];
    for (d, s) in last.iter_mut().zip(blocks.remainder()) {
        *d = *s;
    }
    let last = u64::from_le_bytes(last) | ((msg.len() as u64) << 56);
    compress(&mut v, last, 2);
    let [v0, v1, mut v2, v3] = v;
    v2 ^= 0xff;
    let mut v = [v0, v1, v2, v3];
    for _ in 0..4 {
        sip_round(&mut v);
    }
    let [v0, v1, v2, v3] = v;
    v0 ^ v1 ^ v2 ^ v3
}

fn le64(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    for (d, s) in b.iter_mut().zip(bytes) {
        *d = *s;
    }
    u64::from_le_bytes(b)
}

fn compress(v: &mut [u64; 4], m: u64, rounds: usize) {
    v[3] ^= m;
    for _ in 0..rounds {
        sip_round(v);
    }
    v[0] ^= m;
}

#[allow(clippy::indexing_slicing)] // fixed-size array, constant indices
fn sip_round(v: &mut [u64; 4]) {
    v[0] = v[0].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(13) ^ v[0];
    v[0] = v[0].rotate_left(32);
    v[2] = v[2].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(16) ^ v[2];
    v[0] = v[0].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(21) ^ v[0];
    v[2] = v[2].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(17) ^ v[2];
    v[2] = v[2].rotate_left(32);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing, clippy::unwrap_used)]
    use super::*;

    fn key() -> [u8; 16] {
        let mut k = [0u8; 16];
        for (i, b) in k.iter_mut().enumerate() {
            *b = i as u8;
        }
        k
    }

    // Test vectors of the SipHash paper (appendix A) and reference implementation.
    #[test]
    fn siphash24_reference_vectors() {
        let k = key();
        assert_eq!(siphash24(&k, &[]), 0x726f_db47_dd0e_0e31);
        let msg: Vec<u8> = (0u8..15).collect();
        assert_eq!(siphash24(&k, &msg), 0xa129_ca61_49be_45e5);
        let msg: Vec<u8> = (0u8..8).collect();
        assert_eq!(siphash24(&k, &msg), 0x93f5_f579_9a93_2462);
    }

    // §D 35, 38: a cursor only decodes for the scope it was issued to, under the same key.
    #[test]
    fn cursors_are_bound_to_scope_and_key() {
        let k = key();
        let a = Scope::Session(Some("a"));
        let c = encode(&k, a, None, 42);
        assert_eq!(c.len(), 32);
        assert_eq!(decode(&k, a, None, &c), Some(42));
        assert_eq!(decode(&k, Scope::Session(Some("b")), None, &c), None);
        assert_eq!(decode(&k, Scope::Session(None), None, &c), None);
        assert_eq!(decode(&k, Scope::All, None, &c), None);
        // Another owner in the same session: refused; the owner's own: accepted.
        let owned = encode(&k, a, Some("alice"), 42);
        assert_eq!(decode(&k, a, Some("alice"), &owned), Some(42));
        assert_eq!(decode(&k, a, Some("bob"), &owned), None);
        assert_eq!(decode(&k, a, None, &owned), None);
        assert_eq!(decode(&k, a, Some("alice"), &c), None);
        let mut other = k;
        other[0] ^= 1;
        assert_eq!(decode(&other, a, None, &c), None);
        // Any single altered character is rejected.
        for i in 0..c.len() {
            let mut t: Vec<char> = c.chars().collect();
            t[i] = if t[i] == '0' { '1' } else { '0' };
            let t: String = t.into_iter().collect();
            assert_eq!(decode(&k, a, None, &t), None, "{t}");
        }
        assert_eq!(decode(&k, a, None, ""), None);
        assert_eq!(decode(&k, a, None, "42"), None);
        // One canonical form: the upper-case variant of a valid cursor is refused.
        assert_eq!(decode(&k, a, None, &c.to_uppercase()), None);
        let mixed: String = c
            .chars()
            .enumerate()
            .map(|(i, ch)| {
                if i % 2 == 0 {
                    ch.to_ascii_uppercase()
                } else {
                    ch
                }
            })
            .collect();
        if mixed != c {
            assert_eq!(decode(&k, a, None, &mixed), None);
        }
    }

    // The position is encrypted (no store-wide count shows) and round-trips for every scope.
    #[test]
    fn positions_are_encrypted_and_round_trip() {
        let k = key();
        for scope in [
            Scope::All,
            Scope::Session(None),
            Scope::Session(Some("a")),
            Scope::Session(Some("b")),
        ] {
            for pos in [0, 1, 2, 41, 42, 1 << 31, (1 << 53) - 1, u64::MAX] {
                let sealed = encrypt(&k, (scope, None), pos);
                assert_eq!(decrypt(&k, (scope, None), sealed), pos);
                let c = encode(&k, scope, None, pos);
                assert_eq!(decode(&k, scope, None, &c), Some(pos));
                // The clear position appears nowhere in the cursor.
                assert_ne!(u64::from_str_radix(&c[..16], 16).unwrap(), pos);
                assert!(!c.contains(&format!("{pos:016x}")));
            }
        }
        // Positions 1..=200 of one scope: cursors are not ordered like positions, and the
        // same position in two scopes gives unrelated cursors.
        let a = Scope::Session(Some("a"));
        let b = Scope::Session(Some("b"));
        let cursors: Vec<String> = (1..=200).map(|p| encode(&k, a, None, p)).collect();
        let mut sorted = cursors.clone();
        sorted.sort();
        assert_ne!(sorted, cursors);
        let same_prefix = (1..=200)
            .filter(|p| encode(&k, a, None, *p)[..8] == encode(&k, b, None, *p)[..8])
            .count();
        assert!(same_prefix < 3, "{same_prefix}");
        // Neighbouring positions differ in about half the bits of the sealed block.
        let sealed_bits: u32 = (1..=200u64)
            .map(|p| (encrypt(&k, (a, None), p) ^ encrypt(&k, (a, None), p + 1)).count_ones())
            .sum();
        let mean = f64::from(sealed_bits) / 200.0;
        assert!((24.0..40.0).contains(&mean), "{mean}");
    }
}
