#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build, test and analyse warpsweep.
# Idempotent: packages already present are skipped, apt is not touched when nothing is missing.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libyaml-dev libhdf5-dev hdf5-tools libcmocka-dev
  python3 python3-h5py python3-pandas python3-matplotlib python3-numpy python3-scipy
  jupyter-nbconvert python3-nbformat python3-ipykernel python3-nbclient
  libopenmpi-dev openmpi-bin
  slurm-wlm munge
  procps
  clang
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
