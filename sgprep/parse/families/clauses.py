"""Rule families: sentence and clause structure: relative, participial and subordinate clauses,
their subjects, coordination.
"""

from __future__ import annotations

from sgprep.parse.families.base import Family, Repair
from sgprep.parse.rules_long import (
    repair_participle_after_comma,
    repair_relative_clause_agreement,
    repair_subordinator_read_as_preposition,
)
from sgprep.parse.rules_repair import (
    repair_coordinated_nouns,
    repair_garment_read_as_subject,
    repair_participle_on_listed_thing,
    repair_participle_on_part,
    repair_participle_on_thing,
)

FAMILIES = (
    Family(
        "clauses",
        about="""Sentence and clause structure (relative and participial clauses, coordinated
        clauses, subjects shared across them).""",
        repairs=(Repair(repair_participle_on_part), Repair(repair_participle_on_thing)),
    ),
    Family(
        "subjects",
        about="""Who does a verb in a long caption when the model hangs it on the last worn
        thing of a list ("a man in a black shirt and brown shorts holding a bag") or makes
        that thing a second subject ("a woman wearing jeans and a purple shirt is watching
        ...").""",
        repairs=(
            Repair(repair_participle_on_listed_thing),
            Repair(repair_garment_read_as_subject),
        ),
    ),
    Family(
        "coordination",
        about="""A participle or relative clause after a coordination of nouns is what every
        conjunct does ("a man and a woman sitting on a deck" -> both sit on deck), and two
        noun phrases joined by "and" are two objects ("a woman with a red hat and a blue
        scarf", "a pink dress and white shoes" read as one entity).""",
        repairs=(Repair(repair_coordinated_nouns),),
    ),
    Family(
        "relatives",
        about="""A relative clause whose verb disagrees in number with the noun the model
        hangs it on is about the noun up the phrase chain that agrees ("two lamps on a table
        that are lit" -> lamps is lit), and a "who" clause on a thing is the nearest person's
        or animal's ("a dog with a vest who is wearing a lei" -> dog wear lei).""",
        repairs=(Repair(repair_relative_clause_agreement),),
    ),
    Family(
        "afterthoughts",
        about="""A participle after a comma that the model hangs on the object of a phrase is
        about the clause's subject ("<PERSON> speaks after the hearing, surrounded by cameras"
        -> cameras surround person).""",
        repairs=(Repair(repair_participle_after_comma),),
    ),
    Family(
        "as_clauses",
        about=""""as" / "while" read as a preposition before a clause's subject is the
        clause's subordinator ("wrestlers push as a referee watches" -> referee watch, no
        "push as referee").""",
        # "as a referee watches": as/prep opens a clause
        repairs=(
            Repair(repair_subordinator_read_as_preposition, lambda c: ("as_roots" in c.families,)),
        ),
    ),
    Family(
        "as_roots",
        about="""With ``as_clauses``, a clause after "as" / "while" that the model made the
        root with the main clause's subject as its own is its own subject's ("a yacht heels
        over as its crew lean out": crew lean out, no "yacht lean out").""",
    ),
    Family(
        "small_clauses",
        about="""A bare infinitive or a participle with its own subject after a verb with no
        object is what the verb perceives or causes, its subject the verb's object ("a crowd
        watches the bikers come down the road" -> crowd watch bikers).""",
    ),
    Family(
        "absolutes",
        about="""A "with" phrase after a comma whose object has a place phrase of its own is a
        scene of its own, not what the verb before it is done with ("a vendor selling fruit
        from a cart, with a yellow umbrella over the cart": no "vendor sell with umbrella").""",
    ),
    Family(
        "frames",
        about="""A framing noun that opens the caption ("close-up of", "aerial view of")
        frames it also where the model made it a later verb's subject ("close-up of a potter
        shaping a vase ... as the light falls": no "close-up shape vase").""",
    ),
)
