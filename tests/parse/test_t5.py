"""T5Parser on a tiny T5 built here (random weights, locally trained tokenizer): the real
loading, batching, generation and decoding path; the output itself is meaningless."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("tokenizers")

from sgprep.parse.base import ParseError, ParserSettings, make_parser  # noqa: E402
from sgprep.parse.factual_format import from_factual  # noqa: E402
from sgprep.parse.t5 import PROMPT, T5ModelUnavailable, T5Parser  # noqa: E402
from sgprep.schema import SceneGraph  # noqa: E402

ADJECTIVES = ["red", "blue", "young", "wooden", "white", "black", "small", "large"]
NOUNS = ["girl", "bed", "man", "dog", "car", "table", "cat", "door", "bench", "plate"]
PREDICATES = ["on", "sitting on", "next to", "holding", "in front of", "under"]


def training_sentences(n: int = 300) -> list[str]:
    rng = random.Random(0)
    sentences = []
    for _ in range(n):
        adj, a, pred, b = (rng.choice(x) for x in (ADJECTIVES, NOUNS, PREDICATES, NOUNS))
        sentences.append(f"{PROMPT}a {adj} {a} {pred} a {b}")
        sentences.append(f"( {a} , {pred} , {b} ) , ( {a} , is , {adj} )")
    return sentences


@pytest.fixture(scope="module")
def tiny_t5(tmp_path_factory) -> str:
    """A T5 with random weights and a BPE tokenizer trained here, saved like a hub checkpoint."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast, T5Config, T5ForConditionalGeneration

    raw = Tokenizer(models.BPE(unk_token="<unk>"))
    raw.pre_tokenizer = pre_tokenizers.Metaspace()
    raw.decoder = decoders.Metaspace()
    raw.train_from_iterator(
        training_sentences(),
        trainers.BpeTrainer(vocab_size=300, special_tokens=["<pad>", "</s>", "<unk>"]),
    )
    raw.post_processor = processors.TemplateProcessing(
        single="$A </s>", special_tokens=[("</s>", 1)]
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )
    assert (tokenizer.pad_token_id, tokenizer.eos_token_id) == (0, 1)
    config = T5Config(
        d_model=32, d_ff=64, num_layers=1, num_decoder_layers=1, num_heads=2, d_kv=16,
        vocab_size=len(tokenizer), pad_token_id=0, eos_token_id=1, decoder_start_token_id=0,
    )  # fmt: skip
    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("tiny-t5")
    T5ForConditionalGeneration(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


CAPTIONS = [
    "a young girl sitting on a bed",
    "",
    "a red car next to a wooden bench",
    "two dogs",
    "a very long caption about a small white cat under a large black table near the door " * 3,
]


def test_parses_every_caption_through_the_real_path(tiny_t5):
    parser = make_parser("t5", ParserSettings(model=tiny_t5, batch_size=2))
    parser.num_beams, parser.max_length = 2, 24
    parser.setup()
    try:
        assert parser.device == "cpu"
        results = parser.parse_batch(CAPTIONS)
        raw = parser.generate(CAPTIONS[:1])
    finally:
        parser.teardown()
    assert len(results) == len(CAPTIONS)
    assert isinstance(raw, list) and isinstance(raw[0], str)
    assert results[1] == SceneGraph(parser="t5")  # a blank caption is not sent to the model
    for result in results:
        if isinstance(result, ParseError):
            assert result.reason == "t5_invalid"
        else:
            assert result.parser == "t5"
            SceneGraph.model_validate(result.model_dump())
    stats = parser.stats()
    assert stats.get("graphs", 0) + stats.get("invalid", 0) == len(CAPTIONS) - 1


def test_model_output_to_graph_never_raises(tiny_t5):
    parser = T5Parser(ParserSettings(model=tiny_t5))
    cases = {
        "( girl , sit on , bed ) , ( girl , is , young )": 2,
        "( girl , sit on , bed ( bed , is , wooden": 2,
        "girl sit on bed": 1,
        "( girl , on , girl:0 ) , ( , , )": 1,
        "": 0,
        " , , ) (": 0,
    }
    for text, n_entities in cases.items():
        result = parser._to_graph(text, "a young girl sitting on a bed")
        if n_entities:
            assert isinstance(result, SceneGraph) and len(result.entities) == n_entities, text
        else:
            assert isinstance(result, ParseError) and result.reason == "t5_invalid", text
    assert from_factual("( girl , sit on , bed )", "", "t5").entities[0].span is None


def test_missing_model_folder_is_a_clear_error(tmp_path):
    missing = tmp_path / "no-such-model"
    with pytest.raises(T5ModelUnavailable) as info:
        T5Parser(ParserSettings(model=str(missing))).setup()
    message = str(info.value)
    assert str(missing) in message
    assert "huggingface-cli download" in message and "--model" in message
    assert "HF_HUB_OFFLINE=1" in message


def test_unreachable_hub_model_is_a_clear_error(monkeypatch):
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)  # no network retries
    with pytest.raises(T5ModelUnavailable) as info:
        T5Parser(ParserSettings(model="sgprep-tests/no-such-t5")).setup()
    assert "sgprep-tests/no-such-t5" in str(info.value)
    assert "huggingface-cli download sgprep-tests/no-such-t5" in str(info.value)


def test_empty_folder_is_a_clear_error(tmp_path):
    with pytest.raises(T5ModelUnavailable, match="cannot load the T5 scene-graph model"):
        T5Parser(ParserSettings(model=str(tmp_path))).setup()


def test_a_hub_that_does_not_answer_sets_offline_mode_at_once(monkeypatch):
    """Issue 20, item 23: the hub's address accepts connections and never answers (a socket
    that listens and reads nothing). One probe, then offline mode: transformers never
    retries it, and the model's message comes at once."""
    import os
    import socket

    import huggingface_hub.constants

    from sgprep.parse import t5

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    monkeypatch.setattr(
        huggingface_hub.constants, "ENDPOINT", f"http://127.0.0.1:{silent.getsockname()[1]}"
    )
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "")
    monkeypatch.setattr(t5, "HUB_PROBE_SECONDS", 0.3)
    try:
        with pytest.raises(T5ModelUnavailable, match="sgprep-tests/no-such-t5"):
            T5Parser(ParserSettings(model="sgprep-tests/no-such-t5")).setup()
        assert huggingface_hub.constants.HF_HUB_OFFLINE is True
        assert os.environ["HF_HUB_OFFLINE"] == "1"
        silent.setblocking(False)
        connections = 0
        while True:
            try:
                silent.accept()[0].close()
            except BlockingIOError:
                break
            connections += 1
        assert connections == 1  # the probe; nothing after it
    finally:
        silent.close()


def test_without_transformers_the_run_says_what_to_install_in_one_line(tmp_path, monkeypatch):
    # issue 34: a 60-line traceback came before the hint
    import importlib.util

    from tests.conftest import run_cli

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "transformers" else real(name, *a),
    )
    table = tmp_path / "c.txt"
    table.write_text("a dog on a bench\n")
    result = run_cli(
        "parse", "-i", table, "-o", tmp_path / "out", "--parser", "t5", "--no-progress",
        ok=False,
    )  # fmt: skip
    assert result.exit_code != 0
    assert (
        "pip install 'sgprep[t5]'" in result.output
        and "transformers not installed" in result.output
    )
    assert "Traceback" not in result.output, result.output
