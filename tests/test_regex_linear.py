"""Every regular expression of the package takes time linear in the text it reads (issue 31).

A pattern that backtracks exponentially or quadratically on a run of its own characters stops
a run: "a dog " and 22 emoji took ``clean_web_noise`` 96 s, each emoji doubling it. The patterns
are found, not listed, so that a new one is checked too: those bound to a module's names (in a
tuple, list or dict too, or a class's) and those written as a literal in a call of ``re``
(``re.search(r"...", word)``). Each is fed long runs of what it takes (its characters alone and
paired, its words, a word before a run of blanks) ended by a character that makes it fail, and
generic runs (blanks, emoji, punctuation, words). A pattern of many alternatives (``a|b|c``)
gets the runs of each alternative's own characters and words with that alternative alone,
and the generic runs whole: the whole is a sum of its alternatives, and it is slow to run.

Time is CPU time: on a shared machine, wall time counts what other processes did. Matching
cannot be interrupted, so the runs are timed in a forked process that a watchdog kills: a
pattern that hangs fails its test instead of stopping the suite.
"""

from __future__ import annotations

import ast
import gc
import importlib
import importlib.util
import math
import multiprocessing
import pkgutil
import re
import time
from pathlib import Path

import pytest

import sgprep

try:  # the parser of re's own patterns: re._parser from Python 3.11, sre_parse before
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse

#: lengths of the runs timed, in characters: a run is timed at the next length only once it
#: was fast at this one, so that an exponential pattern fails on a short run
SIZES = (1000, 2000, 5000)
#: time for the longest run
LIMIT_S = 0.5
#: how much more time a run twice as long may take (linear: 2, quadratic: 4), from the
#: shortest run on; a run found slow is timed again, the best of three, before it fails
GROWTH = 3.0
#: times below this are mostly noise, and harmless even where they grow fast
FLOOR_S = 0.002
#: a pattern that has not finished one run after this long hangs
WATCHDOG_S = 10.0
#: modules left out: what they import (torch, the detectors) is too heavy for this test, and
#: they match no text
HEAVY = frozenset({"torch", "ultralytics", "onnxruntime", "vllm", "ray", "transformers", "duckdb"})
#: the calls of re that take a pattern, and how each runs it: a scan of the text (search, sub,
#: findall, split: the same loop, from each position), a match at its start, or of all of it
_RE_CALLS = {
    "search": "scan", "sub": "scan", "subn": "scan", "split": "scan", "findall": "scan",
    "finditer": "scan", "match": "match", "fullmatch": "fullmatch",
}  # fmt: skip
#: how a compiled pattern may be run, not knowing how it is
_ANY_WAY = frozenset({"scan", "fullmatch"})
#: where a call of re takes its flags, when they are not given by name
_FLAGS_AT = {"compile": 1, "sub": 4, "subn": 4, "split": 3}

# ---- finding the patterns ---------------------------------------------------------------


def _module_names() -> list[str]:
    """The package's modules that import ``re`` and nothing heavy (read, not imported)."""
    names = []
    for info in pkgutil.walk_packages(sgprep.__path__, "sgprep."):
        spec = importlib.util.find_spec(info.name)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        # what the module imports when it is imported; not what a function imports when run
        top = list(tree.body)
        top += [node for stmt in tree.body if isinstance(stmt, ast.Try) for node in stmt.body]
        imported = set()
        for node in top:
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
        if "re" in imported and not imported & HEAVY:
            names.append(info.name)
    return names


def _flags(node: ast.expr | None) -> int:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return int(getattr(re, node.attr, 0)) if node.value.id == "re" else 0
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flags(node.left) | _flags(node.right)
    return 0


