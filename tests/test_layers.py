"""The package's import structure: no cycle, and the bottom modules import nothing above them.

Every import counts, also one inside a function (a lazy import hides a cycle, it does not
remove it); only imports under ``if TYPE_CHECKING:`` are left out (they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import sgprep

ROOT = Path(sgprep.__file__).parent
#: The bottom of the package: they may import only each other (and the package's version).
BOTTOM = {"sgprep", "sgprep.config", "sgprep.schema", "sgprep.errors", "sgprep.registry"}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module(p): p for p in ROOT.rglob("*.py")}


def _type_checking_only(tree: ast.AST) -> set[int]:
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skipped |= {id(n) for n in ast.walk(inner)}
    return skipped


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    tree = ast.parse(path.read_text())
    skipped = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1]
                    + ([base] if base else [])
                )
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: imports(name, path, set(modules)) for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_package_has_no_import_cycle():
    assert cycles(graph()) == []


def test_the_bottom_imports_nothing_above_it():
    edges = graph()
    for name in sorted(BOTTOM):
        assert edges[name] <= BOTTOM, f"{name} imports {sorted(edges[name] - BOTTOM)}"


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_command_line_starts_without_loading_a_stage():
    """`sgprep --help` and `sgprep stats` import no stage (numpy, word lists, models)."""
    import subprocess
    import sys

    code = (
        "import sys, sgprep.cli; "
        "print(sorted(m for m in ('numpy', 'sgprep.detect.stage', 'sgprep.negatives.stage', "
        "'sgprep.parse.stage', 'spacy', 'torch') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT.parent
    )
    assert out.stdout.strip() == "[]"


def test_the_output_layout_is_spelled_once():
    """The output's paths come from ``schema.OutputDir``: no module but the schema names a
    ``_meta`` file or a stats-file pattern of its own."""
    from sgprep.io.writers import ShardWriter
    from sgprep.schema import OutputDir

    layout = OutputDir("out")
    assert str(layout.stats_file(3)) == "out/00003_stats.json"
    assert str(layout.run_file) == "out/_meta/run.json"
    assert ShardWriter(Path("out")).meta_file == layout.run_file
    for path in sorted(ROOT.rglob("*.py")):
        module = str(path.relative_to(ROOT))
        if module == "schema.py":
            continue
        code = "\n".join(
            line
            for line in (ROOT / module).read_text().splitlines()
            if not line.lstrip().startswith(("#", "``", "-"))
        )
        for spelled in (
            '"run.json"',
            '"plan.json"',
            '"failed_shards.json"',
            '"[0-9]*_stats.json"',
            '/ "_meta"',
            '"_meta"',
            '".keys.sqlite"',
            '"stats.parquet"',
            '"report.html"',
        ):
            assert spelled not in code, f"{module} spells {spelled}"


def test_the_products_table_is_the_one_the_readers_and_validate_use():
    from sgprep.io import card, records, validate
    from sgprep.io.readers import tars
    from sgprep.schema import PRODUCTS

    members = {p.member: p.model for p in PRODUCTS}
    assert members == validate.MEMBER_MODELS
    assert {m: model for m, (_, model) in tars.ANNOTATIONS.items()} == members
    assert {k: v for k, v in card.ANNOTATION_MODELS.items() if k != "json"} == members
    assert {p.field: p.member for p in PRODUCTS} == records.ANNOTATION_MEMBERS
