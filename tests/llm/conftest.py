"""Shared fixtures for the LLM parser tests. Helpers (fake endpoint, tiny Llama) live beside
this file and are imported by module name."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture(scope="session")
def tiny_llama(tmp_path_factory) -> Path:
    """A tiny random Llama with tokenizer and chat template, built once per session."""
    from vllm_support import need_vllm

    need_vllm()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
    from tiny_llama import build

    return build(tmp_path_factory.mktemp("tiny-llama"))
