"""Alt-text noise taken out of a caption before it is parsed (rule family ``noise``).

Web alt text (CC12M, LAION) carries things that are no part of the scene: URLs, file names,
camera metadata ("Canon EOS 5D Mark III, f/2.8, 1/200s, ISO 400"), anonymisation placeholders
(CC12M writes ``<PERSON>`` for a name), hashtags and shouted ALL-CAPS words that the small
model tags as proper nouns. Left in, they become entities ("( https://... )", "( ISO , is ,
400 )") or break the parse around them.

:func:`clean_alt_text` returns a string of *the same length*, with noise blanked by spaces and
words rewritten in place, so that every character offset still indexes the original caption:
entity spans stay right without a map. What it does:
- URLs, bare domains and image file names (``IMG_2043.JPG``) -> blanks;
- camera metadata: exposure tokens (``f/2.8``, ``1/200s``, ``ISO 400``, ``50mm``, ``EV +1``)
  and a camera maker followed by its model code (``Canon EOS 5D Mark III``) -> blanks;
- ``<PERSON>`` -> `` person `` (a person it is), any other ``<TAG>`` -> blanks;
- ``#`` before a word -> blank (the word stays);
- ALL-CAPS words in a run of two or more, or of four letters and more, -> lower case
  ("LUXURY HOTEL ROOM", "STOP"); short lone acronyms ("TV", "NYC") keep their case;
- separators left with nothing between them (the commas of blanked metadata) -> blanks.
A caption that was nothing but noise ends blank: the parser gives it a graph with no entities.
"""

from __future__ import annotations

import re

#: Camera makers whose name starts a model code in camera metadata.
CAMERA_MAKERS = (
    "canon nikon sony fujifilm fuji olympus panasonic lumix leica pentax ricoh hasselblad "
    "sigma samsung gopro dji kodak minolta"
).split()

_URL = r"(?:https?://|www\.)\S+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|co\.uk|io|de|fr)(?:/\S*)?\b"
_FILE = r"\b[\w-]+\.(?:jpe?g|png|gif|webp|tiff?|bmp|heic|raw|cr2|nef)\b"
_CAMERA_FILE = r"\b(?:IMG|DSC|DSCN|DSCF|DCIM|PXL|MVI)[_-]?\d{3,}\w*"
_EXPOSURE = (
    r"\bf/\d+(?:\.\d+)?\b|\b1/\d{2,5}\s?(?:s|sec)?\b|\bISO[\s:]?\d{2,5}\b|\b\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s?mm\b"
    r"|\bEV\s?[+-]\d+(?:\.\d+)?\b|\b\d+(?:\.\d+)?\s?(?:sec|s)\b(?=\s*[,;:|]|$)"
)
#: a maker and the model words after it: caps, digits, "Mark", Roman numerals
_CAMERA = (
    r"\b(?i:" + "|".join(CAMERA_MAKERS) + r")\b(?:\s+(?:[A-Z0-9][\w-]*\d[\w-]*|[A-Z]{2,}[\w-]*"
    r"|Mark|Mk|[IVX]{1,4}|\d+[\w-]*))+"
)
_PLACEHOLDER = r"<[A-Z_]+>"
_NOISE = re.compile("|".join([_URL, _FILE, _CAMERA_FILE, _EXPOSURE]), re.IGNORECASE)
_CAMERA_RE = re.compile(_CAMERA)  # model codes are upper case or have digits: case matters
_PLACEHOLDER_RE = re.compile(_PLACEHOLDER)
_HASHTAG = re.compile(r"#(?=\w)")
_CAPS_WORD = re.compile(r"\b[A-Z][A-Z'&-]*[A-Z]\b")
_SEPARATORS = ",;:|/-"
#: cheap first test: most captions have none of these and skip every regex
_MAYBE = re.compile(r"[<#/:]|www|\d|[A-Z]{2}|\.[A-Za-z]{2,4}\b")


def _blank(match: re.Match) -> str:
    return " " * len(match.group(0))


def _placeholder(match: re.Match) -> str:
    tag = match.group(0)
    if tag == "<PERSON>":
        return " person "
    return " " * len(tag)


def _lower_caps(text: str) -> str:
    words = list(_CAPS_WORD.finditer(text))
    if not words:
        return text
    chars = list(text)
    for k, word in enumerate(words):
        letters = sum(ch.isalpha() for ch in word.group(0))
        in_run = any(
            0 <= j < len(words) and j != k
            and not text[min(word.end(), words[j].end()):max(word.start(), words[j].start())].strip()
            for j in (k - 1, k + 1)
        )  # fmt: skip
        if in_run or letters >= 4:
            chars[word.start() : word.end()] = word.group(0).lower()
    return "".join(chars)


def _drop_empty_separators(text: str) -> str:
    """A separator with only blanks (or the caption's start) before it separates nothing."""
    chars = list(text)
    previous = None  # last non-blank character kept
    for i, ch in enumerate(chars):
        if ch.isspace():
            continue
        if ch in _SEPARATORS and (previous is None or previous in _SEPARATORS):
            chars[i] = " "
            continue
        previous = ch
    # a trailing separator after blanked noise
    for i in range(len(chars) - 1, -1, -1):
        if chars[i].isspace():
            continue
        if chars[i] in _SEPARATORS:
            chars[i] = " "
            continue
        break
    return "".join(chars)


def clean_alt_text(text: str) -> str:
    """``text`` with alt-text noise blanked, the same length (see the module doc)."""
    if not _MAYBE.search(text):
        return text
    cleaned = _PLACEHOLDER_RE.sub(_placeholder, text)
    cleaned = _NOISE.sub(_blank, cleaned)
    cleaned = _CAMERA_RE.sub(_blank, cleaned)
    cleaned = _HASHTAG.sub(" ", cleaned)
    cleaned = _lower_caps(cleaned)
    if cleaned != text:
        cleaned = _drop_empty_separators(cleaned)
    assert len(cleaned) == len(text)  # offsets must keep indexing the caption
    return cleaned
