//! The storage adapter: [`Storage`], the contract every implementation keeps, and the built-in
//! [`MemoryStorage`].
//!
//! # The adapter contract
//!
//! This is the one text of the contract: the Rust [`Storage`] trait keeps clauses 1–7, every JS
//! adapter (`js/server/storage/*.ts`, the async `TaskStorage` of `types.ts`, which adds how
//! calls resolve and fail) keeps 1–13 (SQLite and Postgres also 14), and [`MemoryStorage`]
//! keeps 1–7 and 10–13 (the JS `MemoryStorage` is it, behind the server module, with the
//! change feed of 8 and 9 in JS).
//!
//! A storage keeps task records by id and knows nothing of the rules: it never changes a
//! record it is given (a JS adapter stores and returns the stored JSON of
//! [`TaskRecord::to_json`] as it is). The store is the only writer of record contents.
//!
//! 1. `get(id)` returns the last record stored under `id`, or none.
//! 2. `put_if_version(record, expected)` is an atomic compare-and-swap on `record.id`:
//!    with `expected = None` it inserts only if no record has that id; with `Some(v)` it replaces
//!    only if the stored record has `version == v`. Otherwise it stores nothing and answers
//!    [`Conflict`] (JS: `false`). A record's `seq` and `session` never change between versions
//!    (indexes may rely on it).
//! 3. `delete(id)` removes the record and returns it (none if absent).
//! 4. `range_after(scope, after, limit)` returns at most `limit` records of `scope` whose `seq`
//!    is greater than `after`, in increasing `seq` order (creation order), in O(limit) (plus a
//!    logarithmic seek). Inserts and deletes never shift other records' positions: a keyset.
//!    [`Scope::All`] is every record; [`Scope::Session(s)`](Scope::Session) those whose
//!    `session` equals `s` exactly (`None` = unbound records).
//! 5. `expired(now_ms, limit)` returns at most `limit` ids of records whose expiry
//!    ([`expires_at_ms`](TaskRecord::expires_at_ms): `createdAtMs + ttlMs`, none when `ttlMs`
//!    is null) is strictly before `now_ms`, earliest first (ties in `seq` order), without
//!    scanning unexpired records (an index on the expiry).
//! 6. `count_live(session)` counts the records bound to exactly `session` whose status is not
//!    terminal (not completed, failed, cancelled).
//! 7. `next_sequence()` returns a number greater than every number it returned before (in any
//!    process sharing the storage) and than every stored `seq` (a database sequence);
//!    `last_sequence()` the greatest returned or stored so far (0 if none).
//! 8. (JS) `subscribe(listener)`: the change feed. Every successful write (put or delete), from
//!    this process or any other sharing the storage, reaches every subscriber as
//!    `{ kind, id, version }` (the record's key and its new revision; for a delete, the deleted
//!    record's version), in the order each writer made them for one id. Delivery is at most once
//!    and asynchronous: a subscriber that must not miss anything reads the record again on each
//!    change (its `version` tells which revision it has). Resolves, once the feed is live (writes
//!    made after that are delivered), with an `unsubscribe` function.
//! 9. (JS) `close()` releases connections; later calls reject with a StorageError (`closed`).
//! 10. `range_live(after, limit)`: at most `limit` live records (status not terminal) whose
//!     `seq` is greater than `after`, in increasing `seq` order, by an index on the live records
//!     (terminal ones are not scanned): what the lease check of `SharedTaskServer` reads.
//! 11. `get_many(ids)`: clause 1 for each id of `ids` (distinct, at most 1000), the answers in the
//!     order of `ids`, in one round trip where the engine allows.
//! 12. `put_each_if_version(entries)`: clause 2 for each `(record, expected)` (replacements
//!     only: `expected` a version; distinct ids, at most 1000), each atomic on its own (not all
//!     together), answering one success per entry in order; one round trip where the engine
//!     allows. What the lease renewals of `SharedTaskServer` write.
//! 13. `next_sequence_with_live(session)`: clause 7's `next_sequence()` and clause 6's
//!     `count_live(session)` in one round trip (one statement, transaction or pipeline),
//!     answering both: what `SharedTaskServer` reads before it creates a task of a session under
//!     its cap (a number taken for a call then refused is skipped: clause 7 asks only
//!     "greater").
//! 14. (JS, optional: an adapter without it is served by 13 and 2) `insertNew(record, cap)`:
//!     clause 7's `nextSequence()` and clause 2's insert in one atomic step (one statement or
//!     transaction). The record's own `seq` is ignored: it is stored with `seq` = the number
//!     taken (its stored JSON is the given record's with that `seq`), unless `cap` is a number
//!     and the live records (clause 6) of `record.session` are already `cap` or more, or a
//!     record has its id (nothing stored either way). Resolves `{ seq }` (the number it was
//!     stored with) or `{ seq: null, live }` (refused: `live` the count it saw, `null` for an id
//!     conflict). What `SharedTaskServer` creates a task with where the adapter has it (SQLite,
//!     Postgres): one round trip, the session's cap checked in the same step.
//!
//! The Rust operations are synchronous and infallible apart from [`Conflict`]; a storage shared
//! by many processes makes `put_if_version` and `next_sequence` atomic in the database. The
//! reusable contract tests are [`crate::store::contract::storage_contract`] (Rust) and
//! `tests/js/storage/contract.mjs` (every JS adapter).

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

