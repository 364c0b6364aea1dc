"""Plausible, fluent, really false, no length shortcut: each rejection rule on a caption of the
kind FACTUAL's Visual Genome captions hold (written here), with the bundled statistics."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from neg_helpers import graph, plausible, strategy_class

from sgprep.negatives.cooc import BoundedCounter, Cooc, lemma, load_default, name
from sgprep.negatives.perturbation import Perturbation, SetAttribute, SetHead, SetPredicate
from sgprep.negatives.realise import Realiser
from sgprep.negatives.scene import Scene
from sgprep.negatives.stage import NegativesSettings, NegativesStage
from sgprep.negatives.validity import reordered_list
from sgprep.negatives.vocab import load_vocab
from sgprep.schema import Entity, Relation, SceneGraph

VOCAB = load_vocab()


def made(caption, entities, relations, kind, seeds=12, with_text=False):
    """Texts made by ``kind`` over several seeds, and the rejections by reason (the stage's
    way, which gives the scene the caption, ``with_text``)."""
    g = graph(caption, entities, relations)
    texts, rejected = Counter(), Counter()
    for seed in range(seeds):
        scene = Scene(
            g, VOCAB, random.Random(seed), rejected, VOCAB.cooc, caption if with_text else ""
        )
        for build in strategy_class(kind)(scene).candidates(kind):
            pert = build()
            if pert is not None:
                text, _ = Realiser(caption, g).realise(pert, use_template=False)
                texts[text] += 1
    return texts, rejected


# --- the statistics ---------------------------------------------------------------------------
def test_counts_are_bounded_and_merge():
    c = BoundedCounter(max_entries=4)
    for k in ["a", "a", "a", "b", "c", "d", "e"]:
        c.add(k)
    assert len(c) <= 4 and c["a"] == 3 and c.floor >= 1  # the rare keys went, the common stay
    other = BoundedCounter(max_entries=4)
    other.add("a", 2)
    c.merge(other)
    assert c["a"] == 5


def test_cooc_counts_names_predicates_and_scenes():
    g = SceneGraph(
        entities=[
            Entity(text="young men", head="men", attributes=["young"]),
            Entity(text="hot dog", head="dog", attributes=["hot"]),
        ],
        relations=[Relation(subject=0, predicate="eating", object=1)],
        parser="hand",
    )
    c = Cooc()
    c.count(g)
    assert name(g.entities[1]) == "hot dog" and lemma("eating") == "eat"
    assert c.n("spo", "man", "eat", "hot dog") == 1 and c.n("attr", "young", "man") == 1
    assert c.n("agent", "man", "eat") == 1 and c.n("scene", "hot dog", "man") == 1
    again = Cooc.from_json(json.loads(json.dumps(c.to_json())))
    assert again.tables == c.tables


def test_bundled_statistics_say_where_they_come_from():
    data = json.loads((load_default.__globals__["DEFAULT_COOC"]).read_text())
    assert "factual_dev.csv" in data["source"] and "CC BY 4.0" in data["source"]
    assert "factual_test" not in data["source"]


# --- plausible ----------------------------------------------------------------------------------
def test_a_man_under_a_court_is_refused():
    texts, rejected = made(
        "a man standing on a tennis court",
        [("man", "man", []), ("tennis court", "court", [])],
        [(0, "stand on", 1)],
        "replace_relation",
    )
    assert not texts and rejected["implausible_relation"]


def test_an_inanimate_subject_of_an_action_is_refused():
    c = VOCAB.cooc
    assert c.judge("building", "pull", "train") == "implausible_agent"
    assert c.judge("man", "ride", "horse") is None
    texts, rejected = made(
        "a man riding a brown horse",
        [("man", "man", []), ("brown horse", "horse", ["brown"])],
        [(0, "ride", 1)],
        "shuffle_relation",
    )
    # "a brown horse riding a man": horses are never seen riding (both are animate, so the
    # class back-off asks whether the new subject does that)
    assert not texts and rejected["implausible_agent"]


def test_swapped_objects_must_make_a_seen_scene():
    texts, rejected = made(
        "a rug on the floor",
        [("rug", "rug", []), ("floor", "floor", [])],
        [(0, "on", 1)],
        "swap_object",
    )
    assert not texts and rejected["implausible_relation"]  # "a floor on the rug"


def test_an_attribute_never_seen_with_the_object_is_not_drawn():
    texts, _ = made(
        "a red stop sign on a pole",
        [("red stop sign", "sign", ["red"]), ("pole", "pole", [])],
        [(0, "on", 1)],
        "replace_attribute",
    )
    assert texts and not any("green" in t for t in texts)
    assert all(VOCAB.cooc.attribute_ok(t.split()[1], "stop sign") for t in texts)


def test_a_compound_is_replaced_whole_and_never_split():
    cap = "a man eating a hot dog"
    g = graph(cap, [("man", "man", []), ("hot dog", "dog", ["hot"])], [(0, "eat", 1)])
    assert name(g.entities[1]) == "hot dog"
    p = Perturbation("replace_object", "replace", g, (SetHead(1, "hamburger", "hot dog"),))
    assert Realiser(cap, g).realise(p)[0] == "a man eating a hamburger"  # never "a hot pony"
    texts, _ = made(
        "two men eating hot dogs",
        [("two men", "man", [], 2), ("hot dogs", "dog", ["hot"])],
        [(0, "eat", 1)],
        "replace_object",
    )
    assert texts and not any("hot" in t and "hot dogs" not in t for t in texts), texts
    _, rejected = made(
        "a man eating a hot dog",
        [("man", "man", []), ("hot dog", "dog", ["hot"])],
        [(0, "eat", 1)],
        "replace_attribute",
    )
    assert rejected["fixed_expression"]
    _, rejected = made(
        "an old double decker bus",
        [("old double decker bus", "bus", ["old", "double"])],
        [],
        "replace_attribute",
    )
    assert rejected["fixed_expression"]


# --- really false -------------------------------------------------------------------------------
def test_synonyms_hypernyms_and_near_synonyms_are_related():
    c = VOCAB.cooc
    for a, b, pos in [
        ("cup", "mug", "noun"),
        ("man", "person", "noun"),
        ("dog", "puppy", "noun"),
        ("include", "hold", "verb"),
        ("look", "watch", "verb"),
        ("big", "large", "adj"),
        ("metal", "iron", "adj"),
        ("rcok", "rock", "noun"),
        ("road", "roadside", "noun"),
    ]:
        assert c.is_related(a, b, pos), (a, b)
    assert not c.is_related("dog", "cat") and not c.is_related("red", "blue", "adj")
    assert not c.is_related("shirt", "skirt")  # two words, not a typo


def test_is_related_memo_is_bounded_and_answers_the_same(monkeypatch):
    """The pair memo starts again when full, and a pair asked again after that gets the
    same answer."""
    c = VOCAB.cooc
    monkeypatch.setattr(c, "_related_cache", {})
    monkeypatch.setattr(Cooc, "RELATED_MEMO", 3)
    pairs = [("dog", "puppy"), ("dog", "cat"), ("cup", "mug"), ("man", "person"), ("car", "tree")]
    first = [c.is_related(a, b) for a, b in pairs]
    assert len(c._related_cache) <= 3
    assert [c.is_related(a, b) for a, b in pairs] == first == [True, False, True, True, False]


def test_a_replacement_is_never_a_synonym():
    texts, _ = made(
        "a man holding a cup",
        [("man", "man", []), ("cup", "cup", [])],
        [(0, "hold", 1)],
        "replace_object",
        seeds=30,
    )
    assert texts and not any(w in t.split() for t in texts for w in ("mug", "glass", "person"))
    texts, rejected = made(
        "a woman feeding a giraffe",
        [("woman", "woman", []), ("giraffe", "giraffe", [])],
        [(0, "feed", 1)],
        "replace_relation",
    )
    assert not any("looking" in t or "watching" in t for t in texts)


def test_a_reordered_list_is_refused():
    g = graph("a black and red helmet", [("black and red helmet", "helmet", ["black", "red"])])
    assert reordered_list("a black and red helmet", "a red and black helmet", g)
    assert not reordered_list("a black and red helmet", "a black and blue helmet", g)
    g = graph(
        "a tag with white numbers and letters",
        [("tag", "tag", []), ("white numbers", "number", ["white"]), ("letters", "letter", [])],
    )
    assert reordered_list(
        "a tag with white numbers and letters", "a tag with white letters and numbers", g
    )


# --- fluent -------------------------------------------------------------------------------------
def test_a_doubled_preposition_is_refused():
    cap = "a dog out in the snow"
    g = graph(cap, [("dog", "dog", []), ("snow", "snow", [])], [(0, "in", 1)])
    p = Perturbation("replace_relation", "replace", g, (SetPredicate(0, "in", "outside", False),))
    assert Realiser(cap, g).realise(p) == (None, "doubled_preposition")


def test_a_verb_is_inflected_from_its_lemma_whatever_the_parse_gave():
    cap = "a tree riding on a truck"
    g = graph(cap, [("tree", "tree", []), ("truck", "truck", [])], [(0, "riding on", 1)])
    # rules only: any verb will do
    p = strategy_class("replace")(Scene(g, VOCAB, random.Random(0), Counter()))
    texts = {Realiser(cap, g).realise(b())[0] for b in p.candidates("replace_relation")}
    assert texts and not any("inging" in t for t in texts)
    assert lemma("riding") == "ride" and lemma("sits") == "sit" and lemma("held") == "hold"


def test_capitals_follow_the_position_in_the_sentence():
    cap = "Shiny flag above a dull pole"
    g = graph(cap, [("Shiny flag", "flag", ["Shiny"]), ("dull pole", "pole", ["dull"])])
    p = Perturbation(
        "swap_attribute",
        "swap",
        g,
        (SetAttribute(0, "Shiny", "dull"), SetAttribute(1, "dull", "Shiny")),
    )
    assert Realiser(cap, g).realise(p)[0] == "Dull flag above a shiny pole"


def test_a_span_that_does_not_hold_its_entity_is_not_edited():
    cap = "a cat on a dog"
    g = SceneGraph(
        entities=[
            Entity(text="cat", head="cat", span=(2, 4)),
            Entity(text="dog", head="dog", span=(12, 14)),
        ],
        relations=[Relation(subject=0, predicate="on", object=1)],
        parser="hand",
    )
    stage = NegativesStage(NegativesSettings(strategies=["shuffle", "swap"], plausibility=False))
    neg = stage.negatives("k", cap, g)
    assert not any("ca " in n.text or "dogt" in n.text for n in neg.negatives)
    assert stage.counts["rejected/no_span_edit"]


def test_shuffle_of_a_spatial_relation_never_inflects_the_preposition():
    cap = "tracks on the ground"
    g = graph(cap, [("tracks", "track", []), ("ground", "ground", [])], [(0, "on", 1)])
    p = strategy_class("shuffle")(Scene(g, VOCAB, random.Random(0), Counter()))
    [text] = {Realiser(cap, g).realise(b())[0] for b in p.candidates("shuffle_relation")}
    assert "ons" not in text.split()


# --- length -------------------------------------------------------------------------------------
def test_length_is_held_and_reported_per_kind():
    cap = "a man sitting on a bench"
    g = graph(cap, [("man", "man", []), ("bench", "bench", [])], [(0, "sit on", 1)])
    # "a man sitting on a bench near a bicycle" is 1.6x as long: refused; connect only adds
    # (issue 32), so nothing is made
    stage = NegativesStage(
        NegativesSettings(strategies=["connect"], per_sample=4, connect_max_length_ratio=1.2)
    )
    assert not stage.negatives("k", cap, g).negatives
    # the one word it may add leaves too few things to draw (connect's MIN_OPTIONS)
    assert stage.counts["rejected/connect_too_long"] or stage.counts["rejected/connect_few_options"]
    cap = "a man riding a horse"  # the verb and its object stay: only an addition, too long
    g = graph(cap, [("man", "man", []), ("horse", "horse", [])], [(0, "ride", 1)])
    assert not stage.negatives("k", cap, g).negatives
    assert stage.counts["rejected/connect_too_long"]
    stage = NegativesStage(NegativesSettings(strategies=["connect"], per_sample=4))
    negs = stage.negatives("k", cap, g).negatives
    assert negs and all(len(n.text.split()) <= 1.75 * len(cap.split()) for n in negs)
    # the man rides already: he is only put near things, never "on a skateboard"
    assert all(
        any(
            p in n.text
            for p in (" near ", " next to ", " beside ", " behind ", " in front of ", " by ")
        )
        or n.text.startswith(cap)
        for n in negs
    )
    assert stage.counts["length_ratio_permille/connect"] == sum(
        round(1000 * len(n.text.split()) / 5) for n in negs
    )
    # a caption with nothing to put it in the place of: an addition or nothing
    cap = "a brown horse"
    g = graph(cap, [("brown horse", "horse", ["brown"])])
    stage = NegativesStage(
        NegativesSettings(strategies=["connect"], per_sample=4, connect_max_length_ratio=1.2)
    )
    assert not stage.negatives("k", cap, g).negatives
    assert stage.counts["rejected/connect_too_long"]


def test_templates_are_off_by_default():
    assert NegativesSettings().template is False
    with pytest.raises(ValueError):
        NegativesSettings(max_length_ratio=0.5)


def test_same_seed_same_negatives_whatever_was_drawn_before():
    cases = [
        ("a man riding a horse", [("man", "man", []), ("horse", "horse", [])], [(0, "ride", 1)]),
        (
            "a white plate on a wooden table",
            [("white plate", "plate", ["white"]), ("wooden table", "table", ["wooden"])],
            [(0, "on", 1)],
        ),
    ]
    graphs = [(cap, graph(cap, ents, rels)) for cap, ents, rels in cases]
    settings = NegativesSettings(strategies=["swap", "shuffle", "replace", "connect"])
    first = [NegativesStage(settings).negatives(cap, cap, g) for cap, g in graphs]
    stage = NegativesStage(settings)  # the other order: the pools fill differently
    second = [stage.negatives(cap, cap, g) for cap, g in reversed(graphs)][::-1]
    assert [n.model_dump_json() for n in first] == [n.model_dump_json() for n in second]


def _only_adds(caption: str, text: str) -> bool:
    """The caption's words are all in ``text``, in their order, with others between."""
    words = iter(re.findall(r"[\w']+", text))
    return all(w in words for w in re.findall(r"[\w']+", caption))


