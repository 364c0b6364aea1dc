"""Captions for soaking the rule parser: seeded, varied, and shaped to find a rule that crawls
or loops (issue 31, item 7).

    python benchmarks/soak_captions.py --n 20 --seed 1          # one caption a line
    python benchmarks/soak_captions.py --n 20 --tagged          # family<TAB>caption

Each caption comes from one template family (``FAMILIES``: coordination, nested with/of
phrases, compounds and breed names, relative clauses, participles, frames, long lines, alt-text
noise, keyword lists, emoji runs, typos, and ``stress``: the degenerate inputs a web crawl
holds: long lists, stutters, a 1,000-character token, deep brackets), and then, by chance, a
few perturbations (typos, noise, ALL CAPS, repeated words, punctuation runs, non-ASCII, odd
spaces). Only the grammar is here; the words are data: ``benchmarks/data/soak_words.json``,
each list with a note of where its words come from, extended at run time with the nouns,
attributes, prepositions and verb phrases of FACTUAL's readable development halves
(``dev-rules``, ``long-rules``: ``benchmarks/factual_splits.py``) where ``shared/data`` has
them. No word comes from the test split or the held halves: these captions get printed and
read by whoever fixes a slow rule.

Caption ``i`` of a seed depends on nothing but the seed, ``i`` and the word lists: the first
100 captions of ``generate(1000, s)`` are ``generate(100, s)``, on any machine whose
``shared/data`` holds the same files (``corpus=False``: the data file alone, the same
everywhere). No caption holds a line break, so one a line round-trips.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # factual_splits
from factual_splits import DATA, read_rows, split  # noqa: E402  (shared/data beside the checkout)

WORDS_FILE = Path(__file__).resolve().parent / "data" / "soak_words.json"
#: FACTUAL's development files; only their ``rules`` halves are read
CORPORA = ("factual_dev.csv", "factual_long_dev.csv")
#: a gold triple as FACTUAL writes it: "( man , sit on , bench )"
TRIPLE = re.compile(r"\( ([^,()]+) , ([^,()]+) , ([^,()]+) \)")

Words = dict[str, tuple[str, ...]]


def _ing(verb: str) -> tuple[str, ...]:
    return verb + "ing", verb[:-1] + "ing", verb + verb[-1:] + "ing"


def _ed(verb: str) -> tuple[str, ...]:
    return verb + "ed", verb + "d", verb + verb[-1:] + "ed", verb[:-1] + "ied"


@lru_cache(maxsize=4)
def corpus_words(data: Path = DATA) -> dict[str, list[str]]:
    """Nouns, compounds, adjectives, prepositions, gerund and participle phrases of FACTUAL's
    readable development captions, most frequent first; empty lists where the files are
    missing. Counted from the gold graphs, which already say which words are entities (their
    subjects and objects), attributes (``is`` objects) and relations; a predicate is a verb
    where the captions write an -ing or -ed form of its first word ("sit on": "sitting on"),
    else a preposition when written as such. A phrase or attribute seen once is left out
    (FACTUAL's own typos and one-off readings)."""
    rows = []
    for name in CORPORA:
        if (data / name).is_file():
            rows += split(read_rows(data / name))[0]
    seen: Counter[str] = Counter()
    for r in rows:
        seen.update(re.findall(r"[a-z]+", r["caption"].lower()))
    counts: dict[str, Counter[str]] = {
        k: Counter()
        for k in ("nouns", "compounds", "adjectives", "prepositions", "gerunds", "participles")
    }
    for r in rows:
        caption = " " + " ".join(re.findall(r"[a-z]+", r["caption"].lower())) + " "
        for subject, predicate, obj in TRIPLE.findall(r["scene_graph"]):
            subject, predicate, obj = subject.strip(), predicate.strip(), obj.strip()
            entities = (subject,) if predicate == "is" else (subject, obj)
            for e in entities:
                if re.fullmatch(r"[a-z]{3,}", e) and f" {e} " in caption:
                    counts["nouns"][e] += 1
                elif re.fullmatch(r"[a-z]+( [a-z]+){1,2}", e) and f" {e} " in caption:
                    counts["compounds"][e] += 1
            if predicate == "is":
                if re.fullmatch(r"[a-z]{3,}", obj) and f" {obj} " in caption:
                    counts["adjectives"][obj] += 1
                continue
            verb, *rest = predicate.split()
            ings = [f for f in _ing(verb) if seen[f]]
            eds = [f for f in _ed(verb) if seen[f]]
            if ings or eds or verb == "have":
                for forms, key in ((ings, "gerunds"), (eds, "participles")):
                    for form in forms:
                        phrase = " ".join([form, *rest])
                        if f" {phrase} " in caption and (key == "gerunds" or rest):
                            counts[key][phrase] += 1
            elif f" {predicate} " in caption:
                counts["prepositions"][predicate] += 1
    verbs = {p.split()[0] for p in counts["gerunds"]}
    least = {"nouns": 1, "compounds": 1}
    return {
        k: [
            w
            for w, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
            if n >= least.get(k, 2)
            and not (k == "adjectives" and (w in verbs or w.endswith("ing")))
        ]
        for k, c in counts.items()
    }


@lru_cache(maxsize=4)
def load_words(corpus: bool = True, data: Path = DATA) -> Words:
    """The data file's lists, each extended by ``corpus_words`` (data file first, then the
    corpus's words not in it, most frequent first)."""
    raw = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
    words = {k: tuple(v["words"]) for k, v in raw.items() if not k.startswith("_")}
    if corpus:
        for k, extra in corpus_words(data).items():
            words[k] = tuple(dict.fromkeys(words[k] + tuple(extra)))
    return words


def plural(noun: str) -> str:
    if noun.endswith("s") and not noun.endswith("ss"):  # FACTUAL's nouns are often plural
        return noun
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def article(phrase: str) -> str:
    return "an" if phrase[:1].lower() in "aeiou" else "a"


class Maker:
    """The phrases of one caption, drawn from one seeded ``random.Random``."""

    def __init__(self, rng: random.Random, words: Words):
        self.rng, self.w = rng, words

    def pick(self, key: str) -> str:
        return self.rng.choice(self.w[key])

    def some(self, key: str, lo: int, hi: int) -> list[str]:
        return [self.pick(key) for _ in range(self.rng.randint(lo, hi))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def head(self) -> str:
        r = self.rng.random()
        return self.pick("nouns" if r < 0.8 else "compounds" if r < 0.93 else "breeds")

    def adjectives(self, most: int = 2) -> list[str]:
        adjs = self.some("adjectives", 0, most)
        if adjs and self.chance(0.1):
            adjs.insert(0, self.pick("intensifiers"))
        return adjs

    def np(self, head: str | None = None, most_adjs: int = 2) -> str:
        """A noun phrase: determiner or count, adjectives, a noun, compound or breed."""
        head = head or self.head()
        body = " ".join([*self.adjectives(most_adjs), head])
        r = self.rng.random()
        if r < 0.55:
            return f"{article(body)} {body}"
        if r < 0.75:
            return f"{self.pick('determiners')} {body}"
        if r < 0.9:
            words = body.split()
            return f"{self.pick('counts')} {' '.join([*words[:-1], plural(words[-1])])}"
        return body

    def relation(self) -> str:
        r = self.rng.random()
        if r < 0.5:
            return self.pick("prepositions")
        return self.pick("gerunds" if r < 0.85 else "participles")

    def clause(self) -> str:
        """One plain statement: "a dog sitting on a red bench"."""
        if self.chance(0.2):
            text = f"{self.np()} {self.pick('copulas')} {self.pick('prepositions')} {self.np()}"
        else:
            text = f"{self.np()} {self.relation()} {self.np()}"
        if self.chance(0.2):
            text += f" {self.rng.choice(('in', 'at', 'on', 'near'))} the {self.pick('places')}"
        return text


def simple(m: Maker) -> str:
    return m.clause()


def coordination(m: Maker) -> str:
    """Coordinated adjectives, nouns, verbs and clauses: "a grey and orange flashing fire
    hydrant next to a street", "a cat, two dogs and a bird on a sofa"."""
    r = m.rng.random()
    if r < 0.3:
        adjs = m.some("adjectives", 2, 6)
        listed = ", ".join(adjs[:-1]) + f" {m.pick('conjunctions')} {adjs[-1]}"
        extra = m.pick("gerunds").split()[0] + " " if m.chance(0.3) else ""
        body = f"{listed} {extra}{m.head()}"
        return f"{article(body)} {body} {m.relation()} {m.np()}"
    if r < 0.6:
        nps = [m.np() for _ in range(m.rng.randint(2, 8))]
        listed = ", ".join(nps[:-1]) + f" {m.pick('conjunctions')} {nps[-1]}"
        return f"{listed} {m.relation()} {m.np()}"
    if r < 0.75:
        a, b = m.pick("prepositions"), m.pick("prepositions")
        return f"{m.np()} {a} {m.pick('conjunctions')} {b} {m.np()}"
    if r < 0.85:
        v1, v2 = m.pick("gerunds"), m.pick("gerunds")
        return f"{m.np()} {v1} {m.np()} and {v2} {m.np()}"
    clauses = [m.clause() for _ in range(m.rng.randint(2, 4))]
    return (", " if m.chance(0.3) else f" {m.pick('conjunctions')} ").join(clauses)


def nested(m: Maker) -> str:
    """Prepositional phrases inside each other: "a man with a dog with a collar of leather on
    a bench with ..."."""
    parts = [m.np()]
    for _ in range(m.rng.randint(2, 9)):
        r = m.rng.random()
        link = "with" if r < 0.4 else "of" if r < 0.65 else m.pick("prepositions")
        parts.append(f"{link} {m.np() if link != 'of' or m.chance(0.5) else m.head()}")
    return " ".join(parts)


def compounds(m: Maker) -> str:
    """Compound nouns and breed names the small model splits: "a dog with a labrador
    retriever", "fruit cup with strawberry garnish", "a fire hydrant stop sign pole"."""
    r = m.rng.random()
    if r < 0.3:
        return f"{m.np('dog')} with {m.np(m.pick('breeds'))}"
    if r < 0.55:
        return f"{m.pick('compounds')} with {m.pick('compounds')} {m.relation()} {m.np()}"
    if r < 0.75:
        return f"{m.np(m.pick('breeds'))} {m.pick('gerunds')} {m.np(m.pick('compounds'))}"
    stack = " ".join(m.pick("compounds") for _ in range(m.rng.randint(2, 4)))
    return f"{article(stack)} {stack} {m.relation()} {m.np()}"


def relative(m: Maker) -> str:
    """Relative clauses, nested: "a woman who is holding a cup that is on a table which ..."."""
    text = m.np(m.pick("people"))
    for _ in range(m.rng.randint(1, 4)):
        pronoun = m.pick("relatives")
        if pronoun == "whose":
            text += f" whose {m.head()} {m.pick('copulas')} {m.pick('adjectives')}"
        elif pronoun == "where":
            text += f" where {m.clause()}"
        elif m.chance(0.5):
            text += f" {pronoun} {m.pick('copulas')} {m.pick('gerunds')} {m.np()}"
        else:
            text += f" {pronoun} {m.pick('copulas')} {m.pick('prepositions')} {m.np()}"
    return text + (f" {m.relation()} {m.np()}" if m.chance(0.3) else "")


def participles(m: Maker) -> str:
    """Participle phrases after the noun and after a comma: "a man sitting on a bench,
    holding a cup", "a car parked next to a fire hydrant covered in snow"."""
    text = m.np()
    for _ in range(m.rng.randint(1, 4)):
        key = "gerunds" if m.chance(0.65) else "participles"
        text += f"{',' if m.chance(0.3) else ''} {m.pick(key)} {m.np()}"
    return text


def framed(m: Maker) -> str:
    """A frame before the scene: "a close-up of a cat ...", "there are two dogs ..."."""
    body = m.rng.choice((simple, nested, participles, coordination))(m)
    return f"{m.pick('frames')} {body}"


def long_line(m: Maker) -> str:
    """A run-on line of 60 to 120 words, of clauses joined by commas, "and" and full stops."""
    target, text = m.rng.randint(60, 120), []
    while len(" ".join(text).split()) < target:
        family = m.rng.choice((simple, coordination, nested, relative, participles))
        text.append(family(m) + m.rng.choice((",", ",", " and", ".", ";", "")))
    return " ".join(" ".join(text).split()[:target])


def noise_bit(m: Maker) -> str:
    r = m.rng.random()
    if r < 0.2:
        return " ".join(m.some("hashtags", 1, 8))
    if r < 0.3:
        return m.pick("handles")
    if r < 0.42:
        return m.rng.choice(("", "https://", "http://", "www.")) + m.pick("domains")
    if r < 0.5:
        return m.pick("files")
    if r < 0.6:
        return m.pick("exif")
    if r < 0.72:
        return m.pick("stock")
    if r < 0.8:
        return m.pick("prices")
    if r < 0.86:
        return " ".join(m.some("caps", 1, 4))
    if r < 0.92:
        return "".join(m.some("html_entities", 1, 3))
    if r < 0.96:
        return m.rng.choice(("<PERSON>", "<PERSON> and <PERSON>", "<ORG>", "<LOC>"))
    return m.rng.choice(("on May 15, 2019", "in 1944", "NEW YORK, NY - MAY 15:", "June 3rd"))


def alt_text(m: Maker) -> str:
    """A caption among web alt text's noise: hashtags, @handles, URLs, file names, camera
    metadata, stock labels, prices, ALL CAPS, HTML entities, placeholders, dates."""
    parts = [m.rng.choice((simple, nested, participles, coordination, compounds))(m)]
    for _ in range(m.rng.randint(1, 5)):
        parts.insert(m.rng.randint(0, len(parts)), noise_bit(m))
    text = parts[0]
    for part in parts[1:]:  # now and then glued on, as scraped text often is
        text += m.rng.choice((" ", " ", " | ", " - ", ", ", ": ", " ~ ", "")) + part
    return text


def keywords(m: Maker) -> str:
    """A keyword list as stock sites write alt text: "dog, beach, sunset, ..." or hashtags."""
    words = [m.head() for _ in range(m.rng.randint(5, 50))]
    if m.chance(0.4):
        return " ".join("#" + w.replace(" ", "") for w in words)
    return m.rng.choice((", ", ",", "; ", " | ", " ")).join(words)


def emoji_run(length: int, rng: random.Random, words: Words) -> str:
    if rng.random() < 0.5:
        return rng.choice(words["emoji"]) * length
    return "".join(rng.choice(words["emoji"]) for _ in range(length))


def emoji(m: Maker) -> str:
    """Emoji after, before, inside, between or instead of words; runs up to 1,000 long."""
    n = int(round(10 ** m.rng.uniform(0, 3)))  # 1 to 1,000, as many short runs as long ones
    run, base = emoji_run(n, m.rng, m.w), m.clause()
    r, words = m.rng.random(), base.split()
    if r < 0.35:
        return f"{base}{m.rng.choice(('', ' '))}{run}"
    if r < 0.5:
        return f"{run} {base}"
    if r < 0.7:
        cut = m.rng.randint(1, len(words))
        return " ".join([*words[:cut], run, *words[cut:]])
    if r < 0.85:
        return " ".join(f"{w} {m.pick('emoji')}" for w in words)
    return run


def stress(m: Maker) -> str:
    """Degenerate inputs that web captions do hold and that make a rule's cost show: long
    lists, stutters, chains of "of", piles of adjectives, deep brackets, one huge token,
    runs of prepositions or conjunctions, shorthand runs, nothing but punctuation."""
    r, n = m.rng.random(), m.rng.randint(20, 150)
    if r < 0.1:
        return ", ".join(m.pick("nouns") for _ in range(n)) + f" {m.relation()} {m.np()}"
    if r < 0.2:
        word = m.rng.choice((m.head(), m.pick("fillers"), m.pick("prepositions")))
        return f"{m.np()} " + " ".join([word] * n)
    if r < 0.3:
        chain = " of ".join(f"the {m.pick('nouns')}" for _ in range(n // 3 + 2))
        return f"{m.np()} {m.pick('prepositions')} {chain}"
    if r < 0.4:
        return f"a {' '.join(m.pick('adjectives') for _ in range(n // 2))} {m.head()}"
    if r < 0.48:
        depth = m.rng.randint(5, 60)
        opener, closer = m.rng.choice((("(", ")"), ("[", "]"), ('"', '"'), ("'", "'")))
        inner = " ".join(f"{opener}{m.np()}" for _ in range(depth))
        return inner + closer * (depth if m.chance(0.6) else depth // 2)
    if r < 0.56:
        token = m.rng.choice(("a", "ha", "lol", m.pick("nouns"), "x0"))
        huge = (token * (1500 // len(token) + 1))[: m.rng.randint(200, 1500)]
        return f"{m.np()} {huge} {m.relation()} {m.np()}"
    if r < 0.64:
        return " ".join(m.pick("prepositions") for _ in range(n // 2)) + f" {m.np()}"
    if r < 0.7:
        return f" {m.pick('conjunctions')} ".join(m.np() for _ in range(n // 3 + 2))
    if r < 0.76:
        return " ".join(
            m.rng.choice(("w/", "w/o", "&", "+", "b/c", "b&w", "2x", "@")) + " " + m.pick("nouns")
            for _ in range(n // 2)
        )
    if r < 0.82:
        return " ".join(m.pick("punctuation_runs") for _ in range(m.rng.randint(1, 40)))
    if r < 0.87:
        return "-".join(m.pick("nouns") for _ in range(n // 4 + 2)) + f" {m.relation()} {m.np()}"
    if r < 0.92:
        return " ".join(str(m.rng.randint(0, 10**6)) for _ in range(n // 3 + 1))
    if r < 0.96:
        return " ".join(m.clause().upper() for _ in range(m.rng.randint(2, 6)))
    return m.rng.choice(("", " ", "\u200b", ".", "-", "#", "a", "the", "<PERSON>", "&amp;"))


def typos(m: Maker) -> str:
    """A plain caption with several typos (see ``add_typos``)."""
    base = m.rng.choice((simple, participles, nested, relative))(m)
    return add_typos(m, base, m.rng.randint(2, 6))


def add_typos(m: Maker, text: str, k: int) -> str:
    """``k`` typing slips: two letters swapped, one dropped, doubled or struck wrong, a space
    inside a word, two words run together."""
    words = text.split(" ")
    for _ in range(k):
        i = m.rng.randrange(len(words))
        w = words[i]
        if len(w) < 3:
            continue
        j, op = m.rng.randrange(1, len(w) - 1), m.rng.randrange(6)
        if op == 0:
            w = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
        elif op == 1:
            w = w[:j] + w[j + 1 :]
        elif op == 2:
            w = w[:j] + w[j] + w[j:]
        elif op == 3:
            w = w[:j] + m.rng.choice("abcdefghijklmnopqrstuvwxyz") + w[j + 1 :]
        elif op == 4:
            w = w[:j] + " " + w[j:]
        elif i + 1 < len(words):
            w, words[i + 1] = w + words[i + 1], ""
        words[i] = w
    return " ".join(w for w in words if w)


def perturb(m: Maker, text: str) -> str:
    """What happens to any caption on its way to a crawl, each by chance."""
    if m.chance(0.12):
        text = add_typos(m, text, m.rng.randint(1, 3))
    if m.chance(0.08):
        bit = noise_bit(m)
        text = f"{text} {bit}" if m.chance(0.6) else f"{bit} {text}"
    if m.chance(0.05):
        words = text.split(" ")
        i = m.rng.randrange(len(words))
        j = min(len(words), i + m.rng.randint(1, 8))
        text = " ".join(words[:i] + [w.upper() for w in words[i:j]] + words[j:])
    if m.chance(0.05):
        words = text.split(" ")
        i = m.rng.randrange(len(words))
        text = " ".join(words[:i] + [words[i]] * m.rng.randint(2, 5) + words[i + 1 :])
    if m.chance(0.06):
        words = text.split(" ")
        i = m.rng.randrange(len(words))
        words[i] += m.pick("punctuation_runs")
        text = " ".join(words)
    if m.chance(0.05):
        words = text.split(" ")
        words.insert(m.rng.randrange(len(words) + 1), m.pick("non_ascii"))
        text = " ".join(words)
    if m.chance(0.03):
        text = text.replace(" ", m.pick("odd_spaces"), m.rng.randint(1, 3))
    if m.chance(0.04):
        q = m.pick("smart_punctuation")
        words = text.split(" ")
        i = m.rng.randrange(len(words))
        words[i] = q + words[i] + q
        text = " ".join(words)
    if m.chance(0.25):
        text = text[:1].upper() + text[1:]
    if m.chance(0.25):
        text += m.rng.choice((".", ".", "!", " .", "..."))
    return text


#: template family -> (weight, builder); the weights are shares of the captions
FAMILIES: dict[str, tuple[int, Callable[[Maker], str]]] = {
    "simple": (8, simple),
    "coordination": (12, coordination),
    "nested": (11, nested),
    "compounds": (8, compounds),
    "relative": (10, relative),
    "participles": (10, participles),
    "framed": (5, framed),
    "long": (8, long_line),
    "alt_text": (10, alt_text),
    "keywords": (3, keywords),
    "emoji": (4, emoji),
    "stress": (6, stress),
    "typos": (5, typos),
}
#: families left as built: their shape is the point, and a perturbation could undo it
UNPERTURBED = frozenset({"stress", "emoji"})


def one(seed: int, i: int, words: Words) -> tuple[str, str]:
    """Caption ``i`` of ``seed``, with its family."""
    rng = random.Random(f"soak:{seed}:{i}")  # a str seed hashes the same on every run
    names = list(FAMILIES)
    family = rng.choices(names, weights=[FAMILIES[n][0] for n in names])[0]
    m = Maker(rng, words)
    text = FAMILIES[family][1](m)
    if family not in UNPERTURBED:
        text = perturb(m, text)
    return family, " ".join(text.splitlines())


def generate_tagged(n: int, seed: int = 0, corpus: bool = True) -> list[tuple[str, str]]:
    """``n`` (family, caption) pairs."""
    words = load_words(corpus)
    return [one(seed, i, words) for i in range(n)]


def generate(n: int, seed: int = 0, corpus: bool = True) -> list[str]:
    """``n`` captions, the same for the same seed (and word lists)."""
    return [caption for _, caption in generate_tagged(n, seed, corpus)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tagged", action="store_true", help="print family<TAB>caption")
    ap.add_argument(
        "--no-corpus", action="store_true", help="the data file's words only, not FACTUAL's"
    )
    args = ap.parse_args(argv)
    out = sys.stdout
    out.reconfigure(encoding="utf-8")  # emoji and other scripts on any terminal
    for family, caption in generate_tagged(args.n, args.seed, corpus=not args.no_corpus):
        out.write(f"{family}\t{caption}\n" if args.tagged else caption + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
