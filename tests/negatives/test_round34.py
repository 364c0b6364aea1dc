"""Blind review round 34's failures, each with its caption (graphs as the spaCy rule parser
gives them), refused after the round; and what the larger statistics (44,337 written
captions) changed."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def test_no_swap_makes_a_name_of_its_own():
    texts, rejected = texts_over_seeds(
        "A white sailboat and a red kayak float on calm turquoise water.",
        [
            ("white sailboat", "sailboat", ["white"]),
            ("red kayak", "kayak", ["red"]),
            ("calm turquoise water", "water", ["calm", "turquoise"]),
        ],
        [(0, "float on", 2), (1, "float on", 2)],
        "swap_attribute",
        12,
    )
    assert not any("white water" in t for t in texts), texts
    assert rejected["fixed_expression"]


def test_boxes_are_near_enough_to_packages():
    texts, _ = texts_over_seeds(
        "A young man delivers packages on a bicycle.",
        [
            ("young man", "man", ["young"]),
            ("packages", "package", [], 2),
            ("bicycle", "bicycle", []),
        ],
        [(0, "deliver", 1), (0, "on", 2)],
        "replace_object",
        40,
    )
    assert not any("boxes" in t or "parcels" in t for t in texts), texts


def test_grilled_corn_may_be_roasted():
    texts, _ = texts_over_seeds(
        "A man sells roasted corn from a cart on the sidewalk.",
        [
            ("man", "man", []),
            ("roasted corn", "corn", ["roasted"]),
            ("cart", "cart", []),
            ("sidewalk", "sidewalk", []),
        ],
        [(0, "sell", 1), (0, "from", 2), (2, "on", 3)],
        "replace_attribute",
        40,
    )
    assert not any("grilled" in t or "barbecued" in t for t in texts), texts


def test_what_is_seen_through_stays_glass():
    texts, rejected = texts_over_seeds(
        "A cat paws at a goldfish through the side of a glass tank.",
        [
            ("cat", "cat", []),
            ("goldfish", "goldfish", []),
            ("side", "side", []),
            ("glass tank", "tank", ["glass"]),
        ],
        [(0, "paw at", 1), (2, "of", 3)],
        "replace_attribute",
        40,
    )
    assert not any("glass tank" not in t for t in texts), texts
    assert rejected["tied_word"]


def test_a_thing_one_has_is_no_part_of_one():
    # "boy | have | bicycle" is counted (his bicycle): still no part of a boy, so "a boy
    # riding a scooter" may ride a bicycle (a part is had half the times it is named)
    texts, _ = texts_over_seeds(
        "A boy riding a scooter down a dirt road.",
        [("boy", "boy", []), ("scooter", "scooter", []), ("dirt road", "road", ["dirt"])],
        [(0, "riding", 1), (0, "down", 2)],
        "replace_object",
        40,
    )
    assert any("riding a bicycle" in t for t in texts), texts


def test_a_skateboard_goes_only_where_a_setting_places_it():
    # with no setting named, a skateboard was the commonest thing connect added (6.8 % of
    # its additions on the fresh set, over the 6 % goal); a street still takes one
    texts, _ = texts_over_seeds(
        "A girl hands a flower to her mother.",
        [("girl", "girl", []), ("flower", "flower", []), ("mother", "mother", [])],
        [(0, "hand", 1), (0, "to", 2)],
        "connect",
        40,
    )
    assert texts and not any("skateboard" in t for t in texts), texts
    texts, _ = texts_over_seeds(
        "A woman with a red scarf walks along a busy street.",
        [
            ("woman", "woman", []),
            ("red scarf", "scarf", ["red"]),
            ("busy street", "street", ["busy"]),
        ],
        [(0, "with", 1), (0, "walk along", 2)],
        "connect",
        160,
    )
    assert any("skateboard" in t for t in texts), texts
