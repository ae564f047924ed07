#!/usr/bin/env python3
"""Generates src/validate/schema_defs.json from the official MCP JSON Schemas.

The validator's small JSON Schema interpreter (src/validate/schema.rs) embeds this file. It holds
the definitions reachable from ROOTS below, taken from three schemas:

  v25/  docs/spec/schemas/2025-11-25/schema.json       (core protocol 2025-11-25)
  v26/  docs/spec/schemas/2026-07-28/schema.json       (core protocol 2026-07-28)
  ext/  docs/spec/schemas/tasks-extension/schema.json  (io.modelcontextprotocol/tasks)

Output: one compact JSON object mapping prefixed names ("ext/InputRequest") to schemas whose
`$ref`s are rewritten to prefixed names ("$ref": "v26/ElicitRequest"). Annotations the
interpreter ignores (description, title, $schema, $id, $comment, examples, format, deprecated)
are stripped; property names are kept as they are (a property may be called "description").

Usage:
  python3 scripts/gen-schema-defs.py [SCHEMAS_DIR]           write src/validate/schema_defs.json
  python3 scripts/gen-schema-defs.py [SCHEMAS_DIR] --stdout  print it instead
  python3 scripts/gen-schema-defs.py [SCHEMAS_DIR] --check   exit 1 if the committed file differs
SCHEMAS_DIR defaults to docs/spec/schemas relative to the repository root.
"""

import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "src", "validate", "schema_defs.json")

SOURCES = {
    "v25": "2025-11-25/schema.json",
    "v26": "2026-07-28/schema.json",
    "ext": "tasks-extension/schema.json",
}

ROOTS = [
    # tasks extension (2026-07-28): MRTR requests/responses and the task shapes
    "ext/InputRequest",
    "ext/InputRequests",
    "ext/InputResponse",
    "ext/InputResponses",
    "ext/Error",
    "ext/Task",
    "ext/DetailedTask",
    "ext/TasksExtensionCapability",
    "ext/TaskSubscriptionNotifications",
    "ext/TaskSubscriptionAcknowledgedNotifications",
    # core 2026-07-28
    "v26/RequestMetaObject",
    "v26/ClientCapabilities",
    "v26/ServerCapabilities",
    "v26/InputRequiredResult",
    "v26/InputRequests",
    "v26/InputResponses",
    "v26/Implementation",
    "v26/CallToolResult",
    "v26/Error",
    # core 2025-11-25
    "v25/ClientCapabilities",
    "v25/ServerCapabilities",
    "v25/Tool",
    "v25/Task",
    "v25/TaskMetadata",
    "v25/RelatedTaskMetadata",
    "v25/CallToolResult",
    "v25/Error",
]

# Keywords whose value is a schema, a map of schemas, or a list of schemas.
SCHEMA_KW = {"additionalProperties", "items", "not", "propertyNames", "contains", "if", "then", "else"}
SCHEMA_MAP_KW = {"properties", "patternProperties", "$defs", "definitions"}
SCHEMA_LIST_KW = {"anyOf", "allOf", "oneOf", "prefixItems"}
# Annotations the interpreter does not need.
STRIP_KW = {"description", "title", "$schema", "$id", "$comment", "examples", "format", "deprecated",
            "default", "readOnly", "writeOnly"}
REF_PREFIX = "#/$defs/"


def load(schemas_dir):
    docs = {}
    for prefix, rel in SOURCES.items():
        with open(os.path.join(schemas_dir, rel), encoding="utf-8") as f:
            docs[prefix] = json.load(f)
    return docs


def rewrite(node, prefix, refs):
    """Copies a schema, stripping annotations and prefixing $refs; collects the refs it meets."""
    if isinstance(node, bool):
        return node
    if not isinstance(node, dict):
        raise ValueError(f"not a schema: {node!r}")
    out = {}
    for k, v in node.items():
        if k in STRIP_KW:
            continue
        if k == "$ref":
            if not isinstance(v, str) or not v.startswith(REF_PREFIX):
                raise ValueError(f"unsupported $ref {v!r}")
            target = f"{prefix}/{v[len(REF_PREFIX):]}"
            refs.append(target)
            out[k] = target
        elif k in SCHEMA_KW:
            out[k] = rewrite(v, prefix, refs)
        elif k in SCHEMA_MAP_KW:
            if k in ("$defs", "definitions"):
                raise ValueError("nested $defs are not supported")
            out[k] = {name: rewrite(s, prefix, refs) for name, s in v.items()}
        elif k in SCHEMA_LIST_KW:
            out[k] = [rewrite(s, prefix, refs) for s in v]
        else:
            out[k] = v  # data: type, required, const, enum, minimum, ...
    return out


def generate(schemas_dir):
    docs = load(schemas_dir)
    defs = {}
    todo = list(ROOTS)
    while todo:
        name = todo.pop()
        if name in defs:
            continue
        prefix, _, local = name.partition("/")
        source = docs[prefix].get("$defs", {})
        if local not in source:
            raise KeyError(f"{name}: no such definition")
        refs = []
        defs[name] = rewrite(source[local], prefix, refs)
        todo.extend(r for r in refs if r not in defs)
    ordered = {k: defs[k] for k in sorted(defs)}
    return json.dumps(ordered, separators=(",", ":"), ensure_ascii=False) + "\n"


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    flags = {a for a in argv if a.startswith("--")}
    schemas_dir = args[0] if args else os.path.join(REPO, "docs", "spec", "schemas")
    text = generate(schemas_dir)
    if "--stdout" in flags:
        sys.stdout.write(text)
    elif "--check" in flags:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{OUT} is stale: run scripts/gen-schema-defs.py", file=sys.stderr)
                return 1
    else:
        with open(OUT, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {OUT} ({len(text)} bytes, {text.count(':{')} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
