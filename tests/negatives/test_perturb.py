"""Each perturbation family and each validity rule on hand-written graphs."""

from neg_helpers import build_all, graph

from sgprep.negatives.validity import is_symmetric, normalise, signature

CUBES = graph(
    "a red cube and a blue sphere",
    [("red cube", "cube", ["red"]), ("blue sphere", "sphere", ["blue"])],
)


def test_swap_attribute_exchanges_bindings():
    [p], rejected = build_all(CUBES, "swap_attribute")
    assert [e.attributes for e in p.graph.entities] == [["blue"], ["red"]]
    assert [e.head for e in p.graph.entities] == ["cube", "sphere"]
    assert not rejected


def test_swap_of_identical_attributes_is_refused():
    g = graph(
        "a red cube and a red sphere",
        [("red cube", "cube", ["red"]), ("red sphere", "sphere", ["red"])],
    )
    built, rejected = build_all(g, "swap_attribute")
    assert built == [] and rejected["identical_attributes"] == 1
    # an attribute both already have makes the swap say the same thing too
    g = graph(
        "a big red cube and a red sphere",
        [("big red cube", "cube", ["big", "red"]), ("red sphere", "sphere", ["red"])],
    )
    built, rejected = build_all(g, "swap_attribute")
    assert built == [] and rejected["identical_attributes"] == 2


def test_swap_only_exchanges_attributes_of_one_type():
    g = graph(
        "a young girl holding a white umbrella",
        [("young girl", "girl", ["young"]), ("white umbrella", "umbrella", ["white"])],
    )
    built, rejected = build_all(g, "swap_attribute")
    assert built == [] and rejected["attribute_types_differ"] == 1


def test_swap_object_keeps_attributes_and_relations_in_place():
    g = graph(
        "a red cube left of a blue sphere",
        [("red cube", "cube", ["red"]), ("blue sphere", "sphere", ["blue"])],
        [(0, "left of", 1)],
    )
    [p], _ = build_all(g, "swap_object")
    assert [(e.head, e.attributes) for e in p.graph.entities] == [
        ("sphere", ["red"]),
        ("cube", ["blue"]),
    ]
    assert p.graph.relations == g.relations


def test_swap_of_identical_objects_is_refused():
    g = graph(
        "a woman in red and a woman in blue",
        [("woman in red", "woman", ["red"]), ("woman in blue", "woman", ["blue"])],
    )
    built, rejected = build_all(g, "swap_object")
    assert built == [] and rejected["identical_objects"] == 1


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


def test_perturbed_relations_drop_the_positives_span_and_stale_forms():
    caption = "a cat sitting on a mat"
    g = graph(caption, [("cat", "cat", []), ("mat", "mat", [])], [(0, "sit on", 1)])
    g.relations[0] = g.relations[0].model_copy(
        update={"predicate_lemma": "sit on", "predicate_surface": "sitting on", "span": (2, 22)}
    )
    [p], _ = build_all(g, "replace_relation")
    r = p.graph.relations[0]
    assert (r.predicate, r.predicate_lemma, r.predicate_surface, r.span) == (
        "sit under",
        None,
        None,
        None,
    )
    [p], _ = build_all(g, "shuffle_relation")  # same predicate, other way round: forms hold
    r = p.graph.relations[0]
    assert (r.subject, r.predicate_lemma, r.predicate_surface, r.span) == (
        1,
        "sit on",
        "sitting on",
        None,
    )


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


def test_connect_adds_one_vocabulary_entity_and_edge():
    built, _ = build_all(CUBES, "connect")
    for i, p in enumerate(built):
        assert len(p.graph.entities) == 3 and len(p.graph.relations) == 1
        r = p.graph.relations[0]
        assert (r.subject, r.object) == (i, 2)
        assert p.graph.entities[2].head not in {"cube", "sphere"}


def test_normalise_ignores_case_punctuation_and_spacing():
    assert normalise("A red  cube, and a Blue sphere.") == normalise("a red cube and a blue sphere")


def test_replace_and_connect_always_change_the_graph_even_with_a_capitalised_vocabulary():
    """The stage skips the same-graph check for these families (validity.ALWAYS_CHANGED);
    check the claim on every candidate, over seeds, with a vocabulary whose words differ from
    the graph's only in case (they must not come back as "new" words)."""
    import random
    from collections import Counter

    from sgprep.negatives.perturb import FAMILIES, Perturber
    from sgprep.negatives.validity import ALWAYS_CHANGED
    from sgprep.negatives.vocab import Vocabulary

    vocab = Vocabulary.from_json(
        {
            "objects": {"Cube": 5, "SPHERE": 5, "cube": 1, "Cat": 1, "mat": 1},
            "attributes": {"colour": {"Red": 5, "BLUE": 5, "green": 1}},
            "relations": {
                "spatial": {"Left  Of": 3, "on": 1},
                "action": {"Chase": 2, "hold": 1, "Chase after": 1},
            },
        }
    )
    assert vocab.objects == {"cube": 6, "sphere": 5, "cat": 1, "mat": 1}
    assert vocab.relations["spatial"] == {"left of": 3, "on": 1}
    assert vocab.verbs(()) == ("chase", "hold") and vocab.verbs(("after",)) == ("chase",)
    graphs = [
        CUBES,
        graph(
            "a red cube left of a red cube",
            [("red cube", "cube", ["red"]), ("red cube", "cube", ["red"])],
            [(0, "left of", 1)],
        ),
        graph(
            "the cat chases the mat", [("cat", "cat", []), ("mat", "mat", [])], [(0, "chase", 1)]
        ),
        graph(
            "two blue cats on a mat",
            [("blue cats", "cat", ["blue"], 2), ("mat", "mat", [])],
            [(0, "on", 1)],
        ),
    ]
    assert set(ALWAYS_CHANGED) <= set(FAMILIES)
    built = 0
    for g in graphs:
        for seed in range(20):
            for family in ALWAYS_CHANGED:
                p = Perturber(g, vocab, random.Random(seed), Counter())
                for candidate in p.candidates(family):
                    out = candidate()
                    if out is not None:
                        built += 1
                        assert signature(out.graph) != signature(g), (family, out.graph)
    assert built > 100


def test_normalise_fast_path_for_ascii_matches_the_regex():
    import random
    import re

    rng = random.Random(0)
    for _ in range(5000):
        text = "".join(chr(rng.randrange(0, 128)) for _ in range(rng.randrange(0, 30)))
        text += rng.choice(["", "é, ü!", "’s"])  # some non-ASCII: the regex path
        assert normalise(text) == " ".join(re.sub(r"[^\w\s]+", " ", text.lower()).split())


def test_subgraph_relation_span_indexes_the_extracted_text():
    from sgprep.negatives.subgraph import subgraphs
    from sgprep.schema import relation_span

    caption = "A red cat sitting on a mat near a blue door"
    g = graph(
        caption,
        [("red cat", "cat", ["red"]), ("mat", "mat", []), ("blue door", "door", ["blue"])],
        [(0, "sit on", 1)],
    )
    g.relations[0] = g.relations[0].model_copy(update={"span": relation_span(g.entities, 0, 1)})
    [sub] = [s for s in subgraphs(caption, g) if s.graph.relations]
    assert (sub.text, sub.realisation) == ("a red cat sitting on a mat", "span_extract")
    assert sub.text[slice(*sub.graph.relations[0].span)] == "red cat sitting on a mat"
