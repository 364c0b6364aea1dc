"""The openai engine's circuit breaker: a dead endpoint costs K refused connections, not a retry
per caption. Real sockets on loopback: a closed port (connection refused) and the FAKE endpoint
of fake_endpoint.py, stopped and restarted on the same port to go down and come back."""

from __future__ import annotations

import json
import logging
import threading
import time
from http.server import ThreadingHTTPServer

import pytest

pytest.importorskip("httpx")

from fake_endpoint import FakeEndpoint, closed_port_url  # noqa: E402

from sgprep.exec.stage import StopRun  # noqa: E402
from sgprep.parse.base import EngineUnavailable, ParserSettings  # noqa: E402
from sgprep.parse.llm import LLMParser  # noqa: E402
from sgprep.parse.stage import ParseStage  # noqa: E402
from sgprep.schema import Sample, SceneGraph  # noqa: E402
from tests.conftest import run_cli  # noqa: E402

CAPTIONS = [f"a brown dog number {i} lying on a red sofa" for i in range(6)]


def settings(url: str, **overrides) -> ParserSettings:
    values = dict(
        parser="llama3",
        engine="openai",
        endpoint=url,
        model="fake-model",
        fallback="spacy",
        timeout=2.0,
        max_retries=0,
        max_concurrency=1,
        breaker_failures=3,
        breaker_cooldown=60.0,
    )
    values.update(overrides)
    return ParserSettings(**values)


def make(url: str, **overrides) -> LLMParser:
    parser = LLMParser(
        settings(url, **overrides), engine_options={"backoff": 0.01, "max_backoff": 0.05}
    )
    parser.name = "llama3"
    parser.setup()
    return parser


class Switchable:
    """The fake endpoint on a fixed port that can go down (port closed: connection refused)
    and come back up; it counts the requests that reached it."""

    def __init__(self):
        self.endpoint = FakeEndpoint("ok").__enter__()
        self.port = self.endpoint.server.server_address[1]
        self.url = self.endpoint.url

    def down(self) -> None:
        self.endpoint.server.shutdown()
        self.endpoint.server.server_close()

    def up(self) -> None:
        handler = self.endpoint.server.RequestHandlerClass  # same counters
        self.endpoint.server = ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self.endpoint.server.daemon_threads = True
        threading.Thread(target=self.endpoint.server.serve_forever, daemon=True).start()

    @property
    def posts(self) -> int:
        return self.endpoint.posts

    def close(self) -> None:
        self.endpoint.__exit__(None, None, None)


def test_dead_endpoint_opens_the_breaker_after_k_failures(caplog):
    url = closed_port_url()
    parser = make(url)
    engine = parser.engine
    with caplog.at_level(logging.WARNING, logger="sgprep.parse.engines.openai"):
        graphs = parser.parse_batch(CAPTIONS)
        more = parser.parse_batch(CAPTIONS[:2])
    stats = parser.stats()
    parser.teardown()
    # 3 refused requests open it; the other 3 captions, the retry round and the next batch
    # never reach the socket
    assert engine.stats() == {
        "requests": 3,
        "fault_connection": 3,
        "failed": 3,
        "breaker_open": 1,
        "skipped_breaker_open": 5,
    }
    assert {k: v for k, v in stats.items() if not k.startswith("engine/")} == {
        "llm_ok": 0,
        "llm_invalid": 3,
        "llm_invalid/no_answer": 3,
        "retries": 0,
        "llm_unreachable": 5,
        "fallbacks": 8,
        "fallbacks/no_answer": 3,
        "fallbacks/endpoint_unreachable": 5,
    }
    for graph in graphs + more:
        assert isinstance(graph, SceneGraph)
        assert (graph.parser, graph.fallback_from, graph.retries) == ("spacy", "llama3", 0)
        assert url in graph.fallback_reason and "Connection refused" in graph.fallback_reason
    assert graphs[0].fallback_reason.startswith("no_answer: the engine gave no answer")
    assert graphs[5].fallback_reason.startswith("endpoint_unreachable: not sent")
    [warning] = [r.getMessage() for r in caplog.records if "consecutive" in r.getMessage()]
    assert url in warning and "Connection refused" in warning and "'spacy'" in warning


