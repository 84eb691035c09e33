#!/usr/bin/env bash
# Every test: lint and formatting (Biome), type check, unit tests (vitest), then a production build and the browser tests (Playwright, Debian's chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Chromium is missing: installing Debian's package (needs root)"
  apt-get update -qq && apt-get install -y -qq chromium
fi
npx biome ci .
npx tsc --noEmit -p .
npx vitest run
npx next build
npx playwright test
