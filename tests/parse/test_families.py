"""The rule families' declarations (sgprep.parse.families): each family declared once, in one
module, with what it does; each repair at one place in the order the repairs run."""

from __future__ import annotations

from sgprep.parse.families import CORE_REPAIRS, DECLARED, FAMILIES, REPAIR_ORDER
from sgprep.parse.families.base import Context


def test_each_family_is_declared_once_with_what_it_does():
    names = [family.name for family in DECLARED]
    assert len(names) == len(set(names)) == len(FAMILIES)
    assert all(family.about.strip() for family in DECLARED)


def test_each_repair_runs_at_one_place():
    declared = [r.run.__name__ for r in CORE_REPAIRS]
    declared += [r.run.__name__ for family in DECLARED for r in family.repairs]
    assert len(declared) == len(set(declared))
    assert sorted(declared) == sorted(REPAIR_ORDER)


def test_a_family_off_leaves_its_repairs_out():
    from sgprep.parse.families import repair_steps

    words = (frozenset(), frozenset())
    every = repair_steps(Context(FAMILIES, words, frozenset(), str.lower))
    none = repair_steps(Context(frozenset(), words, frozenset(), str.lower))
    always = {r.run.__name__ for f in DECLARED for r in f.repairs if r.always}
    assert [run.__name__ for run, _ in every] == list(REPAIR_ORDER)
    core = {r.run.__name__ for r in CORE_REPAIRS} | always
    assert [run.__name__ for run, _ in none] == [n for n in REPAIR_ORDER if n in core]


def test_each_hook_is_at_a_known_point_and_one_family_hooks_in_there():
    from sgprep.parse.families import BUILDER_POINTS, FORMAT_POINTS

    for field, known in (("builder", BUILDER_POINTS), ("format", FORMAT_POINTS)):
        points = [point for family in DECLARED for point in getattr(family, field)]
        assert set(points) <= set(known)
        assert len(points) == len(set(points))


def family_tests(path) -> list[tuple[str, int]]:
    """(family, line) of each test ``"x" in <...families...>`` in the module at ``path``."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Compare) or not isinstance(node.left, ast.Constant):
            continue
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)) and "famil" in ast.unparse(right):
                found.append((node.left.value, node.lineno))
    return found


def test_no_family_is_tested_outside_its_own_module():
    from pathlib import Path

    import sgprep
    from sgprep.parse import families

    root = Path(sgprep.__file__).parent
    home = {}
    for name in ("text", "short", "misread", "clauses", "phrases", "lists", "names", "form"):
        for family in getattr(families, name).FAMILIES:
            home[family.name] = root / "parse" / "families" / f"{name}.py"
    outside = []
    for path in sorted(root.rglob("*.py")):
        for family, line in family_tests(path):
            assert family in home, f"{path}:{line}: no family {family!r}"
            if path != home[family]:
                outside.append(f"{path.relative_to(root.parent)}:{line}: {family}")
    assert outside == []
