#!/bin/bash
# How long a forward branch's body may be for ptxas to if-convert it (lowering.c WS_IFCONV_MAX):
# a loop (.pragma "nounroll") whose body is `@p bra L; N ALU instructions; L:`, assembled for
# sm_75 and sm_80; prints N and the BRA instructions left in the SASS (2: the loop's branch and the
# trailing self-branch, i.e. if-converted; 3: the forward branch stays). Then the same with a load
# and with a store in a 4-instruction body. Needs ptxas and nvdisasm (README.md).
set -eu
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
NVDISASM=${NVDISASM:-/usr/local/bin/nvdisasm}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
body() {   # N [mem]: alternate xor and mul so that nothing folds; mem: the second one a load/store
    for i in $(seq 1 "$1"); do
        if [ "$i" = 2 ] && [ "${2:-}" = ld ]; then echo " ld.global.u32 %r3, [%rd2];"
        elif [ "$i" = 2 ] && [ "${2:-}" = st ]; then echo " st.global.u32 [%rd2], %r3;"
        elif [ $((i % 2)) = 1 ]; then echo " xor.b32 %r3, %r3, %r4;"
        else echo " mul.lo.u32 %r3, %r3, %r2;"; fi
    done
}
kernel() {
    cat <<EOF
.version 8.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p, .param .u32 n)
{
 .reg .pred %p<4>; .reg .b32 %r<64>; .reg .b64 %rd<8>;
 ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n];
 cvta.to.global.u64 %rd2, %rd1;
 mov.u32 %r2, %tid.x;
 mov.u32 %r3, 0; mov.u32 %r4, 0;
L1:
 .pragma "nounroll";
 and.b32 %r5, %r4, %r2;
 setp.eq.s32 %p1, %r5, 0;
 @%p1 bra L2;
$(body "$@")
L2:
 add.s32 %r4, %r4, 1;
 setp.lt.s32 %p2, %r4, %r1;
 @%p2 bra L1;
 mul.wide.u32 %rd3, %r2, 4; add.s64 %rd4, %rd2, %rd3; st.global.u32 [%rd4], %r3;
 ret;
}
EOF
}
bras() {   # PTX file, sm -> BRA count in its SASS
    "$PTXAS" -arch=sm_"$2" "$1" -o "$T/k.cubin"
    python3 - "$T/k.cubin" "$2" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read()); sm = int(sys.argv[2])
d[7] = 51; d[8] = 7; struct.pack_into('<I', d, 20, 118); struct.pack_into('<I', d, 0x30, sm | 0x0500 | (sm << 16))
open(sys.argv[1], 'wb').write(d)
PY
    "$NVDISASM" -c "$T/k.cubin" | grep -c ' BRA '
}
printf 'body\tsm_75\tsm_80\n'
for n in 1 2 4 6 7 8 9 10 12 16; do
    kernel "$n" > "$T/k.ptx"
    printf '%s\t%s\t%s\n' "$n" "$(bras "$T/k.ptx" 75)" "$(bras "$T/k.ptx" 80)"
done
for m in ld st; do
    kernel 4 "$m" > "$T/k.ptx"
    printf '4 (%s)\t%s\t%s\n' "$m" "$(bras "$T/k.ptx" 75)" "$(bras "$T/k.ptx" 80)"
done
