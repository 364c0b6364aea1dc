"""replace_object on longer, COCO-style captions (issue 18): a replacement that may be true
(a person's role for who they are, a vague word, a part of another object of the caption), one
that splits a compound, one that fits the relation that drew it but not the others or not the
scene. Captions written here, of the kind COCO holds."""

from __future__ import annotations

from neg_helpers import plausible
from test_plausible import made

from sgprep.negatives import siblings
from sgprep.negatives.vocab import load_vocab

VOCAB = load_vocab()


def contradiction(new: str, old: str, words: list[str]) -> str | None:
    return siblings.contradiction(new, old, siblings.caption_context(tuple(words)))


def test_a_role_is_never_replaced_by_who_the_person_is():
    # "A waiter carrying a tray of drinks in a restaurant": a waiter may be a girl
    p = plausible(
        "replace", "A waiter carrying a tray", [("waiter", "waiter", []), ("tray", "tray", [])]
    )
    assert p._may_be_true("waiter", "girl", None) == "may_be_true"
    assert p._may_be_true("batter", "man", None) == "may_be_true"
    assert p._may_be_true("catcher", "umpire", None) is None  # two roles: one is false
    assert p._may_be_true("woman", "man", "person") is None  # who for who: false


def test_vague_words_are_never_drawn():
    p = plausible("replace", "A bowl of fresh strawberries", [("bowl", "bowl", [])])
    for vague in ("substance", "material", "stuff", "thing"):
        assert p._may_be_true("strawberry", vague, None) == "generic_word"


def test_a_person_is_replaced_only_by_a_person():
    # "A young man pushing a friend on a swing in the park" -> "pushing a roller cart"
    caption = "A young man pushing a friend on a swing"
    ents = [("young man", "man", ["young"]), ("friend", "friend", []), ("swing", "swing", [])]
    texts, rejected = made(
        caption, ents, [(0, "push", 1), (1, "on", 2)], "replace_object", 20, True
    )
    assert texts and all(t.endswith("pushing a friend on a swing") for t in texts), texts
    assert rejected["no_sibling"]  # a friend, a swing: no fine category


def test_a_compound_is_not_split():
    caption = "A toy truck sits on the wooden floor of a bedroom."
    ents = [("toy truck", "truck", []), ("wooden floor", "floor", ["wooden"])]
    ents.append(("bedroom", "bedroom", []))
    texts, rejected = made(caption, ents, [(0, "sit on", 1)], "replace_object", with_text=True)
    assert not any("toy" in t and "toy truck" not in t for t in texts), texts  # "a toy bus"
    assert rejected["no_sibling"]  # the name is "toy truck", which no fine category has
    caption = "A fishing boat is docked at a wooden pier in the harbor."
    ents = [
        ("fishing boat", "boat", []),
        ("wooden pier", "pier", ["wooden"]),
        ("harbor", "harbor", []),
    ]
    assert plausible("replace", caption, ents)._in_compound(0)
    assert not plausible("replace", caption, ents)._in_compound(1)  # "wooden" is an attribute
    # "a snow covered fence": the noun before a participle
    caption = "A snow covered fence runs along a quiet road."
    ents = [("snow", "snow", []), ("fence", "fence", []), ("quiet road", "road", ["quiet"])]
    assert plausible("replace", caption, ents)._in_compound(0)
    assert not plausible("replace", caption, ents)._in_compound(2)


def test_the_new_object_fits_the_scene_of_the_caption():
    # "Two elephants walking through a field on a farm": elephants are never on a farm
    caption = "Two horses walking through a muddy field on a farm."
    ents = [("Two horses", "horse", [], 2), ("muddy field", "field", ["muddy"])]
    ents.append(("farm", "farm", []))
    texts, rejected = made(
        caption, ents, [(0, "walk through", 1), (1, "on", 2)], "replace_object", 30, True
    )
    assert texts and not any("camel" in t for t in texts), texts
    assert any("donkeys" in t for t in texts), texts
    assert rejected["scene_contradiction"]


