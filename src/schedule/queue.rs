//! [`DueQueue`]: the tasks waiting for a poll, earliest due first (ties in the order they were
//! scheduled). A binary heap of 16-byte items with lazy deletion: rescheduling pushes a new
//! item and leaves the old one stale (its `seq` no longer matches the task's), so every
//! operation is O(log n) with a small, contiguous footprint. The scheduler drops stale items
//! when they reach the top and compacts the heap when they outnumber the live ones.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One scheduled poll: `(due_ms, seq, slot)`. `seq` numbers every push (ties go in push
/// order, and an item is current only while its task still holds that `seq`); `slot` names
/// the task's entry.
pub type Item = (u64, u32, u32);

#[derive(Debug, Default, Clone)]
pub struct DueQueue {
    heap: BinaryHeap<Reverse<Item>>,
    next_seq: u32,
}

impl DueQueue {
    /// Schedules `slot` at `due`; answers the item's `seq`.
    pub fn push(&mut self, due: u64, slot: u32) -> u32 {
        let seq = self.next_seq;
        // Wrapping: a stale item could only be mistaken for a current one if 2^32 pushes later
        // its task were due at the very same millisecond in the same slot.
        self.next_seq = seq.wrapping_add(1);
        self.heap.push(Reverse((due, seq, slot)));
        seq
    }

    /// The earliest item (possibly stale).
    pub fn peek(&self) -> Option<Item> {
        self.heap.peek().map(|item| item.0)
    }

    pub fn pop(&mut self) -> Option<Item> {
        self.heap.pop().map(|item| item.0)
    }

    /// Keeps only the items `current` accepts (O(n)).
    pub fn retain(&mut self, current: impl Fn(&Item) -> bool) {
        self.heap.retain(|item| current(&item.0));
    }

    /// Items held, stale ones included.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Item> {
        self.heap.iter().map(|item| &item.0)
    }

    /// The `seq` of the next push (serialized so that a restored queue orders ties the same).
    pub fn next_seq(&self) -> u32 {
        self.next_seq
    }

    /// A queue whose next push gets `next_seq`, holding `items`.
    pub fn from_items(items: Vec<Item>, next_seq: u32) -> DueQueue {
        DueQueue {
            heap: items.into_iter().map(Reverse).collect(),
            next_seq,
        }
    }
}
