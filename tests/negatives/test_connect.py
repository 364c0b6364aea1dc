"""connect (issue 18): a salient thing the caption's setting allows but does not lead one to
expect, put where it reads as placing one of the caption's things. Each rule on a caption of
the kind FACTUAL's Visual Genome captions hold (written here), with the bundled statistics."""

from __future__ import annotations

import random
from collections import Counter

from neg_helpers import CUBES, build_all, graph, strategy_class

from sgprep.negatives import addable, scenes
from sgprep.negatives.cooc_count import FIXED_EXPRESSIONS
from sgprep.negatives.realise import Realiser
from sgprep.negatives.scene import Scene
from sgprep.negatives.stage import NegativesSettings, NegativesStage
from sgprep.negatives.strategies import connect as connect_module
from sgprep.negatives.vocab import load_vocab
from sgprep.schema import Box, Detections, Sample

VOCAB = load_vocab()
#: the stage's connect_max_length_ratio
LIMIT = NegativesSettings().connect_max_length_ratio
CONNECT = strategy_class("connect")


def connected(caption, entities, relations=(), seeds=12, detected=None):
    """connect's texts over several seeds (the stage's way: with the caption and its length
    budget), and the refusals by reason."""
    g = graph(caption, entities, relations)
    texts, rejected = Counter(), Counter()
    for seed in range(seeds):
        scene = Scene(
            g, VOCAB, random.Random(seed), rejected, VOCAB.cooc, caption, 1.75, detected, LIMIT
        )
        for build in CONNECT(scene).candidates("connect"):
            pert = build()
            if pert is not None:
                text, _ = Realiser(caption, g).realise(pert, use_template=False)
                if text:
                    texts[text] += 1
    return texts, rejected


def added(texts, caption):
    """The things connect added to the caption (a fixed expression's words name no thing of
    their own: "a hot dog" adds no dog)."""
    words = {a.word for a in addable.addable_table(VOCAB.cooc)}
    texts = [_without_fixed(t) for t in texts]
    found = {o for t in texts for o in words if f" {o}" in t and f" {o}" not in caption}
    return {o for o in found if not any(o != x and o in x for x in found)}  # "bear": "teddy bear"


def _without_fixed(text: str) -> str:
    for x in FIXED_EXPRESSIONS:
        text = text.replace(f" {x}", " ")
    return text


def vehicles_and_big() -> set[str]:
    return {a.word for a in addable.addable_table(VOCAB.cooc) if a.big or a.kind == "vehicle"}


# --- what is added -------------------------------------------------------------------------
def test_the_added_thing_fits_the_setting_and_is_not_what_the_caption_leads_one_to_expect():
    cap = "two cats laying together on bed"
    texts, _ = connected(cap, [("two cats", "cats", [], 2), ("bed", "bed", [])], [(0, "lay on", 1)])
    objs = added(texts, cap)
    assert texts and not objs & vehicles_and_big(), texts
    # never a vehicle in a bedroom, never another animal (animals come together: "a dog"
    # may well be there), never what a bedroom has anyway ("a couch", "a chair")
    assert not objs & {"bus", "car", "truck", "horse", "dog", "couch", "chair", "table"}


def test_a_thing_typical_of_the_setting_is_never_added():
    # a station has benches: "the train is in the station next to a bench" may be true
    cap = "people waiting on the platform at the station"
    texts, _ = connected(
        cap,
        [("people", "people", []), ("platform", "platform", []), ("station", "station", [])],
        [(0, "wait on", 1), (1, "at", 2)],
    )
    table = addable.addable_table(VOCAB.cooc)
    typical = {a.word for a in table if "rail" in a.typical}
    assert typical and not any(o in t for t in texts for o in typical), texts
    assert all(a.word not in typical for a, _ in addable.addable_in(table, frozenset({"rail"})))


