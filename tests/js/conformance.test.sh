#!/usr/bin/env bash
# The official MCP conformance suite (every tasks-* scenario) against
# examples/conformance-server.mjs, which hosts its tasks through the built package (pkg/).
# scripts/test.sh runs this after building; the work is in scripts/conformance.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec bash scripts/conformance.sh