def test_what_the_entity_does_or_undergoes_holds_of_the_new_one():
    # "A dog catching a frisbee" -> "a cat catching a frisbee": cats never do
    caption = "A black dog catching a red frisbee in a park."
    ents = [("black dog", "dog", ["black"]), ("red frisbee", "frisbee", ["red"])]
    p = plausible("replace", caption, ents, [(0, "catch", 1)])
    # (with 87,045 captions counted a cat catches a mouse: the triple is still unseen)
    assert p._undoable(0, "cat", p.g.relations) == "implausible_relation"
    assert p._undoable(0, "cow", p.g.relations) == "implausible_agent"  # cows catch nothing
    # "A woman walking her dog on a leash" -> "her cat": a leash ties it to a dog
    caption = "A woman walking her small dog in the park."
    ents = [("woman", "woman", []), ("small dog", "dog", ["small"])]
    p = plausible("replace", caption, ents, [(0, "walk", 1)])
    assert p._undoable(1, "cat", p.g.relations) == "implausible_relation"
    # "A cat drinking milk from a saucer" -> "drinking coffee": what an animal does to it
    caption = "A cat drinking milk from a saucer."
    ents = [("cat", "cat", []), ("milk", "milk", []), ("saucer", "saucer", [])]
    p = plausible("replace", caption, ents, [(0, "drink", 1), (0, "from", 2)])
    assert p._undoable(1, "coffee", p.g.relations) == "implausible_relation"
    # "A couple sits on a bench by the lake" -> "on a chair": one seat for two
    caption = "A couple sits on a bench by the lake."
    ents = [("couple", "couple", []), ("bench", "bench", []), ("lake", "lake", [])]
    p = plausible("replace", caption, ents, [(0, "sit on", 1), (1, "by", 2)])
    assert p._undoable(1, "chair", p.g.relations) == "implausible_relation"
    assert p._undoable(1, "stool", p.g.relations) == "implausible_relation"
    # "An orange cat asleep on the couch" -> "an orange dog" (with 87,045 captions counted,
    # "a big orange dog" was written once: a puppy)
    caption = "An orange cat asleep on the couch."
    ents = [("orange cat", "cat", ["orange"]), ("couch", "couch", [])]
    p = plausible("replace", caption, ents, [(0, "on", 1)])
    assert p._undoable(0, "puppy", p.g.relations) == "implausible_attribute"
    p = plausible("replace", "A brown cat asleep on the couch.", [("brown cat", "cat", ["brown"])])
    assert p._undoable(0, "dog", p.g.relations) is None


def test_a_part_of_another_object_is_not_drawn():
    # "An old airplane with two workers on the runway" -> "two wings": the airplane has them
    caption = "An old airplane with two workers on the runway."
    ents = [("old airplane", "airplane", ["old"]), ("two workers", "worker", [], 2)]
    ents.append(("runway", "runway", []))
    p = plausible("replace", caption, ents, [(0, "with", 1), (1, "on", 2)])
    assert VOCAB.cooc.n("spo", "airplane", "have", "wing")
    assert p._part_of_other(1, "wing")
    assert not p._part_of_other(0, "wing")  # the airplane itself replaced: no whole left
    assert not p._part_of_other(1, "truck")


def test_a_replacement_is_a_sibling_in_a_fine_category():
    # SugarCrepe's "a man eating a hot dog" -> "a hamburger"; never "a hot pony" nor "a plate"
    caption = "A man in a blue shirt is eating a hot dog at a picnic table."
    ents = [("man", "man", []), ("blue shirt", "shirt", ["blue"]), ("hot dog", "dog", ["hot"])]
    ents.append(("picnic table", "table", []))
    rels = [(0, "in", 1), (0, "eat", 2), (0, "at", 3)]
    texts, _ = made(caption, ents, rels, "replace_object", 30, True)
    food = {"hamburger", "sandwich", "burrito", "taco"}
    eaten = {t.split(" eating a")[1].split(" at")[0].strip() for t in texts if "hot dog" not in t}
    assert eaten and eaten <= food, texts
    assert siblings.siblings("hot dog") == siblings.siblings("hotdog")
    assert "hot dog" not in siblings.siblings("hot dog") and "burger" not in siblings.siblings(
        "hot dog"
    )
    assert siblings.siblings("cheeseburger") == siblings.siblings("hamburger")  # aliases
    assert "hamburger" not in siblings.siblings("burger")  # never a synonym


