"""The validity rules' text normalisation."""

from sgprep.negatives.validity import normalise


def test_normalise_ignores_case_punctuation_and_spacing():
    assert normalise("A red  cube, and a Blue sphere.") == normalise("a red cube and a blue sphere")


def test_normalise_fast_path_for_ascii_matches_the_regex():
    import random
    import re

    rng = random.Random(0)
    for _ in range(5000):
        text = "".join(chr(rng.randrange(0, 128)) for _ in range(rng.randrange(0, 30)))
        text += rng.choice(["", "é, ü!", "’s"])  # some non-ASCII: the regex path
        assert normalise(text) == " ".join(re.sub(r"[^\w\s]+", " ", text.lower()).split())
