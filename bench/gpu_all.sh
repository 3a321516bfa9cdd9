#!/usr/bin/env bash
# Everything orcu does that needs a GPU, on a machine with one and nothing installed but its
# image's packages (nvcc, CMake, NumPy, Jinja2, PyYAML, rich, matplotlib, pytest): installs orcu,
# with pycparser and islpy from the wheels in .whl/ when the machine has no package index, then
# runs bench/gpu_all.py's steps with these arguments (--step NAME, --again, --dry-run, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
if compgen -G ".whl/*.whl" >/dev/null; then
    site=${ORCU_GPU_SITE:-/tmp/orcu-gpu-site}
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" .whl/*.whl
    export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
fi
# orcu.templates exists only once orcu is installed (setup.py maps templates/ to it)
if ! python3 -c "import orcu.templates, pycparser, islpy" 2>/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-build-isolation -e .
fi
exec python3 bench/gpu_all.py "$@"