def test_a_short_caption_gets_a_bare_plural_within_its_length():
    cap = "skateboarder sitting on bench"
    g = graph(
        cap, [("skateboarder", "skateboarder", []), ("bench", "bench", [])], [(0, "sit on", 1)]
    )
    stage = NegativesStage(NegativesSettings(strategies=["connect"], per_sample=4))
    negs = stage.negatives("k", cap, g).negatives
    # connect only adds (issue 32): the caption's relation and object stay, every word in
    # its order ("skateboarder and a cat sitting on bench" names a second subject)
    assert negs and all(_only_adds(cap, n.text) for n in negs), negs
    cap = "skateboarder approaching bench"  # the verb and its object: never replaced
    g = graph(
        cap, [("skateboarder", "skateboarder", []), ("bench", "bench", [])], [(0, "approach", 1)]
    )
    negs = stage.negatives("k", cap, g).negatives
    assert all(_only_adds(cap, n.text) for n in negs), negs
    cap = "a dilapidated fence"  # nothing to take the place of: added, as a bare plural
    g = graph(cap, [("dilapidated fence", "fence", ["dilapidated"])])
    texts = {n.text for k in range(6) for n in stage.negatives(f"k{k}", cap, g).negatives}
    assert texts and all(len(t.split()) <= 1.75 * 3 for t in texts), texts
    assert all(t.startswith(cap + " ") and " a " not in t[2:] for t in texts), texts


