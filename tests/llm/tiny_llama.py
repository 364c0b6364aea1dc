"""Build a tiny random-weight Llama with a chat template, for running vLLM offline in tests.

    python tests/llm/tiny_llama.py OUT_DIR

Nothing can be downloaded here, so the model is made locally: a byte-level BPE tokenizer trained
with ``tokenizers`` on a few hundred generated captions plus the parser's prompt (so the prompt
tokenizes compactly), Llama-3 style special tokens and chat template, and a 2-layer Llama with
random weights. It exercises the real vLLM code paths (chat template, prefix caching, structured
outputs, the OpenAI server); its answers are meaningless, which is what the fallback tests need.
CPU attention needs head_dim >= 32.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROMPT = REPO / "prompts" / "scene_graph_llm.md"

SPECIAL = [
    "<|begin_of_text|>",
    "<|end_of_text|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eot_id|>",
    "<|pad|>",
]

CHAT_TEMPLATE = (
    "{{ bos_token }}{% for message in messages %}"
    "<|start_header_id|>{{ message['role'] }}<|end_header_id|>\n\n"
    "{{ message['content'] | trim }}<|eot_id|>{% endfor %}"
    "{% if add_generation_prompt %}<|start_header_id|>assistant<|end_header_id|>\n\n{% endif %}"
)

_COLOURS = "red blue green white black brown yellow small large old wooden tall".split()
_THINGS = "dog cat man woman car table box toy bench tree plate cup shirt ball horse".split()
_RELATIONS = [
    "on",
    "in",
    "under",
    "behind",
    "next to",
    "to the left of",
    "holding",
    "wearing",
    "lying on",
    "standing by",
    "near",
    "in front of",
]


def corpus(n: int = 400, seed: int = 0) -> list[str]:
    """A few hundred captions and their JSON graphs, plus the prompt text."""
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        a, b = rng.sample(_THINGS, 2)
        ca, cb = rng.choice(_COLOURS), rng.choice(_COLOURS)
        rel = rng.choice(_RELATIONS)
        lines.append(f"a {ca} {a} {rel} the {cb} {b}.")
        lines.append(
            f'{{"entities":[{{"text":"{ca} {a}","attributes":["{ca}"]}},'
            f'{{"text":"{cb} {b}","attributes":["{cb}"]}}],"relations":[[0,"{rel}",1]]}}'
        )
    if PROMPT.exists():
        lines.extend(PROMPT.read_text(encoding="utf-8").splitlines())
    return lines


def build_tokenizer(vocab_size: int = 2048):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(corpus(), trainer=trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<|begin_of_text|>",
        eos_token="<|eot_id|>",
        pad_token="<|pad|>",
    )
    fast.chat_template = CHAT_TEMPLATE
    return fast


def build(out_dir: str | Path, seed: int = 0) -> Path:
    """Write tokenizer + random-weight model to ``out_dir``; return it. Takes a few seconds."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer()
    tokenizer.save_pretrained(out)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=32,
        max_position_embeddings=4096,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=False,
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config).to(torch.bfloat16)
    model.save_pretrained(out)
    return out


def _check(out: Path) -> None:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(out)
    text = tok.apply_chat_template(
        [{"role": "user", "content": "a dog"}], tokenize=False, add_generation_prompt=True
    )
    ids = tok(text, add_special_tokens=False)["input_ids"]
    print(f"{out}: vocab {len(tok)}, chat prompt {len(ids)} tokens: {text!r}")


if __name__ == "__main__":
    target = build(sys.argv[1] if len(sys.argv) > 1 else "tiny-llama")
    _check(target)
