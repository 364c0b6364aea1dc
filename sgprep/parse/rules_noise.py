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
- credit lines and stock labels ("photo by <PERSON>", "image courtesy of ...", "(c) 2019 ...",
  "STOCK PHOTO:", "royalty free", "vector art for autumn designs"; "vector illustration of a
  dog" keeps its frame) and how the photo was taken ("shot with a fisheye lens",
  "taken on an iPhone") -> blanks, a credit up to the next comma, semicolon or bar;
- a news photo's dateline ("NEW YORK, NY - MAY 15:"), dates ("on May 15, 2019"), a year
  after in/of/from ("in 1944"), "Image may contain:" and stock photo numbers -> blanks;
- two hashtags or more that end a caption after its text -> blanks; a caption of hashtags only is a list
  of keywords (each ``#`` -> a comma); any other ``#`` before a word -> a blank (the word
  stays);
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
#: credit lines and stock-photo labels: "photo by <PERSON>", "image courtesy of NASA", "(c) 2019
#: Jane Doe", "STOCK PHOTO:", "royalty free stock image"; up to the next separator
_CREDIT = (
    r"\b(?:photo(?:graph)?|image|picture|illustration|footage)s?\s+(?:by|courtesy\s+of|credit)\b"
    r"[^,;|]*|(?:©|\(c\)|\bcopyright\b)[^,;|]*"
    r"|\b(?:royalty[- ]free\s+)?stock\s+(?:photo(?:graph)?|image|picture|footage|illustration|vector)s?\b"
    r"|\broyalty[- ]free\b|\ball\s+rights\s+reserved\b"
    r"|\b(?:vector|clip)[ -]?(?:art|illustrations?|graphics?|icons?|images?)\b(?!\s+of\b)"
    r"(?:\s+for\s+[^,;|]*)?"
)
#: how the photo was taken: "shot with a fisheye lens", "taken on an iPhone"
_SHOT = (
    r"\b(?:shot|taken|photographed|filmed)\s+(?:with|on)\s+(?:an?\s+|the\s+|my\s+)?"
    r"(?:[\w-]+\s+){0,2}(?:lens|camera|iphone|smartphone|phone|drone|film|\d+mm)\b"
)
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?"
)
#: a news photo's dateline ("NEW YORK, NY - MAY 15:"), a date ("on May 15, 2019", "June 3rd"),
#: a year after in/on/of ("in 1944"), the automatic alt text's opening ("Image may contain:")
#: and a stock photo's number ("ID: 123456789")
_DATE = (
    r"^\s*[A-Z][A-Z .,'-]*\s+[-\u2013\u2014]\s+" + _MONTH + r"\s+\d{1,2}(?:,\s*\d{4})?\s*:"
    r"|\b(?:on\s+)?" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4}\b)?"
    r"|\b(?:in|of|from)\s+(?:the\s+)?(?:1[89]|20)\d{2}s?\b"
    r"(?=\s*(?:[,.;:!?)]|$|(?:in|at|on|and|with|during)\b))"
    r"|\bimage\s+may\s+contain\s*:(?:\s*one\s+or\s+more\b)?|\b(?:photo\s+)?id\s*:?\s*\d{4,}\b"
)
_PLACEHOLDER = r"<[A-Z_]+>"
_NOISE = re.compile("|".join([_URL, _FILE, _CAMERA_FILE, _EXPOSURE]), re.IGNORECASE)
_CREDIT_RE = re.compile("|".join([_CREDIT, _SHOT, _DATE]), re.IGNORECASE)
_CAMERA_RE = re.compile(_CAMERA)  # model codes are upper case or have digits: case matters
_PLACEHOLDER_RE = re.compile(_PLACEHOLDER)
_HASHTAG = re.compile(r"#(?=[A-Za-z])")
#: two hashtags or more that end a caption after its text: tags, not the scene ("... the sea
#: #sunset #sea")
_TRAILING_TAGS = re.compile(r"(?:\s*#[A-Za-z][\w-]*){2,}\s*$")  # one is a word: "at the #beach"
_CAPS_WORD = re.compile(r"\b[A-Z][A-Z'&-]*[A-Z]\b")
_SEPARATORS = ",;:|/-"
#: cheap first test: most captions have none of these and skip every regex
_MAYBE = re.compile(
    r"[<#/:©]|www|\d|[A-Z]{2}|\.[A-Za-z]{2,4}\b|\b(?:[Bb]y|[Ss]tock|[Cc]ourtesy|[Cc]redit|"
    r"[Ss]hot|[Tt]aken|[Pp]hotographed|[Ff]ilmed|[Rr]oyalty|[Rr]ights|[Vv]ector|[Cc]lip|\(c\))\b"
)


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
    cleaned = _CREDIT_RE.sub(_blank, text)  # before placeholders: "photo by <PERSON>" goes
    cleaned = _PLACEHOLDER_RE.sub(_placeholder, cleaned)
    cleaned = _NOISE.sub(_blank, cleaned)
    cleaned = _CAMERA_RE.sub(_blank, cleaned)
    tags = _TRAILING_TAGS.search(cleaned)
    if tags and any(ch.isalpha() for ch in cleaned[: tags.start()]):
        cleaned = cleaned[: tags.start()] + " " * (tags.end() - tags.start())
    elif tags:  # "#sunset #sea" alone: a list of keywords
        cleaned = cleaned[: tags.start()] + _HASHTAG.sub(",", cleaned[tags.start() :])
    cleaned = _HASHTAG.sub(" ", cleaned)
    cleaned = _lower_caps(cleaned)
    if cleaned != text:
        cleaned = _drop_empty_separators(cleaned)
    assert len(cleaned) == len(text)  # offsets must keep indexing the caption
    return cleaned