def test_the_captions_other_words_may_contradict_a_sibling():
    words = "a tennis player swinging her at the ball on a clay court".split()
    assert contradiction("baseball bat", "tennis racket", words) == "sport_contradiction"
    words = "a young boy is swinging a in the backyard".split()
    assert contradiction("tennis racket", "baseball bat", words) is None
    words = "two standing in a muddy pen on a farm".split()
    assert contradiction("elephant", "cow", words) == "scene_contradiction"
    assert contradiction("pig", "cow", words) is None
    words = "a standing in a kitchen".split()
    assert contradiction("horse", "dog", words) == "scene_contradiction"
    words = "a woman walking her on a leash".split()
    assert contradiction("cat", "dog", words) == "tied_word"
    words = "a with a beard drinking coffee".split()
    assert contradiction("woman", "man", words) == "gender_cue"
    words = "a chef putting a into the oven".split()  # a chef: a kitchen
    assert contradiction("bench", "stool", words) == "scene_contradiction"
    words = "a cup of on the table".split()
    assert contradiction("milk", "coffee", words) == "tied_word"
    assert contradiction("tea", "coffee", words) is None


def test_a_gerund_compound_of_a_thing_is_never_split():
    # "An old woman knits in a rocking chair" -> "a rocking bench"
    caption = "An old woman knits a scarf in a rocking chair."
    ents = [("old woman", "woman", ["old"]), ("scarf", "scarf", [])]
    ents.append(("rocking chair", "chair", ["rocking"]))
    texts, rejected = made(
        caption, ents, [(0, "knit", 1), (0, "in", 2)], "replace_object", 20, True
    )
    assert not any("rocking" in t and "rocking chair" not in t for t in texts), texts
    assert rejected["compound"]


def test_a_ball_played_as_a_game_is_not_replaced():
    # "Two boys are playing basketball on an outdoor court" -> "playing tennis ball"
    caption = "Two boys are playing basketball on an outdoor court."
    ents = [("Two boys", "boy", [], 2), ("basketball", "basketball", [])]
    ents.append(("outdoor court", "court", ["outdoor"]))
    p = plausible("replace", caption, ents, [(0, "play", 1), (0, "on", 2)])
    assert p._undoable(1, "tennis ball", p.g.relations) == "implausible_relation"
    # a ball kicked is a ball: "a boy kicking a soccer ball" -> "a volleyball"
    caption = "A boy is kicking a soccer ball on a grass field."
    ents = [("boy", "boy", []), ("soccer ball", "ball", ["soccer"]), ("grass field", "field", [])]
    p = plausible("replace", caption, ents, [(0, "kick", 1), (0, "on", 2)])
    assert p._undoable(1, "volleyball", p.g.relations) is None


def test_a_flavour_is_part_of_the_name_of_a_food():
    # "A woman pouring a glass of orange juice" -> "a glass of orange milk"
    caption = "A woman pouring a glass of orange juice at the breakfast table."
    ents = [("woman", "woman", []), ("glass", "glass", []), ("orange juice", "juice", ["orange"])]
    texts, rejected = made(
        caption, ents, [(0, "pour", 1), (1, "of", 2)], "replace_object", 20, True
    )
    assert not any("orange" in t and "orange juice" not in t for t in texts), texts
    assert rejected["compound"]


def test_words_tied_to_one_thing():
    for words, new, old in [
        ("a man wearing a cowboy hat rides a brown in a field", "donkey", "horse"),
        ("a cyclist rides a on a mountain trail", "motorcycle", "bicycle"),
        ("a gray is sitting on a windowsill looking outside", "dog", "cat"),
        ("a bowl of with sliced bananas and milk", "chili", "cereal"),
        ("a bowl of cereal with sliced bananas and", "coffee", "milk"),
    ]:
        assert contradiction(new, old, words.split()) == "tied_word", (words, new)
    # the other way round nothing ties: "a gray dog on a windowsill" -> "a gray cat"
    assert contradiction("cat", "dog", "a gray on a windowsill".split()) is None


