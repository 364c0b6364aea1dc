"""Runs that would be made by the fallback parser are loud (issue 20, item 9): an endpoint down
from the start refuses the run; a mostly-fallback run ends with an error (and says so while it
runs); ``--redo-fallbacks`` parses again only the fallback samples, with the bytes of a run
where the endpoint answered all along. The endpoints are FAKES on loopback (fake_endpoint.py)."""

from __future__ import annotations

import hashlib
import json
import logging

import pytest

pytest.importorskip("httpx")

from fake_endpoint import FakeEndpoint, closed_port_url  # noqa: E402

from tests.conftest import run_cli, shard_stats  # noqa: E402

N = 24


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "captions.txt"
    path.write_text("".join(f"a brown dog number {i} on a red sofa\n" for i in range(N)))
    return path


def parse(table, out, url, *extra, ok=True):
    return run_cli(
        "parse",
        "-i",
        table,
        "-o",
        out,
        "--parser",
        "llama3",
        "--engine",
        "openai",
        "--endpoint",
        url,
        "--model",
        "fake-model",
        "--max-retries",
        "0",
        "--breaker-cooldown",
        "0.1",
        "--max-concurrency",
        "1",
        "--shard-size",
        "4",
        "--workers",
        "1",
        "--no-progress",
        *extra,
        ok=ok,
    )


def failing_for(endpoint: FakeEndpoint, down: dict):
    """Answers HTTP 400 (a fault that is not retried) to the captions whose number is in
    ``down["numbers"]``; the others get a good answer."""
    serve = endpoint.answer

    def answer(handler, first):
        caption = endpoint.bodies[-1]["messages"][-1]["content"]
        if int(caption.split("number ")[1].split()[0]) in down["numbers"]:
            handler._send(400, b'{"error":"no"}')
        else:
            serve(handler, first)

    endpoint.answer = answer


def digest(root):
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.iterdir())
        if p.suffix in (".tar", ".parquet", ".jsonl")
    }


def test_an_endpoint_down_from_the_start_refuses_the_run(table, tmp_path, caplog):
    url = closed_port_url()
    out = tmp_path / "out"
    with caplog.at_level(logging.WARNING):
        result = parse(table, out, url, ok=False)
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "unreachable" in text and "Not starting" in text and "'spacy'" in text
    assert "Connection refused" in text
    assert any("probing it again" in r.getMessage() for r in caplog.records)
    assert not out.exists()  # nothing was written, nothing left behind


def test_a_mostly_fallback_run_fails_and_says_so_while_it_runs(table, tmp_path, caplog):
    with FakeEndpoint("ok") as endpoint:
        failing_for(endpoint, {"numbers": set(range(0, N, 3)) | set(range(1, N, 3))})
        with caplog.at_level(logging.WARNING, logger="sgprep.parse.llm"):
            # in this process (no time budget), where caplog hears the warning as it comes
            result = parse(table, tmp_path / "out", endpoint.url, "--sample-timeout", "0", ok=False)
        assert result.exit_code == 1, result.output
        text = " ".join(result.output.split())
        assert "16 of 24 graphs (67%) came from the fallback parser 'spacy'" in text
        assert "--redo-fallbacks" in text
        warnings = [r.getMessage() for r in caplog.records if "so far" in r.getMessage()]
        assert len(warnings) == 1 and "--max-fallback-share 0.5" in warnings[0]
        # every shard is written: a rerun redoes only what fell back
        assert len(shard_stats(tmp_path / "out")) == N // 4
        # the share may be raised (it does not change the bytes, so the output resumes)
        parse(table, tmp_path / "out", endpoint.url, "--max-fallback-share", "0.7")


@pytest.mark.parametrize("output", ["out", "out.jsonl"])
def test_redo_fallbacks_parses_only_those_again_with_the_bytes_of_a_clean_run(
    table, tmp_path, output
):
    with FakeEndpoint("ok") as endpoint:
        down = {"numbers": set()}
        failing_for(endpoint, down)
        parse(table, tmp_path / "clean" / output, endpoint.url)
        down["numbers"] = set(range(0, N, 3)) | {5, 7} | set(range(16, N))  # 16 of 24
        out = tmp_path / "run" / output
        first = parse(table, out, endpoint.url, ok=False)
        assert first.exit_code == 1, first.output
        down["numbers"] = set()  # the endpoint is back
        posts = endpoint.posts
        again = parse(table, out, endpoint.url, "--redo-fallbacks")
        assert endpoint.posts - posts == 16  # only the fallback samples were sent
        assert "done again" in again.output
        if output == "out":
            redone = [s for s in shard_stats(out) if s["stages"]["parse"].get("reused_graphs")]
            assert sum(s["stages"]["parse"]["reused_graphs"] for s in redone) == N - 16
            assert all(
                s["stages"]["parse"].get("fallback_graphs", 0) == 0 for s in shard_stats(out)
            )
        # a rerun with nothing left to redo sends nothing
        parse(table, out, endpoint.url, "--redo-fallbacks")
        assert endpoint.posts - posts == 16
    if output == "out":
        assert digest(out) == digest(tmp_path / "clean" / output) and len(digest(out)) == 12
    else:
        assert out.read_bytes() == (tmp_path / "clean" / output).read_bytes()
        lines = [json.loads(line) for line in out.read_text().splitlines()]
        assert len(lines) == N and all(r["sg"]["parser"] == "llama3" for r in lines)


def test_redo_fallbacks_on_a_complete_jsonl_with_fallback_graphs_is_refused(table, tmp_path):
    """Its parts are joined: nothing could be redone, and saying nothing would be quiet."""
    out = tmp_path / "out.jsonl"
    with FakeEndpoint("ok") as endpoint:
        failing_for(endpoint, {"numbers": {3}})
        parse(table, out, endpoint.url)  # 1 of 24 from the fallback: under the share
        result = parse(table, out, endpoint.url, "--redo-fallbacks", ok=False)
    assert result.exit_code == 2, result.output
    assert "is complete and holds graphs from the fallback parser" in " ".join(
        result.output.split()
    )


def test_the_python_api_raises_on_a_mostly_fallback_run(table, tmp_path):
    from sgprep import api
    from sgprep.errors import RunIncomplete

    with FakeEndpoint("ok") as endpoint:
        failing_for(endpoint, {"numbers": set(range(0, N, 3)) | set(range(1, N, 3))})
        config = {
            "input": str(table),
            "output": str(tmp_path / "out"),
            "shard_size": 4,
            "stages": [
                {
                    "name": "parse",
                    "settings": {
                        "parser": "llama3",
                        "engine": "openai",
                        "endpoint": endpoint.url,
                        "model": "fake-model",
                        "max_retries": 0,
                        "breaker_cooldown": 0.1,
                        "max_concurrency": 1,
                    },
                }
            ],
        }
        with pytest.raises(RunIncomplete) as raised:
            api.run(config, workers=1, progress=False)
        assert "16 of 24 graphs (67%) came from the fallback parser 'spacy'" in str(raised.value)
        assert raised.value.summary.output.samples == N  # what was done is still reported
        config["stages"][0]["settings"]["max_fallback_share"] = 0.7
        summary = api.run(config, workers=1, progress=False)  # the limit raised: accepted
        assert summary.output.samples == N