def _literal_patterns(module) -> list[tuple[str, re.Pattern, frozenset[str]]]:
    """Patterns written as a string literal in a call of ``re`` (in a function, mostly), with
    the way that call runs them."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and (node.func.attr in _RE_CALLS or node.func.attr == "compile")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, (str, bytes))
        ):
            continue
        flags = next((k.value for k in node.keywords if k.arg == "flags"), None)
        at = _FLAGS_AT.get(node.func.attr, 2)
        if flags is None and len(node.args) > at:
            flags = node.args[at]
        pattern = re.compile(node.args[0].value, _flags(flags))
        ways = frozenset({_RE_CALLS[node.func.attr]}) if node.func.attr in _RE_CALLS else _ANY_WAY
        found.append((f"{module.__name__}:{node.lineno}", pattern, ways))
    return found


def _bound_patterns(module) -> list[tuple[str, re.Pattern, frozenset[str]]]:
    """Compiled patterns bound to the module's names (and its classes'), in a tuple, list, set
    or dict too."""
    found = []

    def visit(name: str, value, depth: int) -> None:
        if isinstance(value, re.Pattern):
            found.append((name, value, _ANY_WAY))
        elif depth < 3 and isinstance(value, (tuple, list, set, frozenset)):
            for i, item in enumerate(value):
                visit(f"{name}[{i}]", item, depth + 1)
        elif depth < 3 and isinstance(value, dict):
            for key, item in value.items():
                visit(f"{name}[{key!r}]", key, depth + 1)
                visit(f"{name}[{key!r}]", item, depth + 1)

    for name, value in vars(module).items():
        visit(f"{module.__name__}.{name}", value, 0)
        if isinstance(value, type) and value.__module__ == module.__name__:
            for attribute, item in vars(value).items():
                visit(f"{module.__name__}.{name}.{attribute}", item, 1)
    return found


def all_patterns() -> list[tuple[str, re.Pattern, frozenset[str]]]:
    """Each pattern once, named where it is first found, with every way it is run."""
    patterns: dict[tuple, tuple[str, re.Pattern, frozenset[str]]] = {}
    for module_name in _module_names():
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # an optional dependency is missing
            continue
        for name, pattern, ways in _bound_patterns(module) + _literal_patterns(module):
            key = (pattern.pattern, pattern.flags)
            if key in patterns:  # a module's names also hold the patterns it imports
                first, compiled, known = patterns[key]
                patterns[key] = (first, compiled, known | ways)
            else:
                patterns[key] = (name, pattern, ways)
    return sorted(patterns.values(), key=lambda item: item[0])


def alternatives(pattern: re.Pattern) -> list[re.Pattern]:
    """The alternatives of ``a|b|c`` at its top, each compiled alone; [] for a pattern of one
    (or one whose alternatives do not stand alone: a reference to another's group)."""
    source = pattern.pattern
    if not isinstance(source, str):
        return []
    parts, depth, start, i = [], 0, 0, 0
    while i < len(source):
        char = source[i]
        if char == "\\":
            i += 1
        elif char == "[":  # a class: its "(", ")" and "|" are characters; "]" first is one too
            i += 1
            i += source[i] == "^"
            i += source[i] == "]"
            while source[i] != "]":
                i += 1 + (source[i] == "\\")
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    if not parts:
        return []
    parts.append(source[start:])
    try:
        return [re.compile(part, pattern.flags) for part in parts]
    except re.error:
        return []


# ---- what to feed a pattern -------------------------------------------------------------

#: a character of each of re's categories
_CATEGORY_CHARS = {
    "DIGIT": "7",
    "NOT_DIGIT": "a",
    "SPACE": " \t\n",
    "NOT_SPACE": "a.",
    "WORD": "a_7",
    "NOT_WORD": " -",
    "LINEBREAK": "\n",
    "NOT_LINEBREAK": "a",
}
#: runs that every pattern gets: blanks, emoji (alone, with a selector, a family joined by
#: zero-width joiners), punctuation, words in caps and not, numbers, markup
GENERIC_UNITS = (
    " ", "\t", "\n", "🐶", "🐶 ", "❤️", "👨‍👩‍👧", "1️⃣", ".", ",", "-", "#", "!", "'", "_", "/",
    "dog ", "A ", "AB ", "Ab ", "a-", "a.", "1 ", "1.", "1/", "12:", "#a ", "@a ", "&amp;",
    "<b>", "a,", "a, ", "é",
)  # fmt: skip
#: what ends a run: a character no pattern takes (so that one that needs the text's end, or
#: something else, fails there), or a word after a blank (issue 31's " x")
FAIL = "\x00"
WORD_AFTER = " x"


def _atoms(pattern: re.Pattern) -> tuple[set[str], set[str]]:
    """The characters a pattern names (its literals, a few of each class) and its words (two
    literals in a row or more)."""
    chars: set[str] = set()
    words: set[str] = set()

    def visit(items) -> None:
        run = ""
        for op, av in items:
            if op is sre_parse.LITERAL:
                run += chr(av)
                chars.add(chr(av))
                continue
            if len(run) > 1:
                words.add(run)
            run = ""
            if op is sre_parse.IN:
                for item_op, item in av:
                    if item_op is sre_parse.LITERAL:
                        chars.add(chr(item))
                    elif item_op is sre_parse.RANGE:
                        chars.update(chr(c) for c in (item[0], (item[0] + item[1]) // 2, item[1]))
                    elif item_op is sre_parse.CATEGORY:
                        chars.update(_CATEGORY_CHARS.get(str(item).split("CATEGORY_")[-1], ""))
            elif op is sre_parse.ANY:
                chars.update("a ")
            elif op is sre_parse.BRANCH:
                for branch in av[1]:
                    visit(branch)
            elif op is sre_parse.SUBPATTERN:
                visit(av[-1])
            elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT):
                visit(av[2])
            elif op in (sre_parse.ASSERT, sre_parse.ASSERT_NOT):
                visit(av[1])
            elif op is sre_parse.GROUPREF_EXISTS:
                visit(av[1])
                if av[2] is not None:
                    visit(av[2])
            elif op is getattr(sre_parse, "ATOMIC_GROUP", None):
                visit(av)
            elif op is getattr(sre_parse, "POSSESSIVE_REPEAT", None):
                visit(av[2])
        if len(run) > 1:
            words.add(run)

    source = pattern.pattern
    if isinstance(source, bytes):
        source = source.decode("latin-1")
    visit(sre_parse.parse(source, pattern.flags).data)
    chars.discard(FAIL)
    return chars, words


def own_runs(pattern: re.Pattern) -> set[tuple[str, str, str]]:
    """``(prefix, unit, tail)``, the text ``prefix + unit * k + tail``: each of the pattern's
    characters alone and before a blank (a mark before a letter too), each of its words before
    a blank, and before a run of blanks."""
    chars, words = _atoms(pattern)
    runs = {("", unit, FAIL) for c in chars for unit in (c, c + " ")}
    runs |= {("", c + "a", FAIL) for c in chars if not c.isalnum()}
    runs |= {("", w + " ", FAIL) for w in words} | {(w, " ", FAIL) for w in words}
    return runs


def generic_runs(tails=(FAIL, WORD_AFTER)) -> set[tuple[str, str, str]]:
    return {
        (prefix, unit, tail)
        for unit in GENERIC_UNITS
        for prefix in ("", "a dog ")
        for tail in tails
    }


def _text(prefix: str, unit: str, tail: str, size: int) -> str:
    return prefix + unit * max(1, size // len(unit)) + tail


# ---- timing, in a process of its own -----------------------------------------------------


def _timed(run, text, repeat: int = 1) -> float:
    best = math.inf
    for _ in range(repeat):
        start = time.process_time()
        run(text)
        best = min(best, time.process_time() - start)
    return best


def _slow(short: float, long: float, growth: float) -> bool:
    return long > LIMIT_S or (long > FLOOR_S and long > growth * short)


def too_slow(run, make) -> str | None:
    """Why ``run`` is not linear on the texts ``make(size)``, or None."""
    base = SIZES[0]
    short = _timed(run, make(base))
    for size in SIZES[1:]:
        growth = GROWTH ** math.log2(size / base)
        long = _timed(run, make(size))
        if _slow(short, long, growth):
            short = _timed(run, make(base), repeat=3)
            long = _timed(run, make(size), repeat=3)
            if _slow(short, long, growth):
                return f"{short * 1e3:.1f} ms at {base} chars, {long * 1e3:.1f} ms at {size}"
    return None


def _probe(conn, jobs) -> None:
    """Child: each job is ``(label, check)``, ``check()`` saying what is slow or None; says
    which job starts and what was slow."""
    gc.disable()  # a collection in the middle of a run is noise
    for label, check in jobs:
        conn.send(("start", label))
        try:
            why = check()
        except Exception as exc:  # noqa: BLE001 - a failure to report, not to hide
            why = f"raised {exc!r}"
        if why:
            conn.send(("slow", f"{label}: {why}"))
    conn.send(("done", None))


def watched(jobs) -> list[str]:
    """What is slow of ``jobs`` (see :func:`_probe`), run in a forked process; a job that
    hangs is killed and named."""
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # pragma: no cover - no fork (Windows)
        pytest.skip("needs fork to time a pattern that may hang")
    parent, child = context.Pipe(duplex=False)
    process = context.Process(target=_probe, args=(child, jobs), daemon=True)
    process.start()
    child.close()
    slow, current = [], None
    try:
        while True:
            if not parent.poll(WATCHDOG_S):
                slow.append(f"{current}: still running after {WATCHDOG_S:.0f} s (it hangs)")
                break
            try:
                kind, message = parent.recv()
            except EOFError:
                slow.append(f"{current}: the process timing it died")
                break
            if kind == "done":
                break
            if kind == "start":
                current = message
            else:
                slow.append(message)
    finally:
        process.kill()
        process.join()
    return slow


def _runner(pattern: re.Pattern, way: str):
    if way == "scan":
        empty = pattern.pattern[:0]
        return lambda text: pattern.subn(empty, text)
    return getattr(pattern, way)


def pattern_jobs(pattern: re.Pattern, ways, runs, name: str = ""):
    encode = isinstance(pattern.pattern, bytes)
    jobs = []
    for prefix, unit, tail in sorted(runs):

        def make(size, prefix=prefix, unit=unit, tail=tail):
            text = _text(prefix, unit, tail, size)
            return text.encode("utf-8") if encode else text

        for way in sorted(ways):
            label = f"{name}{way} of {prefix!r} + {unit!r} * k + {tail!r}"
            jobs.append((label, lambda run=_runner(pattern, way), make=make: too_slow(run, make)))
    return jobs


# ---- the tests ------------------------------------------------------------------------------

PATTERNS = all_patterns()


def test_patterns_are_found():
    names = {name for name, _, _ in PATTERNS}
    # the pattern of issue 31, one in a list, one of a class, one written in a function
    assert "sgprep.parse.rules_noise._EDGE_EMOJI" in names
    assert any(name.startswith("sgprep.parse.families.form.FACTUAL_SPELLINGS[") for name in names)
    assert any(name.startswith("sgprep.schema.") for name in names)
    assert any(name.startswith("sgprep.negatives.grammar:") for name in names)
    assert len(alternatives(re.compile(r"a[|(]|(b|c)\||d"))) == 3


@pytest.mark.parametrize("name, pattern, ways", PATTERNS, ids=[name for name, _, _ in PATTERNS])
def test_pattern_is_linear(name, pattern, ways):
    parts = alternatives(pattern)
    if parts:
        # the whole is slow to run (each alternative at each position): fewer runs
        jobs = pattern_jobs(pattern, {"scan"} & ways, generic_runs(tails=(FAIL,)))
        for i, part in enumerate(parts):
            jobs += pattern_jobs(part, ways, own_runs(part), name=f"alternative {i + 1}: ")
    else:
        jobs = pattern_jobs(pattern, ways, own_runs(pattern) | generic_runs())
    slow = watched(jobs)
    assert not slow, f"{name} ({pattern.pattern[:80]!r}) is not linear:\n" + "\n".join(slow)


# ---- the cleaners, end to end -------------------------------------------------------------


def _fast(clean, text: str, limit_s: float) -> str | None:
    spent = _timed(clean, text)
    return f"{spent:.2f} s" if spent > limit_s else None


def test_emoji_runs_clean_fast():
    from sgprep.parse.rules_noise import clean_web_noise

    texts = (
        "a dog " + "🐶" * 22 + " x",  # issue 31: 96 s
        "a dog " + "🐶" * 1000 + " x",
        "a dog " + "👨‍👩‍👧" * 200 + " x",
        "🐶" * 1000 + " a dog",
        "a dog " + "🐶 " * 1000,
    )
    assert not watched([(repr(t[:40]), lambda t=t: _fast(clean_web_noise, t, 0.1)) for t in texts])
    # what the emoji at an edge still do: blanked there, left between two words
    assert clean_web_noise("🐶🐶 a dog 🐶 x 🐶🐶 ") == "   a dog 🐶 x    "
    # a short run between words is left; a run of 16 or more is blanked (spaCy would split
    # it a character at a time)
    assert clean_web_noise("a dog 🐶🐶🐶 x") == "a dog 🐶🐶🐶 x"
    assert clean_web_noise("a dog " + "🐶" * 22 + " x") == "a dog " + " " * 22 + " x"


#: long captions of what the cleaners blank: emoji, tags, keywords, credits, markup, numbers
LONG_CAPTIONS = {
    "blanks": "a dog" + " " * 5000 + "x",
    "emoji": "a dog " + "🐶" * 5000 + " x",
    "tags": "a dog " + "#a#b " * 1000 + "x",
    "ideas": "a dog, " + "travel " * 700 + "x",
    "caps": "A-B " * 1200 + "x",
    "words": "dog " * 1250 + "x",
    "hyphens": "a-" * 2500 + ".x",
    "dots": "a." * 2500 + "x",
    "numbers": "1," * 2500 + "x",
    "dateline": "NEW YORK" + " " * 5000 + "- x",
    "credit": "photo by " + "a " * 2500,
    "markup": "<b>&amp;" * 600 + "x",
}


@pytest.mark.parametrize("caption", LONG_CAPTIONS.values(), ids=LONG_CAPTIONS.keys())
def test_cleaners_fast_on_long_captions(caption):
    from sgprep.parse.rules_noise import clean_alt_text, clean_web_noise, expand_shorthand

    jobs = [
        (clean.__name__, lambda clean=clean: _fast(clean, caption, LIMIT_S))
        for clean in (clean_web_noise, clean_alt_text, expand_shorthand)
    ]
    slow = watched(jobs)
    assert not slow, "\n".join(slow)
