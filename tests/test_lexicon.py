"""One lexicon, as data: sgprep's word lists live in ``sgprep/lexicon/*.json``, each written once.

(a) No module of sgprep holds a literal word table: a ``"...".split()`` of 6 words or more, a
set, list, tuple or frozenset of 6 string literals or more, or a string of 6 lower-case words or
more that is a table's key or value, an item, or the value of an assignment or a sum
(``"sit stand lie lay rest sleep"``, split later); an AST scan. Tables that are no
English words are let through: spaCy's labels, names in ``__all__`` and ``__slots__``, the
values of a ``Literal[...]``, the group names of a lexicon list, punctuation, and the short
:data:`NOT_WORDS` (file extensions, setting, column and family names).
(b) No two lexicon lists are the same, and no list is copied into another data file.
(c) Every lexicon file names its source.
(d) Every lexicon list is read by the code, by its name written out.
"""

from __future__ import annotations

import ast
import json
import re
from fnmatch import fnmatch
from itertools import combinations
from pathlib import Path

import pytest
import tomllib

import sgprep
from sgprep import lexicon

ROOT = Path(sgprep.__file__).parent
LEXICON = ROOT / "lexicon"
#: The fewest words of a literal table the scan reports.
MIN_WORDS = 6
#: The lexicon's readers: a call to one of them names the list it reads.
READERS = ("words", "ordered", "keyed", "groups", "rows")

#: Literal tables of strings that are no English word lists, by module (under sgprep/) and the
#: name they are assigned to (or the function they are in).
NOT_WORDS: dict[str, set[str]] = {
    # setting names
    "config.py": {"NOT_IN_FINGERPRINT", "SPEED_ONLY_SETTINGS"},
    # file extensions
    "io/images.py": {"IMAGE_EXTENSIONS", "UNSUPPORTED_IMAGE_EXTENSIONS"},
    # column and field names, of inputs, outputs and reports
    "io/readers/tables.py": {"CAPTION_COLUMNS", "IMAGE_COLUMNS", "_annotations"},
    "io/records.py": {"INDEX_COLUMNS"},
    "io/tables.py": {"NEGATIVE_COLUMNS"},
    "negatives/mine.py": {"COLUMNS"},
    "negatives/cooc_count.py": {"TABLES"},
    "stats/gallery.py": {"COLUMNS"},
    "stats/page.py": {"totals"},
    "stats/report.py": {"render", "render_diversity"},
    "eval.py": {"render"},
    # spaCy's language codes, whose stop words mark another language
    "parse/rules_language.py": {"LANGUAGES"},
    # the rule parser's family (repair) names, in the order they run
    "parse/families/__init__.py": {"REPAIR_ORDER"},
    # sentences: the plausibility judge's worked examples, the columns' descriptions
    "negatives/llm_judge.py": {"EXAMPLES"},
    "stats/properties.py": {"COLUMNS"},
}

#: Modules whose word tables are still to be moved into the lexicon.
NOT_YET: set[str] = set()


def _spacy_labels() -> frozenset[str]:
    """spaCy's dependency labels, part-of-speech tags and token attributes."""
    from spacy import attrs
    from spacy.glossary import GLOSSARY

    return frozenset(GLOSSARY) | frozenset(attrs.IDS) | {"TEXT", "predet"}


def _group_names() -> frozenset[str]:
    return frozenset(k for v in lexicon.lists().values() if isinstance(v, dict) for k in v)


#: A word of a string of words: lower-case letters, with hyphens, apostrophes, slashes (aliases)
#: or underscores (spaces) inside.
_WORD = re.compile(r"[a-z][a-z'/_-]*")