def test_opening_wakes_retries_waiting_in_back_off():
    """Requests in back-off (here 30 s) give up as soon as the breaker opens."""
    parser = LLMParser(
        settings(closed_port_url(), max_retries=3, max_concurrency=4, breaker_failures=2),
        engine_options={"backoff": 30.0, "max_backoff": 30.0},
    )
    parser.name = "llama3"
    parser.setup()
    engine = parser.engine
    start = time.perf_counter()
    graphs = parser.parse_batch(CAPTIONS[:4])
    seconds = time.perf_counter() - start
    parser.teardown()
    counted = engine.stats()
    assert seconds < 10, f"waited {seconds:.1f} s in back-off after the breaker opened"
    assert all(g.fallback_from == "llama3" for g in graphs)
    assert counted["breaker_open"] == 1 and counted.get("retries", 0) == 0
    assert counted["requests"] + counted.get("skipped_breaker_open", 0) == 4
    assert counted["fault_connection"] == counted["requests"] >= 2


def test_probe_after_the_cooldown():
    ep = Switchable()
    try:
        ep.down()
        parser = make(ep.url, breaker_failures=2, breaker_cooldown=0.3)
        engine = parser.engine
        first = parser.parse_batch(CAPTIONS[:3])  # 2 refused, the breaker opens, 1 skipped
        assert engine.stats()["breaker_open"] == 1 and engine.stats()["requests"] == 2
        time.sleep(0.35)
        still_down = parser.parse_batch(CAPTIONS[:3])  # the probe fails: open again
        assert engine.stats()["breaker_probe"] == 1 and engine.stats()["requests"] == 3
        ep.up()
        skipped = parser.parse_batch(CAPTIONS[:2])  # within the new cooldown: not sent
        assert ep.posts == 0
        time.sleep(0.35)
        back = parser.parse_batch(CAPTIONS)  # the probe succeeds and closes it
        assert ep.posts == len(CAPTIONS)
        counted = engine.stats()
        parser.teardown()
    finally:
        ep.close()
    assert all(g.parser == "spacy" for g in first + still_down + skipped)
    assert all((g.parser, g.fallback_from) == ("llama3", None) for g in back)
    assert counted == {
        "requests": 3 + len(CAPTIONS),
        "fault_connection": 3,
        "failed": 3,
        "breaker_open": 1,
        "breaker_probe": 2,
        "skipped_breaker_open": 1 + 2 + 2,
    }


def test_without_fallback_an_open_breaker_stops_the_stage():
    stage = ParseStage(settings(closed_port_url(), fallback=None, breaker_failures=2))
    stage.parser.engine_options = {"backoff": 0.01, "max_backoff": 0.05}
    stage.setup()
    samples = [Sample(key=f"k{i}", source="test", caption=c) for i, c in enumerate(CAPTIONS)]
    try:
        with pytest.raises(EngineUnavailable, match="--fallback none") as caught:
            stage.run(samples)  # not turned into stage_error failures
    finally:
        stage.teardown()
    assert isinstance(caught.value, StopRun)
    assert "unreachable" in str(caught.value) and "Connection refused" in str(caught.value)
    assert all(s.failure is None for s in samples)


def test_without_fallback_a_dead_endpoint_ends_the_run(tmp_path):
    table = tmp_path / "captions.txt"
    table.write_text("".join(f"a cat number {i} on a mat\n" for i in range(40)))
    out = tmp_path / "out"
    url = closed_port_url()
    result = run_cli(
        "parse",
        "--input",
        table,
        "--output",
        out,
        "--parser",
        "llama3",
        "--engine",
        "openai",
        "--endpoint",
        url,
        "--model",
        "fake-model",
        "--fallback",
        "none",
        "--max-retries",
        "0",
        "--breaker-cooldown",
        "0.1",
        "--no-progress",
        ok=False,
    )
    assert result.exit_code == 2, result.output
    assert "unreachable" in result.output and "--fallback" in result.output
    assert not list(out.glob("*_stats.json"))  # no shard finished without the LLM


