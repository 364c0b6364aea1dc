"""shuffle (shuffle_relation, redraw_relation) on hand-written graphs."""

from neg_helpers import build_all, graph

from sgprep.negatives.validity import is_symmetric, signature


def test_shuffle_reverses_a_directed_relation():
    g = graph(
        "the cat is left of the mat", [("cat", "cat", []), ("mat", "mat", [])], [(0, "left of", 1)]
    )
    [p], _ = build_all(g, "shuffle_relation")
    r = p.graph.relations[0]
    assert (r.subject, r.predicate, r.object) == (1, "left of", 0)
    assert signature(p.graph) != signature(g)


def test_shuffle_of_a_symmetric_relation_is_refused():
    for pred in (
        "next to",
        "near",
        "beside",
        "with",
        "across from",
        "sit next to",
        "match",  # "a red scarf matching the hat"
        "shaking hands with",
    ):
        g = graph(
            "a cup next to a plate", [("cup", "cup", []), ("plate", "plate", [])], [(0, pred, 1)]
        )
        built, rejected = build_all(g, "shuffle_relation")
        assert built == [] and rejected["symmetric_relation"] == 1, pred
    assert not is_symmetric("hold") and not is_symmetric("on") and not is_symmetric("play with")
    assert not is_symmetric("ride next to")  # a verb of motion is not a stance verb


def test_shuffle_of_identical_ends_is_refused():
    g = graph("a dog chasing a dog", [("dog", "dog", []), ("dog", "dog", [])], [(0, "chase", 1)])
    built, rejected = build_all(g, "shuffle_relation")
    assert built == [] and rejected["identical_objects"] == 1


def test_redraw_changes_the_ends_and_never_repeats_an_edge():
    g = graph(
        "a man riding a horse in front of a barn",
        [("man", "man", []), ("horse", "horse", []), ("barn", "barn", [])],
        [(0, "ride", 1), (0, "in front of", 2)],
    )
    for seed in range(10):
        built, _ = build_all(g, "redraw_relation", seed)
        for p in built:
            old = {(r.subject, r.predicate, r.object) for r in g.relations}
            new = {(r.subject, r.predicate, r.object) for r in p.graph.relations}
            assert new != old and len(new) == len(old)
            changed = (new - old).pop()
            assert changed[0] != changed[2]