def test_nothing_is_put_behind_a_thing_against_a_wall():
    # "A brown dog lying on a rug in front of a fireplace" -> "behind a fireplace"
    caption = "A brown dog is lying on a rug in front of a fireplace."
    ents = [("brown dog", "dog", ["brown"]), ("rug", "rug", []), ("fireplace", "fireplace", [])]
    texts, _ = made(
        caption, ents, [(0, "lie on", 1), (1, "in front of", 2)], "replace_relation", 10, True
    )
    assert not any("behind a fireplace" in t for t in texts), texts
    p = plausible(
        "replace",
        "a tree in front of the house",
        [("tree", "tree", []), ("house", "house", [])],
        [(0, "in front of", 1)],
    )
    view = p.relation_family._point_of_view
    assert view(p.g.relations[0], "in front of")  # "a tree behind the house"


def test_a_fruit_keeps_a_colour_of_its_own():
    # "A red apple on the kitchen counter" -> "a red banana"
    caption = "A red apple sits on the kitchen counter."
    ents = [("red apple", "apple", ["red"]), ("kitchen counter", "counter", [])]
    p = plausible("replace", caption, ents, [(0, "sit on", 1)])
    assert p._undoable(0, "banana", p.g.relations) == "implausible_attribute"
    assert p._undoable(0, "pear", p.g.relations) == "implausible_attribute"
    # what the statistics saw holds: "a yellow pear" -> "a yellow banana"
    caption = "A yellow pear sits on the kitchen counter."
    ents = [("yellow pear", "pear", ["yellow"]), ("kitchen counter", "counter", [])]
    p = plausible("replace", caption, ents, [(0, "sit on", 1)])
    assert p._undoable(0, "banana", p.g.relations) is None


def test_a_bed_has_sheets():
    # "A bed with white sheets and pillows" -> "an armchair with white sheets"
    assert contradiction("armchair", "bed", "a with white sheets and two pillows".split())


def test_longer_replacements_are_kept_half_the_time():
    # "man" -> "woman" is the commonest replacement: always taken, the longer text would be
    # the negative two times out of three (benchmarks/text_only.py's length judge)
    caption = "A man is riding a motorcycle on a busy highway."
    ents = [("man", "man", []), ("motorcycle", "motorcycle", []), ("busy highway", "highway", [])]
    texts, rejected = made(
        caption, ents, [(0, "ride", 1), (1, "on", 2)], "replace_object", 60, True
    )
    women = sum(n for t, n in texts.items() if t.startswith("A woman"))
    assert 15 <= women <= 45, texts
    assert rejected["length_balance"]


def test_two_plain_things_side_by_side_do_not_swap():
    # "A toilet next to a sink in a small bathroom" -> "A sink next to a toilet ...": the same
    caption = "A toilet next to a sink in a small bathroom."
    ents = [("toilet", "toilet", []), ("sink", "sink", []), ("small bathroom", "bathroom", [])]
    texts, rejected = made(caption, ents, [(0, "next to", 1), (1, "in", 2)], "swap_object", 5, True)
    assert not any(t.startswith("A sink next to a toilet") for t in texts), texts
    assert rejected["symmetric_relation"]
    # with attributes the swap is false: "a white sweater next to an orange dress"
    caption = "a white sweater next to an orange dress"
    ents = [("white sweater", "sweater", ["white"]), ("orange dress", "dress", ["orange"])]
    _, rejected = made(caption, ents, [(0, "next to", 1)], "swap_object", 5, True)
    assert not rejected["symmetric_relation"]


def test_nothing_sits_behind_an_oven():
    # "a man sits in front of the oven" -> "behind the oven"
    caption = "a man sits in front of the oven"
    ents = [("man", "man", []), ("oven", "oven", [])]
    texts, _ = made(caption, ents, [(0, "sit in front of", 1)], "replace_relation", 5, True)
    assert not any("behind the oven" in t for t in texts), texts


