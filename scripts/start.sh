#!/usr/bin/env bash
# The main job: installs what is missing, builds the package, runs the Node example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
node examples/node-esm.mjs
node examples/node-cjs.cjs