def test_a_wild_animal_s_setting_takes_a_vehicle_or_a_bench_never_another_animal():
    cap = "the giraffe is standing at the zoo"
    texts, rejected = connected(
        cap, [("giraffe", "giraffe", []), ("zoo", "zoo", [])], [(0, "at", 1)]
    )
    objs = added(texts, cap)
    # a vehicle, a bench, a tent: never another animal (animals come together); with 53,675
    # captions counted only a jeep is left there, and one thing possible is too few
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    wild = {a.word for a, _ in addable.addable_in(tuple(table.values()), frozenset({"wild"}))}
    assert "elephant" in wild and "jeep" in wild
    assert all(table[o].kind != "animal" for o in objs), texts
    assert texts or rejected["connect_few_options"]


def test_with_detections_only_a_detector_class_it_did_not_find_is_added():
    cap = "a man walking down the street"
    ents = [("man", "man", []), ("street", "street", [])]
    rels = [(0, "walk down", 1)]
    texts, _ = connected(cap, ents, rels, detected=["person", "horse", "umbrella"])
    objs = added(texts, cap)
    assert texts and not objs & {"horse", "umbrella", "ladder", "tent"}, texts  # found; no class
    # every class it might add was found: nothing is added
    table = addable.addable_table(VOCAB.cooc)
    allowed = [a.word for a, _ in addable.addable_in(table, frozenset({"street"}))]
    texts, rejected = connected(cap, ents, rels, detected=["person", *allowed, "teddy bear"])
    assert not texts and rejected["connect_nothing_absent"]


# --- where it goes -------------------------------------------------------------------------
def test_nothing_is_put_near_the_sky_a_part_or_a_thing_in_the_air():
    for cap, ents, rels in [
        ("thin clouds in sky", [("clouds", "clouds", []), ("sky", "sky", [])], [(0, "in", 1)]),
        ("kites flying in sky", [("kites", "kites", []), ("sky", "sky", [])], [(0, "fly in", 1)]),
        (
            "a valley between two snow capped mountains",
            [("valley", "valley", []), ("two snow capped mountains", "mountains", [], 2)],
            [(0, "between", 1)],
        ),
    ]:
        texts, rejected = connected(cap, ents, rels)
        # a valley is a whole view: refused before any anchor is looked at
        assert not texts and (
            rejected["connect_no_anchor"]
            or rejected["connect_landscape"]
            or rejected["connect_swift"]  # kites flying: nothing beside a thing in mid-air
        ), (
            cap,
            texts,
        )


def test_the_contents_of_a_thing_take_nothing_near_them():
    # "burger has cheese and tomato near a chair": the tomato is the burger's
    cap = "burger has cheese and tomato"
    texts, _ = connected(
        cap,
        [("burger", "burger", []), ("cheese", "cheese", []), ("tomato", "tomato", [])],
        [(0, "have", 1), (0, "have", 2)],
    )
    assert all(t.startswith("burger ") and not t.startswith(cap) for t in texts), texts


def test_nothing_small_is_put_near_a_building_or_a_vehicle():
    # (round 41's rule, a thing seen with one of the caption's things, leaves nothing to add
    # to "steeple on top of brick tower", this test's caption before)
    cap = "a large church on top of a hill"
    texts, _ = connected(
        cap,
        [("large church", "church", ["large"]), ("hill", "hill", [])],
        [(0, "on top of", 1)],
    )
    small = addable.lexicon()["small"]
    assert texts and not any(f" {o}" in t for t in texts for o in small), texts  # "a chair"


def test_a_seam_in_the_middle_is_only_the_first_noun_phrase_s_and_never_inside_a_list():
    cap = "the white plate the food is placed on"
    texts, _ = connected(cap, [("white plate", "plate", ["white"]), ("food", "food", [])])
    assert all(t.startswith(cap) for t in texts), texts  # never "the food behind a dog is"
    cap = "two sets of table and chair is behind the people ."
    texts, _ = connected(
        cap,
        [
            ("two sets", "sets", [], 2),
            ("table", "table", []),
            ("chair", "chair", []),
            ("people", "people", []),
        ],
        [(2, "behind", 3)],
    )
    assert not any(" chair near" in t or " chair beside" in t for t in texts), texts


