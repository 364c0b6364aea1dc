"""Rule families: words the small model reads as the wrong part of speech: verbs read as nouns
and nouns as verbs, participles read as roots or compounds.
"""

from __future__ import annotations

from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_long import (
    repair_misread_verbs,
    repair_noun_read_as_verb,
    repair_participle_root,
    repair_subject_read_as_modifier,
    repair_subject_read_as_verb,
)
from sgprep.parse.rules_repair import repair_verb_inside_noun_phrase

FAMILIES = (
    Family(
        "verbs",
        about="""A sentence's verb the model read as the plural head of its subject's noun
        phrase ("a chef in a white apron slices vegetables": apron/compound slices/NNS) is the
        verb, and a participle read as a sentence's past tense is the participle of the noun
        before it ("a room with a sofa and a TV mounted on the wall" -> TV mount on wall).""",
        repairs=(
            Repair(
                repair_misread_verbs,
                lambda c: (c.verb_lemma, c.verbs, "clause_verbs" in c.families),
            ),
        ),
    ),
    Family(
        "clause_verbs",
        about="""The ``verbs`` repair of a verb in -s read as the plural head of its subject's
        phrase ("a kayaker paddles ...") also where the caption's only finite verbs are in a
        clause hung below that noun ("... while the spray rises").""",
    ),
    Family(
        "clause_subjects",
        about="""A plural noun right after "while" / "as" that the model reads as the clause's
        verb, its verb read as the object, is the clause's subject ("a fisherman pulls a net
        while seagulls circle above" -> seagulls circle, no "fisherman seagull circle").""",
        # "while seagulls circle": seagulls/VBZ
        repairs=(Repair(repair_subject_read_as_verb, lambda c: (c.words[0], c.verbs)),),
    ),
    Family(
        "noun_verbs",
        about="""A base-form verb right after a singular noun read as its subject is the head
        of a name ("a brown teddy bear with a red shirt": teddy bear, no "teddy bear with
        shirt" predicate).""",
        # "a teddy bear with a shirt": bear/VBP is a noun
        repairs=(Repair(repair_noun_read_as_verb, lambda c: c.words),),
    ),
    Family(
        "modifier_subjects",
        about="""A caption's first word that the tables know only as a noun, read as an adverb
        or adjective of the root verb after it, is that verb's subject ("seaweed washed up on
        shore", "skateboarder doing tricks").""",
        repairs=(Repair(repair_subject_read_as_modifier, lambda c: c.words),),
    ),
    Family(
        "participle_roots",
        about="""A participle of how a thing is put, tagged VBN but made the root of a
        sentence with no auxiliary, is the noun's before it ("a vehicle with a surfboard
        mounted on its roof" -> surfboard mount on roof), as ``verbs`` does for a past tense.""",
        repairs=(Repair(repair_participle_root),),
    ),
    Family(
        "ing_objects",
        about="""A participle the model reads as a compound of the noun's phrase is the verb
        of the noun before it ("dog herding sheep" -> dog herd sheep, not one thing "dog
        herding sheep" that is herding), and a colour before an "-ing" word is no doer ("the
        silver serving tray": tray is silver, not "silver serve tray").""",
        repairs=(
            Repair(
                repair_verb_inside_noun_phrase,
                lambda c: ("ing_objects" in c.families,),
                always=True,
            ),
        ),
    ),
)
