"""Fixtures for the stats tests; the helpers that build outputs are in stats_helpers.py."""

import pytest
from stats_helpers import png_bytes


@pytest.fixture(scope="session")
def png() -> bytes:
    return png_bytes()