def test_a_subject_followed_by_a_participle_takes_the_new_thing_at_the_end_after_a_comma():
    cap = "boy standing in a blue shirt"
    texts, _ = connected(
        cap, [("boy", "boy", []), ("blue shirt", "shirt", ["blue"])], [(0, "stand in", 1)]
    )
    added = [t for t in texts if len(t) > len(cap)]
    # the boy's place, at the end; or what he has with him, right after him, as captions
    # say it ("boy with a dog standing in a blue shirt")
    placed = [t for t in added if t.startswith(cap + ", ")]
    had = [
        t for t in added if t.startswith("boy with a") and t.endswith(" standing in a blue shirt")
    ]
    assert placed and had and len(placed) + len(had) == len(added), texts
    assert not any(", with " in t for t in added), texts
    assert all(len(t.split()) <= 1.75 * len(cap.split()) for t in texts)
    # or in the place of his trailing phrase: "boy standing near a suitcase"
    assert all(t.startswith("boy ") and "shirt" not in t for t in texts if t not in added)


def test_a_caption_about_a_being_s_part_takes_a_closing_clause(monkeypatch):
    cap = "blue helmet on man 's head"  # the man is put near something: the caption's being
    ents, rels = [("blue helmet", "helmet", ["blue"]), ("head", "head", [])], [(0, "on", 1)]
    texts, rejected = connected(cap, ents, rels)
    if not texts:  # too few things possible with the statistics in use: any will do
        assert rejected["connect_few_options"], rejected
        monkeypatch.setattr(connect_module, "MIN_OPTIONS", 1)
        texts, _ = connected(cap, ents, rels)
    assert texts and all(t.startswith(cap + ", ") for t in texts), texts


# --- in the stage -------------------------------------------------------------------------
def test_the_stage_passes_detections_on_and_counts_what_they_checked():
    cap = "a man walking down the street"
    g = graph(cap, [("man", "man", []), ("street", "street", [])], [(0, "walk down", 1)])
    det = Detections(
        width=64,
        height=48,
        detector="hand",
        weights_sha256="0" * 64,
        backend="onnx",
        objects=[Box(xyxy=(1, 1, 9, 9), score=0.9, label="horse", cls=17)],
    )
    stage = NegativesStage(NegativesSettings(strategies=["connect"], per_sample=1))
    texts = set()
    for k in range(12):
        s = Sample(key=f"k{k}", source="hand", caption=cap, sg=g, det=det)
        stage.process_batch([s])
        texts |= {n.text for n in s.neg.negatives}
    assert texts and not any("horse" in t for t in texts), texts
    assert stage.counts["connect/absent_by_detector"] == stage.counts["kind/connect"] > 0


# --- in the place of a trailing phrase: the caption's length (issue 18, item 4) -------------
def test_a_thing_that_hangs_or_leans_needs_its_support_kept_or_its_verb_gone():
    cap = "four pillows leaning on headboard"  # never "leaning by a bicycle"
    texts, _ = connected(
        cap,
        [("four pillows", "pillows", [], 4), ("headboard", "headboard", [])],
        [(0, "lean on", 1)],
    )
    assert not any(t.startswith("four pillows leaning ") and "headboard" not in t for t in texts)


# --- more phrases put in place (connect's length, fifth pass) -------------------------------
def test_inside_the_caption_never_before_on_of_or_with_nor_a_ridden_thing_or_a_room():
    cases = [
        # "a cat by a ladder on a desk": the ladder would be on the desk
        ("a cat on a laptop on a desk", ["cat", "laptop", "desk"], [(0, "on", 1), (0, "on", 2)]),
        # "a plate near a dog with a fork": the dog would have the fork
        ("a dog in the grass with a frisbee", ["dog", "grass", "frisbee"], [(0, "in", 1)]),
        ("a bird on the shore of a lake", ["bird", "shore", "lake"], [(0, "on", 1)]),
        # the verb needs the surfboard; what is cooked needs the kitchen
        (
            "a person on a surfboard riding a wave",
            ["person", "surfboard", "wave"],
            [(0, "on", 1), (0, "ride", 2)],
        ),
        (
            "a man in a kitchen cooking food",
            ["man", "kitchen", "food"],
            [(0, "in", 1), (0, "cook", 2)],
        ),
    ]
    for cap, names, rels in cases:
        texts, _ = connected(cap, [(n, n, []) for n in names], rels)
        assert all(names[1] in t for t in texts), (cap, texts)


