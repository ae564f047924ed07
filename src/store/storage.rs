//! The storage adapter: [`Storage`], the contract every implementation keeps, and the built-in
//! [`MemoryStorage`].
//!
//! # The adapter contract
//!
//! A storage keeps [`TaskRecord`]s by id and knows nothing of the rules: it never changes a
//! record it is given. The store is the only writer of record contents.
//!
//! 1. `get(id)` returns the last record stored under `id`, or `None`.
//! 2. `put_if_version(record, expected)` is an atomic compare-and-swap on `record.id`:
//!    with `expected = None` it inserts only if no record has that id; with `Some(v)` it replaces
//!    only if the stored record has `version == v`. Otherwise it stores nothing and returns
//!    [`Conflict`]. A record's `seq` and `session` never change between versions (indexes may
//!    rely on it).
//! 3. `delete(id)` removes the record and returns it (`None` if absent).
//! 4. `range_after(scope, after, limit)` returns at most `limit` records of `scope` whose `seq`
//!    is greater than `after`, in increasing `seq` order (creation order), in O(limit) (plus a
//!    logarithmic seek). Inserts and deletes never shift other records' positions: a keyset.
//!    [`Scope::All`] is every record; [`Scope::Session(s)`](Scope::Session) those whose
//!    `session` equals `s` exactly (`None` = unbound records).
//! 5. `expired(now_ms, limit)` returns at most `limit` ids of records whose
//!    [`expires_at_ms`](TaskRecord::expires_at_ms) is `Some(t)` with `t < now_ms`, earliest
//!    first, without scanning unexpired records (an index on `expires_at`).
//! 6. `count_live(session)` counts the records bound to exactly `session` whose status is not
//!    terminal.
//! 7. `next_sequence()` returns a number greater than every number it returned before and than
//!    every stored `seq` (a database sequence); `last_sequence()` the greatest returned so far
//!    (0 if none).
//!
//! Operations are synchronous and infallible apart from [`Conflict`]; a storage shared by many
//! processes makes `put_if_version` and `next_sequence` atomic in the database. The reusable
//! contract test is [`crate::store::contract::storage_contract`].

use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use super::record::TaskRecord;

/// A fast, unkeyed hash (FxHash's multiply-rotate, 8 bytes at a time) for the maps keyed by task
/// ids and sequence numbers: the store draws every id from its random source and numbers every
/// record itself, so no caller chooses the keys stored (a caller may only look one up), and a
/// keyed hash (SipHash) would buy nothing against collision flooding there. Session strings come
/// from the host: their map keeps the standard keyed hash.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

const ID_HASH_K: u64 = 0xf135_7aea_2e62_a9c5;

impl IdHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(ID_HASH_K);
    }
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            for (w, b) in word.iter_mut().zip(rest) {
                *w = *b;
            }
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        // The top bits (hashbrown's control byte) mixed down into the low ones (its bucket).
        self.0 ^ (self.0 >> 29)
    }
}

/// The maps keyed by what the store itself chose (see [`IdHasher`]).
type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// Which records a listing covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope<'a> {
    /// Every record (the host itself, or a store shared across sessions).
    All,
    /// Records bound to exactly this session (`None`: records bound to no session).
    Session(Option<&'a str>),
}

impl Scope<'_> {
    /// Whether `record` belongs to this scope.
    pub fn contains(&self, record: &TaskRecord) -> bool {
        match self {
            Scope::All => true,
            Scope::Session(s) => record.session.as_deref() == *s,
        }
    }
}

/// A compare-and-swap write lost: the stored version was not the expected one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict;

