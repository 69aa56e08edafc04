#!/usr/bin/env bash
# Set up androidrl on a fresh Debian/Ubuntu machine: the `adb` package from Debian,
# then a virtualenv in .venv with androidrl, its training stack and its test tools.
# torch is installed first as torch==2.13.0: pip takes the local CPU build instead of
# downloading a multi-GB CUDA build (the train extra itself accepts any torch 2.x).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v adb >/dev/null 2>&1; then
  echo "setup: installing adb from Debian"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq adb >/dev/null
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $($PYTHON --version)"
  "$PYTHON" -m venv .venv
fi
# torch first, pinned to the local CPU build: the train extra takes any torch 2.x, and
# with this one installed pip fetches no other.
echo "setup: installing torch 2.13.0 (CPU) into .venv"
.venv/bin/python -m pip install --quiet --disable-pip-version-check "torch==2.13.0" 2>&1 \
  | { grep -v "is ignored: it is neither a file nor a directory" || true; }
echo "setup: installing androidrl[train,ray,dev] into .venv"
# (This machine's pip config lists extra local indexes; drop its noise about missing ones.)
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[train,ray,dev]" 2>&1 \
  | { grep -v "is ignored: it is neither a file nor a directory" || true; }
echo "setup: done ($(adb version | head -n 1); $(.venv/bin/python -c 'import torch; print("torch", torch.__version__)'))"
