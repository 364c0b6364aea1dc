"""What this machine lends a run: cores, GPUs, and how many threads this process has."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """The cores this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def local_gpus() -> int:
    """GPUs this process may use: CUDA_VISIBLE_DEVICES when set, else what nvidia-smi lists."""
    import shutil
    import subprocess

    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([d for d in visible.split(",") if d.strip() and d.strip() != "-1"])
    if shutil.which("nvidia-smi") is None:
        return 0
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return 0
    return sum(line.startswith("GPU ") for line in out.stdout.splitlines())


def native_threads() -> int:
    """The threads of this process as the OS counts them (Python's and native ones); where
    the OS does not say, more than one (so that nothing is forked on a guess)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 2