def test_vocab_command_writes_the_statistics_negatives_then_use(tmp_path):
    from typer.testing import CliRunner

    from sgprep.cli import app

    cap = "a man riding a horse"
    g = graph(cap, [("man", "man", []), ("horse", "horse", [])], [(0, "ride", 1)])
    corpus = tmp_path / "parsed.jsonl"
    corpus.write_text(
        "".join(
            json.dumps({"key": f"k{i}", "caption": cap, "sg": g.model_dump(mode="json")}) + "\n"
            for i in range(3)
        )
    )
    out = tmp_path / "vocab.json"
    result = CliRunner().invoke(
        app, ["vocab", "-i", str(corpus), "-o", str(out), "--max-entries", "1000"]
    )
    assert result.exit_code == 0, result.output
    vocab = load_vocab(out)
    assert vocab.cooc.n("spo", "man", "ride", "horse") == 3
    # a corpus that never saw a horse ride a man: the shuffle is refused by its statistics
    stage = NegativesStage(NegativesSettings(strategies=["shuffle"], vocab=str(out)))
    assert not stage.negatives("k", cap, g).negatives
    assert stage.counts["rejected/implausible_agent"] == 1  # horses were never seen riding


# --- back-off to object classes (issue 18, swaps and shuffles almost never made) --------------
def test_two_objects_of_one_class_may_change_places_on_the_class_evidence():
    texts, _ = made(
        "the man behind the woman",
        [("man", "man", []), ("woman", "woman", [])],
        [(0, "behind", 1)],
        "shuffle_relation",
    )
    assert set(texts) == {"the woman behind the man"}  # "man" in "woman": no synonym
    texts, _ = made(
        "a dog chasing a cat",
        [("dog", "dog", []), ("cat", "cat", [])],
        [(0, "chase", 1)],
        "swap_object",
    )
    assert set(texts) == {"a cat chasing a dog"}


