"""Switches for the rule parser's rule families, to measure what each one adds.

Every family is on unless the parse setting ``rules_off`` names it (``--rules-off
web_noise,spell``, a YAML key, ``--set rules_off=...``), which ``run.json`` records and a
resume checks. There is no other switch.

- ``noise``: alt-text clean-up before parsing (URLs, ``<PERSON>`` placeholders, camera metadata,
  all-caps words, keyword lists) — :mod:`sgprep.parse.rules_noise`;
- ``clauses``: sentence and clause structure (relative and participial clauses, coordinated
  clauses, subjects shared across them);
- ``spans``: entity span and head boundaries (likeness nouns, compounds holding a colour word,
  prepositions and adverbs never attributes);
- ``attach``: where a prepositional phrase in a long noun phrase attaches;
- ``names``: what an entity's name is made of (an adverb of an attribute is no part of it,
  an adjective the model read as a compound noun is an attribute, a possessive written
  without its apostrophe is an owner: "elephants tail");
- ``with``: "with" and a worn thing is wearing it ("a man with a yellow shirt"), and a "with"
  phrase on a posture verb is the subject's ("a man standing with black shoes on"), and body
  parts "with" a person or animal followed by its own clause are had ("a man with brown hair
  standing ..." -> man have hair);
- ``counts``: a partitive or a group is an attribute of what it measures ("a piece of bread"
  -> bread is piece, "a group of sheep" -> sheep is group of);
- ``predicates``: a particle of direction before a plain preposition is no part of the
  predicate ("jumping up in the air" -> jump in; "sticking out of" stays);
- ``subjects``: who does a verb in a long caption when the model hangs it on the last worn
  thing of a list ("a man in a black shirt and brown shorts holding a bag") or makes that
  thing a second subject ("a woman wearing jeans and a purple shirt is watching ...");
- ``after_with``: a place phrase the model hangs on a "with" object says where the thing
  before "with" is ("trees with green leaves in the background" -> trees in background) —
  :mod:`sgprep.parse.rules_long`;
- ``coordination``: a participle or relative clause after a coordination of nouns is what
  every conjunct does ("a man and a woman sitting on a deck" -> both sit on deck), and two
  noun phrases joined by "and" are two objects ("a woman with a red hat and a blue scarf",
  "a pink dress and white shoes" read as one entity) —
  :func:`sgprep.parse.rules_repair.repair_coordinated_nouns`;
- ``relatives``: a relative clause whose verb disagrees in number with the noun the model
  hangs it on is about the noun up the phrase chain that agrees ("two lamps on a table that
  are lit" -> lamps is lit), and a "who" clause on a thing is the nearest person's or
  animal's ("a dog with a vest who is wearing a lei" -> dog wear lei);
- ``times``: a phrase the model hangs on a time noun is about what the time phrase is about
  ("jumps into a puddle on a rainy day in the park" -> boy in park);
- ``colours``: a shade word and the colour after it are one attribute ("a light blue shirt"
  -> shirt is light blue; "lime green", "navy blue");
- ``pronouns``: an object pronoun points to the agreeing noun above it or to the subject of a
  clause above it before the nearest noun ("the tray on the table has sandwiches on it" ->
  sandwiches on tray);
- ``verbs``: a sentence's verb the model read as the plural head of its subject's noun
  phrase ("a chef in a white apron slices vegetables": apron/compound slices/NNS) is the verb,
  and a participle read as a sentence's past tense is the participle of the noun before it
  ("a room with a sofa and a TV mounted on the wall" -> TV mount on wall);
- ``afterthoughts``: a participle after a comma that the model hangs on the object of a
  phrase is about the clause's subject ("<PERSON> speaks after the hearing, surrounded by
  cameras" -> cameras surround person);
- ``air``: "the air" is no place: a phrase the model hangs on it is about the thing in the air
  ("spray flies into the air behind him" -> spray behind surfer);
- ``parts``: an adjective made of a part's noun with a modifier is that part ("a red haired
  girl" -> girl have hair, hair is red; "a four legged chair" -> chair have legs, legs is 4);
- ``lists``: a noun before a comma is an item of a list, not a modifier of the noun after the
  comma ("sunset, beach, nofilter": three keywords, not one compound).
- ``plurals``: a head whose written form is not its lemma is named as written in FACTUAL's
  form ("the men", "dry leaves"; before: "man", "leaf") —
  :func:`sgprep.parse.factual_format.entity_name`;
- ``spellings``: FACTUAL's spelling of a few compounds in names ("cell phone" ->
  "cellphone", "hotdog" -> "hot dog"), and no "other" in a name ("2 other people" ->
  people) — :func:`sgprep.parse.factual_format.entity_name`;
- ``reciprocal``: "each other" / "one another" after a plural subject is another thing of its
  kind ("two zebras next to each other" -> zebra next to zebra), so is "another one"
  ("a television stacked on top of another one"), and a plural noun "together" with
  nothing else said is one next to another ("two zebras together") —
  :mod:`sgprep.parse.rules_short`;
- ``fragments``: relations lost when the small model mis-reads a fragment caption: an "-ing"
  noun read as a verb even behind the "a photo of" prefix ("drawing on the wall"), a noun
  read as a compound or adjective of a verb root ("dog walking in the snow"), an object
  read as an adverb ("small girl holding large donut"),
  "has" read as an auxiliary ("the bush has leaves"), a lone subject pronoun ("she is
  wearing gloves" -> woman), a position with its "of" left out ("on top the cake");
- ``owned_parts``: a "<modifier> <part>-ed" adjective is a part the thing has ("a grey haired
  woman" -> woman have hair, hair is grey; "a four legged chair"; "a long sleeve shirt"),
  and "colored" after a colour adds nothing ("white colored sail boat" -> sail boat is white);
- ``conventions``: FACTUAL's names where its gold is consistent: a lexical adjective + noun
  pair is one name ("hot dog", "polar bear", "high chair"), "left"/"right" of a part or worn
  thing is part of its name ("his left hand"), a toy/baby/adult noun is an attribute ("toy
  carrot" -> carrot is toy; "baby" of an animal only: "a baby girl" is a name), so is a
  size adjective the model reads as a noun ("small hill"), an adverb of a count is no part
  of the name ("only one cloud"), "in <colour>" after "is" is the subject's colour ("the car
  is in red"), "wood" as an attribute is "wooden", "full of" is "fill with";
- ``places``: a place phrase after a verb's object is where the subject is ("a man riding a
  motorcycle on the street" -> man on street; not after "play", whose object is a game), and
  a predicative adjective with a place phrase is a state and a place ("a book is open on the
  counter" -> book is open, book on counter);
- ``adjective_roots``: two coordinated adjectives that open the caption, the first read as
  its root ("grey and black sneakers on the feet of a person"), both describe the noun, and
  the root's phrases are the noun's — :mod:`sgprep.parse.rules_long`;
- ``worn_lists``: a worn thing the model makes a person's conjunct right after that
  person's "in <worn thing>" phrase is a second worn thing ("a man in a dark shirt and beige
  cap in the stands" -> man wear cap, man in stands);
- ``colour_results``: a colour right after a participle of colouring is the colour of what
  was coloured ("the boat is painted white" -> boat is white; "a structure painted yellow")
  — :func:`sgprep.parse.rules_long.colour_result`;
- ``shorthand``: written shorthand is written out before parsing, spans kept on the caption:
  "w/" is "with", a "+" between two words is "and", "infront" / "ontop" are "in front" /
  "on top" ("kid+mom sit on chairs w/ white legs") —
  :func:`sgprep.parse.rules_noise.expand_shorthand`;
- ``small_clauses``: a bare infinitive or a participle with its own subject after a verb with
  no object is what the verb perceives or causes, its subject the verb's object ("a crowd
  watches the bikers come down the road" -> crowd watch bikers) —
  :meth:`sgprep.parse.rules_relations.RelationRules._small_clause`;
- ``shared_lists``: a bare noun after the comma ending a "with" / "in" phrase, read as a
  second owner, is the next item of the phrase's list ("a center with a television , dvd
  player , and decorations" -> center with player, center with decorations) —
  :func:`sgprep.parse.rules_long.repair_comma_list_after_phrase`;
- ``participle_roots``: a participle of how a thing is put, tagged VBN but made the root of a
  sentence with no auxiliary, is the noun's before it ("a vehicle with a surfboard mounted
  on its roof" -> surfboard mount on roof), as ``verbs`` does for a past tense —
  :func:`sgprep.parse.rules_long.repair_participle_root`;
- ``absolutes``: a "with" phrase after a comma whose object has a place phrase of its own is
  a scene of its own, not what the verb before it is done with ("a vendor selling fruit
  from a cart, with a yellow umbrella over the cart": no "vendor sell with umbrella") —
  :meth:`sgprep.parse.rules_relations.RelationRules._absolute_with`;
- ``bare_positions``: a position noun after a place preposition with no landmark, said or
  implied, names no thing ("a man in front", "food on top": no "front" or "top" entity) —
  :meth:`sgprep.parse.rules_extract.GraphBuilder._bare_position`;
- ``worn_containers``: "in" a worn thing whose word also names a container is wearing it
  only for a person or an animal ("wines in the glasses" -> wines in glasses; "a man in
  glasses" -> man wear glasses) —
  :meth:`sgprep.parse.rules_relations.RelationRules._can_wear`;
- ``or_lists``: attributes listed with "or" are skipped from a name as those listed with
  "and" are ("chairs with silvertone or white legs": legs, not "or white legs") —
  :func:`sgprep.parse.factual_format.entity_name`;
- ``colour_nouns``: a colour the model reads as a noun inside the phrase of a noun after it
  (before a participle, last of a list of colours) is that noun's adjective ("white painted
  wall" -> wall is white, no "white" thing) —
  :func:`sgprep.parse.rules_long.repair_colour_noun`;
- ``web_noise``: web markup and shop text blanked before ``noise`` runs, in place (HTML
  entities and tags, @handles, "Photo:" / "Premium Photo" labels, labelled camera metadata,
  prices, sizes, product codes, numeric dates, an all-caps cry that opens a caption, stock
  keywords for ideas) — :func:`sgprep.parse.rules_noise.clean_web_noise`;
- ``negation``: what is denied is not in the graph: a relation or a state of a verb with
  "not" ("the branches do not have leaves", "that is not in black and white"), and a noun
  after the determiner "no" ("a tree with no leaves": no leaves, no "tree with leaves") —
  :meth:`sgprep.parse.rules_extract.GraphBuilder._drop_denied`;
- ``manner``: an adverb of manner and the participle it describes are one attribute ("an
  oddly shaped doughnut" -> doughnut is oddly shaped, "a well dressed woman"); an adverb
  of degree stays out ("partly eaten") —
  :meth:`sgprep.parse.rules_extract.GraphBuilder._manner_of`;
- ``ing_objects``: a participle the model reads as a compound of the noun's phrase is the
  verb of the noun before it ("dog herding sheep" -> dog herd sheep, not one thing "dog
  herding sheep" that is herding), and a colour before an "-ing" word is no doer ("the
  silver serving tray": tray is silver, not "silver serve tray") —
  :func:`sgprep.parse.rules_repair.repair_verb_inside_noun_phrase`;
- ``whole_places``: a place phrase right after "<part> of <whole>" that the model hangs on
  the part says where the whole is ("a body of water near a beach" -> water near beach;
  not for containers, framing nouns, people or animals) —
  :meth:`sgprep.parse.rules_relations.RelationRules._whole_of`;
- ``gerund_nouns``: an "-ing" word and a bare noun after a preposition of place, read by the
  model as a gerund and its object, are a noun and its modifier ("people sitting on folding
  chairs" -> people sit on chairs, chairs is folding; no "people fold chairs") —
  :func:`sgprep.parse.rules_long.repair_gerund_modifier`;
- ``antecedents``: a pronoun never stands for a time noun ("the sun reflects off the train
  at dusk as it leaves the station" -> train leave station, not dusk) —
  :meth:`sgprep.parse.rules_extract.GraphBuilder._antecedent`;
- ``worn_owners``: "worn by" hung on the pattern or part a worn thing is "with" is said of
  the worn thing ("a red scarf with white dots worn by a woman" -> woman wear scarf, not
  dots) — :meth:`sgprep.parse.rules_relations.RelationRules._worn_owner`;
- ``noun_verbs``: a base-form verb right after a singular noun read as its subject is the
  head of a name ("a brown teddy bear with a red shirt": teddy bear, no "teddy bear with
  shirt" predicate) — :func:`sgprep.parse.rules_long.repair_noun_read_as_verb`;
- ``stray_positions``: a position right after a preposition of place with no article is the
  preposition's object ("dog is standing on back of boat" -> dog stand on back of boat;
  "person on right wearing a coat" -> person wear coat) —
  :func:`sgprep.parse.rules_long.repair_stray_position`;
- ``spell``: a lower-case noun or adjective of six letters or more that neither
  ``symspellpy``'s English dictionary nor spaCy's tables know, and ``wordfreq`` finds rarely,
  is mended before the caption is parsed again, where one word one edit away (its first
  letter kept) is 5 times as frequent as the next and is a noun or an adjective ("a giraffee"
  -> giraffe, "a skiier" -> skier; "a tennis raquet" is left), a noun with an "s" before a
  noun is its possessive ("the womans coat"), a word run together with an article is cut
  ("the grounda brown suitcase") —
  :mod:`sgprep.parse.rules_spell`;
- ``modifier_subjects``: a caption's first word that the tables know only as a noun, read as
  an adverb or adjective of the root verb after it, is that verb's subject ("seaweed washed
  up on shore", "skateboarder doing tricks") —
  :func:`sgprep.parse.rules_long.repair_subject_read_as_modifier`;
- ``clause_subjects``: a plural noun right after "while" / "as" that the model reads as the
  clause's verb, its verb read as the object, is the clause's subject ("a fisherman pulls a
  net while seagulls circle above" -> seagulls circle, no "fisherman seagull circle") —
  :func:`sgprep.parse.rules_long.repair_subject_read_as_verb`;
- ``clause_verbs``: the ``verbs`` repair of a verb in -s read as the plural head of its
  subject's phrase ("a kayaker paddles ...") also where the caption's only finite verbs are
  in a clause hung below that noun ("... while the spray rises") —
  :func:`sgprep.parse.rules_long.repair_misread_verbs`;
- ``as_clauses``: "as" / "while" read as a preposition before a clause's subject is the
  clause's subordinator ("wrestlers push as a referee watches" -> referee watch, no
  "push as referee") —
  :func:`sgprep.parse.rules_long.repair_subordinator_read_as_preposition`;
- ``frames``: a framing noun that opens the caption ("close-up of", "aerial view of") frames
  it also where the model made it a later verb's subject ("close-up of a potter shaping a
  vase ... as the light falls": no "close-up shape vase") —
  :meth:`sgprep.parse.rules_extract.GraphBuilder._opening_frame`;
- ``as_roots``: with ``as_clauses``, a clause after "as" / "while" that the model made the
  root with the main clause's subject as its own is its own subject's ("a yacht heels over
  as its crew lean out": crew lean out, no "yacht lean out") —
  :func:`sgprep.parse.rules_long.repair_subordinator_read_as_preposition`;
"""

