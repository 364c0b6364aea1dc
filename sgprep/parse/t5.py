"""A FACTUAL-style seq2seq scene-graph parser (Flan-T5 fine-tuned on FACTUAL) via transformers.

The checkpoint is ``settings.model`` (hub id or local folder), by default
``lizhuang144/flan-t5-base-VG-factual-sg``; its input is ``"Generate Scene Graph: " + caption``
and its output FACTUAL's string form, read with :func:`~sgprep.parse.factual_format.from_factual`.
Decoding is beam search (``num_beams``, ``max_length``), a batch at a time, captions sorted by
length inside the batch to pad less. torch and transformers are imported in ``setup()`` only.

Settings read (with defaults, for ParserSettings that lack them): ``model``, ``batch_size``,
``num_beams`` (5), ``max_length`` (256, output tokens), ``max_input_length`` (256),
``device`` (cuda when available, else cpu).
"""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path
from typing import Any

from sgprep.parse.base import ModelUnavailable, ParseError, Parser
from sgprep.parse.factual_format import from_factual
from sgprep.schema import SceneGraph

log = logging.getLogger(__name__)

DEFAULT_MODEL = "lizhuang144/flan-t5-base-VG-factual-sg"
PROMPT = "Generate Scene Graph: "


class T5ModelUnavailable(ModelUnavailable):
    """The T5 checkpoint could not be loaded (offline, wrong path, or incomplete folder), or
    the packages that run it are not installed."""


_NEEDS = (
    "the t5 parser needs torch, transformers and sentencepiece ({} not installed): "
    "pip install 'sgprep[t5]'"
)


def unavailable_message(model: str, reason: str) -> str:
    local = Path(model).name or "model"
    return (
        f"cannot load the T5 scene-graph model {model!r} ({reason}). Without internet the model "
        f"must be on disk: on a connected machine run `huggingface-cli download {model} "
        f"--local-dir {local}` (or `hf download ...`), copy the folder here and pass "
        f"`--model /path/to/{local}`; or copy a Hugging Face cache that holds it, point HF_HOME "
        "to it and set HF_HUB_OFFLINE=1 (which also makes a missing model fail at once instead "
        "of retrying the network)."
    )


#: Seconds the hub has to answer one request before the run goes offline.
HUB_PROBE_SECONDS = 3.0


def go_offline_unless_hub_answers() -> None:
    """Without a network, transformers retries the hub for about a minute before it says the
    model is missing. One quick request first: when the hub does not answer, Hugging Face's
    offline mode is set (HF_HUB_OFFLINE=1), so a model on disk loads at once and one that is
    not fails at once, with our message."""
    import os

    from huggingface_hub import constants

    if constants.HF_HUB_OFFLINE:
        return
    try:
        import httpx

        httpx.head(constants.ENDPOINT, timeout=HUB_PROBE_SECONDS)  # proxies from the env apply
        return
    except httpx.HTTPError as error:
        reason = f"{type(error).__name__}: {error}"
    log.warning(
        "the Hugging Face hub %s does not answer (%s): working offline (HF_HUB_OFFLINE=1)",
        constants.ENDPOINT,
        reason,
    )
    os.environ["HF_HUB_OFFLINE"] = "1"
    constants.HF_HUB_OFFLINE = True


def _looks_like_path(model: str) -> bool:
    return model.startswith(("/", ".", "~")) or Path(model).expanduser().exists()


