#!/usr/bin/env bash
# Installs what Toolshed needs, builds it and starts it on the embedded SQLite default with the demo catalog.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npx next build
exec ./node_modules/.bin/next start -p "${PORT:-3000}"
