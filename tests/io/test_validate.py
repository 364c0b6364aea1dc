"""``sgprep validate`` finds damage: each test builds a real output with the CLI, damages it the
way a disk, a copy or a person would, and expects exit 1 with the problem named."""

from __future__ import annotations

import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sgprep.io.records import MEMBER_HASH
from tests.conftest import run_cli

CAPTIONS = {
    "astronaut": "A woman in an orange spacesuit next to a black helmet",
    "coffee": "A cup of coffee on a saucer with a spoon",
    "chelsea": "An orange cat with a white chin",
    "rocket": "A rocket standing on a launch pad under a blue sky",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory, photos):
    """9 samples in 3 shards of 3: 4 photos with captions from a table, a missing image (a
    failure row), 4 caption-only rows; one key repeated (a duplicate_key failure)."""
    tmp_path = tmp_path_factory.mktemp("built")
    table = tmp_path / "in" / "table.jsonl"
    table.parent.mkdir()
    lines = []
    for name, caption in CAPTIONS.items():
        (table.parent / f"{name}.jpg").write_bytes(photos[name])
        lines.append({"key": name, "image": f"{name}.jpg", "caption": caption})
    lines.append({"key": "lost", "image": "nowhere.jpg", "caption": "a dog on a mat"})
    lines += [
        {"key": f"cap{i}", "caption": f"a red ball number {i} under a table"} for i in range(3)
    ]
    lines.append({"key": "cap0", "caption": "a repeated key"})
    table.write_text("".join(json.dumps(line) + "\n" for line in lines))
    output = tmp_path / "out"
    run_cli("parse", "--input", table, "--output", output, "--shard-size", "3", "--no-progress")
    return output


@pytest.fixture
def out(built, tmp_path):
    """A fresh copy of the built output for each test to damage."""
    return shutil.copytree(built, tmp_path / "out")


def problems(path, expected: str) -> str:
    result = run_cli("validate", path, ok=False)
    print(result.output)  # shown by pytest when a test fails
    assert result.exit_code == 1, result.output
    assert expected in " ".join(result.output.split()), result.output
    return result.output