def test_objects_of_different_classes_need_the_very_triple_seen():
    texts, rejected = made(
        "a cup on the table",
        [("cup", "cup", []), ("table", "table", [])],
        [(0, "on", 1)],
        "shuffle_relation",
    )
    assert not texts and rejected["implausible_relation"]  # "a table on the cup"
    texts, rejected = made(
        "A train travels over a bridge above a river",
        [("train", "train", []), ("bridge", "bridge", []), ("river", "river", [])],
        [(0, "travel over", 1), (1, "above", 2)],
        "swap_object",
    )
    assert not texts and rejected["implausible_relation"]  # "A river travels over..."
    texts, rejected = made(
        "tree has yellow leaves",
        [("tree", "tree", []), ("yellow leaves", "leaves", ["yellow"])],
        [(0, "have", 1)],
        "swap_object",
    )
    assert not texts and (
        rejected["implausible_relation"] or rejected["number_mismatch"]
    )  # "leaf has yellow trees"


def test_a_hot_dog_is_no_animal_and_body_parts_get_no_back_off():
    from sgprep.negatives.cooc import object_class
    from sgprep.negatives.scene import same_class

    assert object_class("hot dog") == "food" and object_class("dog") == "animal"
    assert object_class("tennis racket") is None or object_class("racket") == "small object"
    assert not same_class("hand", "face") and same_class("car", "truck")


def test_colours_of_made_things_swap_on_the_class_evidence():
    texts, _ = made(
        "a red car and a blue truck",
        [("red car", "car", ["red"]), ("blue truck", "truck", ["blue"])],
        [],
        "swap_attribute",
    )
    assert set(texts) == {"a blue car and a red truck"}
    c = VOCAB.cooc
    assert c.attribute_ok_by_class("blue", "truck") and not c.attribute_ok_by_class("blue", "dog")