/// Where task records live. See the module docs for the contract.
pub trait Storage {
    fn get(&self, id: &str) -> Option<TaskRecord>;
    /// `f` of the stored record of `id` (`None`: not stored), without a copy of the record where
    /// the storage can (the default reads a copy with [`get`](Storage::get)).
    fn read<T>(&self, id: &str, f: impl FnOnce(&TaskRecord) -> T) -> Option<T>
    where
        Self: Sized,
    {
        self.get(id).as_ref().map(f)
    }
    /// The stored version of `id` (what `put_if_version` compares), without a copy of the record
    /// where the storage can (the default reads the record).
    fn version(&self, id: &str) -> Option<u64> {
        self.get(id).map(|r| r.version)
    }
    fn put_if_version(&mut self, record: TaskRecord, expected: Option<u64>)
        -> Result<(), Conflict>;
    /// Replaces the stored record of `id`, when it is at `version`, by what `f` makes of it
    /// (`f` keeps its id, sequence, session and deadline, and bumps its version); answers `f`'s
    /// answer, or [`Conflict`] (nothing stored). A compare-and-swap as
    /// [`put_if_version`](Storage::put_if_version), without a copy of the record where the
    /// storage can change it in place (the default changes a copy read with
    /// [`get`](Storage::get) and writes it back).
    fn update<T>(
        &mut self,
        id: &str,
        version: u64,
        f: impl FnOnce(&mut TaskRecord) -> T,
    ) -> Result<T, Conflict>
    where
        Self: Sized,
    {
        let mut record = self.get(id).ok_or(Conflict)?;
        if record.version != version {
            return Err(Conflict);
        }
        let answer = f(&mut record);
        self.put_if_version(record, Some(version)).map(|()| answer)
    }
    fn delete(&mut self, id: &str) -> Option<TaskRecord>;
    fn range_after(&self, scope: Scope<'_>, after: u64, limit: usize) -> Vec<TaskRecord>;
    fn expired(&self, now_ms: u64, limit: usize) -> Vec<String>;
    fn count_live(&self, session: Option<&str>) -> usize;
    fn next_sequence(&mut self) -> u64;
    fn last_sequence(&self) -> u64;
}

/// The built-in storage: a hash map plus ordered indexes, all in memory.
///
/// The ordered indexes are all `BTreeSet<(u64, u64)>` (sessions are numbered while they hold
/// records), so the wasm build carries one B-tree instantiation instead of one per index.
#[derive(Debug, Clone, Default)]
pub struct MemoryStorage {
    records: IdMap<String, TaskRecord>,
    /// `seq` → id.
    ids: IdMap<u64, String>,
    /// `(ALL_SCOPE, seq)` for every record, `(session number, seq)` per session.
    by_scope: BTreeSet<(u64, u64)>,
    /// `(expires_at_ms, seq)`.
    by_expiry: BTreeSet<(u64, u64)>,
    sessions: HashMap<Option<String>, SessionEntry>,
    next_session_no: u64,
    sequence: u64,
}

/// The scope key of [`Scope::All`] in `by_scope` (session numbers start at 1).
const ALL_SCOPE: u64 = 0;

#[derive(Debug, Clone, Default)]
struct SessionEntry {
    /// The session's number in `by_scope`.
    no: u64,
    /// Records bound to the session; the entry goes when it reaches 0.
    records: usize,
    /// Of those, the non-terminal ones.
    live: usize,
}

/// Equal when they hold the same records and sequence (the indexes follow from those).
impl PartialEq for MemoryStorage {
    fn eq(&self, other: &Self) -> bool {
        self.records == other.records && self.sequence == other.sequence
    }
}

impl MemoryStorage {
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty storage whose sequence continues after `last` (used by restore).
    pub fn with_sequence(last: u64) -> Self {
        MemoryStorage {
            sequence: last,
            ..Self::default()
        }
    }

    /// How many records are stored.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn unindex(&mut self, r: &TaskRecord) {
        self.unindex_at(
            r.seq,
            r.expires_at_ms(),
            &r.session,
            !r.status().is_terminal(),
        );
    }

    /// Drops a record from the indexes by its sequence, deadline, session and liveness.
    fn unindex_at(
        &mut self,
        seq: u64,
        deadline: Option<u64>,
        session: &Option<String>,
        live: bool,
    ) {
        self.ids.remove(&seq);
        self.by_scope.remove(&(ALL_SCOPE, seq));
        if let Some(t) = deadline {
            self.by_expiry.remove(&(t, seq));
        }
        let gone = match self.sessions.get_mut(session) {
            Some(e) => {
                self.by_scope.remove(&(e.no, seq));
                e.records = e.records.saturating_sub(1);
                if live {
                    e.live = e.live.saturating_sub(1);
                }
                e.records == 0
            }
            None => false,
        };
        if gone {
            self.sessions.remove(session);
        }
    }

    fn index(&mut self, r: &TaskRecord) {
        self.ids.insert(r.seq, r.id.clone());
        self.by_scope.insert((ALL_SCOPE, r.seq));
        if let Some(t) = r.expires_at_ms() {
            self.by_expiry.insert((t, r.seq));
        }
        let fresh = self.next_session_no.saturating_add(1);
        let e = self
            .sessions
            .entry(r.session.clone())
            .or_insert(SessionEntry {
                no: fresh,
                records: 0,
                live: 0,
            });
        if e.no == fresh {
            self.next_session_no = fresh;
        }
        e.records += 1;
        if !r.status().is_terminal() {
            e.live += 1;
        }
        self.by_scope.insert((e.no, r.seq));
        self.sequence = self.sequence.max(r.seq);
    }