def flip(path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x01
    path.write_bytes(bytes(data))


def member_offset(tar_path, name: str) -> int:
    """Byte offset of a member's data in the tar (located with the standard library)."""
    import tarfile

    with tarfile.open(tar_path) as tar:
        return tar.getmember(name).offset_data


def rows(path) -> list[dict]:
    return pq.read_table(path).to_pylist()


def write_rows(path, new_rows: list[dict]) -> None:
    pq.write_table(pa.Table.from_pylist(new_rows, schema=pq.read_schema(path)), path)


def stats(out, name: str) -> dict:
    return json.loads((out / f"{name}_stats.json").read_text())


def write_stats(out, name: str, data: dict) -> None:
    (out / f"{name}_stats.json").write_text(json.dumps(data, indent=2))


def test_undamaged_output_is_valid(out):
    result = run_cli("validate", out)
    assert "3 shard(s) valid" in result.output
    index = rows(out / "00000.parquet")
    ok = [r for r in index if r["status"] == "ok"]
    members = json.loads(ok[0]["members"])
    assert set(members) == {"jpg", "txt", "json", "sg.json"}
    assert all(set(m) == {"size", MEMBER_HASH} for m in members.values())
    assert [r["members"] for r in rows(out / "00001.parquet") if r["status"] == "failed"] == [None]


@pytest.mark.parametrize(
    "member", ["astronaut.jpg", "astronaut.txt", "astronaut.json", "astronaut.sg.json"]
)
def test_flipped_byte_in_a_member(out, member):
    flip(out / "00000.tar", member_offset(out / "00000.tar", member) + 5)
    problems(out, f"00000.tar: {member}: ")
    problems(out, "checksum that differs from the index (damaged)")


def test_flipped_byte_in_a_tar_header(out):
    flip(out / "00000.tar", member_offset(out / "00000.tar", "coffee.jpg") - 512 + 130)
    problems(out, "damaged member header")


@pytest.mark.parametrize("where", [0, 100, -10, 0.5])
def test_flipped_byte_in_the_index(out, where):
    path = out / "00001.parquet"
    size = path.stat().st_size
    flip(path, int(size * where) if isinstance(where, float) else where % size)
    problems(out, "00001.parquet: checksum differs from the one written (damaged)")


def test_edited_failures_in_the_stats(out):
    data = stats(out, "00001")
    data["failures"] = {"read/image_unreadable": 2}
    write_stats(out, "00001", data)
    problems(out, "failures {'read/image_unreadable': 2} disagree with the index")


def test_edited_stage_counters_in_the_stats(out):
    data = stats(out, "00000")
    data["stages"]["parse"]["entities"] += 1
    write_stats(out, "00000", data)
    problems(out, "parse counters")
    data["stages"]["parse"]["entities"] -= 1
    data["stages"]["parse"]["graphs/spacy"] = 2
    write_stats(out, "00000", data)
    problems(out, "disagree with the graphs in the index")
    data["stages"]["parse"]["graphs/spacy"] = 3
    data["stages"]["parse"]["fallbacks"] = -1
    write_stats(out, "00000", data)
    problems(out, "negative counters {'fallbacks': -1}")


@pytest.mark.parametrize("shard", ["00001", "00002"])
def test_deleted_shard(out, shard):
    for suffix in (".tar", ".parquet", "_stats.json"):
        (out / f"{shard}{suffix}").unlink()
    problems(out, f"{shard}: planned shard is missing")


def test_shard_copied_over_another(out):
    for suffix in (".tar", ".parquet", "_stats.json"):
        shutil.copyfile(out / f"00000{suffix}", out / f"00002{suffix}")
    problems(out, "00002_stats.json: names shard '00000'")
    data = stats(out, "00002")
    data["shard"] = "00002"
    data["files"] = {k.replace("00000", "00002"): v for k, v in data["files"].items()}
    write_stats(out, "00002", data)
    problems(out, "key 'astronaut' is also in shard 00000")


def test_extra_member_inside_a_sample(out, photos):
    """A member appended to a sample, with a correct tar header (written by the standard
    library), and the index's shard files rewritten to agree on sizes."""
    import io
    import tarfile

    path = out / "00000.tar"
    source = tarfile.open(path)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for info in source.getmembers():
            tar.addfile(info, source.extractfile(info))
            if info.name == "astronaut.jpg":
                extra = tarfile.TarInfo("astronaut.png")
                extra.size, extra.mtime = 3, info.mtime
                tar.addfile(extra, io.BytesIO(b"png"))
    path.write_bytes(buf.getvalue())
    data = stats(out, "00000")
    data["files"]["00000.tar"]["size"] = path.stat().st_size
    write_stats(out, "00000", data)
    problems(out, "astronaut.png: member not listed in the index (added?)")


def test_trailing_garbage_after_the_tar(out):
    size = (out / "00000.tar").stat().st_size
    with open(out / "00000.tar", "ab") as fh:
        fh.write(b"garbage" * 10)
    problems(out, f"00000.tar: {size + 70:,} bytes where {size:,} were written")


def test_trailing_garbage_inside_the_end_padding(out):
    """Garbage written over the zero padding: the size stays, the content does not."""
    path = out / "00000.tar"
    data = bytearray(path.read_bytes())
    data[-100:-93] = b"garbage"
    path.write_bytes(bytes(data))
    problems(out, "bytes after the end-of-archive marker")


def test_sample_removed_from_tar_index_and_stats(out):
    """A whole sample taken out consistently: shard files rebuilt without it."""
    import io
    import tarfile

    from sgprep.io.records import digest

    path = out / "00002.tar"
    source = tarfile.open(path)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for info in source.getmembers():
            if not info.name.startswith("cap2."):
                tar.addfile(info, source.extractfile(info))
    path.write_bytes(buf.getvalue())
    index = out / "00002.parquet"
    kept = [r for r in rows(index) if r["key"] != "cap2"]
    [removed] = [r for r in rows(index) if r["key"] == "cap2"]
    write_rows(index, kept)
    data = stats(out, "00002")
    data["samples"] -= 1
    data["ok"] -= 1
    graph, parse = json.loads(removed["sg"]), data["stages"]["parse"]
    parse["graphs/spacy"] -= 1
    parse["entities"] -= len(graph["entities"])
    parse["relations"] -= len(graph["relations"])
    parse["attributes"] -= sum(len(e["attributes"]) for e in graph["entities"])
    data["stages"]["parse"] = {k: v for k, v in parse.items() if v}
    data["files"]["00002.tar"]["size"] = path.stat().st_size
    data["files"]["00002.parquet"] = {
        "size": index.stat().st_size,
        "sha256": digest(index.read_bytes()),
    }
    write_stats(out, "00002", data)
    problems(out, "00002.parquet: 2 rows where the plan has 3 input samples")


def test_disk_full_truncated_tar(out):
    path = out / "00000.tar"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    problems(out, f"00000.tar: {len(data) // 2:,} bytes where {len(data):,} were written")


def test_disk_full_missing_index_and_stats(out):
    """A run killed by a full disk after the tar of its last shard: no index, no stats."""
    (out / "00002.parquet").unlink()
    (out / "00002_stats.json").unlink()
    problems(out, "00002: planned shard is unfinished (no stats file)")


def test_missing_index_of_a_finished_shard(out):
    (out / "00001.parquet").unlink()
    problems(out, "00001.parquet: missing")


def test_no_plan(out):
    (out / "_meta" / "plan.json").unlink()
    problems(out, "_meta/plan.json is missing or unreadable")


def test_empty_input_gives_a_valid_empty_output(tmp_path):
    table = tmp_path / "empty.txt"
    table.write_text("")
    output = tmp_path / "out"
    run_cli("parse", "--input", table, "--output", output, "--no-progress")
    assert "0 shard(s) valid" in run_cli("validate", output).output


def test_jsonl_output(tmp_path):
    table = tmp_path / "t.txt"
    table.write_text("a dog on a mat\na cat under a table\n\n")
    output = tmp_path / "g.jsonl"
    run_cli("parse", "--input", table, "--output", output, "--no-progress")
    assert run_cli("validate", output).exit_code == 0
    lines = output.read_text().splitlines()
    output.write_text("\n".join(lines + [lines[0]]) + "\n")
    problems(output, "g.jsonl:4: key '000000000' appears twice")
    output.write_text("\n".join(lines[:-1] + [lines[-1][:-5]]) + "\n")
    problems(output, "g.jsonl:3: not a valid record")


def test_empty_jsonl_output(tmp_path):
    table = tmp_path / "empty.txt"
    table.write_text("")
    output = tmp_path / "g.jsonl"
    run_cli("parse", "--input", table, "--output", output, "--no-progress")
    assert output.read_bytes() == b""
    assert run_cli("validate", output).exit_code == 0