# --- replace_relation: the verb fits its object, and says something false ---------------------
def test_a_verb_with_a_direct_object_the_graph_lacks_is_not_replaced():
    texts, rejected = made(
        "Two men play chess at a small table",
        [("Two men", "men", [], 2), ("small table", "table", ["small"])],
        [(0, "play at", 1)],
        "replace_relation",
        with_text=True,
    )
    assert not texts and rejected["verb_has_object"]  # "Two men eat chess at a small table"


def test_near_synonymous_relations_are_not_replacements():
    c = VOCAB.cooc
    assert c.is_related("practice", "play", "verb") and c.is_related("wear", "carry", "verb")
    assert c.is_related("along", "on", "verb") and c.is_related("ride", "drive", "verb")
    for caption, ents, rels in [
        (
            "tree along the side of the road",
            [("tree", "tree", []), ("road", "road", [])],
            [(0, "along side of", 1)],
        ),
        (
            "a man practicing his tennis serve",
            [("man", "man", []), ("tennis serve", "serve", [])],
            [(0, "practice", 1)],
        ),
        (
            "man wearing a black backpack",
            [("man", "man", []), ("black backpack", "backpack", ["black"])],
            [(0, "wear", 1)],
        ),
    ]:
        texts, _ = made(caption, ents, rels, "replace_relation", with_text=True)
        assert not texts, texts


def test_a_swap_with_no_relation_to_check_needs_one_class():
    # parsed without "has": nothing says whether "leaf has yellow trees" could be
    texts, rejected = made(
        "tree has yellow leaves",
        [("tree", "tree", []), ("yellow leaves", "leaves", ["yellow"])],
        [],
        "swap_object",
    )
    assert not texts and rejected["number_mismatch"]  # one tree, many leaves (round 10)
    texts, _ = made(
        "a fork and a knife on a plate",
        [("fork", "fork", []), ("knife", "knife", []), ("plate", "plate", [])],
        [(0, "on", 2), (1, "on", 2)],
        "shuffle_relation",
    )
    assert not texts  # "the plate on the fork": small things get no back-off


def test_a_swapped_head_takes_the_slot_number_but_pants_are_plural_in_form_only():
    texts, _ = made(
        "older man with white shirt and brown pants",
        [
            ("older man", "man", ["older"]),
            ("white shirt", "shirt", ["white"]),
            ("brown pants", "pants", ["brown"]),
        ],
        [(0, "with", 1), (0, "with", 2)],
        "swap_object",
    )
    assert "older man with white pants and brown shirt" in texts, texts
    assert not any("shirts" in t for t in texts)


def test_an_object_in_no_relation_is_not_swapped_and_a_triple_seen_once_is_no_evidence():
    # the parse missed "travels over": "A river travels over a bridge above a train"
    texts, rejected = made(
        "A train travels over a bridge above a river",
        [("train", "train", []), ("bridge", "bridge", []), ("river", "river", [])],
        [(1, "above", 2)],
        "swap_object",
    )
    assert not texts and rejected["unchecked_swap"]
    c = VOCAB.cooc
    assert c.n("spo", "man", "wait", "frisbee") == 1  # a parse's slip ("waiting for")
    texts, _ = made(
        "middle aged man playing frisbee",
        [("middle aged man", "man", ["middle", "aged"]), ("frisbee", "frisbee", [])],
        [(0, "play", 1)],
        "replace_relation",
        with_text=True,
    )
    assert "middle aged man waiting frisbee" not in texts


def test_a_relation_parsed_backwards_is_not_shuffled_into_the_truth():
    texts, rejected = made(
        "a brown coat wearing person",
        [("brown coat", "coat", ["brown"]), ("person", "person", [])],
        [(0, "wear", 1)],
        "shuffle_relation",
    )
    assert not texts and rejected["parsed_backwards"]  # "person wearing a brown coat" is true


def test_one_class_is_no_evidence_for_which_supports_which():
    texts, _ = made(
        "red cars on train",
        [("red cars", "cars", ["red"]), ("train", "train", [])],
        [(0, "on", 1)],
        "shuffle_relation",
    )
    assert not texts  # "train on red cars"
    texts, _ = made(
        "car behind bus",
        [("car", "car", []), ("bus", "bus", [])],
        [(0, "behind", 1)],
        "shuffle_relation",
    )
    assert set(texts) == {"bus behind car"}


