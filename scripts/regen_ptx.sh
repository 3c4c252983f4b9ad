#!/usr/bin/env bash
# Regenerates the committed PTX of the shipped workloads in sweeps/kernels/.
#
#   scripts/regen_ptx.sh           regenerate NAME.ptx from NAME.cu (needs nvcc),
#                                  record register counts in regs.txt and copy them
#                                  into each NAME.yaml's regs_per_thread
#   scripts/regen_ptx.sh --check   no nvcc needed: only verify that every yaml's
#                                  regs_per_thread matches regs.txt
#
# A workload is hand-written (its .ptx is never regenerated) when it has no .cu,
# or when the first line of its .ptx is `// hand-written`.  Register counts of
# hand-written PTX come from running ptxas -v on the committed .ptx itself.
# Generated PTX is `nvcc -arch=sm_75 -O3 -ptx NAME.cu`, plus any extra flags
# given in a `// nvcc-flags: ...` line of NAME.cu.  Register counts of generated
# kernels come from `nvcc -cubin -Xptxas -v` with the same flags.
#
# Environment: NVCC (default /usr/local/cuda-13.0/bin/nvcc), PTXAS (default: next
# to NVCC), ARCH (default sm_75).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kdir=$(cd "$here/../sweeps/kernels" && pwd)
NVCC=${NVCC:-/usr/local/cuda-13.0/bin/nvcc}
PTXAS=${PTXAS:-$(dirname "$NVCC")/ptxas}
ARCH=${ARCH:-sm_75}
regs_file="$kdir/regs.txt"

# Check every yaml's regs_per_thread against regs.txt; returns nonzero on mismatch.
# A line `NAME:ENTRY regs` (a PTX file with several entries, e.g. bfs) is checked
# against every launch `{entry: ENTRY, ..., regs_per_thread: N}` of NAME.yaml.
check_regs() {
    local bad=0 name regs yaml got entry
    while read -r name regs; do
        [ -n "$name" ] || continue
        entry=
        case $name in *:*) entry=${name#*:}; name=${name%%:*} ;; esac
        yaml="$kdir/$name.yaml"
        if [ ! -f "$yaml" ]; then
            echo "regen_ptx: $name is in regs.txt but $name.yaml is missing" >&2
            bad=1; continue
        fi
        if [ -n "$entry" ]; then
            got=$(sed -nE "/entry:[[:space:]]*$entry[,} ]/ s/.*regs_per_thread:[[:space:]]*([0-9]+).*/\1/p" "$yaml" | sort -u)
        else
            got=$(sed -nE 's/^regs_per_thread:[[:space:]]*([0-9]+).*/\1/p' "$yaml")
        fi
        if [ "$got" != "$regs" ]; then
            echo "regen_ptx: $name.yaml${entry:+ entry $entry} regs_per_thread=$got, regs.txt says $regs" >&2
            bad=1
        fi
    done < "$regs_file"
    return $bad
}

if [ "${1:-}" = "--check" ]; then
    check_regs && echo "regen_ptx: regs_per_thread consistent with regs.txt"
    exit
fi

for tool in "$NVCC" "$PTXAS"; do
    [ -x "$tool" ] || { echo "regen_ptx: $tool not found (set NVCC/PTXAS)" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ptxas -v output of NAME -> regs.txt lines: `NAME REGS` for a single entry,
# `NAME:ENTRY REGS` for each entry of a file with several (sorted by entry).
regs_lines() {
    local lines
    lines=$(awk -v name="$2" '
        /Compiling entry function/ { e = $0; sub(/^[^'\'']*'\''/, "", e); sub(/'\''.*$/, "", e) }
        /Used [0-9]+ registers/    { for (i = 1; i < NF; i++) if ($i == "Used") print e, $(i + 1) }' "$1" | sort)
    if [ -z "$lines" ]; then
        echo "regen_ptx: cannot find a register count in ptxas output:" >&2
        cat "$1" >&2
        return 1
    fi
    if [ "$(printf '%s\n' "$lines" | wc -l)" -eq 1 ]; then
        echo "$2 ${lines##* }"
    else
        printf '%s\n' "$lines" | sed "s/^/$2:/"
    fi
}

names=$(cd "$kdir" && ls -1 *.cu *.ptx 2>/dev/null | sed -E 's/\.(cu|ptx)$//' | sort -u)
: > "$tmp/regs.txt"
for name in $names; do
    cu="$kdir/$name.cu"
    ptx="$kdir/$name.ptx"
    if [ ! -f "$cu" ] || { [ -f "$ptx" ] && [ "$(head -n1 "$ptx" | tr -d '\r')" = "// hand-written" ]; }; then
        [ -f "$ptx" ] || { echo "regen_ptx: $name has neither usable .cu nor .ptx" >&2; exit 1; }
        echo "regen_ptx: $name: hand-written, keeping $name.ptx" >&2
        "$PTXAS" -arch="$ARCH" -v "$ptx" -o "$tmp/$name.cubin" > "$tmp/$name.log" 2>&1 \
            || { cat "$tmp/$name.log" >&2; exit 1; }
    else
        flags=$(sed -nE 's#^//[[:space:]]*nvcc-flags:[[:space:]]*(.*)$#\1#p' "$cu" | head -n1)
        echo "regen_ptx: $name: nvcc -arch=$ARCH -O3 -ptx $flags" >&2
        # shellcheck disable=SC2086  # flags are intentionally word-split
        (cd "$kdir" && "$NVCC" -arch="$ARCH" -O3 -ptx $flags "$name.cu" -o "$tmp/$name.ptx")
        # shellcheck disable=SC2086
        (cd "$kdir" && "$NVCC" -arch="$ARCH" -O3 -cubin -Xptxas -v $flags "$name.cu" \
            -o "$tmp/$name.cubin") > "$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log" >&2; exit 1; }
        # the committed PTX must assemble on its own (for the architecture its flags name, if any:
        # the tensor-core kernels need -arch=sm_80; nvcc takes the last -arch given)
        parch=$(sed -nE 's/.*-arch=(sm_[0-9a-z]+).*/\1/p' <<<"$flags")
        "$PTXAS" -arch="${parch:-$ARCH}" "$tmp/$name.ptx" -o /dev/null
        mv "$tmp/$name.ptx" "$ptx"
    fi
    regs_lines "$tmp/$name.log" "$name" >> "$tmp/regs.txt"
done
mv "$tmp/regs.txt" "$regs_file"

# Copy the register counts into the workload files.
while read -r name regs; do
    case $name in
    *:*) yaml="$kdir/${name%%:*}.yaml"; [ -f "$yaml" ] || continue
         sed -i -E "/entry:[[:space:]]*${name#*:}[,} ]/ s/(regs_per_thread:[[:space:]]*)[0-9]+/\1$regs/" "$yaml" ;;
    *)   yaml="$kdir/$name.yaml"; [ -f "$yaml" ] || continue
         sed -i -E "s/^(regs_per_thread:[[:space:]]*)[0-9]+/\1$regs/" "$yaml" ;;
    esac
done < "$regs_file"

check_regs
echo "regen_ptx: wrote $(wc -l < "$regs_file") entries to ${regs_file#"$here/../"}" >&2