def test_another_of_the_same_stays_the_same():
    # "a giraffe is standing still and another giraffe is walking towards it" -> "another
    # elephant": "another" says it is a giraffe too
    caption = "a giraffe is standing still and another giraffe is walking towards it"
    ents = [("giraffe", "giraffe", []), ("giraffe", "giraffe", [])]
    texts, rejected = made(caption, ents, [], "replace_object", 20, True)
    assert not any("another giraffe" not in t for t in texts), texts
    assert rejected["another"]


def test_a_drink_named_by_its_colour_keeps_its_name():
    # "a wine glass with red wine in it" -> "with red beer in it"
    caption = "a wine glass with red wine in it"
    ents = [("wine glass", "glass", []), ("red wine", "wine", ["red"])]
    texts, rejected = made(caption, ents, [(0, "with", 1)], "replace_object", 20, True)
    assert not any("red beer" in t for t in texts), texts
    assert rejected["compound"]


def test_more_words_tied_to_one_thing():
    # "a kid laying on the surfboard in a wet suit" -> "on the snowboard"
    words = "the wet suit of the kid laying on the".split()
    assert contradiction("snowboard", "surfboard", words) == "sport_contradiction"
    # "a fireman on top of the cab of the truck" -> "of the bus"
    words = "a fireman standing on top of the cab of the".split()
    assert contradiction("bus", "truck", words) == "tied_word"
    # "a hole in the centre of this donut" -> "of this muffin"
    words = "there is a hole in the centre of this".split()
    assert contradiction("muffin", "donut", words) == "tied_word"
    # "A giraffe reaches up to eat leaves from a tree" -> "a zebra"; "feeds a carrot to a
    # white horse" -> "a zucchini"
    words = "a reaches up to eat leaves from a tree".split()
    assert contradiction("zebra", "giraffe", words) == "tied_word"
    assert contradiction("zucchini", "carrot", "a woman feeds a to a horse".split())
    # "An orange cat sits on the hood of a car" -> "of a bus"
    assert contradiction("bus", "car", "an orange cat sits on the hood of a".split())
    assert contradiction("truck", "car", "an orange cat sits on the hood of a".split()) is None


def test_an_animal_keeps_a_colour_of_its_kind():
    # "A gray elephant walks along a dirt path at the zoo" -> "a gray giraffe"
    caption = "A gray elephant walks along a dirt path at the zoo."
    ents = [("gray elephant", "elephant", ["gray"]), ("dirt path", "path", ["dirt"])]
    p = plausible("replace", caption, ents, [(0, "walk along", 1)])
    assert p._undoable(0, "giraffe", p.g.relations) == "implausible_attribute"
    assert p._undoable(0, "rhino", p.g.relations) is None
    # "A black bear in the river" -> "a black lion"
    p = plausible("replace", "A black bear in the river.", [("black bear", "bear", ["black"])])
    assert p._undoable(0, "lion", p.g.relations) == "implausible_attribute"
    # "A vase of red roses" -> "red sunflowers"; "red tulips" are
    p = plausible(
        "replace", "A vase of red roses.", [("vase", "vase", []), ("red roses", "rose", ["red"])]
    )
    assert p._undoable(1, "sunflower", p.g.relations) == "implausible_attribute"
    assert p._undoable(1, "tulip", p.g.relations) is None


def test_every_setting_of_a_short_caption_fits():
    # "A brown dog is running on the beach with a frisbee" -> "a brown cat": a frisbee is a
    # lawn's, the beach is no cat's
    words = "a brown is running on the beach with a frisbee".split()
    assert contradiction("cat", "dog", words) == "scene_contradiction"
    assert contradiction("cat", "dog", "a brown is running in the park".split()) is None
    # "a cat sitting on a laptop keyboard" -> "a dog"
    assert contradiction("dog", "cat", "a is sitting on a laptop keyboard".split())


def test_a_drink_had_by_the_glass_is_not_replaced():
    # "A man is drinking a beer at a crowded bar" -> "drinking a wine"
    caption = "A man is drinking a beer at a crowded bar."
    ents = [("man", "man", []), ("beer", "beer", []), ("crowded bar", "bar", ["crowded"])]
    texts, rejected = made(
        caption, ents, [(0, "drink", 1), (0, "at", 2)], "replace_object", 20, True
    )
    assert not any("a wine" in t for t in texts), texts
    assert rejected["article_needed"]