# --- connect: at a natural seam ---------------------------------------------------------------
def test_connect_goes_at_the_end_or_before_a_clause_never_before_a_participle():
    texts, _ = made(
        "two young girls sitting at a dinner table",
        [("two young girls", "girls", ["young"], 2), ("dinner table", "table", [])],
        [(0, "sit at", 1)],
        "connect",
        with_text=True,
    )
    texts = [t for t in texts if t]
    cap = "two young girls sitting at a dinner table"
    # never "girls near a horse sitting at"; connect only adds (issue 32); a thing a person
    # has with them goes right after the person ("two young girls with a dog sitting at"),
    # and so does a second subject ("two young girls and a cat sitting at")
    starts = (cap + " ", cap + ", ", "two young girls with ", "two young girls and ")
    assert all(t.startswith(starts) for t in texts)
    assert not any(" near " in t.split(" sitting ")[0] for t in texts), texts
    texts, _ = made(
        "a man in a blue shirt throws a frisbee",
        [("man", "man", []), ("blue shirt", "shirt", ["blue"]), ("frisbee", "frisbee", [])],
        [(0, "in", 1), (0, "throw", 2)],
        "connect",
        with_text=True,
    )
    assert all(not t.startswith("a man near") for t in texts if t), texts  # "near the snow in"


def test_connect_without_a_seam_after_its_noun_phrase_goes_at_the_end_and_names_no_sport():
    texts, _ = made(
        # in the park: in the rain (no setting) only a bicycle was left to add, too few things
        # (connect's MIN_OPTIONS) with 53,675 captions counted
        "a man holds an umbrella over a woman in the park.",
        [
            ("man", "man", []),
            ("umbrella", "umbrella", []),
            ("woman", "woman", []),
            ("park", "park", []),
        ],
        [(0, "hold", 1), (1, "over", 2), (2, "in", 3)],
        "connect",
        with_text=True,
    )
    texts = [t for t in texts if t]
    cap = "a man holds an umbrella over a woman in the park"
    added = [t for t in texts if t.startswith(cap + " ") or t.startswith(cap + ", ")]
    assert added and all(t.endswith(".") for t in added), texts  # after it, or a clause
    # or in the place of "in the park": "... over a woman near a ladder."
    assert all(
        t.startswith("a man holds an umbrella over a woman ") and t.endswith(".")
        for t in texts
        if t not in added
    ), texts
    assert not any(t.endswith(" tennis.") for t in texts)


# --- swaps and shuffles on the class evidence (issue 18: they were rare) -----------------------
def test_two_free_standing_things_may_change_places_from_the_camera_point_of_view():
    texts, _ = made(
        "a tall building behind a woman",
        [("tall building", "building", ["tall"]), ("woman", "woman", [])],
        [(0, "behind", 1)],
        "shuffle_relation",
    )
    assert set(texts) == {"a woman behind a tall building"}
    # on, in, under are no point of view: "a bench on the grass" never turns round
    texts, rejected = made(
        "a wooden bench on the grass",
        [("wooden bench", "bench", ["wooden"]), ("grass", "grass", [])],
        [(0, "on", 1)],
        "shuffle_relation",
    )
    assert not texts and rejected["implausible_relation"]


def test_two_animate_beings_exchange_only_what_either_can_do_to_the_other():
    texts, _ = made(
        "a girl is staring at a dog",
        [("girl", "girl", []), ("dog", "dog", [])],
        [(0, "stare at", 1)],
        "shuffle_relation",
    )
    assert set(texts) == {"a dog is staring at a girl"}
    for caption, ents, rel in [
        ("a man feeding a giraffe", [("man", "man", []), ("giraffe", "giraffe", [])], "feed"),
        ("a woman talking to a dog", [("woman", "woman", []), ("dog", "dog", [])], "talk to"),
        ("a man laying on a cow", [("man", "man", []), ("cow", "cow", [])], "lay on"),
    ]:
        texts, rejected = made(caption, ents, [(0, rel, 1)], "shuffle_relation")
        assert not texts, texts  # "a giraffe feeding a man", "a dog talking to a woman"
        # (talking reads the same either way round between two beings: symmetric)
        assert (
            rejected["implausible_agent"]
            or rejected["implausible_relation"]
            or (rel == "talk to" and rejected["symmetric_relation"])
        )


def test_exchanging_two_items_of_one_list_is_a_reorder():
    caption = "a man wearing green shorts and a blue shirt"
    texts, rejected = made(
        caption,
        [
            ("man", "man", []),
            ("green shorts", "shorts", ["green"]),
            ("blue shirt", "shirt", ["blue"]),
        ],
        [(0, "wear", 1), (0, "wear", 2)],
        "redraw_relation",
        with_text=True,
    )
    assert not texts and rejected["number_mismatch"]  # shorts, a shirt: one and many


def test_a_moved_noun_phrase_takes_the_article_of_its_slot():
    caption = "black chair in front of the desk"
    texts, _ = made(
        caption,
        [("black chair", "chair", ["black"]), ("desk", "desk", [])],
        [(0, "in front of", 1)],
        "shuffle_relation",
    )
    assert set(texts) == {"the desk in front of the black chair"}  # not "... of black chair"


