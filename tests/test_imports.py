"""What a captions-only `sgprep parse` imports: no image, dataframe or deep-learning code.

Read from ``python -X importtime`` (every module the run imported, at any depth), plus the
modules loaded at exit: spaCy's thinc probes ``import torch`` on purpose and is refused
(see ``sgprep.parse.rules.import_spacy``), so torch must be absent from ``sys.modules``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEVER = (
    "pandas",
    "PIL.Image",
    "cv2",
    "ultralytics",
    "onnxruntime",
    "torchvision",
    "matplotlib",
    "duckdb",
    "transformers",
    "vllm",
    "ray",
    "sgprep.detect",
    "skimage",
    "spacy.cli",  # spaCy's command line (import_spacy leaves it out)
    "weasel",
)

RUN = """
import json, sys
from sgprep.cli import app
try:
    app(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "loaded": sorted(k for k, v in sys.modules.items() if v)}))
"""


def test_captions_only_parse_imports_no_image_pandas_or_torch(tmp_path):
    table = tmp_path / "captions.csv"
    table.write_text("caption\na red car on a road\na dog under a table\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            RUN,
            "parse",
            "-i",
            str(table),
            "-o",
            str(tmp_path / "out"),
            "--workers",
            "1",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] in (0, None), done.stderr[-3000:]
    imported = {
        line.rpartition("|")[2].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert {"spacy", "sgprep.parse.rules_extract", "pyarrow"} <= imported  # it parsed and wrote
    bad = sorted(m for m in imported if any(m == n or m.startswith(n + ".") for n in NEVER))
    assert bad == []
    assert not [m for m in result["loaded"] if m == "torch" or m.startswith("torch.")]
