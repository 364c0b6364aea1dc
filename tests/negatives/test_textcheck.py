"""The blind text-only judges (sgprep/negatives/textcheck.py) and the benchmark that runs them
(benchmarks/text_only.py) on a small sgprep output built here."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest

from sgprep.negatives.textcheck import (
    NgramLM,
    normalised,
    pick_rate,
    picks_positive,
    shorter,
    tokens,
)

CAPTIONS = [
    "a man riding a horse",
    "a woman riding a horse",
    "a man riding a brown horse",
    "a dog on a couch",
    "a black dog on a couch",
    "a cat on a couch",
    "a man holding an umbrella",
    "a woman holding an umbrella",
    "a white plate on a table",
    "a plate of food on a table",
    "two people riding horses",
    "a group of people on a beach",
    "a red car on the street",
]
BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "text_only.py"


@pytest.fixture(scope="module")
def lm() -> NgramLM:
    return NgramLM(CAPTIONS)


def test_tokens_are_lower_case_words_and_marks():
    assert tokens("A man's Hat, red.") == ["a", "man's", "hat", ",", "red", "."]
    assert normalised("A  Red car!") == "a red car !"


@pytest.mark.parametrize(
    "context", [("<s>", "<s>"), ("<s>", "a"), ("man", "riding"), ("never", "seen"), ("<unk>", "on")]
)
def test_each_context_gives_a_distribution(lm, context):
    total = sum(lm.prob(*context, w) for w in lm.vocab)
    assert total == pytest.approx(1.0, abs=1e-9)
    assert all(lm.prob(*context, w) > 0 for w in lm.vocab)


def test_words_never_seen_are_rare_words_not_impossible(lm):
    assert "zebra" not in lm.vocab
    total, n = lm.logprob("a zebra on a couch")
    assert n == 6 and math.isfinite(total)


def test_the_model_prefers_what_the_corpus_says(lm):
    # word order, agreement and articles as the training captions have them
    assert lm.score("a man riding a horse") > lm.score("a horse riding a man")
    assert lm.score("a woman holding an umbrella") > lm.score("a woman holding a umbrella")
    assert lm.score("a dog on a couch") > lm.score("a couch on a dog")
    # the score is per token: a longer caption is not penalised for its length
    assert lm.score("a man riding a brown horse") > lm.score("a horse riding")
    assert lm.perplexity(CAPTIONS) < lm.perplexity(["couch a on dog a", "umbrella the riding"])


def test_an_empty_corpus_is_refused():
    with pytest.raises(ValueError):
        NgramLM([])


def test_pick_rate_counts_ties_as_half():
    assert picks_positive(shorter, "a dog", "a big dog") == 1.0
    assert picks_positive(shorter, "a big dog", "a dog") == 0.0
    assert picks_positive(shorter, "a cat", "a dog") == 0.5
    rate, n = pick_rate(
        shorter, [("a dog", "a big dog"), ("a cat", "a dog"), ("a big cat", "a cat")]
    )
    assert (rate, n) == (0.5, 3)
    assert math.isnan(pick_rate(shorter, [])[0])


def _negative(positive: str, text: str, kind: str, realisation: str = "span_edit") -> dict:
    return {
        "text": text,
        "positive": positive,
        "kind": kind,
        "strategy": kind.split("_")[0],
        "realisation": realisation,
        "graph": {"entities": [], "relations": []},
        "image_key": None,
    }


def load_benchmark():
    spec = importlib.util.spec_from_file_location("text_only", BENCHMARK)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def write_output(tmp_path: Path) -> tuple[Path, Path]:
    """A JSONL output with negatives of three kinds (one of a sub-graph positive), a sample
    without negatives and a failed one; and a training text file."""
    records = [
        (
            "a man riding a horse",
            [
                _negative("a man riding a horse", "a horse riding a man", "swap_object"),
                _negative(
                    "a man riding a horse",
                    "a man riding a horse behind a big red car",
                    "connect",
                    "template",
                ),
            ],
        ),
        (
            "a dog on a couch",
            [
                _negative("a dog on a couch", "a couch on a dog", "swap_object"),
                _negative("a dog", "a cat", "replace_object"),
            ],
        ),  # a sub-graph positive's negative
        ("a cat", []),
    ]
    out = tmp_path / "negs.jsonl"
    out.write_text(
        "".join(
            json.dumps(
                {
                    "key": f"k{i}",
                    "status": "ok",
                    "caption": c,
                    "neg": {"positives": [], "negatives": n},
                }
            )
            + "\n"
            for i, (c, n) in enumerate(records)
        )
        + json.dumps({"key": "bad", "status": "failed", "caption": "x", "neg": None})
        + "\n"
    )
    train = tmp_path / "train.txt"
    train.write_text("\n".join(CAPTIONS) + "\n")
    return out, train


def test_benchmark_judges_an_output_per_kind(tmp_path):
    out, train = write_output(tmp_path)
    result = tmp_path / "result.json"
    assert (
        load_benchmark().main(["--input", str(out), "--train", str(train), "--json", str(result)])
        == 0
    )
    report = json.loads(result.read_text())
    assert report["samples"] == 3
    kinds = report["kinds"]
    assert set(kinds) == {"swap_object", "connect", "replace_object@subgraph", "all"}
    assert kinds["swap_object"]["pairs"] == 2 and kinds["all"]["pairs"] == 4
    assert kinds["connect"]["picks_positive"]["length"]["rate"] == 1.0  # longer: given away
    assert kinds["connect"]["template_share"] == 1.0
    assert kinds["connect"]["length_ratio"] == pytest.approx(
        len("a man riding a horse behind a big red car") / len("a man riding a horse")
    )
    assert kinds["swap_object"]["picks_positive"]["length"]["rate"] == 0.5  # same length: a tie
    assert kinds["swap_object"]["picks_positive"]["ngram"]["rate"] == 1.0
    # the scored captions are held out of the n-gram's training
    assert report["ngram"]["removed_as_scored"] == 2  # "a man riding a horse", "a dog on a couch"
    assert report["command"].startswith("python benchmarks/text_only.py --input ")


@pytest.fixture(scope="module")
def tiny_causal_lm(tmp_path_factory) -> Path:
    """A one-layer Llama with a word-level tokenizer, fitted here for a few steps on CAPTIONS
    (nothing can be downloaded): real transformers code paths, a model that knows the captions."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = sorted({w for c in CAPTIONS for w in c.split()} | {"caption:", "zebra"})
    vocab = {w: i for i, w in enumerate(["<pad>", "<unk>", "</s>", *words])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>", eos_token="</s>"
    )
    torch.manual_seed(0)
    torch.set_num_threads(1)  # a tiny model: more threads only wait for each other
    config = transformers.LlamaConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        head_dim=16,
        max_position_embeddings=64,
    )
    model = transformers.LlamaForCausalLM(config)
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-2)
    batch = fast(["caption: " + c for c in CAPTIONS], padding=True, return_tensors="pt")
    labels = batch["input_ids"].masked_fill(batch["attention_mask"] == 0, -100)
    for _ in range(80):
        loss = model(**batch, labels=labels).loss
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    out = tmp_path_factory.mktemp("tiny-lm")
    model.save_pretrained(out)
    fast.save_pretrained(out)
    return out