def test_colours_of_signs_and_walls_swap_but_natural_things_keep_theirs():
    texts, _ = made(
        "white letters on a pink wall",
        [("white letters", "letters", ["white"]), ("pink wall", "wall", ["pink"])],
        [(0, "on", 1)],
        "swap_attribute",
    )
    assert set(texts) == {"pink letters on a white wall"}
    c = VOCAB.cooc
    assert not c.attribute_ok("blue", "alarm clock") and c.attribute_ok_by_class(
        "blue", "alarm clock"
    )
    assert not c.attribute_ok_by_class("blue", "leaf") and not c.attribute_ok_by_class(
        "purple", "grass"
    )


def test_a_point_of_view_relation_turns_round_unless_the_sky_is_an_end():
    texts, _ = made(
        "a white car behind a fence",
        [("white car", "car", ["white"]), ("fence", "fence", [])],
        [(0, "behind", 1)],
        "replace_relation",
        with_text=True,
    )
    assert set(texts) == {"a white car in front of a fence"}
    texts, rejected = made(
        "the sun behind the clouds",
        [("sun", "sun", []), ("clouds", "clouds", [])],
        [(0, "behind", 1)],
        "replace_relation",
        with_text=True,
    )
    assert not texts and rejected["implausible_relation"]  # "the sun in front of the clouds"


# --- replace_object: nothing that may still be true -------------------------------------------
def test_a_replacement_is_no_part_of_the_whole_and_no_generic_name():
    texts, rejected = made(
        "a bird on the house",
        [("bird", "bird", []), ("house", "house", [])],
        [(0, "on", 1)],
        "replace_object",
        seeds=30,
        with_text=True,
    )
    # a bird and a house have no fine category: no sibling, never "on the roof"
    assert not texts and rejected["no_sibling"]
    p = strategy_class("replace")(
        Scene(
            graph("a tall clock tower", [("tall clock tower", "tower", ["tall"])]),
            VOCAB,
            random.Random(0),
            Counter(),
            VOCAB.cooc,
        )
    )
    assert p._may_be_true("clock tower", "building", None) == "generic_word"
    assert p._may_be_true("hot dog", "food", "food") == "generic_word"
    assert p._may_be_true("horse", "head", "animal") == "part_of_whole"  # "a horse's head"


def test_a_person_named_by_a_role_is_not_replaced_by_who_they_may_be():
    texts, rejected = made(
        "racket in the player's hand",
        [("racket", "racket", []), ("player", "player", []), ("hand", "hand", [])],
        [(0, "in", 2), (1, "have", 2)],
        "replace_object",
        seeds=30,
        with_text=True,
    )
    people = {"man", "woman", "boy", "girl", "lady", "guy", "person", "kid", "child"}
    assert not any(t.split()[3].rstrip("'s") in people for t in texts), texts
    p = strategy_class("replace")(
        Scene(
            graph("a skateboarder", [("skateboarder", "skateboarder", [])]),
            VOCAB,
            random.Random(0),
            Counter(),
            VOCAB.cooc,
        )
    )
    assert p._may_be_true("skateboarder", "woman", "person") == "may_be_true"
    assert p._may_be_true("skateboarder", "surfer", "person") is None
    assert p._may_be_true("man", "woman", "person") is None


def test_objects_swap_across_near_either_way_but_never_across_with():
    texts, _ = made(
        "a white sweater next to an orange dress",
        [("white sweater", "sweater", ["white"]), ("orange dress", "dress", ["orange"])],
        [(0, "next to", 1)],
        "swap_object",
    )
    assert set(texts) == {"a white dress next to an orange sweater"}
    texts, _ = made(
        "a zebra with two ears",
        [("zebra", "zebra", []), ("two ears", "ears", [], 2)],
        [(0, "with", 1)],
        "swap_object",
    )
    assert not texts  # "an ear with two zebras"


def test_a_plural_only_noun_swapped_into_a_slot_after_a_drops_the_article():
    texts, _ = made(
        "a man wearing green shorts and a blue shirt",
        [
            ("man", "man", []),
            ("green shorts", "shorts", ["green"]),
            ("blue shirt", "shirt", ["blue"]),
        ],
        [(0, "wear", 1), (0, "wear", 2)],
        "swap_object",
    )
    assert set(texts) == {"a man wearing green shirt and blue shorts"}  # not "a blue shorts"


def test_an_unspecific_verb_is_not_replaced_by_what_may_be_done_as_well():
    for caption, ents, rel in [
        (
            "a crowd of people watching the kite",
            [("people", "people", [], 2), ("kite", "kite", [])],
            "watch",
        ),
        (
            "people holding frisbees",
            [("people", "people", [], 2), ("frisbees", "frisbee", [], 2)],
            "hold",
        ),
    ]:
        texts, rejected = made(caption, ents, [(0, rel, 1)], "replace_relation", with_text=True)
        assert not texts and rejected["may_be_true"], texts  # "flying the kite"
    assert VOCAB.cooc.is_related("play", "practice", "verb")
    texts, _ = made(
        "brown dog catching yellow frisbee",
        [("brown dog", "dog", ["brown"]), ("yellow frisbee", "frisbee", ["yellow"])],
        [(0, "catch", 1)],
        "replace_relation",
        with_text=True,
    )
    assert not any("playing" in t for t in texts), texts  # catching it is playing with it


