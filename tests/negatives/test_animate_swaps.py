"""swap_object between two beings (issue 32, item 3): who does what to whom. Where one of
them is, the text keeps, and a being that took another's place may be there; what one does
with the other, or leads it by, does not turn round."""

from __future__ import annotations

from neg_helpers import texts_over_seeds


def _swaps(caption: str, entities: list[tuple], relations: list[tuple]) -> set[str]:
    texts, _ = texts_over_seeds(caption, entities, relations, "swap_object", 6)
    return texts


def test_a_being_that_takes_another_s_place_is_where_the_other_was():
    # the statistics never saw a bird "through" a window nor a child "across" a park: the
    # place is the scene's, and a being of the same class (or one the statistics place so)
    # may be there
    assert _swaps(
        "a cat watching a bird through a window",
        [("cat", "cat", []), ("bird", "bird", []), ("window", "window", [])],
        [(0, "watch", 1), (0, "through", 2)],
    ) == {"a bird watching a cat through a window"}
    assert _swaps(
        "a goose chasing a child across a park",
        [("goose", "goose", []), ("child", "child", []), ("park", "park", [])],
        [(0, "chase", 1), (0, "across", 2)],
    ) == {"a child chasing a goose across a park"}


def test_a_thing_in_the_place_of_a_being_is_still_judged_by_the_statistics():
    # a cup is no being: "a cup watching a cat through a window" is never written
    assert not _swaps(
        "a cat watching a cup through a window",
        [("cat", "cat", []), ("cup", "cup", []), ("window", "window", [])],
        [(0, "watch", 1), (0, "through", 2)],
    )


def test_an_animal_never_walks_the_person_who_walks_it():
    assert not _swaps(
        "a man walking a dog down a snowy street",
        [("man", "man", []), ("dog", "dog", []), ("snowy street", "street", ["snowy"])],
        [(0, "walk", 1), (0, "walk down", 2)],
    )


def test_what_two_beings_do_together_does_not_turn_round():
    # "playing with": the puppy plays with the girl too, and "young" said of a puppy may be
    # true as well; "standing next to" either way round
    assert not _swaps(
        "a young girl playing with a puppy on the lawn",
        [("young girl", "girl", ["young"]), ("puppy", "puppy", []), ("lawn", "lawn", [])],
        [(0, "play with", 1), (1, "on", 2)],
    )
    assert not _swaps(
        "a tall giraffe standing next to a zebra in the savanna",
        [("tall giraffe", "giraffe", ["tall"]), ("zebra", "zebra", []), ("savanna", "savanna", [])],
        [(0, "stand next to", 1), (1, "in", 2)],
    )


def test_attributes_that_contradict_change_hands_across_a_symmetric_relation():
    texts = _swaps(
        "a red bus next to a black car",
        [("red bus", "bus", ["red"]), ("black car", "car", ["black"])],
        [(0, "next to", 1)],
    )
    assert texts == {"a red car next to a black bus"}
