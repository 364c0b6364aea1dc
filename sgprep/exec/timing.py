"""Where the time went: each stage's wall and CPU seconds and items, per shard.

Times differ from run to run, so they are kept apart from the shard's stats (whose bytes a
rerun reproduces): ``_meta/timing/NNNNN.json``, ``{stage: {"wall_s", "cpu_s", "items"}}``.
The run summary adds up the shards it wrote; ``sgprep stats`` adds up every shard's.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path

from sgprep.io.writer_base import TIMING_DIR


class StageClock:
    """Accumulates one shard's time per stage."""

    def __init__(self) -> None:
        self.stages: dict[str, dict[str, float]] = {}

    @contextmanager
    def timed(self, stage: str, items: int):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            entry = self.stages.setdefault(stage, {"wall_s": 0.0, "cpu_s": 0.0, "items": 0})
            entry["wall_s"] += time.perf_counter() - wall
            entry["cpu_s"] += time.process_time() - cpu
            entry["items"] += items


def timing_dir(meta: Path) -> Path | None:
    """``meta/timing``, made when missing; None where something that is not a folder of ours
    (a link, a file) stands there: then no timing is kept rather than writing through it."""
    from sgprep.io.safefs import own_dir

    return own_dir(meta / TIMING_DIR, create=True)


def write_timing(meta: Path, index: int, clock: StageClock) -> None:
    from sgprep.io.safefs import atomic_write

    folder = timing_dir(meta)
    if folder is not None:
        data = {
            name: {k: round(v, 3) for k, v in entry.items()} for name, entry in clock.stages.items()
        }
        atomic_write(folder / f"{index:05d}.json", json.dumps(data, sort_keys=True).encode())


def read_timing(meta: Path, indices: Iterable[int] | None = None) -> dict[str, dict[str, float]]:
    """The stages' times summed over the shards ``indices`` (default: every shard timed)."""
    folder = meta / TIMING_DIR
    if indices is None:
        files = sorted(folder.glob("[0-9]*.json")) if folder.is_dir() else []
    else:
        files = [folder / f"{i:05d}.json" for i in indices]
    total: dict[str, dict[str, float]] = {}
    for path in files:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        for name, entry in data.items() if isinstance(data, dict) else ():
            into = total.setdefault(name, {"wall_s": 0.0, "cpu_s": 0.0, "items": 0})
            for key in into:
                value = entry.get(key, 0) if isinstance(entry, dict) else 0
                into[key] += value if isinstance(value, (int, float)) else 0
    return total


def timing_lines(total: dict[str, dict[str, float]]) -> list[tuple[str, str]]:
    """(label, text) per stage: seconds, CPU share, throughput; the slowest stage first."""
    rows = []
    whole = sum(e["wall_s"] for e in total.values()) or 1.0
    for name, e in sorted(total.items(), key=lambda kv: -kv[1]["wall_s"]):
        rate = e["items"] / e["wall_s"] if e["wall_s"] else 0.0
        rows.append(
            (
                f"{name}: time",
                f"{e['wall_s']:,.1f} s wall ({e['wall_s'] / whole:.0%}), "
                f"{e['cpu_s']:,.1f} s CPU, {int(e['items']):,} items, {rate:,.0f} items/s",
            )
        )
    return rows
