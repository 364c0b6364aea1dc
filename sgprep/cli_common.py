"""What every verb of the command line shares: its consoles, how it fails (one line, exit 2),
the install hint for a missing extra, and a path given as the argument or with -i."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

console = Console(stderr=True)  # logs, progress, errors
stdout = Console()  # results a user may redirect: stats, validate


def fail(message: str, code: int = 2) -> None:
    # the message is text, never markup: "pip install 'sgprep[llm]'" keeps its "[llm]"
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True, highlight=False)
    raise typer.Exit(code)


#: module -> the extra that installs it, for "pip install" hints.
EXTRAS = {
    "ray": "llm",
    "vllm": "llm",
    "httpx": "openai",
    "transformers": "t5",
    "torch": "t5",
    "sentencepiece": "t5",
    "ultralytics": "detect",
    "onnxruntime": "detect",
    "duckdb": "stats",
    "matplotlib": "stats",
    "sng_parser": "sng",
    "webdataset": "stats",
}


def missing_module(exc: ModuleNotFoundError) -> None:
    top = (exc.name or "").split(".")[0]
    extra = EXTRAS.get(top)
    hint = f': pip install "sgprep[{extra}]"' if extra else ""
    fail(f"this needs the Python package {top!r}, which is not installed{hint}")


def one_path(
    positional: Path | None, option: Path | None, what: str = "an sgprep output directory"
) -> Path:
    """The path given as the argument or with -i (either, not two different ones)."""
    if positional and option and positional != option:
        fail(f"two paths given ({positional} and -i {option}); give one")
    found = positional or option
    if found is None:
        fail(f"give {what} (as the argument, or with -i)")
    return found
