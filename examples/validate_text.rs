//! A native driver of the validator's text path, for instruction counts under callgrind (the
//! wasm build cannot run under valgrind). It validates one of the benchmark messages of
//! bench/messages.mjs (the same texts, as `JSON.stringify` writes them) `N` times, as the wasm
//! export `__validateBytes` does (`validate_text_verdict`, `inReplyTo` set, the text plain):
//!
//! ```sh
//! cargo build --release --example validate_text
//! for n in 1000 2000; do valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$n \
//!   target/release/examples/validate_text list $n 2>&1 | grep refs; done
//! ```
//!
//! (instructions per call = the difference of the two totals ÷ 1000; `callgrind_annotate
//! /tmp/cg.2000` names the functions.) Messages: `get` (the small valid `tasks/get` answer),
//! `status` (its `status` "running"), `ttl` (its `ttl` a string), `list` (100 tasks),
//! `list-escape` (the same with an escape in the last task's `statusMessage`).

use mcp_tasks_wasm::validate::{validate_text_verdict, Context, TextVerdict, DEFAULT_MAX_BYTES};

const STATUSES: [&str; 5] = [
    "working",
    "input_required",
    "completed",
    "failed",
    "cancelled",
];

fn task(id: &str, status: &str, ttl: &str) -> String {
    format!(
        r#"{{"taskId":"{id}","status":"{status}","statusMessage":"Building target release","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:30:05Z","ttl":{ttl},"pollInterval":2000}}"#
    )
}

fn message(name: &str) -> Option<(String, &'static str)> {
    let id = "7d1c2e4a-5b6f-4c3d-9e8f-0a1b2c3d4e5f";
    let get = |status: &str, ttl: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{}}}"#,
            task(id, status, ttl)
        )
    };
    Some(match name {
        "get" => (get("working", "600000"), "tasks/get"),
        "status" => (get("running", "600000"), "tasks/get"),
        "ttl" => (get("working", "\"600000\""), "tasks/get"),
        // The worst case of the scanner: an escape in the last task (it gives up there, and
        // the serde visitors read the text again).
        "list-escape" => {
            let (text, reply) = message("list")?;
            let at = text.rfind("Building target release")?;
            let mut text = text;
            text.replace_range(at..at + 8, "Build\\n\\t");
            (text, reply)
        }
        "list" => {
            let tasks: Vec<String> = (1..=100)
                .map(|i: usize| {
                    let id = format!("task-{i:04}-5b6f-4c3d-9e8f-0a1b2c3d4e5f");
                    task(
                        &id,
                        STATUSES.get((i - 1) % 5).unwrap_or(&"working"),
                        "600000",
                    )
                })
                .collect();
            (
                format!(
                    r#"{{"jsonrpc":"2.0","id":5,"result":{{"tasks":[{}],"nextCursor":"page-2"}}}}"#,
                    tasks.join(",")
                ),
                "tasks/list",
            )
        }
        _ => return None,
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "get".to_string());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let Some((text, reply)) = message(&name) else {
        eprintln!("usage: validate_text get|status|ttl|list|list-escape [N]");
        std::process::exit(2);
    };
    let ctx = Context {
        in_reply_to: Some(reply.to_string()),
        ..Context::default()
    };
    let (mut valid, mut issues) = (0usize, 0usize);
    for _ in 0..n {
        match validate_text_verdict(std::hint::black_box(&text), DEFAULT_MAX_BYTES, &ctx, true) {
            TextVerdict::Valid(_) => valid += 1,
            TextVerdict::Fast(found) => issues += found.list.len(),
            TextVerdict::Report(_) => {}
        }
    }
    println!(
        "{name}: {} bytes, {valid} valid, {issues} issues",
        text.len()
    );
}
