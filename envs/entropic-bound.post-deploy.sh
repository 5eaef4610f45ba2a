#!/usr/bin/env bash
# Run by Snakemake in the new conda environment (envs/entropic-bound.yaml says why): the exact
# versions of requirements.lock, then this checkout, from the folder the workflow names.
set -euo pipefail
root="${ENTROPIC_BOUND_ROOT:?the workflow sets ENTROPIC_BOUND_ROOT to its folder}"
echo "8ee7d2fe2f23f4c77e28f2297b786cede1b1cfb2768cf71af867ae0b71081b73  $root/requirements.lock" | sha256sum --check --quiet -
# torch first, as the README says: on Linux x86-64 PyPI's wheel is the CUDA build, whose
# nvidia-* libraries the lock does not list (--no-deps below would leave them out). Without an
# NVIDIA driver, the CPU build of the locked version (2.13.0+cpu meets the lock's ==2.13.0);
# with one, PyPI's build and its libraries. Elsewhere (macOS, ARM) PyPI's build is the CPU one.
torch=$(grep -m1 '^torch==' "$root/requirements.lock")
if [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ]; then
  if command -v nvidia-smi >/dev/null; then
    python -m pip install "$torch"
  else
    python -m pip install "$torch" --index-url https://download.pytorch.org/whl/cpu
  fi
fi
python -m pip install --no-deps -r "$root/requirements.lock"
python -m pip install --no-deps -e "$root"