/// What [`MemoryStorage`] indexes a record by: [`TaskRecord`]s in the Rust store, the stored
/// JSON text of a JS adapter (with its index fields) behind the JS `MemoryStorage`.
pub trait Indexed {
    /// The record's id (its key).
    fn key(&self) -> &str;
    /// Its revision (what `put_if_version` compares).
    fn revision(&self) -> u64;
    /// Its creation sequence number (the keyset order).
    fn sequence(&self) -> u64;
    /// The session it is bound to.
    fn bound_session(&self) -> Option<&str>;
    /// Not terminal.
    fn is_live(&self) -> bool;
    /// When it expires (Unix ms), if ever.
    fn deadline(&self) -> Option<u64>;
}

/// A stored task of a JS adapter: its JSON text (what the database adapters keep) and the index
/// fields read from it. What the JS `MemoryStorage` keeps, through `src/wasm/storage.rs`.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredText {
    /// The record's JSON text, kept as it is.
    pub text: String,
    pub id: String,
    pub version: u64,
    pub seq: u64,
    pub session: Option<String>,
    /// Not terminal.
    pub live: bool,
    pub expires_at_ms: Option<u64>,
}

impl Indexed for StoredText {
    fn key(&self) -> &str {
        &self.id
    }
    fn revision(&self) -> u64 {
        self.version
    }
    fn sequence(&self) -> u64 {
        self.seq
    }
    fn bound_session(&self) -> Option<&str> {
        self.session.as_deref()
    }
    fn is_live(&self) -> bool {
        self.live
    }
    fn deadline(&self) -> Option<u64> {
        self.expires_at_ms
    }
}

impl Indexed for TaskRecord {
    fn key(&self) -> &str {
        &self.id
    }
    fn revision(&self) -> u64 {
        self.version
    }
    fn sequence(&self) -> u64 {
        self.seq
    }
    fn bound_session(&self) -> Option<&str> {
        self.session.as_deref()
    }
    fn is_live(&self) -> bool {
        !self.status().is_terminal()
    }
    fn deadline(&self) -> Option<u64> {
        self.expires_at_ms()
    }
}

/// The built-in storage: a hash map plus ordered indexes, all in memory, of [`TaskRecord`]s (the
/// Rust store's) or of any [`Indexed`] record (the JS `MemoryStorage`'s stored JSON).
///
/// The ordered indexes are all `BTreeSet<(u64, u64)>` (sessions are numbered while they hold
/// records), so the wasm build carries one B-tree instantiation instead of one per index.
#[derive(Debug, Clone)]
pub struct MemoryStorage<R = TaskRecord> {
    records: IdMap<String, R>,
    /// `seq` → id.
    ids: IdMap<u64, String>,
    /// `(ALL_SCOPE, seq)` for every record, `(LIVE_SCOPE, seq)` for the live ones,
    /// `(session number, seq)` per session.
    by_scope: BTreeSet<(u64, u64)>,
    /// `(expires_at_ms, seq)`.
    by_expiry: BTreeSet<(u64, u64)>,
    sessions: HashMap<Option<String>, SessionEntry>,
    next_session_no: u64,
    sequence: u64,
}

/// The scope key of [`Scope::All`] in `by_scope` (session numbers start at 1).
const ALL_SCOPE: u64 = 0;
/// The scope key of the live records in `by_scope` (clause 10; session numbers never reach it).
const LIVE_SCOPE: u64 = u64::MAX;