def test_a_swap_that_undoes_a_backwards_parse_or_moves_an_unknown_compound_is_refused():
    texts, rejected = made(
        "a brown carriage pulling horse",
        [("brown carriage", "carriage", ["brown"]), ("horse", "horse", [])],
        [(0, "pull", 1)],
        "swap_object",
        with_text=True,
    )
    assert not texts and rejected["parsed_backwards"]  # "a brown horse pulling carriage"
    texts, rejected = made(
        "dude in white trainers, red cap, chartreuse shirt",
        [
            ("dude", "dude", []),
            ("red cap", "cap", ["red"]),
            ("chartreuse shirt", "shirt", []),
        ],
        [(0, "in", 1), (0, "in", 2)],
        "swap_object",
        with_text=True,
    )
    assert not texts and rejected["unknown_object"]  # "red chartreuse shirt, cap"


def test_two_things_worn_by_one_person_exchanged_say_the_same():
    caption = "a blurry man wearing a white uniform with a dark hat on"
    texts, rejected = made(
        caption,
        [
            ("blurry man", "man", ["blurry"]),
            ("white uniform", "uniform", ["white"]),
            ("dark hat", "hat", ["dark"]),
        ],
        [(0, "wear", 1), (0, "with", 2)],
        "redraw_relation",
        with_text=True,
    )
    # "wearing a dark hat with a white uniform": the two had by one (list_reorder), both at
    # one thing by a relation that holds either way (may_be_true, round 35)
    assert not texts and (rejected["list_reorder"] or rejected["may_be_true"])


def test_a_replaced_noun_keeps_the_article_it_needs():
    p = plausible(
        "replace",
        "woman sitting in snow",
        [("woman", "woman", []), ("snow", "snow", [])],
        [(0, "sit in", 1)],
    )
    # "woman sitting in booth": a countable noun for an uncountable one needs an article
    assert p._verdict("booth", "snow", False, False, "", False, False) == "article_needed"
    assert p._verdict("sand", "snow", False, False, "", False, False) is False


def test_a_kind_is_not_replaced_by_its_class_nor_a_noun_of_unknown_number():
    p = strategy_class("replace")(
        Scene(
            graph("the heron is reflected", [("heron", "heron", [])]),
            VOCAB,
            random.Random(0),
            Counter(),
            VOCAB.cooc,
        )
    )
    assert p._may_be_true("heron", "bird", "animal") == "generic_word"
    assert p._may_be_true("branch", "leaf", None) == "part_of_whole"  # "leaves on the tree"
    texts, rejected = made(
        "the sheep are in the field",
        [("sheep", "sheep", []), ("field", "field", [])],
        [(0, "in", 1)],
        "replace_object",
        seeds=20,
        with_text=True,
    )
    assert all(t.startswith("the sheep are") for t in texts), texts  # never "the cow are"
    assert rejected["no_attested_replacement"]


def test_clothes_of_different_number_do_not_swap_but_colours_of_made_things_do():
    caption = "man wearing brown sandals and a blue shirt"
    ents = [
        ("man", "man", []),
        ("brown sandals", "sandal", ["brown"]),
        ("blue shirt", "shirt", ["blue"]),
    ]
    rels = [(0, "wear", 1), (0, "wear", 2)]
    texts, rejected = made(caption, ents, rels, "swap_object")
    assert not texts and rejected["number_mismatch"]  # "brown shirts and a blue sandal"
    texts, _ = made(caption, ents, rels, "swap_attribute")
    assert set(texts) == {"man wearing blue sandals and a brown shirt"}


def test_swapped_attributes_are_judged_on_the_attributes_the_relation_is_the_captions():
    """Swapping attributes leaves every relation as the caption has it: a relation the small
    statistics never saw ("car parked beside pickup truck") is no reason to refuse."""
    caption = "a red car parked beside a blue pickup truck"
    entities = [("red car", "car", ["red"]), ("blue pickup truck", "truck", ["blue"])]
    texts, rejected = made(caption, entities, [(0, "park beside", 1)], "swap_attribute")
    assert set(texts) == {"a blue car parked beside a red pickup truck"}, rejected


def test_generic_sizes_fit_any_animal_vehicle_or_piece_of_furniture():
    """ "a small sheep next to a large goat" -> "a large sheep next to a small goat": a size
    word such as small or large needs no attestation on a thing of a sized class; a shape
    size ("a tall pizza") still does."""
    caption = "a small sheep next to a large goat"
    entities = [("small sheep", "sheep", ["small"]), ("large goat", "goat", ["large"])]
    texts, _ = made(caption, entities, [(0, "next to", 1)], "swap_attribute")
    assert set(texts) == {"a large sheep next to a small goat"}
    assert VOCAB.cooc.attribute_ok_by_class("large", "goat")
    assert not VOCAB.cooc.attribute_ok_by_class("tall", "pizza")