@pytest.mark.slow
def test_causal_lm_scores_the_text_given_the_prompt(tiny_causal_lm):
    import torch

    from sgprep.negatives.textcheck import CausalLM

    judge = CausalLM(tiny_causal_lm, prompt="caption:", batch_size=3)
    texts = [
        "a man riding a horse",
        "a horse riding a man",
        "a dog on a couch",
        "a couch",
        "a zebra on a couch",
    ]
    batched = dict(judge.score_many(texts))
    for text in texts:  # padding in a batch changes nothing
        alone = CausalLM(tiny_causal_lm, prompt="caption:").score(text)
        assert alone == pytest.approx(batched[text], abs=1e-5)
    # by hand: mean log P(token | prompt and the tokens before it) over the text's tokens
    ids = judge.tokenizer("caption: a dog on a couch")["input_ids"]
    with torch.no_grad():
        logp = torch.log_softmax(judge.model(input_ids=torch.tensor([ids])).logits[0], -1)
    first = len(judge.prompt)
    assert first == 1 and len(ids) == 6
    by_hand = sum(logp[i - 1, ids[i]].item() for i in range(first, len(ids))) / (len(ids) - first)
    assert batched["a dog on a couch"] == pytest.approx(by_hand, abs=1e-5)
    # it learned the captions: the true order reads better than the swapped one
    assert picks_positive(judge.score, "a man riding a horse", "a horse riding a man") == 1.0
    assert picks_positive(judge.score, "a dog on a couch", "a couch on a dog") == 1.0


def test_a_missing_packaged_model_says_what_to_install():
    from sgprep.negatives.textcheck import packaged_gguf

    with pytest.raises(FileNotFoundError, match="pip install"):
        packaged_gguf("no_such_package_here", "model.gguf")


@pytest.mark.slow
def test_benchmark_judges_with_a_causal_lm_too(tiny_causal_lm, tmp_path):
    out, train = write_output(tmp_path)
    result = tmp_path / "result.json"
    assert (
        load_benchmark().main(
            [
                "--input",
                str(out),
                "--train",
                str(train),
                "--lm",
                str(tiny_causal_lm),
                "--json",
                str(result),
            ]
        )
        == 0
    )
    report = json.loads(result.read_text())
    assert report["lm"]["texts"] == 7 and report["lm"]["model"] == tiny_causal_lm.name
    # the tiny model learned "a man riding a horse" and "a dog on a couch", not their swaps
    assert report["kinds"]["swap_object"]["picks_positive"]["lm"]["rate"] == 1.0
