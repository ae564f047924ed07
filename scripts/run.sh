#!/usr/bin/env bash
# The main job: set up, build the package, then check the sample conversations with the CLI.
# Its set-up is the main job's only (scripts/setup.sh main: the wasm32 target, wasm-bindgen-cli,
# the root's "dependencies" with npm ci --omit=dev, tools/ts); the test world (the root's
# devDependencies, peers, Python venvs, the Inspector, Chromium and the databases from apt) is
# scripts/test.sh's.
#
#   bash scripts/run.sh
#
# `node pkg/cli.mjs check pkg/samples/*.jsonl` prints every issue and each task's timeline. The
# samples named *-violations.jsonl hold violations on purpose, so the CLI's exit status 1
# ("issues at or above --fail-on were found"; by default errors) is the expected outcome for
# them; this script then checks each sample on its own: *-healthy.jsonl must exit 0 even with
# `--fail-on warning` (no error and no warning), *-violations.jsonl must exit 1. Exit status 2
# (usage or I/O error) or any other surprise fails the job.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh main
bash scripts/build.sh

if [ ! -f pkg/cli.mjs ]; then
  echo "run: pkg/cli.mjs is missing: js/cli.mjs (the CLI) has not been written yet; nothing to check"
  exit 0
fi
shopt -s nullglob
samples=(pkg/samples/*.jsonl)
if [ ${#samples[@]} -eq 0 ]; then
  echo "run: no samples/*.jsonl yet: nothing to check"
  exit 0
fi

echo "run: mcp-tasks $(node pkg/cli.mjs --version); node pkg/cli.mjs check ${samples[*]}"
rc=0
node pkg/cli.mjs check "${samples[@]}" || rc=$?
echo
echo "run: the CLI exited $rc (0: no errors, 1: errors found, 2: usage or I/O error)"
[ "$rc" -le 1 ] || exit "$rc"

bad=0
for f in "${samples[@]}"; do
  want=
  flags=()
  case "$f" in
    *-healthy.jsonl) want=0 flags=(--fail-on warning) ;;
    *-violations.jsonl) want=1 ;;
  esac
  got=0
  node pkg/cli.mjs check "${flags[@]}" "$f" >/dev/null || got=$?
  if [ -z "$want" ]; then
    echo "run: $f: exit $got"
  elif [ "$got" = "$want" ]; then
    echo "run: $f${flags[*]:+ (${flags[*]})}: exit $got, as expected"
  else
    echo "run: $f: exit $got, expected $want" >&2
    bad=1
  fi
done
exit "$bad"