def test_an_addition_only_where_the_stage_allows_it():
    cap = "a man holding a plate"  # nothing to put in place: only an addition is left
    g = graph(cap, [("man", "man", []), ("plate", "plate", [])], [(0, "hold", 1)])
    made = {}
    for may_add in (True, False):
        rejected = Counter()
        scene = Scene(g, VOCAB, random.Random(0), rejected, VOCAB.cooc, cap, 1.75, None, LIMIT)
        scene.may_add = may_add
        made[may_add] = [b() for b in CONNECT(scene).candidates("connect")]
    assert any(made[True]) and not any(made[False])
    assert rejected["connect_addition_not_needed"]


def test_inside_the_caption_only_a_place_phrase_goes_never_a_part():
    cap = "a giraffe with a long neck eating leaves"
    ents = [("giraffe", "giraffe", []), ("long neck", "neck", ["long"]), ("leaves", "leaves", [])]
    texts, _ = connected(cap, ents, [(0, "with", 1), (0, "eat", 2)])
    assert all("long neck" in t for t in texts), texts


# --- blind review round 6 ------------------------------------------------------------------
SMALLER = {a.word for a in addable.addable_table(VOCAB.cooc) if not addable.fits_huge(a.word)}


def test_nothing_smaller_than_a_horse_is_put_by_a_huge_thing():
    for cap, ents, rels in [
        # the subject of an addition: "a large ship docked in a busy harbour, near a dog"
        (
            "a large ship docked in a busy harbour",
            [("large ship", "ship", ["large"]), ("busy harbour", "harbour", ["busy"])],
            [(0, "dock in", 1)],
        ),
        (
            "a lighthouse on a rocky point",
            [("lighthouse", "lighthouse", []), ("rocky point", "point", ["rocky"])],
            [(0, "on", 1)],
        ),
        # the noun phrase right before a phrase put in place: "fans filling the stands | in
        # front of a bicycle"
        (
            "fans filling the stands at a packed stadium",
            [
                ("fans", "fans", []),
                ("stands", "stands", []),
                ("packed stadium", "stadium", ["packed"]),
            ],
            [(0, "fill", 1), (0, "fill at", 2)],
        ),
        # the caption's first: "planes landing over the fence | by an umbrella"
        (
            "planes landing over the fence at the airport",
            [("planes", "planes", []), ("fence", "fence", []), ("airport", "airport", [])],
            [(0, "land over", 1), (1, "at", 2)],
        ),
    ]:
        texts, rejected = connected(cap, ents, rels)
        assert not added(texts, cap) & SMALLER, (cap, texts)
        assert rejected["connect_scale"] or texts, (cap, rejected)
    # a truck is of a ship's size
    texts, _ = connected(
        "a ship at the port", [("ship", "ship", []), ("port", "port", [])], [(0, "at", 1)]
    )
    assert added(texts, "a ship at the port") <= {"car", "truck", "bus", "van", "boat"}, texts
    # a city or a stadium takes nothing at all: "a plane flying over the city skyline near a
    # horse"
    cap = "a plane over the city skyline"
    texts, rejected = connected(
        cap, [("plane", "plane", []), ("city skyline", "skyline", [])], [(0, "over", 1)]
    )
    assert not texts and rejected["connect_scale"], texts


def test_no_vehicle_indoors_and_no_town_thing_or_pet_by_a_wild_animal():
    for cap, ents, rels in [
        (
            "a man sleeping on a bench in an airport terminal",
            [("man", "man", []), ("bench", "bench", []), ("airport terminal", "terminal", [])],
            [(0, "sleep on", 1), (1, "in", 2)],
        ),
        (
            "soldiers hugging their families at an airport arrival gate",
            [
                ("soldiers", "soldiers", []),
                ("families", "families", []),
                ("airport arrival gate", "gate", []),
            ],
            [(0, "hug", 1), (0, "hug at", 2)],
        ),
    ]:
        texts, _ = connected(cap, ents, rels)
        assert not added(texts, cap) & vehicles_and_big(), (cap, texts)
    cap = "a brown bear walking along a river bank"
    texts, _ = connected(
        cap, [("brown bear", "bear", ["brown"]), ("river bank", "bank", [])], [(0, "walk along", 1)]
    )
    table = addable.addable_table(VOCAB.cooc)
    wild = {a.word for a in table if "wild" in a.possible}
    assert added(texts, cap) <= wild, texts  # never "behind a surfboard"
    assert "surfboard" not in {
        a.word for a, _ in addable.addable_in(table, frozenset({"water", "wild"}))
    }
    # a teddy bear is no wild animal: a bed's things stay possible
    assert "wild" not in scenes.settings_of("a teddy bear on a bed".split())


