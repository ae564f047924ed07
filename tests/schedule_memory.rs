//! Memory per tracked task (target: under 256 bytes, key included): 100,000 tasks
//! tracked under 42-character keys, then all polled and answered once, measured by a counting
//! global allocator (bytes requested and still held, capacity slack of the growing tables
//! included; the allocator's own per-block overhead is not).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use mcp_tasks_wasm::schedule::{Scheduler, SchedulerConfig, SchedulerEvent, TrackOptions};
use serde_json::json;

struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size() as isize, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        HELD.fetch_add(new_size as isize - layout.size() as isize, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const N: usize = 100_000;
const T0: u64 = 1_764_066_600_000;

#[test]
fn a_tracked_task_costs_under_256_bytes() {
    // Keys and snapshots are made outside the measured span.
    let keys: Vec<String> = (0..N).map(|i| format!("srv-{}/{i:036x}", i % 4)).collect();
    assert!(keys.iter().all(|k| k.len() == 42));
    let task = json!({ "taskId": "t", "status": "working", "createdAt": "2025-11-25T10:30:00Z",
        "lastUpdatedAt": "2025-11-25T10:30:00Z", "ttl": 3_600_000, "pollInterval": 2000 });

    let before = HELD.load(Ordering::SeqCst);
    let mut s = Scheduler::new(SchedulerConfig::default(), 1).unwrap();
    for (i, key) in keys.iter().enumerate() {
        let options = TrackOptions {
            server: Some(format!("srv-{}", i % 4)),
            ..TrackOptions::default()
        };
        let events = s.track(key, options, Some(&task), T0).unwrap();
        drop(events);
    }
    let held = HELD.load(Ordering::SeqCst) - before;
    let per_task = held as f64 / N as f64;
    println!("scheduler: {held} bytes for {N} tasks = {per_task:.1} bytes per task (key of 42 bytes included)");
    assert!(per_task < 256.0, "{per_task:.1} bytes per tracked task");
    assert_eq!(s.len(), N);

    // Every task handed out and answered: each reschedule leaves one stale queue item until
    // the queue is compacted (at twice the tracked tasks), the worst case of lazy deletion.
    let handed = s.next_due(T0 + 2_000_000, usize::MAX);
    assert_eq!(handed.len(), N);
    for e in &handed {
        drop(s.observe(e.key(), &task, T0 + 2_000_000).unwrap());
    }
    let events = handed.capacity() * std::mem::size_of::<SchedulerEvent>()
        + handed.iter().map(|e| e.key().len()).sum::<usize>();
    let held = HELD.load(Ordering::SeqCst) - before - events as isize;
    let per_task = held as f64 / N as f64;
    println!("scheduler: after a round of {N} polls and answers: {per_task:.1} bytes per task");
    assert!(per_task < 320.0, "{per_task:.1} bytes per tracked task");
    drop(handed);
    s.check_invariants().unwrap();
}