def _word_string(node: ast.AST, parent: ast.AST | None) -> list[str] | None:
    """The words of a string of words held as data (a table's key or value, an item, the value
    of an assignment or of a sum: split later), or None."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    held = isinstance(parent, (ast.Dict, ast.Tuple, ast.List, ast.Set, ast.BinOp)) or (
        isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node
    )
    strings = node.value.replace(",", " ").split()
    if held and strings and all(_WORD.fullmatch(w) for w in strings):
        return strings
    return None


def _strings(node: ast.AST) -> list[str] | None:
    """The strings of a literal table, or None if ``node`` is none."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "split"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):
        sep = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
        return node.func.value.value.split(sep)
    if isinstance(node, (ast.Set, ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return [e.value for e in node.elts]
    return None


def _where(node: ast.AST, parents: dict[int, ast.AST]) -> str:
    """The name a table is assigned to, or the function or class it is in."""
    while (node := parents.get(id(node))) is not None:
        if isinstance(node, ast.Assign):
            target = node.targets[0]
            return ast.unparse(target)
        if isinstance(node, ast.AnnAssign):
            return ast.unparse(node.target)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return node.name
    return "<module>"


def literal_tables(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, where, strings) of each literal table of ``MIN_WORDS`` strings or more in a
    module, but those that are no English words."""
    return tables_in(path.read_text(encoding="utf-8"))


def tables_in(code: str) -> list[tuple[int, str, list[str]]]:
    tree = ast.parse(code)
    parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    labels, group_names = _spacy_labels(), _group_names()
    found = []
    for node in ast.walk(tree):
        parent = parents.get(id(node))
        strings = _strings(node)
        if strings is None:
            strings = _word_string(node, parent)
        if strings is None or len(strings) < MIN_WORDS:
            continue
        where = _where(node, parents)
        if where in ("__all__", "__slots__") or where.endswith(".__slots__"):
            continue
        if isinstance(parent, ast.Subscript) and ast.unparse(parent.value) == "Literal":
            continue
        if set(strings) <= labels or set(strings) <= group_names:
            continue
        if not any(c.isalpha() for s in strings for c in s):  # punctuation, quotes
            continue
        found.append((node.lineno, where, strings))
    return found


def _modules() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_holds_a_word_table():
    tables = []
    for path in _modules():
        module = path.relative_to(ROOT).as_posix()
        if module in NOT_YET:
            continue
        allowed = NOT_WORDS.get(module, set())
        for line, where, strings in literal_tables(path):
            if where not in allowed:
                tables.append(f"sgprep/{module}:{line} {where}: {' '.join(strings[:8])} ...")
    assert not tables, (
        "word tables written in code: move them to sgprep/lexicon/*.json\n" + "\n".join(tables)
    )


def test_the_allowlists_name_what_is_there():
    """Every :data:`NOT_WORDS` entry still names a table, every :data:`NOT_YET` module still
    holds one: neither list outlives what it lets through."""
    for module, names in NOT_WORDS.items():
        seen = {where for _, where, _ in literal_tables(ROOT / module)}
        assert names <= seen, f"{module}: {sorted(names - seen)} hold no table any more"
    for module in NOT_YET:
        assert literal_tables(ROOT / module), f"{module} holds no word table: drop it from NOT_YET"


def test_the_scan_finds_tables():
    code = (
        'A = frozenset("a b c d e f".split())\n'
        'def f(x):\n    return x in {"on", "in", "at", "by", "up", "to"}\n'
        'B = ("a", "b", "c", "d", "e")\n'
        'C = frozenset({"amod", "compound", "nummod", "nmod", "advmod", "npadvmod"})\n'
        '__all__ = ["a", "b", "c", "d", "e", "f"]\n'
        'D = {"x": "sit stand lie lay rest sleep", "y": "sit stand"}\n'
        'raise ValueError("the caption is empty or blank, say")\n'
    )
    found = sorted((line, where) for line, where, _ in tables_in(code))
    assert found == [(1, "A"), (3, "f"), (7, "D")]


def _word_lists() -> list[tuple[str, frozenset[str]]]:
    """Every list, and every group of a keyed or grouped list, as (name, its words)."""
    out = []
    for name, value in lexicon.lists().items():
        if isinstance(value, dict):
            out += [(f"{name}[{k}]", frozenset(v)) for k, v in value.items()]
        elif value and isinstance(value[0], dict):
            out += [
                (f"{name}[{i}][{k}]", frozenset(v))
                for i, row in enumerate(value)
                for k, v in row.items()
            ]
        elif value and isinstance(value[0], list):
            out += [(f"{name}[{i}]", frozenset(g)) for i, g in enumerate(value)]
        else:
            out.append((name, frozenset(value)))
    return out


def test_no_two_lists_are_the_same():
    # groups of a list may be small ("finger": ring): those of three words or more are compared
    lists = [(n, w) for n, w in _word_lists() if len(w) >= 3 or "[" not in n]
    same = [
        (a, b)
        for (a, x), (b, y) in combinations(lists, 2)
        if x == y and a.split("[")[0] != b.split("[")[0]  # a mapping's values may be alike
    ]
    assert not same, f"lists written twice: {same}"


def test_no_list_holds_a_word_twice():
    for name, value in lexicon.lists().items():
        if isinstance(value, dict):
            parts = list(value.values())
        elif value and isinstance(value[0], dict):
            parts = [v for row in value for v in row.values()]
        elif value and isinstance(value[0], list):
            parts = value
        else:
            parts = [value]
        for words in parts:
            assert len(words) == len(set(words)), f"{name}: a word twice"


def _json_string_lists(value) -> list[list[str]]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _json_string_lists(v)]
    if isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            return [value]
        return [x for v in value for x in _json_string_lists(v)]
    return []


def test_no_list_is_copied_into_another_file():
    """No other data file of sgprep holds one of the lexicon's lists (as a list of the same
    words), and no module a literal table of one (:data:`NOT_WORDS` included)."""
    lists = {w: n for n, w in _word_lists() if len(w) >= MIN_WORDS}
    copies = []
    for path in sorted(ROOT.rglob("*.json")):
        if path.parent == LEXICON:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for strings in _json_string_lists(data):
            if frozenset(strings) in lists:
                copies.append(f"{path.relative_to(ROOT)}: {lists[frozenset(strings)]}")
    for path in _modules():
        for line, _, strings in literal_tables(path):
            if frozenset(strings) in lists:
                copies.append(f"{path.relative_to(ROOT)}:{line}: {lists[frozenset(strings)]}")
    assert not copies, copies


def test_every_file_names_its_source():
    files = lexicon.files()
    assert files, "no lexicon files"
    for name, content in files.items():
        assert set(content) <= {"source", "lists", "notes"}, name
        assert isinstance(content.get("source"), str) and len(content["source"]) > 20, name
        assert content["lists"], f"{name} holds no list"
        assert set(content.get("notes", {})) <= set(content["lists"]), name


def _reads() -> dict[str, set[tuple[str, str]]]:
    """Each lexicon list read by the code -> (module, reader) of each read. A reader called
    with anything but a string literal fails: every read names its list."""
    read: dict[str, set[tuple[str, str]]] = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            a.asname or a.name: a.name
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and n.module == "sgprep.lexicon"
            for a in n.names
            if a.name in READERS
        }
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in imported
            ):
                continue
            arg = node.args[0] if len(node.args) == 1 else None
            assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                f"{path.relative_to(ROOT)}:{node.lineno}: a lexicon list read by a name not "
                "written out"
            )
            module = path.relative_to(ROOT).as_posix()
            read.setdefault(arg.value, set()).add((module, imported[node.func.id]))
    return read


def test_every_list_is_read():
    read = _reads()
    lists = lexicon.lists()
    assert not set(read) - set(lists), f"read but not in the lexicon: {set(read) - set(lists)}"
    assert not set(lists) - set(read), f"never read: {sorted(set(lists) - set(read))}"


def test_every_list_has_the_shape_its_readers_read():
    """Each read works: a list of words for ``words`` and ``ordered``, named groups for
    ``keyed``, groups for ``groups``, rows for ``rows``, each of strings."""
    for name, reads in _reads().items():
        for module, reader in sorted(reads):
            value = getattr(lexicon, reader)(name)
            if reader in ("words", "ordered"):
                parts = [value]
            elif reader == "keyed":
                parts = list(value.values())
            elif reader == "groups":
                parts = list(value)
            else:
                parts = [v for row in value for v in row.values()]
            assert parts, f"{name} ({module}): empty"
            for part in parts:
                assert part and all(isinstance(w, str) and w for w in part), (name, module)


def test_the_readers():
    name = next(
        n for n, v in lexicon.lists().items() if isinstance(v, list) and isinstance(v[0], str)
    )
    assert lexicon.words(name) is lexicon.words(name)  # read once
    assert isinstance(lexicon.words(name), frozenset)
    assert list(lexicon.ordered(name)) == lexicon.lists()[name]
    with pytest.raises(KeyError, match="no lexicon list"):
        lexicon.words("no such list")
    keyed = next(n for n, v in lexicon.lists().items() if isinstance(v, dict))
    with pytest.raises(TypeError):
        lexicon.words(keyed)
    with pytest.raises(TypeError):
        lexicon.keyed(name)["x"] = ()


def test_the_files_ship_with_the_package():
    """pyproject's package-data takes every lexicon file into a wheel."""
    config = tomllib.loads((ROOT.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["sgprep"]
    for path in sorted(LEXICON.glob("*.json")):
        rel = path.relative_to(ROOT).as_posix()
        assert any(fnmatch(rel, p) for p in patterns), f"{rel} is not in the package data"
    assert not [p for p in LEXICON.iterdir() if p.suffix not in (".json", ".py") and p.is_file()]


def test_a_list_written_in_two_files_is_refused(monkeypatch):
    twice = {"a.json": {"lists": {"x": ["a"]}}, "b.json": {"lists": {"x": ["b"]}}}
    monkeypatch.setattr(lexicon, "_files", lambda: twice)
    lexicon.lists.cache_clear()
    try:
        with pytest.raises(ValueError, match="written twice"):
            lexicon.lists()
    finally:
        lexicon.lists.cache_clear()


def test_names_are_plain():
    for name in lexicon.lists():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name