from __future__ import annotations

FAMILIES = frozenset(
    {
        "noise",
        "clauses",
        "spans",
        "attach",
        "names",
        "with",
        "counts",
        "predicates",
        "subjects",
        "after_with",
        "coordination",
        "relatives",
        "times",
        "colours",
        "pronouns",
        "verbs",
        "afterthoughts",
        "air",
        "parts",
        "lists",
        "plurals",
        "reciprocal",
        "fragments",
        "owned_parts",
        "conventions",
        "places",
        "spellings",
        "adjective_roots",
        "worn_lists",
        "colour_results",
        "shorthand",
        "small_clauses",
        "shared_lists",
        "participle_roots",
        "absolutes",
        "bare_positions",
        "worn_containers",
        "or_lists",
        "colour_nouns",
        "web_noise",
        "negation",
        "manner",
        "ing_objects",
        "whole_places",
        "gerund_nouns",
        "antecedents",
        "worn_owners",
        "noun_verbs",
        "stray_positions",
        "spell",
        "modifier_subjects",
        "clause_subjects",
        "clause_verbs",
        "as_clauses",
        "frames",
        "as_roots",
    }
)


#: The families on in this process: all but those the parser's ``rules_off`` setting switched
#: off (:func:`switch_off`); the format helpers of :mod:`sgprep.parse.factual_format` read them
#: through :func:`families_on`.
_on: frozenset[str] = FAMILIES


def check_families(names) -> list[str]:
    """``names`` (a list, or one comma-separated string), lower-cased, sorted, without
    repeats; an unknown name is an error that lists the known ones."""
    if isinstance(names, str):
        names = names.split(",")
    off = sorted({str(n).strip().lower() for n in names if str(n).strip()})
    unknown = set(off) - FAMILIES
    if unknown:
        raise ValueError(f"unknown rule families {sorted(unknown)}; "
                         f"known: {', '.join(sorted(FAMILIES))}")  # fmt: skip
    return off


def switch_off(names) -> frozenset[str]:
    """Switch off the families ``names`` in this process (the parser does, from its
    ``rules_off`` setting); returns the families on."""
    global _on
    _on = FAMILIES - frozenset(check_families(names))
    return _on


def families_on() -> frozenset[str]:
    """The families on: all but those switched off (:func:`switch_off`)."""
    return _on
