"""The classes of error blind review round 5 found in the rare kinds (captions written here,
COCO style; each refusal counted by its reason)."""

from __future__ import annotations

from neg_helpers import graph, plausible, texts_over_seeds

from sgprep.negatives.perturbation import MoveNPs, Perturbation
from sgprep.negatives.realise import Realiser
from sgprep.negatives.vocab import load_vocab

VOCAB = load_vocab()


def built(caption, entities, relations, kind, seeds=6):
    """The texts a kind makes over several seeds, and its refusals by reason."""
    return texts_over_seeds(caption, entities, relations, kind, seeds)


# --- 1. replace_relation: a layout fixed whatever the camera --------------------------------
def test_a_place_that_holds_the_scene_is_never_behind_what_is_in_it():
    cap = "A pitcher on the mound in front of a packed stadium."
    ents = [
        ("pitcher", "pitcher", []),
        ("mound", "mound", []),
        ("packed stadium", "stadium", ["packed"]),
    ]
    texts, rejected = built(cap, ents, [(0, "on", 1), (0, "in front of", 2)], "replace_relation")
    assert not any("behind a packed stadium" in t for t in texts), texts
    assert rejected["encloses_scene"]


def test_roles_a_sport_places_keep_their_order():
    for cap, ents, rels in [
        (
            "An umpire stands behind the catcher at home plate.",
            [("umpire", "umpire", []), ("catcher", "catcher", []), ("home plate", "plate", [])],
            [(0, "stand behind", 1), (1, "at", 2)],
        ),
        (
            "A goalkeeper stands in front of the goal.",
            [("goalkeeper", "goalkeeper", []), ("goal", "goal", [])],
            [(0, "stand in front of", 1)],
        ),
    ]:
        texts, rejected = built(cap, ents, rels, "replace_relation")
        assert not texts and rejected["fixed_position"], (cap, texts)


def test_a_flip_of_things_the_camera_may_see_either_way_is_kept():
    cap = "A motorcycle parked in front of a brick building."
    ents = [("motorcycle", "motorcycle", []), ("brick building", "building", ["brick"])]
    texts, _ = built(cap, ents, [(0, "park in front of", 1)], "replace_relation")
    assert texts == {"A motorcycle parked behind a brick building."}
    cap = "Kids pointing at a giraffe behind the fence."
    ents = [("Kids", "kid", []), ("giraffe", "giraffe", []), ("fence", "fence", [])]
    texts, _ = built(cap, ents, [(0, "point at", 1), (1, "behind", 2)], "replace_relation")
    assert "Kids pointing at a giraffe in front of the fence." in texts


def test_riding_a_wave_is_catching_it():
    from sgprep.negatives.cooc import related_with

    assert related_with("catch", "ride", "wave") and related_with("ride", "catch", "waves")
    assert not related_with("catch", "ride", "horse")
    cap = "A surfer rides a wave in the ocean."
    ents = [("surfer", "surfer", []), ("wave", "wave", []), ("ocean", "ocean", [])]
    texts, _ = built(cap, ents, [(0, "ride", 1), (1, "in", 2)], "replace_relation")
    assert not any("catches a wave" in t for t in texts), texts


# --- 2, 3. redraw_relation and swap_object: sizes and whole noun phrases --------------------
FEEDS = "A woman feeds a carrot to a horse while a small dog sits at her feet."
FEEDS_ENTS = [
    ("woman", "woman", []),
    ("carrot", "carrot", []),
    ("horse", "horse", []),
    ("small dog", "dog", ["small"]),
    ("feet", "foot", []),
]
FEEDS_RELS = [(0, "feed", 1), (0, "feed to", 2), (3, "sit at", 4), (0, "have", 4)]


def test_a_horse_is_never_put_at_someone_s_feet():
    for kind in ("redraw_relation", "swap_object", "shuffle_relation"):
        texts, rejected = built(FEEDS, FEEDS_ENTS, FEEDS_RELS, kind)
        assert not any("horse sits" in t for t in texts), (kind, texts)
    texts, rejected = built(FEEDS, FEEDS_ENTS, FEEDS_RELS, "redraw_relation")
    assert rejected["size_misfit"]


def test_a_noun_phrase_moves_whole_or_not_at_all():
    # a parse that left "brown" out of "a brown horse": the horse cannot move alone
    cap = "A cowboy on a brown horse swings a rope."
    g = graph(
        cap,
        [("cowboy", "cowboy", []), ("horse", "horse", []), ("rope", "rope", [])],
        [(0, "on", 1), (0, "swing", 2)],
    )
    p = Perturbation("redraw_relation", "shuffle", g, (MoveNPs(((1, 2), (2, 1))),))
    text, how = Realiser(cap, g).realise(p, use_template=False)
    assert text is None and how == "partial_noun_phrase"
    g = graph(
        cap,
        [("cowboy", "cowboy", []), ("brown horse", "horse", ["brown"]), ("rope", "rope", [])],
        [(0, "on", 1), (0, "swing", 2)],
    )
    p = Perturbation("redraw_relation", "shuffle", g, (MoveNPs(((1, 2), (2, 1))),))
    assert Realiser(cap, g).realise(p, use_template=False)[0] == (
        "A cowboy on a rope swings a brown horse."
    )


