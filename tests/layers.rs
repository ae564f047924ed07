//! The module graph of the crate has no cycles (docs/decisions/module-layers.md): every top-level
//! module uses only the
//! layers below it, and the files of one module do not use each other in a circle. Read from the
//! source text (`crate::x`, `super::x`), outside `#[cfg(test)]` code.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first; a module may use only modules of a lower layer.
const LAYERS: &[&[&str]] = &[
    &["base"],
    &["model"],
    &["validate"],
    &["convert", "conversation", "schedule"],
    &["store"],
    &["server"],
    &["wasm"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without comments and without what follows its first `#[cfg(test)]`
/// (the crate keeps its unit tests at the end of each file, or in `tests.rs`).
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers following each `prefix` in `code`.
fn idents_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    code.match_indices(prefix)
        .filter(|(i, _)| {
            // Not the tail of a longer path segment (`foo_crate::`).
            *i == 0
                || !code[..*i]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map(|(i, _)| {
            let rest = &code[i + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// `src/a/b.rs` → ("a", Some("b")); `src/a/mod.rs` and `src/a.rs` → ("a", None).
fn module_of(src: &Path, file: &Path) -> Option<(String, Option<String>)> {
    let rel = file.strip_prefix(src).ok()?.with_extension("");
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [top] if top != "lib" => Some((top.clone(), None)),
        [top, sub] if sub == "mod" => Some((top.clone(), None)),
        [top, sub, ..] if sub != "tests" => Some((top.clone(), Some(sub.clone()))),
        _ => None,
    }
}

fn cycle_in(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == n) {
            return Some(path[i..].to_vec());
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn modules_use_only_lower_layers_and_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    let mut inner: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let Some((top, sub)) = module_of(&src, file) else {
            continue;
        };
        let code = code(&fs::read_to_string(file).unwrap());
        let Some(own) = layer(&top) else {
            wrong.push(format!("src/{top} is in no layer of tests/layers.rs"));
            continue;
        };
        for used in idents_after(&code, "crate::") {
            if used == top {
                continue;
            }
            match layer(used) {
                Some(l) if l < own => {}
                _ => wrong.push(format!("{}: {top} uses {used}", file.display())),
            }
        }
        if let Some(sub) = sub {
            let dir = src.join(&top);
            let mut uses: BTreeSet<String> = idents_after(&code, "super::")
                .into_iter()
                .map(str::to_string)
                .collect();
            let own_path = format!("crate::{top}::");
            uses.extend(
                idents_after(&code, &own_path)
                    .into_iter()
                    .map(str::to_string),
            );
            uses.retain(|u| *u != sub && dir.join(format!("{u}.rs")).exists());
            inner
                .entry(top.clone())
                .or_default()
                .entry(sub)
                .or_default()
                .extend(uses);
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
    for (top, graph) in &inner {
        assert_eq!(
            cycle_in(graph),
            None,
            "a cycle among the files of src/{top}"
        );
    }
}