    fn id_at(&self, seq: u64) -> Option<&TaskRecord> {
        self.ids.get(&seq).and_then(|id| self.records.get(id))
    }
}

impl Storage for MemoryStorage {
    fn get(&self, id: &str) -> Option<TaskRecord> {
        self.records.get(id).cloned()
    }

    fn read<T>(&self, id: &str, f: impl FnOnce(&TaskRecord) -> T) -> Option<T> {
        self.records.get(id).map(f)
    }

    fn version(&self, id: &str) -> Option<u64> {
        self.records.get(id).map(|r| r.version)
    }

    fn put_if_version(
        &mut self,
        record: TaskRecord,
        expected: Option<u64>,
    ) -> Result<(), Conflict> {
        let stored = self.records.get_mut(&record.id);
        if stored.as_ref().map(|r| r.version) != expected {
            return Err(Conflict);
        }
        // An update keeps the id, sequence, session and deadline (only a status change moves the
        // session's live count): replace the record in place, the indexes stay.
        if let Some(old) = stored {
            if old.seq == record.seq
                && old.session == record.session
                && old.expires_at_ms() == record.expires_at_ms()
            {
                let was_live = !old.status().is_terminal();
                let is_live = !record.status().is_terminal();
                if was_live != is_live {
                    if let Some(e) = self.sessions.get_mut(&record.session) {
                        e.live = if is_live {
                            e.live.saturating_add(1)
                        } else {
                            e.live.saturating_sub(1)
                        };
                    }
                }
                *old = record;
                return Ok(());
            }
        }
        if let Some(old) = self.records.remove(&record.id) {
            self.unindex(&old);
        }
        self.index(&record);
        self.records.insert(record.id.clone(), record);
        Ok(())
    }

    fn update<T>(
        &mut self,
        id: &str,
        version: u64,
        f: impl FnOnce(&mut TaskRecord) -> T,
    ) -> Result<T, Conflict> {
        let Some(record) = self.records.get_mut(id).filter(|r| r.version == version) else {
            return Err(Conflict);
        };
        let (seq, deadline, was_live) = (
            record.seq,
            record.expires_at_ms(),
            !record.status().is_terminal(),
        );
        let answer = f(record);
        let is_live = !record.status().is_terminal();
        if record.seq != seq || record.expires_at_ms() != deadline {
            // Not what an update does (see the trait): reindexed all the same.
            let moved = self.records.remove(id).ok_or(Conflict)?;
            self.unindex_at(seq, deadline, &moved.session, was_live);
            self.index(&moved);
            self.records.insert(moved.id.clone(), moved);
        } else if was_live != is_live {
            if let Some(e) = self.sessions.get_mut(&record.session) {
                e.live = if is_live {
                    e.live.saturating_add(1)
                } else {
                    e.live.saturating_sub(1)
                };
            }
        }
        Ok(answer)
    }

    fn delete(&mut self, id: &str) -> Option<TaskRecord> {
        let old = self.records.remove(id)?;
        self.unindex(&old);
        Some(old)
    }

    fn range_after(&self, scope: Scope<'_>, after: u64, limit: usize) -> Vec<TaskRecord> {
        let Some(start) = after.checked_add(1) else {
            return Vec::new();
        };
        let no = match scope {
            Scope::All => ALL_SCOPE,
            Scope::Session(s) => match self.sessions.get(&s.map(str::to_owned)) {
                Some(e) => e.no,
                None => return Vec::new(),
            },
        };
        self.by_scope
            .range((no, start)..)
            .take_while(|(k, _)| *k == no)
            .filter_map(|(_, seq)| self.id_at(*seq))
            .take(limit)
            .cloned()
            .collect()
    }

    fn expired(&self, now_ms: u64, limit: usize) -> Vec<String> {
        self.by_expiry
            .range(..(now_ms, 0))
            .filter_map(|(_, seq)| self.ids.get(seq).cloned())
            .take(limit)
            .collect()
    }

    fn count_live(&self, session: Option<&str>) -> usize {
        self.sessions
            .get(&session.map(str::to_owned))
            .map_or(0, |e| e.live)
    }

    fn next_sequence(&mut self) -> u64 {
        self.sequence = self.sequence.saturating_add(1);
        self.sequence
    }

    fn last_sequence(&self) -> u64 {
        self.sequence
    }
}