def test_a_noun_phrase_after_a_quantity_of_moves_with_its_quantity_or_not_at_all():
    # "a line of parked vans": moving "parked vans" alone would leave "a line of a black
    # motorcycle" (blind review round 8 found this class; the caption is written here)
    cap = "A man riding a black motorcycle past a line of parked vans."
    g = graph(
        cap,
        [("man", "man", []), ("black motorcycle", "motorcycle", ["black"])]
        + [("parked vans", "van", ["parked"])],
        [(0, "ride", 1), (0, "past", 2)],
    )
    p = Perturbation("redraw_relation", "shuffle", g, (MoveNPs(((1, 2), (2, 1))),))
    text, how = Realiser(cap, g).realise(p, use_template=False)
    assert text is None and how == "partial_noun_phrase"
    # a noun phrase after a plain "of" still moves: "in front of"
    cap = "A man riding a black motorcycle in front of parked vans."
    g = graph(
        cap,
        [("man", "man", []), ("black motorcycle", "motorcycle", ["black"])]
        + [("parked vans", "van", ["parked"])],
        [(0, "ride", 1), (0, "in front of", 2)],
    )
    p = Perturbation("redraw_relation", "shuffle", g, (MoveNPs(((1, 2), (2, 1))),))
    assert Realiser(cap, g).realise(p, use_template=False)[0] == (
        "A man riding parked vans in front of a black motorcycle."
    )


# --- 4. replace_object -------------------------------------------------------------------
def test_a_word_tied_to_the_old_object_keeps_it():
    cap = "A gray tabby cat sleeping on a couch."
    ents = [("gray tabby cat", "cat", ["gray", "tabby"]), ("couch", "couch", [])]
    texts, rejected = built(cap, ents, [(0, "sleep on", 1)], "replace_object")
    assert not any("tabby" in t and "cat" not in t for t in texts), texts
    # refused by its tie, or as a word of no type never seen with the new name (round 27)
    assert rejected["tied_word"] or rejected["implausible_attribute"]
    cap = "A girl rides a bicycle with training wheels."
    ents = [("girl", "girl", []), ("bicycle", "bicycle", []), ("training wheels", "wheel", [])]
    texts, rejected = built(cap, ents, [(0, "ride", 1), (1, "with", 2)], "replace_object")
    assert all("bicycle" in t for t in texts), texts
    assert rejected["tied_word"]


def test_a_material_must_fit_the_new_object():
    p = plausible(
        "replace", "A man wearing a wool cap.", [("man", "man", []), ("wool cap", "cap", ["wool"])]
    )
    assert p._undoable(1, "helmet", []) == "implausible_attribute"


def test_a_liquid_needs_a_vessel():
    cap = "A bucket of milk on a table."
    ents = [("bucket", "bucket", []), ("milk", "milk", []), ("table", "table", [])]
    texts, rejected = built(cap, ents, [(1, "in", 0), (0, "on", 2)], "replace_object")
    assert not any(w in t for t in texts for w in ("box of", "basket of", "crate of")), texts
    assert rejected["container_misfit"]


def test_a_thing_does_only_what_it_was_seen_doing():
    cap = "A fire hydrant spraying water on the street."
    ents = [("fire hydrant", "hydrant", []), ("water", "water", []), ("street", "street", [])]
    texts, rejected = built(cap, ents, [(0, "spray", 1), (1, "on", 2)], "replace_object")
    assert all("hydrant" in t for t in texts), texts
    assert rejected["implausible_agent"]


def test_a_hypernym_is_no_sibling():
    from sgprep.negatives import siblings

    assert "shoe" not in siblings.siblings("boot") and "sandwich" not in siblings.siblings(
        "hamburger"
    )
    assert "sandal" in siblings.siblings("boot") and "hot dog" in siblings.siblings("hamburger")


# --- 5. connect ---------------------------------------------------------------------------
def test_nothing_is_added_to_a_view_or_after_a_far_off_phrase():
    cap = "A city skyline lit up at night across the bay."
    ents = [("city skyline", "skyline", []), ("bay", "bay", [])]
    texts, rejected = built(cap, ents, [(0, "light across", 1)], "connect")
    assert not texts and rejected["connect_landscape"]
    cap = "A lake with mountains visible in the distance."
    ents = [("lake", "lake", []), ("mountains", "mountain", [])]
    texts, rejected = built(cap, ents, [(0, "with", 1)], "connect")
    assert not texts and rejected["connect_background"]


def test_the_size_rule_places_things_and_leaves_what_they_have():
    from sgprep.negatives.scene import size_misfit

    assert size_misfit("horse", "sit at", "foot") and size_misfit("cow", "in", "lap")
    assert not size_misfit("giraffe", "have", "foot")  # "the zebra has four feet"
    assert not size_misfit("dog", "sit at", "foot")


def test_a_thing_may_sit_or_hang_whatever_it_is():
    p = plausible(
        "replace", "a laptop is sitting on a desk", [("laptop", "laptop", []), ("desk", "desk", [])]
    )
    rels = [
        r
        for r in graph(
            "a laptop is sitting on a desk",
            [("laptop", "laptop", []), ("desk", "desk", [])],
            [(0, "sit on", 1)],
        ).relations
    ]
    assert p._undoable(0, "tablet", rels) is None