class T5Parser(Parser):
    name = "t5"

    def __init__(self, settings=None):
        super().__init__(settings)
        self.model_name = self.settings.model or DEFAULT_MODEL
        self.num_beams = self.settings.num_beams
        self.max_length = self.settings.max_length
        self.max_input_length = self.settings.max_input_length
        self._tokenizer: Any = None
        self._model: Any = None
        self._torch: Any = None
        self.device = self.settings.device
        self._counts: Counter[str] = Counter()

    def check(self) -> None:
        """Before any work: torch, transformers and sentencepiece are installed, else one
        line that says how to install them (not an import's traceback in a worker)."""
        import importlib.util

        missing = [
            name
            for name in ("torch", "transformers", "sentencepiece")
            if importlib.util.find_spec(name) is None
        ]
        if missing:
            raise T5ModelUnavailable(_NEEDS.format(", ".join(missing)))

    def setup(self) -> None:
        try:
            import torch
            from transformers import AutoModelForSeq2SeqLM, AutoTokenizer
        except ImportError as error:
            raise T5ModelUnavailable(_NEEDS.format(error.name or error)) from None
        model = self.model_name
        if _looks_like_path(model) and not Path(model).expanduser().is_dir():
            raise T5ModelUnavailable(unavailable_message(model, "no such folder"))
        if not _looks_like_path(model):
            go_offline_unless_hub_answers()
        try:
            source = str(Path(model).expanduser()) if _looks_like_path(model) else model
            self._tokenizer = AutoTokenizer.from_pretrained(source)
            self._model = AutoModelForSeq2SeqLM.from_pretrained(source)
        except (OSError, ValueError) as error:
            raise T5ModelUnavailable(
                unavailable_message(model, str(error).splitlines()[0])
            ) from error
        self._torch = torch
        self.device = self.device or ("cuda" if torch.cuda.is_available() else "cpu")
        self._model.to(self.device).eval()
        self._counts.clear()
        log.info("t5 parser: %s on %s, %d beams", model, self.device, self.num_beams)

    def parse_batch(self, captions: list[str]) -> list[SceneGraph | ParseError]:
        if self._model is None:
            self.setup()
        results: list[SceneGraph | ParseError | None] = [None] * len(captions)
        todo = [i for i, c in enumerate(captions) if c.strip()]
        for i, caption in enumerate(captions):
            if not caption.strip():
                results[i] = SceneGraph(parser=self.name)
        todo.sort(key=lambda i: len(captions[i]))
        step = max(1, self.settings.batch_size)
        for start in range(0, len(todo), step):
            chunk = todo[start : start + step]
            for i, result in zip(
                chunk, self._parse_chunk([captions[i] for i in chunk]), strict=True
            ):
                results[i] = result
        return results  # type: ignore[return-value]

    def _parse_chunk(self, captions: list[str]) -> list[SceneGraph | ParseError]:
        try:
            texts = self.generate(captions)
        except Exception as error:  # e.g. out of memory: retry one by one, then give up per caption
            if len(captions) > 1:
                log.warning("t5 batch of %d failed (%s); retrying one by one", len(captions), error)
                return [r for c in captions for r in self._parse_chunk([c])]
            self._counts["error"] += 1
            return [ParseError("t5_error", f"generation failed: {type(error).__name__}: {error}")]
        return [
            self._to_graph(text, caption) for text, caption in zip(texts, captions, strict=True)
        ]

    def generate(self, captions: list[str]) -> list[str]:
        """The model's raw FACTUAL strings for the captions."""
        inputs = self._tokenizer(
            [PROMPT + c for c in captions],
            max_length=self.max_input_length,
            truncation=True,
            padding=True,
            return_tensors="pt",
        ).to(self.device)
        with self._torch.inference_mode():
            output = self._model.generate(
                input_ids=inputs["input_ids"],
                attention_mask=inputs["attention_mask"],
                num_beams=self.num_beams,
                max_length=self.max_length,
                early_stopping=self.num_beams > 1,
            )
        return self._tokenizer.batch_decode(
            output, skip_special_tokens=True, clean_up_tokenization_spaces=False
        )

    def _to_graph(self, text: str, caption: str) -> SceneGraph | ParseError:
        try:
            graph = from_factual(text, caption, parser_name=self.name)
        except Exception as error:  # from_factual is lenient; this is a safety net
            self._counts["invalid"] += 1
            return ParseError("t5_invalid", f"unreadable model output {text[:200]!r}: {error}")
        if not graph.entities:
            self._counts["invalid"] += 1
            return ParseError("t5_invalid", f"model output has no tuples: {text[:200]!r}")
        self._counts["graphs"] += 1
        return graph

    def teardown(self) -> None:
        self._model = None
        self._tokenizer = None
        if self._torch is not None and self.device == "cuda":
            self._torch.cuda.empty_cache()

    def stats(self) -> dict[str, int]:
        return dict(self._counts)