#[derive(Debug, Clone, Default)]
struct SessionEntry {
    /// The session's number in `by_scope`.
    no: u64,
    /// Records bound to the session; the entry goes when it reaches 0.
    records: usize,
    /// Of those, the non-terminal ones.
    live: usize,
}

impl<R> Default for MemoryStorage<R> {
    fn default() -> Self {
        MemoryStorage {
            records: IdMap::default(),
            ids: IdMap::default(),
            by_scope: BTreeSet::new(),
            by_expiry: BTreeSet::new(),
            sessions: HashMap::new(),
            next_session_no: 0,
            sequence: 0,
        }
    }
}

/// Equal when they hold the same records and sequence (the indexes follow from those).
impl<R: PartialEq> PartialEq for MemoryStorage<R> {
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
}

impl<R: Indexed> MemoryStorage<R> {
    /// How many records are stored.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn unindex(&mut self, r: &R) {
        let session = r.bound_session().map(str::to_owned);
        self.unindex_at(r.sequence(), r.deadline(), &session, r.is_live());
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
        if live {
            self.by_scope.remove(&(LIVE_SCOPE, seq));
        }
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

    fn index(&mut self, r: &R) {
        let seq = r.sequence();
        self.ids.insert(seq, r.key().to_owned());
        self.by_scope.insert((ALL_SCOPE, seq));
        if r.is_live() {
            self.by_scope.insert((LIVE_SCOPE, seq));
        }
        if let Some(t) = r.deadline() {
            self.by_expiry.insert((t, seq));
        }
        // Session numbers stop short of LIVE_SCOPE.
        let fresh = self
            .next_session_no
            .saturating_add(1)
            .min(LIVE_SCOPE.saturating_sub(1));
        let e = self
            .sessions
            .entry(r.bound_session().map(str::to_owned))
            .or_insert(SessionEntry {
                no: fresh,
                records: 0,
                live: 0,
            });
        if e.no == fresh {
            self.next_session_no = fresh;
        }
        e.records += 1;
        if r.is_live() {
            e.live += 1;
        }
        self.by_scope.insert((e.no, seq));
        self.sequence = self.sequence.max(seq);
    }

    /// Moves the record at `seq` of `session` between live and terminal in the indexes.
    fn relive(&mut self, seq: u64, session: Option<&str>, was_live: bool, is_live: bool) {
        if was_live == is_live {
            return;
        }
        if is_live {
            self.by_scope.insert((LIVE_SCOPE, seq));
        } else {
            self.by_scope.remove(&(LIVE_SCOPE, seq));
        }
        if let Some(e) = self.sessions.get_mut(&session.map(str::to_owned)) {
            e.live = if is_live {
                e.live.saturating_add(1)
            } else {
                e.live.saturating_sub(1)
            };
        }
    }

    fn id_at(&self, seq: u64) -> Option<&R> {
        self.ids.get(&seq).and_then(|id| self.records.get(id))
    }

    /// Clause 1, by reference.
    pub fn get_ref(&self, id: &str) -> Option<&R> {
        self.records.get(id)
    }

    /// Clause 2.
    pub fn put_if_version(&mut self, record: R, expected: Option<u64>) -> Result<(), Conflict> {
        let stored = self.records.get_mut(record.key());
        if stored.as_ref().map(|r| r.revision()) != expected {
            return Err(Conflict);
        }
        // An update keeps the id, sequence, session and deadline (only a status change moves the
        // live indexes): replace the record in place, the other indexes stay.
        if let Some(old) = stored {
            if old.sequence() == record.sequence()
                && old.bound_session() == record.bound_session()
                && old.deadline() == record.deadline()
            {
                let (was_live, is_live) = (old.is_live(), record.is_live());
                *old = record;
                if was_live != is_live {
                    let (seq, session) = (old.sequence(), old.bound_session().map(str::to_owned));
                    self.relive(seq, session.as_deref(), was_live, is_live);
                }
                return Ok(());
            }
        }
        if let Some(old) = self.records.remove(record.key()) {
            self.unindex(&old);
        }
        self.index(&record);
        self.records.insert(record.key().to_owned(), record);
        Ok(())
    }

    /// Clause 3.
    pub fn delete(&mut self, id: &str) -> Option<R> {
        let old = self.records.remove(id)?;
        self.unindex(&old);
        Some(old)
    }

