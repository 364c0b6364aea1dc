"""The parse stage: captions -> scene graphs through any registered parser."""

from __future__ import annotations

from collections import Counter

from sgprep.config import RunContext
from sgprep.exec.stage import Resources, Stage
from sgprep.parse.base import LLM_PARSERS, ParseError, ParserSettings, make_parser
from sgprep.schema import Sample, SceneGraph

#: The failure reason of a caption whose graph names nothing.
EMPTY_GRAPH = "empty_graph"
#: Empty graphs fewer than this never fail a run by their share (a handful of odd captions
#: is no wrong column); each is still a failure row.
MIN_EMPTY = 10


class ParseStage(Stage):
    name = "parse"
    Settings = ParserSettings
    provides = frozenset({"sg"})

    def __init__(self, settings: ParserSettings | None = None, context: RunContext | None = None):
        super().__init__(settings, context)
        # models load in setup()
        self.parser = make_parser(self.settings.parser, self.settings, self.context)
        #: --redo-fallbacks: the graphs of a shard done again that are kept, by sample key.
        self.kept: dict[str, SceneGraph] = {}
        self.reused = 0

    def resources(self) -> Resources:
        gpus = self.parser.gpus()
        return Resources(cpus=1, gpus=gpus, own_actors=gpus > 0)

    def check(self) -> None:
        self.parser.check()

    def place(self, gpus: int, cpus: int) -> None:
        settings = self.settings
        if self.parser.gpus() and settings.num_engines is None:  # one vLLM engine per TP group
            settings.num_engines = max(1, gpus // max(1, settings.tensor_parallel_size))

    def setup(self) -> None:
        self.parser.setup()

    def budget_extra(self) -> float:
        """An LLM endpoint that went down is waited for (--endpoint-wait), not timed out."""
        settings = self.settings
        openai = settings.parser in LLM_PARSERS and settings.engine == "openai"
        return settings.endpoint_wait if openai else 0.0

    @property
    def fork_safe(self) -> bool:
        """Whether the parser says so (the rule parser's spaCy pipeline is plain data once
        loaded: workers forked after it loaded share it)."""
        return self.parser.fork_safe

    def process_batch(self, batch: list[Sample]) -> list[Sample]:
        need = []
        for sample in batch:
            if sample.caption is None:
                sample.fail("parse", "no_caption", "sample has no caption to parse")
            elif sample.key in self.kept:
                sample.sg = self.kept[sample.key]
                self.reused += 1
            else:
                need.append(sample)
        results = self.parser.parse_batch([s.caption for s in need]) if need else []
        if len(results) != len(need):
            raise RuntimeError(
                f"parser {self.parser.name} returned {len(results)} results "
                f"for {len(need)} captions"
            )
        for sample, result in zip(need, results):
            if isinstance(result, ParseError):
                sample.fail("parse", result.reason, result.message)
            elif not result.entities:
                # nothing named: no graph to train on, and often a sign of the wrong column
                # ("--caption-column 1" of a CC12M TSV is its URL): a failure, counted
                sample.fail(
                    "parse",
                    EMPTY_GRAPH,
                    f"the {self.parser.name} parser found no thing named in the caption",
                )
            else:
                sample.sg = result
        return batch

    def teardown(self) -> None:
        self.parser.teardown()

    def stats(self) -> dict[str, int]:
        out = self.parser.stats()
        if self.reused:
            out["reused_graphs"] = self.reused
        return out

    def sample_stats(self, samples: list[Sample]) -> dict[str, int]:
        graphs = [s.sg for s in samples if s.ok and s.sg is not None]
        out: Counter[str] = Counter(f"graphs/{g.parser}" for g in graphs)
        out["entities"] = sum(len(g.entities) for g in graphs)
        out["relations"] = sum(len(g.relations) for g in graphs)
        out["attributes"] = sum(len(e.attributes) for g in graphs for e in g.entities)
        out["fallback_graphs"] = sum(g.fallback_from is not None for g in graphs)
        out["empty_graphs"] = sum(
            s.failure is not None and s.failure.reason == EMPTY_GRAPH for s in samples
        )
        out["parsed"] = len(graphs) + out["empty_graphs"]
        return dict(out)

    def problems(self, counters: dict[str, int]) -> list[str]:
        """More captions with an empty graph than ``max_empty_share``; more of the output's
        graphs from the fallback parser than ``max_fallback_share``."""
        out = []
        empty, parsed = counters.get("empty_graphs", 0), counters.get("parsed", 0)
        if empty >= MIN_EMPTY and empty / parsed > self.settings.max_empty_share:
            out.append(
                f"{empty:,} of {parsed:,} captions ({empty / parsed:.0%}) name nothing the "
                f"parser reads as a thing (failed as parse/{EMPTY_GRAPH}): more than "
                f"--max-empty-share {self.settings.max_empty_share:g}. Is --caption-column the "
                "captions' column? (--max-empty-share 1 allows it)"
            )
        share = fallback_share(counters)
        if share is None or share <= self.settings.max_fallback_share:
            return out
        return out + [
            f"{counters['fallback_graphs']:,} of {graph_count(counters):,} graphs ({share:.0%}) "
            f"came from the fallback parser {self.settings.fallback!r}, not from "
            f"{self.settings.parser!r}: more than --max-fallback-share "
            f"{self.settings.max_fallback_share:g}. Make the endpoint answer, then rerun the "
            f"same command with --redo-fallbacks: only those samples are parsed again"
        ]

    @property
    def redoes(self) -> bool:
        return self.settings.redo_fallbacks

    def redo(self, counters: dict[str, int]) -> bool:
        return self.settings.redo_fallbacks and counters.get("fallback_graphs", 0) > 0

    def reuse(self, rows: list[dict] | None) -> None:
        """Keep the graphs that did not come from the fallback (a row's ``sg`` is its JSON)."""
        self.kept = {}
        for row in rows or []:
            graph = row.get("sg")
            if graph is None:
                continue
            graph = (
                SceneGraph.model_validate_json(graph)
                if isinstance(graph, str)
                else SceneGraph.model_validate(graph)
            )
            if graph.fallback_from is None:
                self.kept[row["key"]] = graph


def graph_count(counters: dict[str, int]) -> int:
    return sum(v for k, v in counters.items() if k.startswith("graphs/"))


def fallback_share(counters: dict[str, int]) -> float | None:
    """The share of the graphs (counted by ``sample_stats``) made by the fallback parser."""
    graphs = graph_count(counters)
    return counters.get("fallback_graphs", 0) / graphs if graphs else None
