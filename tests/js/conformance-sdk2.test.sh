#!/usr/bin/env bash
# The official MCP conformance suite (every tasks-* scenario) against examples/sdk2-server.mjs:
# an SDK v2 McpServer (tools/sdk2) whose task tools come from the built package (McpServerTasks),
# served by the SDK's own createMcpHandler. The work is in scripts/conformance.sh; same baseline.
set -euo pipefail
cd "$(dirname "$0")/../.."
CONFORMANCE_SERVER=examples/sdk2-server.mjs CONFORMANCE_OUT=target/conformance-sdk2 exec bash scripts/conformance.sh
