#!/usr/bin/env bash
# n8n's community-node lint (the rule sets @n8n/scan-community-package applies) over what the
# package publishes: package.json, nodes/ and credentials/ sources, and the compiled dist/.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=tools/lint
# --ignore-scripts: eslint-plugin-n8n-nodes-base's preinstall insists on pnpm.
if [ ! -x "$tools/node_modules/.bin/eslint" ] || [ "$tools/package-lock.json" -nt "$tools/node_modules/.package-lock.json" ]; then
  npm ci --prefix "$tools" --ignore-scripts --no-audit --no-fund --loglevel=error
fi

targets=(package.json 'nodes/**/*.ts' 'nodes/**/*.json' 'credentials/**/*.ts')
if [ -d dist ]; then targets+=('dist/**/*.js'); fi
"$tools/node_modules/.bin/eslint" --config "$tools/eslint.config.mjs" --no-config-lookup --max-warnings=0 "${targets[@]}"
echo "community-node lint: no problems"