#: Written shorthand the small model cannot read, and what it stands for (rule family
#: ``shorthand``): "w/" is "with" ("chairs w/ white legs"; "w/o" is left), a "+" between two
#: words is "and" ("kid+mom", "blue+black"; "C++", "2+2" and "Google+" are left), and the run-
#: together "infront" / "ontop" are "in front" / "on top".
_SHORTHAND = re.compile(
    r"(?<![\w/])[Ww]/(?![Oo]\b)(?=\s|[A-Za-z])"
    r"|(?<=[A-Za-z])(?:\+|[ \t]+\+[ \t]+)(?=[A-Za-z])"
    r"|\b(?:[Ii]n(?=front\b)|[Oo]n(?=top\b))"
)
_MAYBE_SHORTHAND = re.compile(r"[Ww]/|\+|[Ii]nfront|[Oo]ntop")


def _expansion(match: re.Match, text: str) -> str:
    found = match.group(0)
    if found[-1] == "/":  # "w/"
        follows = text[match.end() : match.end() + 1]
        return "with" if not follows or follows.isspace() else "with "
    if "+" in found:
        return " and "
    return found + " "  # "in" of "infront" -> "in " (the rest of the word follows)


def expand_shorthand(text: str) -> tuple[str, list[int] | None]:
    """``text`` with its shorthand written out (see :data:`_SHORTHAND`), and for each
    character of the result the offset of the caption's character it stands for (one more
    entry for the end), so that entity spans still index the caption; ``(text, None)``
    where there is no shorthand. Unlike :func:`clean_alt_text` this changes the length."""
    if not _MAYBE_SHORTHAND.search(text):
        return text, None
    pieces: list[str] = []
    offsets: list[int] = []
    last = 0
    for match in _SHORTHAND.finditer(text):
        pieces.append(text[last : match.start()])
        offsets.extend(range(last, match.start()))
        written = _expansion(match, text)
        pieces.append(written)
        # every written character stands for the first character of what it replaces
        offsets.extend([match.start()] * len(written))
        last = match.end()
    if not pieces:
        return text, None
    pieces.append(text[last:])
    offsets.extend(range(last, len(text) + 1))
    return "".join(pieces), offsets
