"""What the vLLM tests share: the captions they parse and the skip when vLLM is not importable."""

from __future__ import annotations

import pytest

#: Captions the vLLM tests parse: the hard cases of METHOD.md sec. 1 and a few plain ones.
CAPTIONS = [
    "A brown cat is lying on a computer",
    "A man is on the left of the dog.",
    "a woman in blue and a woman in red",
    "a cardboard box with a small toy in it",
    "two white plates stacked upon each other",
    "a red apple to the left of a blue car",
    "man in a red shirt holding an umbrella",
    "a cup on the table next to a laptop",
]


def need_vllm() -> None:
    """Skip (with the reason) unless vLLM imports: it lives in its own venv (setup_vllm_venv.sh)."""
    try:
        import vllm  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - a broken install is a skip too, with its reason
        pytest.skip(
            f"vLLM not importable here ({type(exc).__name__}: {exc}); run tests/llm in the venv "
            "made by tests/llm/setup_vllm_venv.sh",
            allow_module_level=True,
        )
