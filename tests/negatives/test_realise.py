"""Golden in-place edits, written from the rules (articles, number agreement, case)."""

from neg_helpers import build_all, graph

from sgprep.negatives import grammar
from sgprep.negatives.perturbation import MoveNPs, Perturbation, SetAttribute, SetHead, SetPredicate
from sgprep.negatives.realise import Realiser, template
from sgprep.schema import SceneGraph


def realise(g: SceneGraph, caption: str, *edits) -> tuple[str, str]:
    return Realiser(caption, g).realise(Perturbation("k", "s", g, tuple(edits)))


def test_swap_attributes_in_place():
    cap = "a red cube and a blue sphere"
    g = graph(cap, [("red cube", "cube", ["red"]), ("blue sphere", "sphere", ["blue"])])
    [p], _ = build_all(g, "swap_attribute")
    assert Realiser(cap, g).realise(p) == ("a blue cube and a red sphere", "span_edit")


def test_article_follows_the_new_word():
    cap = "an old man"
    g = graph(cap, [("old man", "man", ["old"])])
    assert realise(g, cap, SetAttribute(0, "old", "young")) == ("a young man", "span_edit")
    cap = "A red apple"
    g = graph(cap, [("red apple", "apple", ["red"])])
    assert realise(g, cap, SetAttribute(0, "red", "orange"))[0] == "An orange apple"


def test_swap_objects_fixes_articles_only_where_the_head_follows_them():
    # (left of: "an apple and a red ball" -> "a ball and a red apple" may be true)
    cap = "an apple left of a red ball"
    g = graph(cap, [("apple", "apple", []), ("red ball", "ball", ["red"])], [(0, "left of", 1)])
    [p], _ = build_all(g, "swap_object")
    assert Realiser(cap, g).realise(p)[0] == "a ball left of a red apple"


def test_shuffle_moves_whole_noun_phrases_and_the_verb_agrees():
    cap = "two baby cows get milk from their mother"
    g = graph(
        cap,
        [("two baby cows", "cow", ["baby"], 2), ("milk", "milk", []), ("mother", "mother", [])],
        [(0, "get", 1), (0, "get from", 2)],
    )
    text, how = realise(g, cap, MoveNPs(((0, 2), (2, 0))))
    assert (text, how) == ("their mother gets milk from two baby cows", "span_edit")


def test_shuffle_agreement_of_be_and_sentence_case():
    cap = "Two dogs are playing with a red ball"
    g = graph(
        cap, [("Two dogs", "dog", [], 2), ("red ball", "ball", ["red"])], [(0, "play with", 1)]
    )
    [p], _ = build_all(g, "shuffle_relation")
    assert Realiser(cap, g).realise(p)[0] == "A red ball is playing with two dogs"
    cap = "the dogs are on the bed"
    g = graph(cap, [("dogs", "dog", []), ("bed", "bed", [])], [(0, "on", 1)])
    [p], _ = build_all(g, "shuffle_relation")
    assert Realiser(cap, g).realise(p)[0] == "the bed is on the dogs"


def test_a_head_put_into_a_plural_slot_is_plural():
    cap = "three small birds are sitting on a tree branch"
    g = graph(
        cap,
        [("three small birds", "bird", ["small"], 3), ("tree branch", "branch", [])],
        [(0, "sit on", 1)],
    )
    [p], _ = build_all(g, "swap_object")
    # the compound "tree branch" moves whole, never split
    assert Realiser(cap, g).realise(p)[0] == "three small tree branches are sitting on a bird"
    cap = "two dogs on a sofa"
    g = graph(cap, [("two dogs", "dog", [], 2), ("sofa", "sofa", [])])
    assert realise(g, cap, SetHead(0, "mouse"))[0] == "two mice on a sofa"


def test_spatial_opposite_in_place():
    cap = "A man is on the left of the dog"
    g = graph(cap, [("man", "man", []), ("dog", "dog", [])], [(0, "on the left of", 1)])
    [p], _ = build_all(g, "replace_relation")
    assert Realiser(cap, g).realise(p) == ("A man is on the right of the dog", "span_edit")


