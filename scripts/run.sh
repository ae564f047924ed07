#!/usr/bin/env bash
# The main job: set up, build the package, then check the sample conversations with the CLI.
#
#   bash scripts/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
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
echo "run: node pkg/cli.mjs check ${samples[*]}"
node pkg/cli.mjs check "${samples[@]}"
