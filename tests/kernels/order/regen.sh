#!/usr/bin/env bash
# Regenerates NAME.ptx from NAME.cu for the kernels in this directory, with the flags of
# the `// nvcc-flags: ...` first line of each .cu (they vary on purpose: sm_75/80/90,
# -O3, -G, -lineinfo). Needs nvcc; the generated .ptx are committed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
NVCC=${NVCC:-/usr/local/cuda-13.0/bin/nvcc}
for cu in ${@:-*.cu}; do
    name=${cu%.cu}
    flags=$(sed -nE '1s|^// nvcc-flags:(.*)|\1|p' "$name.cu")
    "$NVCC" $flags -ptx "$name.cu" -o "$name.ptx"
    echo "$name: $flags"
done
