#!/usr/bin/env bash
# Run by Snakemake in the new conda environment (envs/entropic-bound.yaml says why): the exact
# versions of requirements.lock, then this checkout, from the folder the workflow names.
set -euo pipefail
root="${ENTROPIC_BOUND_ROOT:?the workflow sets ENTROPIC_BOUND_ROOT to its folder}"
echo "8ee7d2fe2f23f4c77e28f2297b786cede1b1cfb2768cf71af867ae0b71081b73  $root/requirements.lock" | sha256sum --check --quiet -
python -m pip install --no-deps -r "$root/requirements.lock"
python -m pip install --no-deps -e "$root"
