"""The rule parser's rule families: one module per group of families, each declaring its
families (:class:`~sgprep.parse.families.base.Family`: a name, what it does, and where it hooks
in) next to the code they add.

Every family is on unless the parse setting ``rules_off`` names it (``--rules-off
web_noise,spell``, a YAML key, ``--set rules_off=...``), which ``run.json`` records and a
resume checks. There is no other switch. ``docs/rule-parser.md`` tells what each one measured.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from types import SimpleNamespace

from sgprep.parse.families import clauses, form, lists, misread, names, phrases, short, text
from sgprep.parse.families.base import Context, Family, Repair
from sgprep.parse.rules_repair import (
    merge_hyphenated,
    repair_participle_after_noun,
    repair_quoted,
    repair_trailing_nouns,
    repair_with_list,
)

#: Every family, by module, in the order their hooks run.
DECLARED: tuple[Family, ...] = tuple(
    family
    for module in (text, short, misread, clauses, phrases, lists, names, form)
    for family in module.FAMILIES
)
FAMILIES = frozenset(family.name for family in DECLARED)

#: Repairs of no family: they run whatever is switched off.
CORE_REPAIRS = (
    Repair(merge_hyphenated),
    Repair(repair_trailing_nouns, lambda c: c.words),
    Repair(repair_participle_after_noun, lambda c: (c.verb_lemma,)),
    Repair(repair_quoted),
    Repair(repair_with_list),
)

#: The order the repairs run in (each repair's function name): a repair reads the tree the
#: ones before it left.
REPAIR_ORDER = (
    "merge_hyphenated",
    "repair_trailing_nouns",
    "repair_fragment_ing_noun",
    "repair_object_read_as_adverb",
    "repair_have_read_as_auxiliary",
    "repair_participle_on_prefix",
    "repair_verb_inside_noun_phrase",
    "repair_misread_verbs",
    "repair_subject_read_as_verb",
    "repair_participle_after_noun",
    "repair_participle_on_garment",
    "repair_participle_on_part",
    "repair_participle_on_thing",
    "repair_participle_on_listed_thing",
    "repair_garment_read_as_subject",
    "repair_with_back_reference",
    "repair_place_after_with_object",
    "repair_relative_clause_agreement",
    "repair_phrase_after_time",
    "repair_comma_compound",
    "repair_participle_after_comma",
    "repair_phrase_after_air",
    "repair_adjective_list_root",
    "repair_worn_conjunct",
    "repair_comma_list_after_phrase",
    "repair_participle_root",
    "repair_colour_noun",
    "repair_gerund_modifier",
    "repair_stray_position",
    "repair_side_of",
    "repair_subordinator_read_as_preposition",
    "repair_noun_read_as_verb",
    "repair_adjective_argument",
    "repair_noun_root",
    "repair_adjective_compound",
    "repair_plain_possessive",
    "repair_quoted",
    "repair_with_list",
    "repair_coordinated_nouns",
    "repair_subject_read_as_modifier",
)


def _nothing(builder, *args) -> None:
    return None


def _no(builder, *args) -> bool:
    return False


def _none_found(builder, *args) -> list:
    return []


#: The graph builder's hook points (:class:`sgprep.parse.rules_extract.GraphBuilder`), each
#: with what happens there while no family on hooks in. One family at most hooks in at each.
BUILDER_POINTS: dict[str, Callable] = {
    # the caption has a word of negation: what it denies is left out (negation)
    "denies": _no,
    "drop_denied": _nothing,
    # the caption has an adverb: one of manner is part of a participle's attribute (manner)
    "manners": _no,
    "manner_of": _nothing,
    # the attribute a measuring noun before "of" gives: "a piece of bread" -> piece (counts)
    "alias_attribute": _nothing,
    # entities named by a part's adjective: "a red haired girl" (parts)
    "part_entities": _nothing,
    # "she is wearing gloves": a lone subject pronoun is a person (fragments)
    "lone_subjects": _nothing,
    # "each other", "another one": a second thing of the owner's kind (reciprocal)
    "reciprocal_twins": _nothing,
    # "two zebras together": (owner, twin) pairs, next to each other (reciprocal)
    "together": _none_found,
    # "a grey haired woman": (owner, part) pairs the owner has (owned_parts)
    "owned_parts": _none_found,
    # "the boat is painted white": boat is white (colour_results)
    "colour_results": _nothing,
    # "the car is in red": the subject's colour (conventions)
    "colour_after_in": _nothing,
    # "close-up of a potter shaping a vase": a framing noun that opens the caption (frames)
    "opening_frame": _no,
    # "a man in front": a position with no landmark names no thing (bare_positions)
    "bare_position": _no,
    # "lime" of "lime green": a shade of the colour after it (colours)
    "shade_of_next": _no,
    # the shade word before a colour, or None (colours)
    "shade_of": _nothing,
    # "a crowd watches the bikers come": what a verb perceives or causes (small_clauses)
    "small_clauses": _nothing,
    # the relations without possessions said by other relations (pronouns)
    "without_possessions": lambda builder, relations: relations,
    # the entities a pronoun may stand for, of those before it (antecedents)
    "antecedents": lambda builder, candidates: candidates,
    # the relations without those of a lone time noun, also in ``others`` (attach)
    "without_lone_times": lambda builder, relations, others: relations,
    # positions that name a thing: "in the background" (spans)
    "scenery": lambda builder: set(),
    # an ordinal is an attribute, not a count (spans)
    "ordinal": _no,
    # "ice cream cone": a noun modifier named with the noun before it (spans)
    "inside_compound": _no,
    # a preposition or adverb is no attribute (spans)
    "no_attribute": _no,
    # "green tree branches" owned by the tree: the name starts after the owner (names)
    "after_owner": _nothing,
    # "very large bear": an adverb grading an attribute is no part of the name (names)
    "grading_adverb": _no,
    # "only one cloud": an adverb of the count is no part of the name (conventions)
    "count_adverb": _no,
    # "a hot dog": the adjective is part of the name (conventions)
    "name_word": _no,
    # "toy carrot": a kind noun is an attribute (conventions)
    "kind_word": _no,
    # "a book is open on the counter": a state and a place (places)
    "state_in_place": _no,
    # "a ring that is white next to a ring": white is a state, not the predicate's
    # (states_before_positions)
    "state_before_position": _no,
    # an object pronoun points to the agreeing noun above it (pronouns)
    "object_pronoun": _no,
    # "on top the cake": a position with its "of" left out, its landmark (fragments)
    "landmark_without_of": _nothing,
    # "dog walking in the snow": more dependencies a fragment's subject has (fragments)
    "fragment_subject_deps": lambda builder, deps: deps,
    # "climbs a ladder to rescue a kitten": the clause's doer is the verb's (clauses)
    "purpose_clause": _no,
    # "a man and a woman sitting": every conjunct does the participle (coordination)
    "participle_doers": _none_found,
    # the relation rules' points (sgprep.parse.rules_relations.RelationRules):
    "reciprocal_object": _no,  # "each other" (reciprocal)
    "someone": _no,  # "someone in blue jeans" (fragments)
    "put_on_place": _no,  # "a surfboard mounted on its roof" (participle_roots)
    "listed_parts": _nothing,  # "cow's eyes, nose and mouth" (coordination)
    "after_comma": _no,  # ", with a yellow umbrella over the cart" (absolutes)
    "whole_of": lambda rules, anchor, prep: anchor,  # "a body of water" (whole_places)
    "worn_with": _no,  # "a man with a yellow shirt" (with)
    "parts_with": _no,  # "a man with brown hair standing" (with)
    "parts_and_outfit": _no,  # "man with light hair and a red shirt" (with)
    "posture_with": _no,  # "a man standing with black shoes on" (with)
    "adjective_predicate": lambda rules, predicate: predicate,  # "full of" (conventions)
    "covering_agent": _no,  # "a truck covered in graffiti" (conventions)
    "time_noun": _no,  # "on a rainy day in the park" (times)
    "worn_container": _no,  # "wines in the glasses" (worn_containers)
    "worn_owners": lambda rules, verb, subjects: subjects,  # "... worn by" (worn_owners)
    "absolute_with": _no,  # "an umbrella with a logo on it" (attach)
    "chained_place": _no,  # a place phrase of the phrase before (attach)
    "worn_in": _no,  # "a man standing in a red shirt" (attach)
    "placement": _no,  # "a door found in a kitchen" (attach)
    "handled_in": _no,  # "holding her shoes in one hand" (attach)
    "previous_object": _nothing,  # "talking to the woman next to him" (attach)
    "place_of_doing": _no,  # "riding a motorcycle on the street" (places)
    "plain_predicate": lambda rules, predicate, prep_text: predicate,  # "jump in" (predicates)
    # an entity's head: "guy" -> person (names); (word, lemma) -> head
    "head_form": lambda word, lemma: lemma,
    # "a wood bench": bench is wooden (conventions); (doc, draft, start) -> the name's start
    "wooden": lambda doc, draft, start: start,
}


@lru_cache(maxsize=64)
def builder_hooks(families: frozenset[str]) -> SimpleNamespace:
    """The graph builder's hooks with ``families`` on: one attribute per point of
    :data:`BUILDER_POINTS`, the function of the family on that hooks in there, else the
    point's own."""
    found = dict(BUILDER_POINTS)
    for family in DECLARED:
        if family.name in families:
            found.update(family.builder)
    return SimpleNamespace(**found)