def test_nothing_is_added_after_a_clause_that_puts_a_thing_far_off():
    cap = "a surfer riding a wave while another surfer rides a wave in the distance behind him"
    texts, rejected = connected(
        cap,
        [
            ("surfer", "surfer", []),
            ("wave", "wave", []),
            ("surfer", "surfer", []),
            ("wave", "wave", []),
        ],
        [(0, "ride", 1), (2, "ride", 3)],
    )
    assert not texts and rejected["connect_background"], texts  # no "..., near a bench"


def test_no_new_phrase_between_a_subject_and_its_verb_but_before_a_copula():
    cap = "several people stand under the awning of a shop"
    texts, _ = connected(
        cap,
        [("people", "people", []), ("awning", "awning", []), ("shop", "shop", [])],
        [(0, "stand under", 1), (2, "have", 1)],
    )
    assert texts and all(t.startswith("several people stand") for t in texts), texts
    cap = "the fence is gray"
    texts, _ = connected(cap, [("fence", "fence", [])])
    assert texts and all(t.startswith("the fence ") and " by " not in t for t in texts), texts


def test_connect_adds_one_vocabulary_entity_and_edge():
    built, _ = build_all(CUBES, "connect")
    for i, p in enumerate(built):
        assert len(p.graph.entities) == 3 and len(p.graph.relations) == 1
        r = p.graph.relations[0]
        assert (r.subject, r.object) == (i, 2)
        assert p.graph.entities[2].head not in {"cube", "sphere"}


def test_an_added_thing_is_described_as_the_captions_describe_it():
    """connect's attribute for the thing it adds: a colour, a size, a material of a thing, or
    a general word the statistics saw with it; never a material of a being ("a wooden
    horse" is a toy), the first word of a name ("an arctic fox", "a prairie dog": words the
    statistics saw with too few things) nor a noun ("a toy car")."""
    from sgprep.negatives.strategies.connect import describing

    cooc = VOCAB.cooc
    dog = set(describing(cooc, "dog")[0])
    assert {"brown", "small", "wet"} <= dog  # a colour, a size, a general word
    assert not {"prairie", "stuffed", "toy"} & dog
    horse = set(describing(cooc, "horse")[0])
    assert "brown" in horse and "wooden" not in horse
    assert "wooden" in describing(cooc, "bench")[0]  # a material of a thing
    car = set(describing(cooc, "car")[0])
    assert "red" in car and "toy" not in car
    for thing in ("dog", "car", "bench", "umbrella"):
        words, cum = describing(cooc, thing)
        assert list(words) == sorted(words) and len(cum) == len(words)
        assert all(b > a for a, b in zip((0, *cum), cum))  # each seen (twice or more)


def test_connect_describes_what_it_adds_beyond_colours():
    texts, _ = connected(
        "a man sitting on a bench in the park reading a newspaper",
        [
            ("a man", "man", []),
            ("a bench", "bench", []),
            ("the park", "park", []),
            ("a newspaper", "newspaper", []),
        ],
        [(0, "sitting on", 1), (1, "in", 2), (0, "reading", 3)],
        seeds=200,
    )
    from sgprep.negatives.words import attribute_type

    added = [t.split(" a ")[-1].split(" an ")[-1].split() for t in texts]
    described = {words[0] for words in added if len(words) > 1}
    assert any(attribute_type(w) != "colour" for w in described), described