def test_verb_keeps_its_form():
    cap = "a girl holding a kite"
    g = graph(cap, [("girl", "girl", []), ("kite", "kite", [])], [(0, "hold", 1)])
    assert realise(g, cap, SetPredicate(0, "hold", "carry", True))[0] == "a girl carrying a kite"
    cap = "the girl sits on a bench"
    g = graph(cap, [("girl", "girl", []), ("bench", "bench", [])], [(0, "sit on", 1)])
    assert realise(g, cap, SetPredicate(0, "sit", "stand", True))[0] == "the girl stands on a bench"


def test_template_when_no_span_edit_is_possible():
    cap = "a red cube and a blue sphere"
    g = graph(cap, [("red cube", "cube", ["red"]), ("blue sphere", "sphere", ["blue"])])
    no_spans = g.model_copy(
        update={"entities": [e.model_copy(update={"span": None}) for e in g.entities]}
    )
    [p], _ = build_all(no_spans, "swap_attribute")
    assert Realiser(cap, no_spans).realise(p) == ("a blue cube and a red sphere", "template")
    # the parse says "on top of" but the caption says "on the top of": no place to edit
    cap = "a cat on the top of a table"
    g = graph(cap, [("cat", "cat", []), ("table", "table", [])], [(0, "on top of", 1)])
    [p], _ = build_all(g, "replace_relation")
    assert Realiser(cap, g).realise(p) == ("a cat under a table", "template")


def test_template_form():
    cap = "two small dogs chasing an orange ball"
    g = graph(
        cap,
        [("two small dogs", "dog", ["small"], 2), ("orange ball", "ball", ["orange"])],
        [(0, "chase", 1)],
    )
    assert template(g) == "two small dogs chasing an orange ball"


def test_grammar_rules():
    articles = [
        grammar.indefinite_article(w) for w in ["apple", "hour", "unicorn", "cat", "umbrella"]
    ]
    assert articles == ["an", "an", "a", "a", "an"]
    assert grammar.indefinite_article("ukulele") == "a"  # "a man playing a ukulele"
    assert [grammar.plural(w) for w in ["box", "berry", "man", "knife", "grass", "bus"]] == [
        "boxes",
        "berries",
        "men",
        "knives",
        "grass",
        "buses",
    ]
    assert [grammar.gerund(w) for w in ["sit", "ride", "lie", "hold", "see", "run"]] == [
        "sitting",
        "riding",
        "lying",
        "holding",
        "seeing",
        "running",
    ]
    assert [grammar.third_person(w) for w in ["get", "have", "watch", "carry", "be"]] == [
        "gets",
        "has",
        "watches",
        "carries",
        "is",
    ]


def test_redraw_moves_two_noun_phrases_that_share_no_relation():
    cap = "A man riding a horse in front of a big brown barn"
    g = graph(
        cap,
        [("man", "man", []), ("horse", "horse", []), ("big brown barn", "barn", ["big", "brown"])],
        [(0, "ride", 1), (0, "ride in front of", 2)],
    )
    [p], _ = build_all(g, "redraw_relation")
    assert Realiser(cap, g).realise(p) == (
        "A man riding a big brown barn in front of a horse",
        "span_edit",
    )
    assert [(r.subject, r.predicate, r.object) for r in p.graph.relations] == [
        (0, "ride", 2),
        (0, "ride in front of", 1),
    ]


def test_a_normalised_preposition_is_found_under_its_written_spelling():
    cap = "a white counter underneath cabinets"
    g = graph(
        cap,
        [("white counter", "counter", ["white"]), ("cabinets", "cabinet", [])],
        [(0, "under", 1)],
    )
    [p], _ = build_all(g, "replace_relation")
    assert Realiser(cap, g).realise(p) == ("a white counter on cabinets", "span_edit")


def test_predicative_attribute_and_passive_verb_in_place():
    cap = "the fence is gray"
    g = graph(cap, [("fence", "fence", ["gray"])])
    assert realise(g, cap, SetAttribute(0, "gray", "green")) == ("the fence is green", "span_edit")
    cap = "a bench shaded by the tree"
    g = graph(cap, [("bench", "bench", []), ("tree", "tree", [])], [(1, "shade", 0)])
    assert realise(g, cap, SetPredicate(0, "shade", "hold", True))[0] == "a bench held by the tree"
    text, _ = realise(g, cap, SetPredicate(0, "shade", "cover", True))
    assert text == "a bench covered by the tree"
