#!/usr/bin/env bash
# Installs what Toolshed needs, builds it and starts it on the embedded SQLite default with the demo catalog.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npx next build
# The addresses this server answers at (see README); other Host names are refused.
export TOOLSHED_URL="${TOOLSHED_URL:-http://localhost:${PORT:-3000},http://127.0.0.1:${PORT:-3000}}"
exec ./node_modules/.bin/next start -p "${PORT:-3000}"