def test_a_breed_the_statistics_saw_nowhere_goes_where_its_parent_goes():
    """object_kinds.json's WordNet parents place a thing the statistics saw in no setting
    where its nearest placed parent goes: "a saint bernard" where "a dog" goes (and is typical
    where a dog is: it may be in the photo there); a wild animal is never a pet's child
    ("cheetah" is a "cat" in WordNet), and a thing the statistics place keeps its own (and,
    where they saw it placed only now and then, adds its parent's)."""
    parents = addable.lexicon()["parents"]
    assert parents["saint bernard"] == "dog" and "cheetah" not in parents
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    dog, bernard = table["dog"], table["saint bernard"]
    # seen in a setting now and then (a saint bernard in the snow): there, and where a dog goes
    assert "snow" in bernard.possible and "snow" not in dog.possible
    assert dog.possible and dog.possible <= bernard.possible
    assert dog.typical <= bernard.typical and addable.is_pet(bernard)
    # placed by no parent, never added by a pet: where a cat goes ("home") it never goes, and
    # only where the statistics saw it itself (with 72,813 captions counted, "wild")
    assert "home" in table["cat"].possible and "home" not in table["cheetah"].possible
    assert table["cheetah"].possible <= {"wild"} and not addable.is_pet(table["cheetah"])
    anywhere = {a.word for a, _ in addable.addable_in(tuple(table.values()), frozenset())}
    assert {"saint bernard", "dog"} <= anywhere and "cheetah" not in anywhere


def test_a_plaything_goes_only_where_a_caption_names_a_setting_the_statistics_saw_it_in():
    """Playthings (WordNet's instruments, toys, balls, bags, baskets) are added only in a
    setting the statistics saw them in, never to a caption that names none ("a person
    paragliding over a valley, near a soccer ball") and never by a small thing or food ("a
    plate of dumplings next to a harp"); small balls never ("near a golf ball")."""
    table = addable.addable_table(VOCAB.cooc)
    play = {a.word for a in table if a.kind == "plaything"}
    assert {"guitar", "soccer ball", "frisbee"} <= play and not {"golf ball", "tennis ball"} & play
    # nothing one carries unnamed: a basket, a bag, a tote, a purse (blind review rounds 47-50)
    assert not {"basket", "bag", "tote", "tote bag", "pannier", "purse", "bucket"} & play
    anywhere = {a.word for a, _ in addable.addable_in(table, frozenset())}
    assert anywhere and not anywhere & play
    at_home = {a.word for a, _ in addable.addable_in(table, frozenset({"home"}))}
    assert "guitar" in at_home  # seen at home
    assert not any(addable.fits_small(w) for w in play)
    cap = "a man reading a newspaper"
    texts, _ = connected(
        cap, [("a man", "man", []), ("a newspaper", "newspaper", [])], [(0, "read", 1)], seeds=30
    )
    assert texts and not added(texts, cap) & play, texts


def test_a_thing_seen_in_several_settings_is_possible_in_each_it_is_common_in():
    """Possible in a setting by its share of the thing's scenes that name a setting: most
    captions name none, so a share of all its scenes left a horse (on a farm in a tenth of
    its scenes, at a show in a tenth) possible nowhere; a setting seen once stays out."""
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    assert {"farm", "sport"} <= table["horse"].possible
    assert "kitchen" not in table["horse"].possible and "bathroom" not in table["horse"].possible


def test_nothing_is_put_next_to_a_room_and_nothing_small_by_a_place_or_a_street():
    """A room or a place that holds the scene takes nothing next to it ("a bathroom with a
    shower curtain pulled closed, next to a puppy"); a street, a market, a lake take nothing
    small, and a plaything is small ("a crowded market ..., next to a skateboard", "a lake
    with ducks ..., in front of a frisbee": blind review round 14)."""
    cap = "a bathroom with a shower curtain pulled closed"
    texts, _ = connected(
        cap,
        [("bathroom", "bathroom", []), ("shower curtain", "shower curtain", [])],
        [(0, "with", 1)],
    )
    assert not any(t.startswith(cap + ",") for t in texts), texts
    small = {a.word for a in addable.addable_table(VOCAB.cooc) if addable.is_small(a.word)}
    assert {"frisbee", "guitar", "puppy"} <= small
    for cap, place, things in (
        ("a crowded market with stalls", "market", ("stalls", "stall")),
        ("a snowy street with parked cars", "street", ("parked cars", "car")),
    ):
        ents = [(place, place, []), (*things, [])]
        texts, _ = connected(cap, ents, [(0, "with", 1)], seeds=20)
        assert not added(texts, cap) & small, texts


