"""Write the JSON Schemas of the data model into ``schemas/`` (``python -m sgprep.schemas_gen``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sgprep.schema import SCHEMA_MODELS


def render_schemas() -> dict[str, str]:
    return {
        f"{stem}.schema.json": json.dumps(model.model_json_schema(), indent=2, sort_keys=True)
        + "\n"
        for stem, model in SCHEMA_MODELS.items()
    }


def main(out: Path = Path(__file__).resolve().parent.parent / "schemas") -> None:
    out.mkdir(exist_ok=True)
    for name, text in render_schemas().items():
        (out / name).write_text(text)
        print(out / name)


if __name__ == "__main__":
    main(
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).resolve().parent.parent / "schemas"
    )
