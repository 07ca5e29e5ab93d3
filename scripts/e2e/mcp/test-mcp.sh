#!/usr/bin/env bash
# `npm run test:e2e:mcp`: n8n 2.41.1 installed into the cache if missing, the package built, then the
# MCP lane (scripts/e2e/mcp/run-mcp.ts): a real MCP client against the MCP Server Trigger and the
# Satellite Tracking tools of examples/fleet-assistant-mcp.json.
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash scripts/e2e/install-n8n.sh 2.41
npm run build
npx tsx scripts/e2e/mcp/run-mcp.ts
