#!/usr/bin/env bash
# Installs what Toolshed needs, builds it, migrates and seeds its database (the embedded SQLite
# default, with the demo catalog) and starts it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npx next build
npm run --silent db:migrate
# The addresses this server answers at (see README); other Host names are refused.
export TOOLSHED_URL="${TOOLSHED_URL:-http://localhost:${PORT:-3000},http://127.0.0.1:${PORT:-3000}}"
exec ./node_modules/.bin/next start -p "${PORT:-3000}"
