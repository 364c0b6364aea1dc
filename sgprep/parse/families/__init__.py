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
