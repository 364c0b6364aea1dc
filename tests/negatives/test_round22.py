"""Blind review round 22's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_a_size_swap_keeps_each_size_to_what_it_measured():
    # "tall" measures the grass's height, "small" the dog's bulk: "small grass" reads wrong
    texts, rejected = texts_over_seeds(
        "A small white dog running through tall grass near a barn.",
        [
            ("small white dog", "dog", ["small", "white"]),
            ("tall grass", "grass", ["tall"]),
            ("barn", "barn", []),
        ],
        [(0, "run through", 1), (0, "run near", 2)],
        "swap_attribute",
        8,
    )
    assert not any("small grass" in t for t in texts), texts
    assert rejected["size_dimension"]


def test_a_being_takes_no_size_its_kind_never_has():
    for cap, ents, rels, wrong in (
        (
            "A tiny brown mouse beside a huge wheel of yellow cheese.",
            [
                ("tiny brown mouse", "mouse", ["tiny", "brown"]),
                ("huge wheel", "wheel", ["huge"]),
                ("yellow cheese", "cheese", ["yellow"]),
            ],
            [(0, "beside", 1), (2, "have", 1)],
            "huge brown mouse",
        ),
        (
            "A tall giraffe standing beside a short zebra in a grassy field.",
            [
                ("tall giraffe", "giraffe", ["tall"]),
                ("short zebra", "zebra", ["short"]),
                ("grassy field", "field", ["grassy"]),
            ],
            [(0, "stand beside", 1), (1, "in", 2)],
            "short giraffe",
        ),
        (
            "A tiny girl dragging a huge striped kite along the beach.",
            [
                ("tiny girl", "girl", ["tiny"]),
                ("huge striped kite", "kite", ["huge", "striped"]),
                ("beach", "beach", []),
            ],
            [(0, "drag", 1), (1, "along", 2)],
            "huge girl",
        ),
    ):
        for kind in ("swap_attribute", "swap_object"):
            texts, _ = texts_over_seeds(cap, ents, rels, kind, 8)
            assert not any(wrong in t for t in texts), (kind, texts)
    # a made thing comes in sizes: "a small car next to a large truck" still turns round
    texts, _ = texts_over_seeds(
        "A small car parked next to a large truck.",
        [("small car", "car", ["small"]), ("large truck", "truck", ["large"])],
        [(0, "park next to", 1)],
        "swap_attribute",
        8,
    )
    assert "A large car parked next to a small truck." in texts, texts


def test_water_takes_the_colours_the_statistics_give_it():
    texts, _ = texts_over_seeds(
        "A sailboat with white sails gliding across a blue harbor.",
        [
            ("sailboat", "sailboat", []),
            ("white sails", "sail", ["white"]),
            ("blue harbor", "harbor", ["blue"]),
        ],
        [(0, "with", 1), (1, "glide across", 2)],
        "swap_attribute",
        8,
    )
    assert not any("white harbor" in t for t in texts), texts


def test_a_hot_dog_is_no_dog():
    # the statistics saw boys hugging dogs, never hot dogs
    texts, _ = texts_over_seeds(
        "A young boy eating a hot dog at a baseball stadium.",
        [
            ("young boy", "boy", ["young"]),
            ("hot dog", "dog", []),
            ("baseball stadium", "stadium", []),
        ],
        [(0, "eat", 1), (0, "at", 2)],
        "replace_relation",
        12,
    )
    assert not any(w in t for t in texts for w in ("hugging", "petting", "walking")), texts


def test_nothing_joins_a_person_in_a_list():
    from test_connect import connected

    texts, rejected = connected(
        "A girl pushing her younger brother on a playground swing.",
        [
            ("girl", "girl", []),
            ("younger brother", "brother", ["younger"]),
            ("playground swing", "swing", []),
        ],
        [(0, "push", 1), (0, "on", 2)],
    )
    assert not any("brother and" in t for t in texts), texts
    assert rejected["connect_join_person"]


def test_an_attribute_a_caption_word_ties_stays_in_its_group():
    for cap, ents, rels, group in (
        (
            "A skier racing down a steep snowy slope.",
            [("skier", "skier", []), ("steep snowy slope", "slope", ["steep", "snowy"])],
            [(0, "race down", 1)],
            {"snowy", "icy", "powdery"},
        ),
        (
            "A welder working on a metal frame in a workshop.",
            [
                ("welder", "welder", []),
                ("metal frame", "frame", ["metal"]),
                ("workshop", "workshop", []),
            ],
            [(0, "work on", 1), (1, "in", 2)],
            {"metal", "steel", "iron"},
        ),
        (
            "A potter shaping a clay bowl on a spinning wheel.",
            [
                ("potter", "potter", []),
                ("clay bowl", "bowl", ["clay"]),
                ("spinning wheel", "wheel", ["spinning"]),
            ],
            [(0, "shape", 1), (0, "on", 2)],
            {"clay", "ceramic"},
        ),
    ):
        texts, rejected = texts_over_seeds(cap, ents, rels, "replace_attribute", 12)
        thing = ents[1][0].split()[-1]
        for t in texts:  # the tied thing keeps an attribute of its group
            before = t.lower().split(f" {thing}")[0].split()
            assert not set(before).isdisjoint(group), (cap, t)
        assert rejected["tied_word"], cap
    # without the word that ties it, a snowy slope may become another
    texts, _ = texts_over_seeds(
        "A dog running down a steep snowy slope.",
        [("dog", "dog", []), ("steep snowy slope", "slope", ["steep", "snowy"])],
        [(0, "run down", 1)],
        "replace_attribute",
        12,
    )
    assert any("snowy" not in t for t in texts), texts


def test_a_friend_may_be_the_man_so_the_two_do_not_change_places():
    cap = "A man throwing a frisbee to a friend in the park."
    ents = [
        ("man", "man", []),
        ("frisbee", "frisbee", []),
        ("friend", "friend", []),
        ("park", "park", []),
    ]
    rels = [(0, "throw", 1), (0, "throw to", 2), (2, "in", 3)]
    for kind in ("shuffle_relation", "swap_object"):
        texts, _ = texts_over_seeds(cap, ents, rels, kind, 8)
        assert not any(t.startswith("A friend throwing") for t in texts), (kind, texts)
    # a man and a woman do
    texts, _ = texts_over_seeds(
        "A man throwing a frisbee to a woman in the park.",
        [
            ("man", "man", []),
            ("frisbee", "frisbee", []),
            ("woman", "woman", []),
            ("park", "park", []),
        ],
        rels,
        "shuffle_relation",
        8,
    )
    assert "A woman throwing a frisbee to a man in the park." in texts, texts


def test_a_kin_place_is_one_the_captions_animal_is_seen_in():
    texts, _ = texts_over_seeds(
        "A farmer milking a cow in a dim stone barn.",
        [
            ("farmer", "farmer", []),
            ("cow", "cow", []),
            ("dim stone barn", "barn", ["dim", "stone"]),
        ],
        [(0, "milk", 1), (0, "in", 2)],
        "replace_object",
        16,
    )
    assert not any("coop" in t for t in texts), texts


def test_connect_round_22():
    from test_connect import added, connected

    # a wild animal by a farm only where the statistics saw it on one
    cap = "A pickup truck loaded with hay bales parked beside a barn."
    texts, _ = connected(
        cap,
        [
            ("pickup truck", "truck", ["pickup"]),
            ("hay bales", "bale", ["hay"]),
            ("barn", "barn", []),
        ],
        [(0, "load with", 1), (0, "park beside", 2)],
        seeds=30,
    )
    # (the corpus has a camel fed hay at a farm park: the statistics may place one by hay)
    wild = {"zebra", "giraffe", "buffalo", "black bear", "moose", "coyote", "lion", "tiger"}
    assert not added(texts, cap) & wild, texts
    # nothing beside a race at its finish
    texts, rejected = connected(
        "A runner crossing the finish line while a crowd cheers.",
        [("runner", "runner", []), ("finish line", "line", []), ("crowd cheers", "cheer", [])],
        [(0, "cross", 1)],
    )
    assert not texts and rejected["connect_game"], texts
    # a lily pad is on water: no suitcase beside it
    cap = "A small green frog sitting on a large lily pad."
    texts, _ = connected(
        cap,
        [
            ("small green frog", "frog", ["small", "green"]),
            ("large lily pad", "pad", ["large", "lily"]),
        ],
        [(0, "sit on", 1)],
        seeds=30,
    )
    assert not added(texts, cap) & {"suitcase", "backpack", "stool", "bench"}, texts


def test_replace_relation_round_22():
    # a crowd faces who it watches: "behind a crowd" says nothing a photo shows
    texts, _ = texts_over_seeds(
        "A pitcher winding up on the mound in front of a crowd.",
        [("pitcher", "pitcher", []), ("mound", "mound", []), ("crowd", "crowd", [])],
        [(0, "wind up on", 1), (0, "in front of", 2)],
        "replace_relation",
        8,
    )
    assert not any("behind a crowd" in t for t in texts), texts
    # people gathering around a table may well be sitting there
    texts, _ = texts_over_seeds(
        "Several people sitting around a table in a meeting room.",
        [("people", "people", []), ("table", "table", []), ("meeting room", "room", ["meeting"])],
        [(0, "sit around", 1), (1, "in", 2)],
        "replace_relation",
        16,
    )
    assert not any("gathering" in t for t in texts), texts


def test_no_redraw_of_a_thing_in_no_relation_and_no_horse_jumping_its_rider():
    texts, rejected = texts_over_seeds(
        "A woman hanging laundry on a line in the garden.",
        [
            ("woman", "woman", []),
            ("laundry", "laundry", []),
            ("line", "line", []),
            ("garden", "garden", []),
        ],
        [(0, "hang on", 2), (2, "in", 3)],
        "redraw_relation",
        8,
    )
    assert not any(t.startswith("A laundry") for t in texts), texts
    assert rejected["unchecked_swap"]
    texts, _ = texts_over_seeds(
        "A rider jumping a chestnut horse over a wooden fence.",
        [
            ("rider", "rider", []),
            ("chestnut horse", "horse", ["chestnut"]),
            ("wooden fence", "fence", ["wooden"]),
        ],
        [(0, "jump", 1), (0, "jump over", 2)],
        "shuffle_relation",
        8,
    )
    assert not any(t.startswith("A chestnut horse jumping a rider") for t in texts), texts


def test_a_worn_thing_is_not_new():
    cap = "A rusty old bicycle leaning against a new wooden fence."
    ents = [
        ("rusty old bicycle", "bicycle", ["rusty", "old"]),
        ("new wooden fence", "fence", ["new", "wooden"]),
    ]
    rels = [(0, "lean against", 1)]
    for kind in ("swap_attribute", "replace_attribute"):
        texts, _ = texts_over_seeds(cap, ents, rels, kind, 12)
        assert not any("rusty new" in t for t in texts), (kind, texts)