def _gold(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        "".join(
            json.dumps({"caption": c, "sg": "( dog , is , brown ) , ( dog , lie on , sofa )"})
            + "\n"
            for c in CAPTIONS
        )
    )
    return gold


def test_eval_refuses_a_run_scored_by_the_fallback(tmp_path):
    from sgprep.eval import EvalRefused, run_eval

    with pytest.raises(EvalRefused, match=r"6 of 6 graphs \(100%\) came from the fallback"):
        run_eval(_gold(tmp_path), "llama3", settings(closed_port_url()))


def test_eval_reports_fallbacks(tmp_path):
    from sgprep.eval import evaluate, load_gold, render

    items = load_gold(_gold(tmp_path))
    parser = make(closed_port_url())
    try:
        report = evaluate(parser, items, max_fallback_share=1.0)
    finally:
        parser.teardown()
    assert (report.fallbacks, report.fallback_share) == (6, 1.0)
    assert report.fallback_reasons == {"no_answer": 3, "endpoint_unreachable": 3}
    assert "fallbacks 6 (100%)" in " ".join(str(render(report).caption).split())
    with FakeEndpoint("ok") as endpoint:
        parser = make(endpoint.url)
        try:
            report = evaluate(parser, items)
        finally:
            parser.teardown()
    assert (report.fallbacks, report.fallback_share, report.fallback_reasons) == (0, 0.0, {})


def test_an_endpoint_that_dies_stops_the_run_and_a_rerun_after_it_is_back_matches_a_clean_run(
    tmp_path,
):
    """--fallback none --endpoint-wait 0: no graph may come from elsewhere, and no waiting.
    The endpoint dies mid-run (after the
    8 requests of shards 0 and 1 it drops every connection unanswered): the run stops (exit 2)
    with those shards kept; the endpoint comes back; the same command resumes, and the output
    is byte-identical to a run that never saw the outage."""
    import hashlib

    table = tmp_path / "captions.txt"
    table.write_text("".join(f"a brown dog number {i} on a red sofa\n" for i in range(24)))
    with FakeEndpoint("ok") as endpoint:
        serve = endpoint.answer
        outage = {"after": None}

        def answer(handler, first):
            if outage["after"] is not None and endpoint.posts > outage["after"]:
                handler.close_connection = True  # hang up without an answer
                return
            serve(handler, first)

        endpoint.answer = answer

        def parse(out, ok=True):
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
                endpoint.url,
                "--model",
                "fake-model",
                "--fallback",
                "none",
                "--max-retries",
                "0",
                "--breaker-failures",
                "1",
                "--endpoint-wait",
                "0",
                "--max-concurrency",
                "1",
                "--shard-size",
                "4",
                "--workers",
                "1",
                "--no-progress",
                ok=ok,
            )

        parse(tmp_path / "clean")
        out = tmp_path / "out"
        outage["after"] = endpoint.posts + 8
        first = parse(out, ok=False)
        assert first.exit_code == 2, first.output
        assert sorted(p.name for p in out.glob("*_stats.json")) == [
            "00000_stats.json",
            "00001_stats.json",
        ]
        outage["after"] = None  # back up
        parse(out)

    def digest(root):
        return {
            p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.iterdir())
            if p.is_file()
        }

    # 6 shards of tar, parquet and stats, and the output's sizes.json and dataset card
    assert digest(out) == digest(tmp_path / "clean") and len(digest(out)) == 6 * 3 + 2


