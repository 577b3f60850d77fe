#!/usr/bin/env bash
# The main job: installs what is missing, builds the package, and serves the
# interactive demo on localhost (PORT=8080 by default; the URL is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node demo/serve.mjs
