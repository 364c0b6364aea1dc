"""``Cooc._is_related`` compares each word's forms found once (``Cooc._forms``): it answers as
the test written out on the two strings does, for every part of speech, on the default
statistics' words, their plurals, typos, and names of several words."""

from __future__ import annotations

import random

import pytest

from sgprep.negatives.cooc import _similar, load_default, object_class, singular


def _written_out(c, a: str, b: str, pos: str) -> bool:
    """The test on the strings themselves, each form found again for each pair."""
    a, b = a.lower(), b.lower()
    if (
        a == b
        or a.split()[-1] == b.split()[-1]
        or singular(a) == singular(b)
        or a.rstrip("s") == b.rstrip("s")
    ):
        return True
    if not (c.known(a) and c.known(b)) and len(a) >= 4 and len(b) >= 4 and _similar(a, b):
        return True
    if pos == "noun" and (
        set(a.split()) <= set(b.split())
        or set(b.split()) <= set(a.split())
        or (
            min(len(a), len(b)) >= 3
            and (a in b or b in a)
            and not (object_class(a) and object_class(b))
        )
    ):
        return True

    def related(a: str, b: str, pos: str) -> bool:
        table = c.related.get(pos, {})
        for x, y in ((a, b), (b, a)):
            rel = table.get(x) or table.get(x.split()[-1]) or ()
            if y in rel or y.split()[-1] in rel:
                return True
        return False

    if pos == "adj":
        return related(a, b, "adj") or related(a, b, "noun")
    return related(a, b, pos)


def _words(c, rng: random.Random) -> list[str]:
    objs = sorted(k for k in c.tables["obj"] if k)
    picked = rng.sample(objs, min(300, len(objs)))
    related = sorted(w for table in c.related.values() for w in table)
    picked += rng.sample(related, min(200, len(related)))
    out = list(picked)
    for w in picked[:150]:
        k = rng.randrange(len(w))
        out.append(w[:k] + w[k + 1 :] or w)  # a letter dropped: a typo
        out.append(w + "s")
        out.append(w.title())
    out += [f"{a} {b}" for a, b in zip(picked[:80], picked[80:160])]
    out += ["man", "woman", "road", "roadside", "cup", "mug", "rock", "rcok", "red", "iron"]
    return out


def test_is_related_answers_as_the_written_out_test():
    c = load_default()
    rng = random.Random(5)
    words = _words(c, rng)
    answers = {True: 0, False: 0}
    tables = [(pos, sorted(t.items())) for pos, t in sorted(c.related.items())]
    for _ in range(30000):
        pos = rng.choice(["noun", "noun", "verb", "adj"])
        a, b = rng.choice(words), rng.choice(words)
        if rng.random() < 0.3:  # a word and one WordNet relates it to, maybe in another table
            a, near = rng.choice(rng.choice(tables)[1])
            b = rng.choice(sorted(near)) if near else b
            a, b = (a, b) if rng.random() < 0.5 else (b, a)
        want = _written_out(c, a, b, pos)
        assert c._is_related(a, b, pos) is want, (a, b, pos)
        answers[want] += 1
    assert min(answers.values()) > 500  # both answers tested often
    assert c._is_related("cup", "mug") and c._is_related("rcok", "rock")
    assert not c._is_related("man", "woman")


def test_is_related_of_a_blank_word_raises_as_before():
    c = load_default()
    assert c._is_related("", "")
    with pytest.raises(IndexError):
        c._is_related("", "cat")
    with pytest.raises(IndexError):
        c._is_related("cat", " ")
