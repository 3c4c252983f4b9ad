#!/bin/bash
# launch_start, launch_drain, cta_launch_interval: exact relations under preset=seed (launch_costs.py).
set -euo pipefail
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/launch_costs.py"
