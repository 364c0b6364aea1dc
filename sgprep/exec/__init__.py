"""Executors: how shard tasks are submitted (local processes, Ray actors).

An executor is one module and one line in :data:`EXECUTORS`; :func:`make_executor` is the one
way to get the executor a config names, for the command line and the Python API alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sgprep.registry import load_entry

if TYPE_CHECKING:
    from sgprep.config import RunConfig

EXECUTORS: dict[str, str] = {
    "local": "sgprep.exec.local:LocalExecutor",
    "ray": "sgprep.exec.ray_executor:RayExecutor",
}


def make_executor(config: RunConfig, console: Any = None):
    """The executor ``config.executor`` names, ready to ``run()``."""
    return load_entry(EXECUTORS, config.executor, "executor")(config, console)