def _same(value):
    return value


#: The hook points of FACTUAL's string form (:mod:`sgprep.parse.factual_format`), each with
#: what happens there while no family on hooks in. One family at most hooks in at each.
FORMAT_POINTS: dict[str, Callable] = {
    # an object's name in FACTUAL's spelling (spellings)
    "respell": _same,
    # a word of a name's list of attributes that is no part of the name (or_lists)
    "listed_with_or": lambda word: False,
    # a head written in another form than its lemma is named as written (plurals)
    "as_written": lambda: False,
    # a predicate in FACTUAL's form (conventions)
    "predicate": _same,
}


@lru_cache(maxsize=64)
def format_hooks(families: frozenset[str]) -> SimpleNamespace:
    """FACTUAL's string form's hooks with ``families`` on (as :func:`builder_hooks`)."""
    found = dict(FORMAT_POINTS)
    for family in DECLARED:
        if family.name in families:
            found.update(family.format)
    return SimpleNamespace(**found)


@lru_cache(maxsize=64)
def hooks(families: frozenset[str], point: str) -> tuple[Callable, ...]:
    """The hooks at ``point`` (a hook field of :class:`Family`: ``clean``, ``write_out``,
    ``speller``) of the families ``families`` that are on, in the order of :data:`DECLARED`."""
    found = (getattr(family, point) for family in DECLARED if family.name in families)
    return tuple(hook for hook in found if hook is not None)


def repair_steps(context: Context) -> list[tuple[Callable, tuple]]:
    """The repairs that run with ``context.families`` on, in :data:`REPAIR_ORDER`, each with
    its arguments after the doc."""
    running = {repair.run.__name__: repair for repair in CORE_REPAIRS}
    for family in DECLARED:
        for repair in family.repairs:
            if repair.always or family.name in context.families:
                running[repair.run.__name__] = repair
    return [
        (repair.run, repair.args(context))
        for name in REPAIR_ORDER
        if (repair := running.get(name)) is not None
    ]


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
