"""``sgprep.stats.diversity``: per kind, the content words the negatives bring in, the commonest
one's share, a text-only naive Bayes detector, the share of captions with such a negative; shown
by ``sgprep stats`` (terminal, report, JSON) and ``benchmarks/text_only.py``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from sgprep.stats.diversity import NaiveBayes, brought_in, content_words, diversity
from tests.conftest import run_cli

COLOURS = ["red", "blue", "green", "yellow", "black", "white", "brown", "pink", "grey", "orange"]
ANIMALS = ["horse", "sheep", "cow", "bird"]  # one per replace_object negative: all distinct


def rows() -> list[tuple[str, str, str, str]]:
    """10 captions "a COLOUR dog", each with a connect negative that adds "and a cat", four of
    them also with a replace_object negative naming another animal each; 2 captions whose
    relation negative changes only a stop word ("on" -> "under")."""
    out = []
    for i, colour in enumerate(COLOURS):
        caption = f"a {colour} dog"
        out.append((f"c{i}", caption, f"{caption} and a cat", "connect"))
        if i < len(ANIMALS):
            out.append((f"c{i}", caption, f"a {colour} {ANIMALS[i]}", "replace_object"))
    for i, thing in enumerate(["table", "bench"]):
        out.append((f"r{i}", f"a cat on a {thing}", f"a cat under a {thing}", "replace_relation"))
    return out


#: the 12 captions above and 2 without any negative
CAPTIONS = 14


@pytest.fixture(scope="module")
def table():
    return diversity(rows(), CAPTIONS, seed=0)


def by_kind(table):
    return {k.kind: k for k in table.kinds}


def test_content_words_leave_out_stop_words_and_punctuation():
    assert content_words("A man, standing next to the big red car.") == {
        "man",
        "standing",
        "big",
        "red",
        "car",
    }
    # "and", "a" are stop words: a connect negative brings in only "cat"
    assert brought_in("a red dog", "a red dog and a cat") == {"cat"}
    # spatial prepositions are spaCy stop words too: a relation swap brings in nothing
    assert brought_in("a cat on a table", "a cat under a table") == frozenset()


def test_a_kind_that_always_adds_the_same_word(table):
    connect = by_kind(table)["connect"]
    assert connect.negatives == 10 and connect.captions == 10
    assert connect.distinct_words == 1  # "cat", every time
    assert (connect.top_word, connect.top_word_share) == ("cat", 1.0)
    # each held-out negative holds its caption's words and "and a cat", seen in training only
    # in negatives: the detector picks it every time
    assert connect.detector_pairs >= 4  # 6 of the 12 captions train; 4+ of the others are dogs
    assert connect.detector_accuracy == 1.0


def test_a_kind_whose_words_are_all_distinct(table):
    replace = by_kind(table)["replace_object"]
    assert replace.negatives == 4 and replace.distinct_words == 4
    # four words brought in once each: the commonest (first by name on a tie) is in 1 of 4
    assert (replace.top_word, replace.top_word_share) == ("bird", 1 / 4)


def test_a_kind_that_changes_only_stop_words_brings_in_nothing(table):
    relation = by_kind(table)["replace_relation"]
    assert relation.distinct_words == 0
    assert relation.top_word is None and relation.top_word_share is None


def test_captions_without_negatives_lower_the_caption_share(table):
    kinds = by_kind(table)
    assert table.captions == 14
    assert kinds["connect"].caption_share == 10 / 14
    assert kinds["replace_object"].caption_share == 4 / 14
    assert kinds["replace_relation"].caption_share == 2 / 14
    assert table.overall.kind == "all" and table.overall.caption_share == 12 / 14
    # the same rows with no caption beside them: every caption has a connect negative
    assert by_kind(diversity(rows(), 10, seed=0))["connect"].caption_share == 10 / 12


def test_the_overall_row_and_the_split_by_caption(table):
    overall = table.overall
    assert overall.negatives == 16
    assert overall.distinct_words == 5  # cat and the four animals
    assert (overall.top_word, overall.top_word_share) == ("cat", 10 / 16)
    assert table.train_captions == 6  # half of the 12 captions with a negative
    assert overall.detector_pairs == sum(k.detector_pairs for k in table.kinds)
    # split by caption: each pair is learned from or judged, never both
    assert table.train_pairs + overall.detector_pairs == 16


def test_seeded_and_deterministic(table):
    assert diversity(rows(), CAPTIONS, seed=0) == table
    assert diversity(reversed(rows()), CAPTIONS, seed=0) == table
    assert json.loads(table.model_dump_json())["kinds"][0]["kind"] == "connect"


def test_the_detector_ties_on_words_it_never_saw():
    model = NaiveBayes(
        [("a red dog", "a red dog and a cat"), ("a blue dog", "a blue dog and a cat")]
    )
    assert model.picks_negative("a green dog", "a green dog and a cat") == 1.0
    assert model.picks_negative("a dog and a cat", "a dog") == 0.0
    assert model.picks_negative("zebra", "giraffe") == 0.5  # nothing to learn: chance


def test_no_negatives_no_detector():
    empty = diversity([], 5)
    assert empty.kinds == [] and empty.overall is None and empty.captions == 5
    one = diversity([("c0", "a dog", "a cat", "replace_object")], 1)
    (kind,) = one.kinds
    assert one.train_captions == 0 and kind.detector_pairs == 0 and kind.detector_accuracy is None


def test_sgprep_stats_shows_the_table(tmp_path):
    """A real output: parse, then the swap and shuffle negatives, then `sgprep stats`."""
    table = tmp_path / "c.txt"
    table.write_text(
        "a red cube and a blue sphere\na blue cube and a red sphere\n"
        "a cat to the left of a dog\na lone tree\n"
    )
    parsed, negs = tmp_path / "parsed", tmp_path / "negs"
    run_cli("parse", "-i", table, "-o", parsed, "--no-progress")
    run_cli(
        "negatives",
        "-i",
        parsed,
        "-o",
        negs,
        "--strategy",
        "swap,shuffle",
        "--no-progress",
        "--no-plausibility",
    )
    result = run_cli("stats", negs)
    assert "what the negatives bring in" in result.output
    assert "text-only detector" in result.output
    summary = json.loads(run_cli("stats", negs, "--json").output)
    table = summary["diversity"]
    assert table["captions"] == 4  # "a lone tree" has no negative
    kinds = {k["kind"]: k for k in table["kinds"]}
    assert {k["kind"] for k in summary["negative_kinds"]} == set(kinds)
    assert kinds["swap_attribute"]["caption_share"] == 2 / 4
    assert kinds["swap_attribute"]["negatives"] == 2
    # swaps and shuffles move the caption's own words: they bring none in
    assert all(k["distinct_words"] == 0 for k in kinds.values())
    assert table["overall"]["caption_share"] == 3 / 4
    page = (negs / "_meta" / "report.html").read_text(encoding="utf-8")
    section = page[page.index("<h2>Hard negatives</h2>") :]
    assert "What the negatives bring in" in section and "swap_attribute" in section


def test_the_benchmark_prints_and_stores_the_table(tmp_path, capsys):
    bench_path = Path(__file__).resolve().parents[2] / "benchmarks" / "text_only.py"
    spec = importlib.util.spec_from_file_location("text_only_bench", bench_path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    records = [
        {
            "key": key,
            "status": "ok",
            "caption": caption,
            "neg": {"negatives": [{"text": neg, "kind": kind, "positive": caption}]},
        }
        for key, caption, neg, kind in rows()
        if kind != "replace_object"  # one negative a caption here
    ] + [{"key": "x", "status": "failed", "caption": "a lone tree", "neg": None}]
    out = tmp_path / "negs.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    train = tmp_path / "train.txt"
    train.write_text("a small dog\na cat on a sofa\n")
    result = tmp_path / "result.json"
    assert bench.main(["--input", str(out), "--train", str(train), "--json", str(result)]) == 0
    stored = json.loads(result.read_text())["diversity"]
    assert stored["captions"] == 13
    connect = next(k for k in stored["kinds"] if k["kind"] == "connect")
    assert (connect["distinct_words"], connect["top_word"], connect["top_word_share"]) == (
        1,
        "cat",
        1.0,
    )
    assert connect["caption_share"] == 10 / 13
    assert "what the negatives bring in" in capsys.readouterr().out


def test_the_report_draws_no_plot_without_data_and_no_sum_of_ratios(tmp_path):
    """Issue 34: without detect, no detection plots (they were drawn empty); the counters
    show each kind's mean length ratio, never the shards' sums of ratios."""
    from tests.conftest import run_cli

    captions = tmp_path / "c.txt"
    captions.write_text("a red cube and a blue sphere\na man riding a horse on a beach\n")
    parsed, negs = tmp_path / "p", tmp_path / "n"
    run_cli("parse", captions, "-o", parsed, "--no-progress")
    run_cli("negatives", "-i", parsed, "-o", negs, "--strategy", "swap", "--no-progress")
    run_cli("stats", negs)
    page = (negs / "_meta" / "report.html").read_text(encoding="utf-8")
    assert "Detected objects per image" not in page and "Coverage" not in page
    assert "length_ratio_permille" not in page and "(length x1.00)" in page
    assert "Failures by stage/reason" not in page  # no failure: no plot of none
