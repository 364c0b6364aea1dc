"""The hand-made word sets of the co-occurrence judgments (:class:`sgprep.negatives.cooc.Cooc`):
near-synonyms WordNet does not link, relations connect leaves alone, coarse object classes
and the relations and verbs the judgments back off to them for; string similarity for typos.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

from sgprep.negatives.cooc_count import FIXED_EXPRESSIONS

#: Relations connect does not add: they read as parts ("of") or say nothing ("have").
CONNECT_SKIP = frozenset({"of", "have", "be", "with", "for", "to", "from"})
#: Relations that place a thing by another without contradicting where it is.
PROXIMITY = frozenset({"near", "next to", "beside", "behind", "in front of", "by"})


#: Near-synonyms WordNet does not link, by part of speech: one may be true whenever the
#: other is ("a cup" of coffee is often a mug; who holds a thing also has it).
NEAR_SYNONYMS: dict[str, list[frozenset[str]]] = {
    "noun": [
        frozenset(g.split(","))
        for g in (
            "cup,mug,glass",
            "couch,sofa",
            "rock,stone",
            "pants,trousers,jeans",
            "photo,picture,photograph",
            "street,road",
            "hill,mountain",
            "shore,beach",
            "tv,television,screen,monitor",
            "cellphone,phone,cell phone",
            "bike,bicycle",
            "plane,airplane,jet",
            "car,vehicle,automobile",
            "sign,signboard",
            "pathway,path,walkway,sidewalk",
            "boy,kid,child",
            "girl,kid,child",
            "lady,woman",
            "guy,man",
            "person,human,individual",
            "sky,air",
            "picture,image,painting",
            "pillow,cushion",
            "cap,hat",
            "stick,branch",
            "lamp,light",
            "grass,lawn,field",
            "uniform,shirt,jersey,outfit,clothes,clothing",
            "ocean,sea,water",
            "purse,bag,handbag",
            "rug,carpet,mat",
            # a young animal is one of its kind: "feeds a sheep" is true of a lamb, and "a lamb
            # ... other sheep" exchanged says nothing false (blind review round 9)
            "lamb,sheep",
            "calf,cow,cattle",
            "kitten,cat",
            "foal,horse",
            "foal,pony",
            "cub,bear",
            "cub,lion",
            "cub,tiger",
            "piglet,pig",
            "duckling,duck",
            "gosling,goose",
            "fawn,deer",
            "chick,chicken,hen",
        )
    ],
    "verb": [
        frozenset(g.split(","))
        for g in (
            "include,hold,have,contain,carry,feature,show,support",
            "look,watch,see,face,view,stare,observe",
            "sit,rest,perch",
            "lay,lie,rest",
            "stand,wait",
            "walk,go,move,stroll,run",
            "hang,dangle",
            "brush,wash,clean,scrub",
            "guard,protect,defend,watch,patrol",
            "drive,come,go,travel,head,move,pass",
            "cover,coat",
            "grab,hold,take",
            "use,hold",
            "wear,have,carry",
            "park,stop",
            "practice,play",
            "ride,drive",
            "serve,hit",
            "stand,lean",
            # places a thing may be in at once: "along the side" is "on the side", "by" it
            "along,on,by,beside,next,near,alongside",
        )
    ],
    "adj": [
        frozenset(g.split(","))
        for g in (
            "big,large,huge,giant,tall",
            "small,little,tiny,short",
            "gray,grey,silver",
            "light,white,pale",
            "dark,black",
            "tan,beige,brown",
            "wooden,wood",
            "metal,metallic,steel",
        )
    ],
}
#: Verbs that mean nearly the same with one object (and not with others): who rides a wave
#: catches it ("rides a horse" -> "catches a horse" stays false). Object head -> groups.
NEAR_SYNONYMS_WITH: dict[str, list[frozenset[str]]] = {
    obj: [frozenset(g.split(",")) for g in groups.split()]
    for objs, groups in (
        ("wave waves surf", "ride,catch,surf,take,hit"),
        ("frisbee ball", "catch,grab,get"),
        ("kite kites", "fly,hold,control"),
        ("slope slopes hill mountain", "ski,go,come,head,descend"),
        ("bus train subway", "board,enter,take,catch,ride"),
        ("picture photo photograph selfie", "take,snap,shoot"),
        ("meal food lunch dinner breakfast", "eat,have,enjoy"),
    )
    for obj in objs.split()
}


def _similar(a: str, b: str) -> bool:
    """``SequenceMatcher``'s ratio of the two is 0.75 or more. Two upper bounds of it first,
    as its ``real_quick_ratio`` and ``quick_ratio`` compute them (twice the matches over the
    summed lengths, with at least as many matches: the shorter length, then the letters in
    common), without making a matcher: most pairs never pay for one."""
    length = len(a) + len(b)
    if 2.0 * min(len(a), len(b)) / length < 0.75:
        return False
    left = Counter(b)
    common = 0
    for x in a:
        if left[x] > 0:
            left[x] -= 1
            common += 1
    if 2.0 * common / length < 0.75:
        return False
    return SequenceMatcher(None, a, b).ratio() >= 0.75


def related_with(a: str, b: str, obj: str) -> bool:
    """Verbs ``a`` and ``b`` say the same of ``obj`` (:data:`NEAR_SYNONYMS_WITH`)."""
    groups = NEAR_SYNONYMS_WITH.get(obj.split()[-1] if obj else "", ())
    return any(a in g and b in g for g in groups)


#: Verbs that are true of nearly any scene that has the other verb's parts (who feeds a
#: giraffe looks at it; who eats a sandwich may share it): never a replacement.
WEAK_VERBS = frozenset(
    "look watch see face have be include contain show feature use wear near "
    "stand sit hold touch play share".split()
)
#: Relations a thing can have to many objects at once: replacing the object may leave a true
#: sentence when the two are often seen together ("wearing a jacket" -> "wearing a shirt").
NON_EXCLUSIVE = frozenset({"wear", "have", "with", "carry", "hold", "include", "contain"})


#: Coarse classes of objects (singular heads), a back-off for swaps and shuffles: "the woman
#: behind the man" is plausible because "person | behind | person" was seen, though this
#: very triple was not. Objects of no class (and parts, places) get no back-off.
OBJECT_CLASSES: dict[str, frozenset[str]] = {
    c: frozenset(ws.split())
    for c, ws in {
        "person": "man woman boy girl person child kid lady guy player skier surfer skateboarder "
        "snowboarder baby adult worker officer rider biker cyclist chef cook waiter "
        "student teenager batter catcher pitcher umpire tourist passenger driver "
        "mother father son daughter friend couple soldier policeman",
        "animal": "dog cat horse cow sheep elephant giraffe zebra bird bear duck goose puppy "
        "kitten pony calf lamb goat pig chicken deer monkey lion tiger seagull pigeon "
        "animal bull ox",
        "vehicle": "car truck bus train motorcycle bike bicycle van boat ship airplane plane jet "
        "taxi cab scooter tractor trailer suv jeep vehicle motorbike",
        "food": "pizza sandwich cake donut doughnut banana apple orange broccoli carrot burger "
        "hamburger bread salad sausage egg meat cheese fruit vegetable cookie pie "
        "hot_dog tomato potato",
        "furniture": "table chair bench couch sofa bed desk shelf cabinet stool dresser",
        "clothing": "shirt jacket hat cap coat dress pants jeans shorts skirt sweater hoodie vest "
        "helmet shoe boot sock glove scarf tie uniform suit sandal sneaker jersey t-shirt "
        "sweatshirt beanie bandana apron hood robe wetsuit bikini",
        "small object": "cup mug glass bottle plate bowl phone remote book knife fork spoon "
        "umbrella bag backpack purse frisbee ball kite racket bat laptop keyboard "
        "clock vase box toy pillow blanket basket towel curtain calculator pot can tray "
        "lamp napkin cushion candle suitcase",
        "fixture": "sign pole tent flag banner fence gate awning",
        "plant": "tree bush plant flower",
        "body part": "hand arm leg head face eye ear nose mouth hair foot finger",
        "building": "building house church tower barn shop store",
    }.items()
}
#: Size words that fit anything of a class in :data:`SIZED` ("a small truck", "a large
#: goat"); "tall", "short" and "long" fit by shape only ("a tall pizza"), so the statistics
#: decide those.
GENERIC_SIZES = frozenset({"small", "large", "big", "little", "huge", "tiny"})
SIZED = frozenset({"animal", "vehicle", "furniture", "small object", "building", "plant"})
#: Relations of support and containment: the class says nothing of which holds which.
SUPPORT = frozenset(
    {
        "on",
        "in",
        "inside",
        "on top of",
        "under",
        "into",
        "onto",
        "be on",
        "be in",
        "sit on",
        "sit in",
        "park on",
        "ride on",
        "carry",
        "hold",
        "contain",
        "have",
    }
)
#: Relations that say where a thing stands from the camera's point of view: true of either
#: order of two free-standing things ("the bus in front of the car", "the car in front of
#: the bus").
VIEW_RELATIVE = frozenset(
    {
        "behind",
        "in front of",
        "left of",
        "right of",
        "to left of",
        "to right of",
        "to the left of",
        "to the right of",
        "on left of",
        "on right of",
        "on the left of",
        "on the right of",
        "in back of",
    }
)
#: Relations of two things near each other, true either way round; not "with" (a zebra with
#: two ears), "among" or "between" (two trees among some giraffes).
NEARBY = frozenset(
    "next to,near,beside,by,close to,near to,adjacent to,alongside,across from,opposite".split(",")
)
#: Classes of things that stand on their own: either may stand behind the other. Not parts,
#: worn things, food or small things, which are held, worn or carried.
FREE_STANDING = frozenset({"person", "animal", "vehicle", "furniture", "building", "plant"})
ANIMATE_CLASSES = frozenset({"person", "animal"})
#: Verbs of position that keep a relation of where a thing stands ("standing behind").
STANCE_VERBS = frozenset({"stand", "sit", "walk", "wait", "park", "lie", "lay", "run", "stop"})
#: Actions either of two animate beings can do to the other ("a woman looking at a man", "a
#: man looking at a woman").
RECIPROCAL_VERBS = frozenset(
    "look watch stare face chase follow hug kiss touch talk greet fight push pull kick hit "
    "bite sniff lick approach play walk run help pass tackle guard block wave smile point "
    "lean listen shake".split()
)
#: ... of which an animal does not do these ("a dog talking to a man").
PEOPLE_ONLY_VERBS = frozenset(
    "talk greet help pass tackle guard block wave smile point listen shake hug kiss".split()
)
#: Young ones who only look at others ("a baby feeding a mother": never).
YOUNG = frozenset("baby infant toddler newborn".split())
LOOK_VERBS = frozenset("look watch stare face smile touch".split())
#: Things seen only far behind everything else: nothing stands behind them.
FAR_AWAY = frozenset(
    "sky sun moon cloud clouds horizon mountain mountains hill hills sea ocean".split()
)
#: Things of no class seen in this many colours come in any colour (signs, walls, doors).
MANY_COLOURS = 4
#: ... unless natural: their colours are few and fixed ("a blue leaf", "pink grass").
NATURAL = frozenset(
    "leaf grass tree sky water cloud hair fur mane skin snow sand dirt rock stone mountain "
    "hill field flower plant bush wave ocean sea river lake sun moon fruit vegetable".split()
)
#: Classes of made things, which come in any colour.
PAINTED = frozenset({"vehicle", "clothing", "furniture", "small object", "building", "fixture"})
#: Classes whose members may change places on the class's evidence. Not body parts (parts of
#: one whole: "his face on his hair"), nor small things, food and furniture, which hold,
#: carry and contain one another ("the plate is on the fork", "a table on the chair").
SWAPPABLE = frozenset({"person", "animal", "vehicle", "clothing", "plant", "building"})
_CLASS_OF = {w.replace("_", " "): c for c, ws in OBJECT_CLASSES.items() for w in ws}


def object_class(obj: str) -> str | None:
    """The coarse class of an object name, by the whole name or its head; None: no class."""
    if obj in _CLASS_OF or obj in FIXED_EXPRESSIONS:  # "hot dog" is no dog
        return _CLASS_OF.get(obj)
    return _CLASS_OF.get(obj.split()[-1])
