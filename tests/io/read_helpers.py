"""Reading an input straight through its reader, for reader tests (runs go through a plan)."""

from __future__ import annotations

from sgprep.io.readers import input_format, reader


def read_samples(spec: str, fmt: str | None = None):
    """Every sample of the input, in order."""
    paths, fmt = input_format(spec, fmt)
    module = reader(fmt)
    for unit in module.units(paths):
        for _, sample in module.records(unit):
            yield sample
