#!/bin/bash
# Issue 13: divergence schemes pinned by hand-derived figures (core_div_schemes.py).
set -euo pipefail
for c in ifelse spinlock varloop tbchalf; do
  /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/core_div_schemes.py" $c
done
echo "core_div_schemes: ok"
