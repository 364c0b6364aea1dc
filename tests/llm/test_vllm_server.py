"""The openai engine against a real vLLM OpenAI-compatible server on loopback, serving the tiny
random Llama with guidance-constrained JSON output. The server runs as a subprocess for this
module and is stopped by its PID; the last test stops it mid-run and checks nothing is lost.

Skips unless vLLM imports (it runs in the venv made by setup_vllm_venv.sh)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from vllm_support import CAPTIONS, CUT_OFF_MAX_TOKENS, OUT_OF_RANGE_SCHEMA, VALID_SCHEMA, need_vllm

need_vllm()
httpx = pytest.importorskip("httpx")

from sgprep.parse.base import ParserSettings  # noqa: E402
from sgprep.parse.llm import LLMParser  # noqa: E402
from sgprep.schema import SceneGraph  # noqa: E402

pytestmark = [pytest.mark.vllm, pytest.mark.slow]

START_TIMEOUT = 300.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, model, log_path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.log_path = log_path
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "VLLM_CPU_KVCACHE_SPACE": "1"}
        cmd = [
            sys.executable,
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            str(model),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--max-model-len",
            "2048",
            "--enforce-eager",
            "--distributed-executor-backend",
            "uni",
            "--structured-outputs-config",
            '{"backend":"guidance","disable_any_whitespace":true}',
        ]
        self.log = open(log_path, "wb")
        # Own session: stopping it by its PID also stops the engine process it started.
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"vLLM server exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(1)
        self.stop()
        pytest.fail(f"vLLM server not healthy after {START_TIMEOUT:.0f} s:\n{self.tail()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the group led by our server's PID
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.log.close()

    def tail(self, n: int = 4000) -> str:
        self.log.flush()
        return self.log_path.read_bytes()[-n:].decode(errors="replace")


@pytest.fixture(scope="module")
def server(tiny_llama, tmp_path_factory):
    server = Server(tiny_llama, tmp_path_factory.mktemp("vllm-server") / "server.log")
    try:
        server.wait_healthy()
        yield server
    finally:
        server.stop()


def make(server, schema=None, max_tokens=512, **overrides) -> LLMParser:
    settings = ParserSettings(
        engine="openai",
        endpoint=server.url,
        model=str(server_model(server)),
        fallback="spacy",
        max_concurrency=8,
        timeout=60.0,
        max_retries=2,
    )
    for key, value in overrides.items():
        setattr(settings, key, value)
    parser = LLMParser(
        settings,
        engine_options={"backoff": 0.05, "max_backoff": 0.2},
        output_schema=schema,
        max_tokens=max_tokens,
    )
    parser.name = "llama3"
    parser.setup()
    return parser


def server_model(server) -> str:
    return httpx.get(f"{server.url}/models", timeout=10).json()["data"][0]["id"]


def test_response_format_keeps_answers_inside_the_schema(server):
    parser = make(server)
    try:
        conversations = [parser.prompt.conversation(c) for c in CAPTIONS]
        answers = parser.engine.generate(conversations, VALID_SCHEMA, max_tokens=256)
    finally:
        parser.teardown()
    assert len(answers) == len(CAPTIONS)
    for answer in answers:  # the narrow schema always finishes well inside 256 tokens
        data = json.loads(answer)
        assert len(data["entities"]) == 2 and [(s, o) for s, _, o in data["relations"]] == [(0, 1)]


def parse_all(server, **kwargs):
    parser = make(server, **kwargs)
    try:
        graphs = parser.parse_batch(CAPTIONS)
        stats, engine_stats = parser.stats(), parser.engine.stats()
    finally:
        parser.teardown()
    assert len(graphs) == len(CAPTIONS)
    return graphs, {k: v for k, v in stats.items() if not k.startswith("engine/")}, engine_stats


def test_valid_answers_become_llm_graphs(server):
    graphs, stats, engine_stats = parse_all(server, schema=VALID_SCHEMA)
    assert stats == {"llm_ok": len(CAPTIONS), "llm_invalid": 0, "retries": 0, "fallbacks": 0}
    assert all((g.parser, g.fallback_from) == ("llama3", None) for g in graphs)
    assert engine_stats == {"requests": len(CAPTIONS)}  # a healthy server: nothing retried


@pytest.mark.parametrize(
    "schema, max_tokens, reason",
    [
        (OUT_OF_RANGE_SCHEMA, 512, "invalid_graph"),
        (VALID_SCHEMA, CUT_OFF_MAX_TOKENS, "not_json"),
    ],
)
def test_invalid_answers_are_retried_then_fall_back(server, schema, max_tokens, reason):
    graphs, stats, engine_stats = parse_all(server, schema=schema, max_tokens=max_tokens)
    n = len(CAPTIONS)
    assert stats == {
        "llm_ok": 0,
        "llm_invalid": 2 * n,
        f"llm_invalid/{reason}": 2 * n,
        "retries": n,
        "fallbacks": n,
        f"fallbacks/{reason}": n,
    }
    for graph in graphs:
        assert isinstance(graph, SceneGraph)
        assert (graph.parser, graph.retries, graph.fallback_from) == ("spacy", 1, "llama3")
    assert engine_stats == {"requests": 2 * n}  # the server answered each attempt


def test_cli_parse_through_the_server_writes_valid_shards(server, tmp_path):
    """`sgprep parse --parser llama3 --engine openai` end to end: shards, index, stats."""
    import pyarrow.parquet as pq
    from typer.testing import CliRunner

    from sgprep.cli import app

    table = tmp_path / "captions.txt"
    table.write_text("\n".join(CAPTIONS) + "\n")
    out = tmp_path / "out"
    args = [
        "parse",
        "--input",
        str(table),
        "--output",
        str(out),
        "--parser",
        "llama3",
        "--engine",
        "openai",
        "--endpoint",
        server.url,
        "--model",
        server_model(server),
        "--max-concurrency",
        "8",
        "--no-progress",
        "--max-fallback-share",
        "1",
    ]  # a random tiny model: any share of fallbacks
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = pq.read_table(out / "00000.parquet").to_pylist()
    assert [r["caption"] for r in rows] == CAPTIONS and all(r["status"] == "ok" for r in rows)
    graphs = [SceneGraph.model_validate_json(r["sg"]) for r in rows]
    stats = json.loads((out / "00000_stats.json").read_text())["stages"]["parse"]
    fell_back = sum(g.fallback_from == "llama3" for g in graphs)
    assert stats.get("fallbacks", 0) == fell_back and stats.get("graphs/spacy", 0) == fell_back
    assert stats.get("graphs/llama3", 0) == len(CAPTIONS) - fell_back
    assert stats["engine/requests"] >= len(CAPTIONS)  # the engine's counters travel too
    assert CliRunner().invoke(app, ["validate", str(out)]).exit_code == 0


def test_llm_judge_of_negatives_gets_a_schema_answer_for_every_negative(server):
    """The negatives' LLM judge through the real server: guidance keeps every answer inside
    its schema, so every negative is judged (the tiny random model's verdicts mean nothing)."""
    from sgprep.negatives.llm_judge import LLMJudgeSettings
    from sgprep.negatives.stage import NegativesSettings, NegativesStage
    from sgprep.parse.rules import RuleParser
    from sgprep.schema import Sample

    rules = RuleParser()
    rules.setup()
    samples = [
        Sample(key=f"k{i}", source="test", caption=c, sg=g)
        for i, (c, g) in enumerate(zip(CAPTIONS, rules.parse_batch(CAPTIONS)))
    ]
    stage = NegativesStage(
        NegativesSettings(
            strategies=["swap", "replace"],
            per_sample=2,
            llm_judge=LLMJudgeSettings(
                enabled=True, endpoint=server.url, model=server_model(server), max_concurrency=8
            ),
        )
    )
    stage.setup()
    try:
        stage.run(samples)
        stats = stage.stats()
    finally:
        stage.teardown()
    made = stats["llm_judge/judged"]
    assert made > 0 and "llm_judge/unjudged" not in stats
    refused = stats.get("rejected/llm_disfluent", 0) + stats.get("rejected/llm_implausible", 0)
    assert stats["negatives"] == made - refused == sum(len(s.neg.negatives) for s in samples)


def test_server_dying_mid_run_costs_retries_not_captions(server):
    parser = make(server, timeout=5.0, max_retries=1)
    try:
        server.stop()  # last test of the module: the server is gone from here on
        graphs = parser.parse_batch(CAPTIONS)
        stats, engine_stats = parser.stats(), parser.engine.stats()
    finally:
        parser.teardown()
    assert len(graphs) == len(CAPTIONS)
    assert all(isinstance(g, SceneGraph) and g.fallback_from == "llama3" for g in graphs)
    assert stats["fallbacks"] == len(CAPTIONS)
    assert stats["llm_invalid/no_answer"] == 2 * len(CAPTIONS)
    assert engine_stats["failed"] == 2 * len(CAPTIONS)  # two attempts per caption, each given up
    assert engine_stats["retries"] == 2 * len(CAPTIONS)  # one endpoint retry per attempt
