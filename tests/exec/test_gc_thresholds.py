"""While a process runs shards, the cyclic garbage collector runs rarely (GC_THRESHOLDS); the
thresholds it had are back when the run is over (an API caller's process is left as it was)."""

from __future__ import annotations

import gc

from sgprep import api
from sgprep.exec.workers import GC_THRESHOLDS
from tests.exec.toy import TOY, ToyStage


def test_shards_run_with_rare_collections_and_the_thresholds_come_back(tmp_path, monkeypatch):
    seen = []
    process_batch = ToyStage.process_batch

    def spy(self, batch):
        seen.append(gc.get_threshold())
        return process_batch(self, batch)

    monkeypatch.setattr(ToyStage, "process_batch", spy)
    table = tmp_path / "c.txt"
    table.write_text("".join(f"caption {i}\n" for i in range(6)))
    before = (123, 7, 9)
    old = gc.get_threshold()
    gc.set_threshold(*before)
    try:
        result = api.run(
            {
                "input": str(table),
                "output": str(tmp_path / "out"),
                "shard_size": 2,
                "workers": 1,
                "sample_timeout": 0,  # in this process, where the spy sees the thresholds
                "progress": False,
                "stages": [{"name": TOY}],
            }
        )
        after = gc.get_threshold()
    finally:
        gc.set_threshold(*old)
    assert result.shards_written == 3
    assert seen == [GC_THRESHOLDS] * 3
    assert after == before