def test_an_endpoint_that_dies_and_comes_back_is_waited_for_and_the_run_goes_on(tmp_path):
    """--fallback none: the endpoint goes down mid-run (its port closed: connection refused,
    probes too) and comes back 1.5 s later. The run waits (--endpoint-wait), probes every
    --breaker-cooldown, asks the cut-off batch again and finishes in one go: no sample lost,
    shards and index byte-identical to a run that never saw the outage; the stats say it
    waited."""
    import hashlib

    table = tmp_path / "captions.txt"
    table.write_text("".join(f"a brown dog number {i} on a red sofa\n" for i in range(24)))
    sw = Switchable()
    try:
        serve = sw.endpoint.answer
        outage = {"after": None, "done": False}

        def answer(handler, first):
            if outage["after"] is not None and not outage["done"] and sw.posts > outage["after"]:
                outage["done"] = True

                def go_down_then_up():
                    sw.down()
                    time.sleep(1.5)
                    sw.up()

                threading.Thread(target=go_down_then_up, daemon=True).start()
                handler.close_connection = True  # this request gets no answer
                return
            serve(handler, first)

        sw.endpoint.answer = answer

        def parse(out):
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
                sw.url,
                "--model",
                "fake-model",
                "--fallback",
                "none",
                "--max-retries",
                "0",
                "--breaker-failures",
                "1",
                "--breaker-cooldown",
                "0.3",
                "--endpoint-wait",
                "60",
                "--max-concurrency",
                "1",
                "--shard-size",
                "4",
                "--workers",
                "1",
                "--no-progress",
            )

        parse(tmp_path / "clean")
        outage["after"] = sw.posts + 9  # inside the third shard
        start = time.monotonic()
        parse(tmp_path / "out")
        assert outage["done"] and time.monotonic() - start >= 1.5
    finally:
        sw.close()

    def digest(root, suffixes=(".tar", ".parquet")):
        return {
            p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.iterdir())
            if p.suffix in suffixes
        }

    assert digest(tmp_path / "out") == digest(tmp_path / "clean")
    assert len(digest(tmp_path / "out")) == 12
    stats = [json.loads(p.read_text()) for p in sorted((tmp_path / "out").glob("*_stats.json"))]
    parse_stats = [s["stages"]["parse"] for s in stats]
    assert sum(s.get("engine/endpoint_waits", 0) for s in parse_stats) == 1
    assert sum(s.get("engine/breaker_probe", 0) for s in parse_stats) >= 2  # down, then back
    assert all(s["ok"] == 4 for s in stats) and sum(s["ok"] for s in stats) == 24
    assert all(s.get("fallbacks", 0) == 0 and s.get("llm_invalid", 0) == 0 for s in parse_stats)


def test_an_endpoint_that_answers_probes_but_drops_every_request_is_not_waited_for_forever(
    tmp_path,
):
    """The models list answers, every completion is hung up on: each probe closes the breaker
    and the next request opens it again. --endpoint-wait bounds the waits of a batch in all,
    so the run stops (exit 2, finished shards kept) instead of looping."""
    table = tmp_path / "captions.txt"
    table.write_text("".join(f"a brown dog number {i} on a red sofa\n" for i in range(8)))
    with FakeEndpoint("ok") as endpoint:
        serve, broken = endpoint.answer, {"after": 4}

        def answer(handler, first):
            if endpoint.posts > broken["after"]:
                handler.close_connection = True
                return
            serve(handler, first)

        endpoint.answer = answer
        start = time.monotonic()
        result = run_cli(
            "parse",
            "-i",
            table,
            "-o",
            tmp_path / "out",
            "--parser",
            "llama3",
            "--engine",
            "openai",
            "--endpoint",
            endpoint.url,
            "--model",
            "fake-model",
            "--fallback",
            "none",
            "--max-retries",
            "0",
            "--breaker-failures",
            "1",
            "--breaker-cooldown",
            "0.2",
            "--endpoint-wait",
            "2",
            "--max-concurrency",
            "1",
            "--shard-size",
            "4",
            "--workers",
            "1",
            "--no-progress",
            ok=False,
        )
        assert result.exit_code == 2, result.output
        assert time.monotonic() - start < 30
    assert [p.name for p in (tmp_path / "out").glob("*_stats.json")] == ["00000_stats.json"]
