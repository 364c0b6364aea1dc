"""Many shards, many workers: a run of 20,000 captions in 134 shards on two worker
processes finishes, and its bytes are those of one worker (issue 31, item 8)."""

from __future__ import annotations

import itertools
import re

import pytest

from tests.conftest import index_rows, run_cli
from tests.exec.toy import output_bytes

pytestmark = pytest.mark.slow

COLOURS = "red blue green yellow black white brown grey orange purple".split()
THINGS = "dog cat horse car bus bench table chair kite ball boat bird".split()
PLACES = "on a beach|in a park|next to a street|under a tree|in a kitchen".split("|")
DOING = "sitting|running|standing|lying|parked".split("|")


def captions(n: int) -> list[str]:
    """``n`` distinct ordinary captions: two coloured things, a posture, a place."""
    made = (
        f"a {c1} {t1} {d} {p} near a {c2} {t2}"
        for c1, t1, d, p, c2, t2 in itertools.product(
            COLOURS, THINGS, DOING, PLACES, COLOURS, THINGS
        )
        if t1 != t2
    )
    return list(itertools.islice(made, n))


def test_20000_captions_in_134_shards_on_two_workers_are_the_bytes_of_one(tmp_path):
    table = tmp_path / "captions.txt"
    table.write_text("\n".join(captions(20_000)) + "\n")
    args = ("--shard-size", "150", "--no-progress")
    run_cli("parse", "-i", table, "-o", tmp_path / "one", "--workers", "1", *args)
    two = run_cli("parse", "-i", table, "-o", tmp_path / "two", "--workers", "2", *args)
    # the summary's own row, not a phrase a long line may fold
    assert re.search(r"│ workers\s+│ 2\s+│", two.output), two.output
    assert len(list((tmp_path / "two").glob("*_stats.json"))) == 134
    assert output_bytes(tmp_path / "two") == output_bytes(tmp_path / "one")
    rows = index_rows(tmp_path / "two")
    assert len(rows) == 20_000 and all(r["status"] == "ok" for r in rows)