    /// The records of `scope` from the `by_scope` key `no`, after `after`, at most `limit`.
    fn page(&self, no: u64, after: u64, limit: usize) -> Vec<&R> {
        let Some(start) = after.checked_add(1) else {
            return Vec::new();
        };
        self.by_scope
            .range((no, start)..)
            .take_while(|(k, _)| *k == no)
            .filter_map(|(_, seq)| self.id_at(*seq))
            .take(limit)
            .collect()
    }

    /// Clause 4, by reference.
    pub fn range_refs(&self, scope: Scope<'_>, after: u64, limit: usize) -> Vec<&R> {
        let no = match scope {
            Scope::All => ALL_SCOPE,
            Scope::Session(s) => match self.sessions.get(&s.map(str::to_owned)) {
                Some(e) => e.no,
                None => return Vec::new(),
            },
        };
        self.page(no, after, limit)
    }

    /// Clause 10, by reference.
    pub fn range_live(&self, after: u64, limit: usize) -> Vec<&R> {
        self.page(LIVE_SCOPE, after, limit)
    }

    /// Clause 11, by reference.
    pub fn get_many<'a>(&self, ids: impl IntoIterator<Item = &'a str>) -> Vec<Option<&R>> {
        ids.into_iter().map(|id| self.records.get(id)).collect()
    }

    /// Clause 12: each `(record, expected)` as [`put_if_version`](Self::put_if_version).
    pub fn put_each_if_version(
        &mut self,
        entries: impl IntoIterator<Item = (R, u64)>,
    ) -> Vec<bool> {
        entries
            .into_iter()
            .map(|(record, expected)| self.put_if_version(record, Some(expected)).is_ok())
            .collect()
    }

    /// Clause 5.
    pub fn expired(&self, now_ms: u64, limit: usize) -> Vec<String> {
        self.by_expiry
            .range(..(now_ms, 0))
            .filter_map(|(_, seq)| self.ids.get(seq).cloned())
            .take(limit)
            .collect()
    }

    /// Clause 6.
    pub fn count_live(&self, session: Option<&str>) -> usize {
        self.sessions
            .get(&session.map(str::to_owned))
            .map_or(0, |e| e.live)
    }

    /// Clause 7.
    pub fn next_sequence(&mut self) -> u64 {
        self.sequence = self.sequence.saturating_add(1);
        self.sequence
    }

    /// Clause 7.
    pub fn last_sequence(&self) -> u64 {
        self.sequence
    }

    /// Clause 13: the next sequence number and the live records of `session`.
    pub fn next_sequence_with_live(&mut self, session: Option<&str>) -> (u64, usize) {
        let live = self.count_live(session);
        (self.next_sequence(), live)
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
        MemoryStorage::put_if_version(self, record, expected)
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
        let (seq, deadline, was_live) = (record.seq, record.expires_at_ms(), record.is_live());
        let answer = f(record);
        let is_live = record.is_live();
        if record.seq != seq || record.expires_at_ms() != deadline {
            // Not what an update does (see the trait): reindexed all the same.
            let moved = self.records.remove(id).ok_or(Conflict)?;
            self.unindex_at(seq, deadline, &moved.session, was_live);
            self.index(&moved);
            self.records.insert(moved.id.clone(), moved);
        } else if was_live != is_live {
            let session = record.session.clone();
            self.relive(seq, session.as_deref(), was_live, is_live);
        }
        Ok(answer)
    }

    fn delete(&mut self, id: &str) -> Option<TaskRecord> {
        MemoryStorage::delete(self, id)
    }

    fn range_after(&self, scope: Scope<'_>, after: u64, limit: usize) -> Vec<TaskRecord> {
        self.range_refs(scope, after, limit)
            .into_iter()
            .cloned()
            .collect()
    }

    fn expired(&self, now_ms: u64, limit: usize) -> Vec<String> {
        MemoryStorage::expired(self, now_ms, limit)
    }

    fn count_live(&self, session: Option<&str>) -> usize {
        MemoryStorage::count_live(self, session)
    }

    fn next_sequence(&mut self) -> u64 {
        MemoryStorage::next_sequence(self)
    }

    fn last_sequence(&self) -> u64 {
        MemoryStorage::last_sequence(self)
    }
}

