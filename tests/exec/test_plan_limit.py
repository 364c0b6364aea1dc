"""--limit covered by the first inputs: the later ones are never opened, planning included."""

from __future__ import annotations

from sgprep.io.readers import tars
from tests.conftest import index_rows, run_cli


def test_a_limit_opens_only_the_units_it_needs(tmp_path, monkeypatch):
    table = tmp_path / "captions.csv"
    table.write_text("caption\na red car\na dog on a mat\ntwo cats\na blue cup\n")
    parsed = tmp_path / "parsed"
    run_cli("parse", "--input", table, "--output", parsed, "--shard-size", "1", "--no-progress")
    assert len(list(parsed.glob("*.tar"))) == 4
    opened = []
    own_index = tars._own_index

    def recording(path):
        opened.append(path.name)
        return own_index(path)

    monkeypatch.setattr(tars, "_own_index", recording)
    out = tmp_path / "neg"
    run_cli("negatives", "-i", parsed, "-o", out, "--limit", "2", "--no-progress")
    assert set(opened) == {"00000.tar", "00001.tar"}
    assert len(index_rows(out)) == 2
