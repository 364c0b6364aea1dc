"""The parse stage: captions -> scene graphs through any registered parser."""

from __future__ import annotations

from collections import Counter

from sgprep.exec.stage import Resources, Stage
from sgprep.parse.base import ParseError, ParserSettings, make_parser
from sgprep.schema import Sample


class ParseStage(Stage):
    name = "parse"
    Settings = ParserSettings
    provides = frozenset({"sg"})

    def __init__(self, settings: ParserSettings | None = None):
        super().__init__(settings)
        self.parser = make_parser(self.settings.parser, self.settings)  # models load in setup()

    def resources(self) -> Resources:
        gpus = self.parser.gpus()
        return Resources(cpus=1, gpus=gpus, own_actors=gpus > 0)

    def place(self, gpus: int, cpus: int) -> None:
        settings = self.settings
        if self.parser.gpus() and settings.num_engines is None:  # one vLLM engine per TP group
            settings.num_engines = max(1, gpus // max(1, settings.tensor_parallel_size))

    def setup(self) -> None:
        self.parser.setup()

    def process_batch(self, batch: list[Sample]) -> list[Sample]:
        need = [s for s in batch if s.caption is not None]
        for sample in batch:
            if sample.caption is None:
                sample.fail("parse", "no_caption", "sample has no caption to parse")
        results = self.parser.parse_batch([s.caption for s in need]) if need else []
        if len(results) != len(need):
            raise RuntimeError(f"parser {self.parser.name} returned {len(results)} results "
                               f"for {len(need)} captions")
        for sample, result in zip(need, results):
            if isinstance(result, ParseError):
                sample.fail("parse", result.reason, result.message)
            else:
                sample.sg = result
        return batch

    def teardown(self) -> None:
        self.parser.teardown()

    def stats(self) -> dict[str, int]:
        return self.parser.stats()

    def sample_stats(self, samples: list[Sample]) -> dict[str, int]:
        graphs = [s.sg for s in samples if s.ok and s.sg is not None]
        out: Counter[str] = Counter(f"graphs/{g.parser}" for g in graphs)
        out["entities"] = sum(len(g.entities) for g in graphs)
        out["relations"] = sum(len(g.relations) for g in graphs)
        out["attributes"] = sum(len(e.attributes) for g in graphs for e in g.entities)
        return dict(out)