#[cfg(test)]
mod tests {
    //! Clauses 10–13 and the live index on the JS `MemoryStorage`'s record ([`StoredText`]);
    //! clauses 1–7 are [`crate::store::contract`]'s, run in tests/store_contract.rs.
    use super::*;

    type Rec = StoredText;

    fn rec(id: &str, seq: u64, session: Option<&str>, live: bool) -> Rec {
        Rec {
            text: String::new(),
            id: id.into(),
            version: 1,
            seq,
            session: session.map(str::to_owned),
            live,
            expires_at_ms: None,
        }
    }

    fn ids(rs: &[&Rec]) -> Vec<String> {
        rs.iter().map(|r| r.id.clone()).collect()
    }

    #[test]
    fn range_live_follows_every_write() {
        let mut s = MemoryStorage::<Rec>::default();
        for (id, seq, live) in [
            ("a", 1, true),
            ("b", 2, false),
            ("c", 3, true),
            ("d", 5, true),
        ] {
            assert_eq!(
                s.put_if_version(rec(id, seq, Some("x"), live), None),
                Ok(())
            );
        }
        assert_eq!(
            ids(&s.range_live(0, 10)),
            ["a", "c", "d"],
            "10: live only, in seq order"
        );
        assert_eq!(ids(&s.range_live(1, 1)), ["c"], "10: after and limit");
        assert_eq!(ids(&s.range_live(u64::MAX, 10)), Vec::<String>::new());
        // In place: a status change moves the live index and the session's count.
        let mut done = rec("c", 3, Some("x"), false);
        done.version = 2;
        assert_eq!(s.put_if_version(done, Some(1)), Ok(()));
        assert_eq!(ids(&s.range_live(0, 10)), ["a", "d"]);
        assert_eq!(s.count_live(Some("x")), 2);
        let mut back = rec("b", 2, Some("x"), true);
        back.version = 2;
        assert_eq!(s.put_if_version(back, Some(1)), Ok(()));
        assert_eq!(ids(&s.range_live(0, 10)), ["a", "b", "d"]);
        // Reindexed (another session): the live entry moves with it.
        let mut moved = rec("a", 1, Some("y"), true);
        moved.version = 2;
        assert_eq!(s.put_if_version(moved, Some(1)), Ok(()));
        assert_eq!(ids(&s.range_live(0, 10)), ["a", "b", "d"]);
        assert_eq!((s.count_live(Some("x")), s.count_live(Some("y"))), (2, 1));
        assert!(s.delete("d").is_some());
        assert_eq!(
            ids(&s.range_live(0, 10)),
            ["a", "b"],
            "10: a delete leaves the index"
        );
        // The scopes of clause 4 never see the live index's key.
        assert_eq!(ids(&s.range_refs(Scope::All, 0, 10)), ["a", "b", "c"]);
        assert_eq!(
            ids(&s.range_refs(Scope::Session(Some("x")), 0, 10)),
            ["b", "c"]
        );
    }

    #[test]
    fn batches_and_sequence_with_live() {
        let mut s = MemoryStorage::<Rec>::default();
        assert_eq!(s.put_if_version(rec("a", 1, None, true), None), Ok(()));
        assert_eq!(s.put_if_version(rec("b", 2, Some("s"), true), None), Ok(()));
        let got = s.get_many(["b", "zz", "a"]);
        assert_eq!(
            got.iter()
                .map(|r| r.map(|r| r.id.as_str()))
                .collect::<Vec<_>>(),
            [Some("b"), None, Some("a")],
            "11: in the order asked"
        );
        let mut a2 = rec("a", 1, None, false);
        a2.version = 2;
        let mut b2 = rec("b", 2, Some("s"), true);
        b2.version = 2;
        let mut c2 = rec("c", 9, None, true);
        c2.version = 2;
        assert_eq!(
            s.put_each_if_version([(a2, 1), (b2, 7), (c2, 1)]),
            [true, false, false],
            "12: each on its own"
        );
        assert_eq!(s.get_ref("a").map(|r| r.version), Some(2));
        assert_eq!(s.get_ref("b").map(|r| r.version), Some(1));
        assert!(s.get_ref("c").is_none(), "12: replacements only");
        assert_eq!(s.next_sequence_with_live(Some("s")), (3, 1), "13");
        assert_eq!(
            s.next_sequence_with_live(None),
            (4, 0),
            "13: a is terminal now"
        );
        assert_eq!(s.last_sequence(), 4);
    }
}
