"""replace (replace_attribute, replace_object, replace_relation) on hand-written graphs,
with the rules only (no statistics)."""

from neg_helpers import build_all, graph


def test_replace_attribute_keeps_the_type():
    g = graph("a red wooden big box", [("red wooden big box", "box", ["red", "wooden", "big"])])
    built, _ = build_all(g, "replace_attribute", seed=3)
    from sgprep.negatives.vocab import attribute_type

    for p, old in zip(built, ["red", "wooden", "big"]):
        new = [a for a in p.graph.entities[0].attributes if a not in {"red", "wooden", "big"}]
        assert len(new) == 1 and attribute_type(new[0]) == attribute_type(old)


def test_participles_taken_for_attributes_are_not_replaced():
    g = graph(
        "people walking down a street",
        [("people", "people", ["walking down"]), ("street", "street", [])],
    )
    built, rejected = build_all(g, "replace_attribute")
    assert built == [] and rejected["participle_attribute"] == 1


def test_replace_attribute_prefers_the_antonym():
    g = graph("an old man", [("old man", "man", ["old"])])
    [p], _ = build_all(g, "replace_attribute")
    assert p.graph.entities[0].attributes == ["young"]


def test_replace_relation_uses_spatial_opposites():
    cases = {
        "to the left of": "to the right of",
        "above": "below",
        "in front of": "behind",
        "on": "under",
        "behind": "in front of",
        "sit on": "sit under",
    }
    for old, new in cases.items():
        g = graph("a cat x a mat", [("cat", "cat", []), ("mat", "mat", [])], [(0, old, 1)])
        [p], _ = build_all(g, "replace_relation")
        assert p.graph.relations[0].predicate == new


def test_replace_object_uses_the_same_category_and_a_new_head():
    g = graph("a dog and a cat", [("dog", "dog", []), ("cat", "cat", [])])
    for seed in range(5):
        built, _ = build_all(g, "replace_object", seed)
        for p in built:
            heads = [e.head for e in p.graph.entities]
            assert len(set(heads)) == 2 and heads != ["dog", "cat"]
            from sgprep.negatives.vocab import load_vocab

            cats = load_vocab().categories
            assert {cats[h] for h in heads} == {"animal"}