def test_a_big_animal_is_no_pet_wherever_the_statistics_count_it():
    """ "bear" is counted at home (teddy bears): a big animal is still no pet, so never added
    by a street ("a double decker bus driving down a rainy street beside a bear")."""
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    assert not addable.is_pet(table["bear"]) and addable.is_pet(table["dog"])
    anywhere = {a.word for a, _ in addable.addable_in(tuple(table.values()), frozenset())}
    assert "bear" not in anywhere


def test_a_pet_is_an_animal_the_statistics_saw_most_often_at_home():
    """Blind review round 16: "a kitchen counter cluttered with pots, pans, and dishes, next to
    a hawk", "a subway car with passengers ..., beside a hawk": the statistics saw a hawk in
    a garden now and then, which made it a pet; a pet is an animal seen most often at home."""
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    assert "home" in table["hawk"].possible and "home" in table["sea turtle"].possible
    assert not addable.is_pet(table["hawk"]) and not addable.is_pet(table["sea turtle"])
    assert all(addable.is_pet(table[w]) for w in ("dog", "cat", "puppy", "saint bernard"))
    for cap, ents in (
        (
            "A kitchen counter cluttered with pots, pans, and dishes.",
            [("kitchen counter", "kitchen counter", []), ("pots", "pot", []), ("pans", "pan", [])],
        ),
        (
            "A subway car with passengers sitting and standing.",
            [("subway car", "subway car", []), ("passengers", "passenger", [])],
        ),
    ):
        texts, _ = connected(cap, ents, seeds=40)
        # by a kitchen counter, pets (87,045 captions counted); in a subway car, nothing
        assert not added(texts, cap) & {"hawk", "sea turtle", "owl"}, texts


def test_a_pet_seen_only_at_home_is_added_only_where_a_caption_names_home():
    """ "A young boy on a bike wearing knee pads, near a gecko" (read in the fresh set's
    output): a gecko or a hamster, seen only at home, is no pet one meets anywhere."""
    table = {a.word: a for a in addable.addable_table(VOCAB.cooc)}
    assert table["gecko"].possible == {"home"} and addable.is_pet(table["gecko"])
    anywhere = {a.word for a, _ in addable.addable_in(tuple(table.values()), frozenset())}
    assert "dog" in anywhere and not anywhere & {"gecko", "hamster"}
    cap = "A young boy on a bike wearing knee pads."
    ents = [("young boy", "boy", ["young"]), ("bike", "bike", []), ("knee pads", "knee pad", [])]
    texts, _ = connected(cap, ents, [(0, "on", 1), (0, "wearing", 2)], seeds=40)
    assert texts and not added(texts, cap) & {"gecko", "hamster"}, texts


def test_a_kind_of_a_thing_expected_there_is_expected_too():
    """Where a dog may be in the photo, so may a golden retriever or a puppy: a rare name,
    seldom counted with anything, is judged by its WordNet parent too (the retriever had
    become connect's commonest word)."""
    for cap, entities, relations in (
        (
            # in a park: on a lawn, too few things seen with a frisbee or a lawn are left to
            # draw from since round 41's rule (a thing seen with one of the caption's things)
            "A boy throwing a frisbee in a park.",
            [("boy", "boy", []), ("frisbee", "frisbee", []), ("park", "park", [])],
            [(0, "throw", 1), (0, "in", 2)],
        ),
        (
            "A woman holding a leash on a sidewalk.",
            [("woman", "woman", []), ("leash", "leash", []), ("sidewalk", "sidewalk", [])],
            [(0, "hold", 1), (0, "on", 2)],
        ),
    ):
        texts, _ = connected(cap, entities, relations, seeds=30)
        assert texts and not added(texts, cap) & {"dog", "puppy", "golden retriever", "pug"}
