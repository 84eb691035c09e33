#!/usr/bin/env bash
# Every test: lint and formatting (Biome, with the layering's import rules), type check, dead code (knip), unit tests (vitest: on SQLite, and the database and API suites again on a throwaway
# PostgreSQL, Debian's postgresql; then the SQLite suite again on Node 22), then a production build and the browser tests (Playwright, Debian's chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
# The MCP conformance suite and the Node 22 it needs, in a folder of their own: the app's Node stays the one on PATH
# (tests/gateway/conformance.test.ts runs the suite with that Node).
if [ ! -d tools/conformance/node_modules ] || [ tools/conformance/package-lock.json -nt tools/conformance/node_modules/.package-lock.json ]; then
  npm ci --prefix tools/conformance --no-audit --no-fund
fi
missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
# The throwaway PostgreSQL of the tests (scripts/postgres-server.ts) needs the server's programs.
compgen -G "/usr/lib/postgresql/*/bin/initdb" > /dev/null || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Missing: ${missing[*]}: installing Debian's packages (needs root)"
  apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi
npx biome ci .
npx tsc --noEmit -p .
# Unused files, exports and dependencies (knip.jsonc); --no-install: the pinned devDependency, never a download.
npx --no-install knip --no-progress
npx vitest run
bash scripts/test-node22.sh
npx next build
npx playwright test
