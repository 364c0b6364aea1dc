"""Build ``sgprep/stats/synonyms.json``: which caption words name each detector category.

Run once (the JSON is checked in), on a machine with WordNet 3.0 from Debian and nltk's reader:

    apt-get install -y wordnet-base wordnet-sense-index
    pip install nltk
    python tools/build_synonyms.py

For every COCO category (the ultralytics detectors' label set) we pick its WordNet noun sense(s)
by hand (``SENSES``), then take every lemma of those synsets and of all their hyponyms: a word
whose hypernym chain reaches "person" (man, woman, child, boy, player, ...) names a person. A
lemma is kept only where that sense is one of the word's common senses (its first sense, or one
tagged in SemCor), so "dog" (sense 3: an informal term for a man) does not name a person. The
last word of a compound label counts when WordNet makes it a hypernym ("phone" for "cell phone",
"table" for "dining table"), not otherwise ("bear" does not name a teddy bear). ``EXTRA`` holds
the few everyday words WordNet files elsewhere (plural "people" is a group, "kitten" a young
mammal). Irregular plurals come from WordNet's noun.exc ("men", "children"), in case a parser
leaves a head unlemmatised.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import tempfile
from pathlib import Path

WORDNET = Path("/usr/share/wordnet")
LEXNAMES_MAN = Path("/usr/share/man/man5/lexnames.5WN.gz")
OUT = Path(__file__).resolve().parents[1] / "sgprep" / "stats" / "synonyms.json"

SENSES: dict[str, list[str]] = {
    "person": ["person.n.01", "people.n.01"],
    "bicycle": ["bicycle.n.01"],
    "car": ["car.n.01"],
    "motorcycle": ["motorcycle.n.01"],
    "airplane": ["airplane.n.01"],
    "bus": ["bus.n.01"],
    "train": ["train.n.01"],
    "truck": ["truck.n.01"],
    "boat": ["boat.n.01"],
    "traffic light": ["traffic_light.n.01"],
    "fire hydrant": ["fireplug.n.01"],
    "stop sign": ["street_sign.n.01"],
    "parking meter": ["parking_meter.n.01"],
    "bench": ["bench.n.01"],
    "bird": ["bird.n.01"],
    "cat": ["cat.n.01"],
    "dog": ["dog.n.01"],
    "horse": ["horse.n.01"],
    "sheep": ["sheep.n.01"],
    "cow": ["cattle.n.01", "cow.n.01"],
    "elephant": ["elephant.n.01"],
    "bear": ["bear.n.01"],
    "zebra": ["zebra.n.01"],
    "giraffe": ["giraffe.n.01"],
    "backpack": ["backpack.n.01"],
    "umbrella": ["umbrella.n.01"],
    "handbag": ["bag.n.04"],
    "tie": ["necktie.n.01"],
    "suitcase": ["bag.n.06"],
    "frisbee": ["frisbee.n.01"],
    "skis": ["ski.n.01"],
    "snowboard": ["snowboard.n.01"],
    "sports ball": ["ball.n.01"],
    "kite": ["kite.n.03"],
    "baseball bat": ["bat.n.05"],
    "baseball glove": ["baseball_glove.n.01"],
    "skateboard": ["skateboard.n.01"],
    "surfboard": ["surfboard.n.01"],
    "tennis racket": ["tennis_racket.n.01"],
    "bottle": ["bottle.n.01"],
    "wine glass": ["wineglass.n.01"],
    "cup": ["cup.n.01"],
    "fork": ["fork.n.01"],
    "knife": ["knife.n.01"],
    "spoon": ["spoon.n.01"],
    "bowl": ["bowl.n.01", "bowl.n.03"],
    "banana": ["banana.n.02"],
    "apple": ["apple.n.01"],
    "sandwich": ["sandwich.n.01"],
    "orange": ["orange.n.01"],
    "broccoli": ["broccoli.n.02"],
    "carrot": ["carrot.n.03"],
    "hot dog": ["hotdog.n.02"],
    "pizza": ["pizza.n.01"],
    "donut": ["doughnut.n.02"],
    "cake": ["cake.n.03"],
    "chair": ["chair.n.01"],
    "couch": ["sofa.n.01"],
    "potted plant": ["pot_plant.n.01", "houseplant.n.01"],
    "bed": ["bed.n.01"],
    "dining table": ["table.n.02"],
    "toilet": ["toilet.n.02"],
    "tv": ["television_receiver.n.01"],
    "laptop": ["laptop.n.01"],
    "mouse": ["mouse.n.04"],
    "remote": ["remote_control.n.01"],
    "keyboard": ["keyboard.n.01"],
    "cell phone": ["cellular_telephone.n.01"],
    "microwave": ["microwave.n.02"],
    "oven": ["oven.n.01"],
    "toaster": ["toaster.n.02"],
    "sink": ["sink.n.01"],
    "refrigerator": ["refrigerator.n.01"],
    "book": ["book.n.02"],
    "clock": ["clock.n.01"],
    "vase": ["vase.n.01"],
    "scissors": ["scissors.n.01"],
    "teddy bear": ["teddy.n.01"],
    "hair drier": ["hand_blower.n.01"],
    "toothbrush": ["toothbrush.n.01"],
}

EXTRA: dict[str, list[str]] = {
    "person": ["people", "persons", "kid", "kids", "crowd", "guy", "lady", "folks"],
    "cat": ["kitten", "kitty"],
    "dog": ["puppy", "pup"],
    "tv": ["tv", "television", "screen"],
    "cell phone": ["phone", "cellphone", "smartphone"],
    "hair drier": ["hair dryer", "hairdryer"],
    "donut": ["donut", "donuts"],
    "airplane": ["plane", "jet", "aeroplane"],
    "motorcycle": ["motorbike"],
    "bicycle": ["bike"],
    "cow": ["calf", "calves", "cows"],
}


def load_wordnet():
    """nltk's WordNet reader over Debian's WordNet 3.0 files (nltk wants them under nltk_data
    and a ``lexnames`` file, which Debian ships only as a man page: rebuilt from it)."""
    import nltk

    root = Path(tempfile.mkdtemp()) / "nltk_data"
    corpus = root / "corpora" / "wordnet"
    shutil.copytree(WORDNET, corpus, ignore=shutil.ignore_patterns("pixmaps"))
    man = gzip.open(LEXNAMES_MAN, "rt").read()
    category = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
    rows = re.findall(r"^(\d\d)\t(\w+\.\w+)\s*\t", man, re.M)
    (corpus / "lexnames").write_text(
        "".join(f"{num}\t{name}\t{category[name.split('.')[0]]}\n" for num, name in rows)
    )
    nltk.data.path.insert(0, str(root))
    from nltk.corpus import wordnet

    assert wordnet.get_version() == "3.0"
    return wordnet


def common_sense(wn, lemma) -> bool:
    senses = wn.synsets(lemma.name(), "n")
    return bool(senses) and (senses[0] == lemma.synset() or lemma.count() > 0)


def words_for(wn, label: str, senses: list[str]) -> set[str]:
    words = {label}
    for name in senses:
        root = wn.synset(name)
        for synset in [root, *root.closure(lambda s: s.hyponyms())]:
            for lemma in synset.lemmas():
                if lemma.name()[0].isupper():  # proper names: breeds named after places etc.
                    continue
                if synset == root or common_sense(wn, lemma):
                    words.add(lemma.name().replace("_", " ").lower())
        last = label.split()[-1]
        if " " in label and any(
            h in root.closure(lambda s: s.hypernyms()) for h in wn.synsets(last, "n")
        ):
            words.add(last)
    return words | set(EXTRA.get(label, []))


def irregular_plurals() -> dict[str, set[str]]:
    """singular -> irregular plurals ("man" -> "men"), from WordNet's noun.exc."""
    plurals: dict[str, set[str]] = {}
    for line in (WORDNET / "noun.exc").read_text().splitlines():
        plural, *singulars = line.split()
        for singular in singulars:
            plurals.setdefault(singular.replace("_", " "), set()).add(plural.replace("_", " "))
    return plurals


def main() -> None:
    wn = load_wordnet()
    plurals = irregular_plurals()
    table = {}
    for label, senses in SENSES.items():
        words = words_for(wn, label, senses)
        table[label] = sorted(words.union(*(plurals.get(w, set()) for w in words)))
    OUT.write_text(
        json.dumps(
            {
                "source": "WordNet 3.0 (Princeton), hyponym closure; "
                "built by tools/build_synonyms.py",
                "labels": table,
            },
            sort_keys=True,
            separators=(",", ":"),
        )
        + "\n"
    )
    print(
        f"{OUT}: {len(table)} labels, {sum(map(len, table.values()))} words, "
        f"{OUT.stat().st_size} bytes"
    )


if __name__ == "__main__":
    main()
