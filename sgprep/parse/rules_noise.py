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

import html
import re

from sgprep.lexicon import ordered, words

#: Camera makers whose name starts a model code in camera metadata.
CAMERA_MAKERS = ordered("camera_makers")

#: A domain's labels and a file's name are bounded (63 characters is a label's most, 255 a file
#: name's): unbounded, a long run of "a-a-a-..." or "a.a.a..." was read to its end again from
#: each of its words, a time quadratic in its length.
_URL = (
    r"(?:https?://|www\.)\S+"
    r"|\b[\w-]{1,63}(?:\.[\w-]{1,63}){0,10}\.(?:com|org|net|co\.uk|io|de|fr)(?:/\S*)?\b"
)
_FILE = r"\b[\w-]{1,255}\.(?:jpe?g|png|gif|webp|tiff?|bmp|heic|raw|cr2|nef)\b"
#: (``\d{3}\w*`` and not ``\d{3,}\w*``, as ``\d\w*`` in _EXIF: the same words, cut in one way
#: only, so that a failure after them does not try each cut)
_CAMERA_FILE = r"\b(?:IMG|DSC|DSCN|DSCF|DCIM|PXL|MVI)[_-]?\d{3}\w*"
_EXPOSURE = (
    r"\bf/\d+(?:\.\d+)?\b|\b1/\d{2,5}\s?(?:s|sec)?\b|\bISO[\s:]?\d{2,5}\b|\b\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s?mm\b"
    r"|\bEV\s?[+-]\d+(?:\.\d+)?\b|\b\d+(?:\.\d+)?\s?(?:sec|s)\b(?=\s*[,;:|]|$)"
)
#: a maker and the model words after it: caps, digits, "Mark", Roman numerals. Each word is
#: taken as the first of its forms finds it, and kept (``(?=(...))\1``: what a lookahead found
#: is not tried again): the forms overlap ("IV" is caps and a numeral), and a failure after n
#: words (in a full match, or a test added after them) would try each form of each, 2**n ways.
_CAMERA = (
    r"\b(?i:" + "|".join(CAMERA_MAKERS) + r")\b(?:\s+(?=([A-Z0-9][\w-]*\d[\w-]*|[A-Z]{2,}[\w-]*"
    r"|Mark|Mk|[IVX]{1,4}|\d+[\w-]*))\1)+"
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
#: and a stock photo's number ("ID: 123456789"). No two runs of blanks may meet (the
#: dateline's place ends in a letter or a mark, then its blanks; "id\s*(?::\s*)?" and not
#: "id\s*:?\s*"): a failure after n blanks would try each of the n ways to share them, each
#: read to its end (quadratic).
_DATELINE = r"^\s*[A-Z][A-Z.,'-]*(?:[ ]+[A-Z.,'-]+)*\s+[-\u2013\u2014]\s+"
_DATE = (
    _DATELINE + _MONTH + r"\s+\d{1,2}(?:,\s*\d{4})?\s*:"
    r"|\b(?:on\s+)?" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4}\b)?"
    r"|\b(?:in|of|from)\s+(?:the\s+)?(?:1[89]|20)\d{2}s?\b"
    r"(?=\s*(?:[,.;:!?)]|$|(?:in|at|on|and|with|during)\b))"
    r"|\bimage\s+may\s+contain\s*:(?:\s*one\s+or\s+more\b)?|\b(?:photo\s+)?id\s*(?::\s*)?\d{4,}\b"
)
_PLACEHOLDER = r"<[A-Z_]+>"
_NOISE = re.compile("|".join([_URL, _FILE, _CAMERA_FILE, _EXPOSURE]), re.IGNORECASE)
_CREDIT_RE = re.compile("|".join([_CREDIT, _SHOT, _DATE]), re.IGNORECASE)
_CAMERA_RE = re.compile(_CAMERA)  # model codes are upper case or have digits: case matters
_PLACEHOLDER_RE = re.compile(_PLACEHOLDER)
_HASHTAG = re.compile(r"#(?=[A-Za-z])")
#: two hashtags or more that end a caption after its text: tags, not the scene ("... the sea
#: #sunset #sea"); one is a word: "at the #beach". Matched on the caption read backwards, from
#: its end (:func:`_trailing_tags`): ``(?:\s*#[A-Za-z][\w-]*){2,}\s*$`` searched forwards read
#: a run of tags not at the end again from each of its tags (quadratic).
_TRAILING_TAGS_REVERSED = re.compile(r"^\s*(?:[\w-]*[A-Za-z]#\s*){2,}")
_CAPS_WORD = re.compile(r"\b[A-Z][A-Z'&-]*[A-Z]\b")
_SEPARATORS = ",;:|/-"
#: cheap first test: most captions have none of these and skip every regex
_MAYBE = re.compile(
    r"[<#/:©]|www|\d|[A-Z]{2}|\.[A-Za-z]{2,4}\b|\b(?:[Bb]y|[Ss]tock|[Cc]ourtesy|[Cc]redit|"
    r"[Ss]hot|[Tt]aken|[Pp]hotographed|[Ff]ilmed|[Rr]oyalty|[Rr]ights|[Vv]ector|[Cc]lip|\(c\))\b"
)


def _trailing_tags(text: str) -> int | None:
    """Where the hashtags that end ``text`` start (with the blanks before them), or None."""
    found = _TRAILING_TAGS_REVERSED.match(text[::-1])
    return None if found is None else len(text) - found.end()


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
    tags = _trailing_tags(cleaned)
    if tags is not None and any(ch.isalpha() for ch in cleaned[:tags]):
        cleaned = cleaned[:tags] + " " * (len(cleaned) - tags)
    elif tags is not None:  # "#sunset #sea" alone: a list of keywords
        cleaned = cleaned[:tags] + _HASHTAG.sub(",", cleaned[tags:])
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


# ---- web_noise: markup, handles, shop and camera labels (the noise audit) ------------------
#
# Found by the audit of docs/rule-parser.md (web alt-text noise: hand-written), each a
# thing the small model made an entity of. Like clean_alt_text this keeps the caption's length:
# noise is blanked, an HTML entity is written as its character padded with blanks. It runs
# before clean_alt_text, so that a handle after hashtags ("#party #fun @shop") leaves the tags
# at the caption's end.

#: an HTML character entity, escaped once or more ("&amp;", "&amp;amp;", "&#39;", "&#x2019;")
_HTML_ENTITY = r"&(?:amp;)*(?:[a-z]{2,8}|#\d{2,5}|#x[0-9a-f]{2,4});"
#: an HTML tag of text markup ("<br>", "<b>", "</p>", "<br/>"); "<PERSON>" is no tag here
_HTML_TAG = r"</?(?:br|p|b|i|u|em|strong|span|div|a|small|sup|sub|li|ul|ol|h[1-6])\b[^<>]{0,80}/?>"
#: a social handle, with the word that credits it ("via @cats", "by @ink_joe", "follow @x")
_HANDLE = r"(?:\b(?:via|by|from|follow|credit|cc)\s+)?(?<![\w@])@[A-Za-z0-9_][\w.]*\w"
#: a label that names where the picture is from, before a colon ("Photo:", "Source:"), and a
#: stock site's label ("Premium Photo", "Free Vector", "Download this free picture about")
_LABEL = (
    r"(?:^|(?<=[|;,.(]))\s*(?:photo|image|picture|pic|source|credit|via)s?\s*:"
    r"|\b(?:royalty[- ]free|premium|free)\s+(?:stock\s+)?(?:photo|vector|image|psd|picture)s?\b"
    r"(?!\s+of\b)"
    r"|\bdownload\s+(?:(?:this|the)\s*)?(?:free\s+)?(?:photo|picture|image|vector)\s+(?:about|of)\b"
    r"|\bfrom\s+[A-Z]\w+'s\s+(?:\w+\s+)?library\b"
    r"|^\s*(?:photo|image|picture|illustration)\s+about\b|\s[-|]\s*\d{6,}\s*$"
    r"|\b3d\s+(?:render(?:ing)?|illustration|model)\b(?=\s*(?:[,.;|]|$))"
)
#: camera metadata with a label ("Exposure: 1/500 sec", "Focal length: 35mm"), a camera file
#: with a blank in it ("IMG 1234"), a lens filter ("ND filter") and the phone's model after
#: "shot on" ("Shot on iPhone 12 Pro")
_EXIF = (
    r"\b(?:exposure(?:\s+time)?|aperture|focal\s+length|shutter(?:\s+speed)?|iso|lens|camera"
    r"|f-stop|white\s+balance|flash)\s*:(?:\s*[\w./+-]+(?:\s?(?:sec|s|mm)\b)?)?"
    r"|\b(?:IMG|DSC|DSCN|DSCF|PXL)\s\d{3,}\b"
    r"|\b(?:ND|CPL|UV|polari[sz]ing)\d*\s+filter\b"
    r"|\b(?:shot|taken)\s+(?:on|with)\s+(?:an?\s+|my\s+)?(?:iphone|pixel|galaxy|android|huawei)"
    r"(?:\s+(?:\d\w*|pro|max|plus|mini|ultra|xs|xr|se))*\b"
)
#: prices ("$29.99", "£45", "€350,000", "50% OFF"), "for sale", sizes and capacities ("Size
#: 10", "S-XL", "256GB", "77x77 cm", '55"') and product codes of letters and digits
#: ("UN55TU7000"). A price before its currency's name is bounded (31 characters): a run of
#: "1,1,1,..." was read to its end again from each of its digits (quadratic).
_SHOP = (
    r"[$£€¥]\s?\d[\d,.]*(?:\s?(?:k|m|usd|eur))?\b"
    r"|\b\d[\d,.]{0,30}\s?(?:usd|eur|gbp|dollars|euros)\b"
    r"|\b\d{1,3}\s?%\s*off\b|\bfor\s+sale\b|\bfree\s+(?:shipping|delivery)\b"
    r"|\b(?:collection|pick[- ]?up|local\s+pickup)\s+only\b|\bfor\s+rent\b"
    r"|\b(?:in\s+)?(?:great|good|excellent|mint|perfect|used|fair)\s+condition\b"
    r"|\bper\s+(?:month|night|week|day|person)\b"
    r"|\bvisit\s+(?:our|my)\s+(?:\w+\s+)?(?:store|shop|website|site|page|blog)(?:\s+today)?\b"
    r"|\b(?:stock\s+)?(?:photo|image|picture)s?\s+(?:no\.?\s*|#\s*)?\d{5,}\b"
    r"|\bsize\s+\d+(?:\.\d)?\b|\b(?:X{0,3}S|M|X{0,3}L)\s?-\s?X{1,3}L\b"
    r"|\b\d+\s?(?:gb|tb|mb)\b|\b\d+\s?x\s?\d+(?:\s?x\s?\d+)?\s?(?:cm|mm|in|inches|m)\b"
    r"|\b\d+(?:\.\d+)?\s?(?:cm|oz|ml|kg|lbs?)\b|\b\d{2,3}(?:\"|''|-inch\b|\s?inch\b)"
)
#: dates written in numbers ("12/05/2019", "2018-07-14"), a month or season with its year
#: ("July 2019", "Summer 2015:")
_NUMBER_DATE = (
    r"\b\d{1,2}[/.]\d{1,2}[/.](?:\d{4}|\d{2})\b|\b(?:19|20)\d{2}-\d{1,2}-\d{1,2}\b"
    r"|\b(?:(?:in|of|on|during)\s+)?(?:" + _MONTH + r"|spring|summer|autumn|fall|winter)"
    r"\s+(?:of\s+)?(?:19|20)\d{2}\b\s*:?"
)
#: an all-caps cry before "!" or ":" that opens a caption ("SALE!", "WOW!!!", "BREAKING
#: NEWS:", "HOT DEAL!!!"): up to three words
_SHOUT = r"^\s*[A-Z]{2,}(?:\s+[A-Z]{2,}){0,2}\s*(?:!+|:)"
#: stock keywords that name no thing: "... summer vacation travel concept" at a caption's end,
#: a list's keyword for an idea ("success", "concept", "holiday")
ABSTRACT_KEYWORDS = words("abstract_keywords")
_IDEAS = "|".join(sorted(ABSTRACT_KEYWORDS, key=len, reverse=True))
#: (twelve ideas before "concept" at most: a run of them with no "concept" after was read to
#: its end again from each of its words, a time quadratic in its length)
_CONCEPT = (
    r"(?:\b(?:" + _IDEAS + r")\s+){0,12}\bconcepts?\b(?:\s+(?:backgrounds?|banner|wallpaper))?"
    r"(?:\s+(?:stock\s+)?(?:photo|image|picture)s?)?(?=\s*(?:[,.;|]|$))"
    r"|(?<![\w#])#(?:" + _IDEAS + r")\b"  # a hashtag of an idea: "#travel"
)
#: emoji, with the selectors and joiners that go with them, that open or end a caption (the
#: model makes them words of the name next to them: "🌅 sunrise"); one between two words is
#: left, where it may stand inside a phrase ("a red 🚗 car"). What follows the first emoji is
#: one run of emoji and blanks, and a run at the end is tried only where it starts (not after
#: a blank or an emoji): written ``(?:\s*E+)+\s*$``, a run followed by a word was tried in each
#: way of cutting it into groups, 2**n for n emoji (issue 31: 96 s for 22), and from each of
#: its characters.
_EMOJI_CHARS = r"\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D\u20E3"
_EMOJI = rf"[{_EMOJI_CHARS}]"
_EDGE_EMOJI = re.compile(
    rf"^\s*{_EMOJI}[\s{_EMOJI_CHARS}]*|(?<![\s{_EMOJI_CHARS}])\s*{_EMOJI}[\s{_EMOJI_CHARS}]*$"
)
#: a long run of emoji inside the text (16 or more characters: flags are two, a family of
#: four seven): no phrase's word, and spaCy's tokenizer splits such a run one character at a
#: time, in time that grows with the square of its length (990 flags: 0.75 s)
_EMOJI_RUN = re.compile(rf"{_EMOJI}{{16,}}")
#: a stock site's or an image host's name, credited in alt text ("... | Shutterstock",
#: "- 123RF", "via Pinterest"), with the word that credits it and its domain ending
STOCK_SITES = words("stock_sites")
_STOCK_SITE = (
    r"(?:\b(?:via|by|from|on|credit|source)[ :]{1,3})?\b(?:"
    + "|".join(
        re.escape(w).replace(r"\ ", r"\s*") for w in sorted(STOCK_SITES, key=len, reverse=True)
    )
    + r")(?:\.com)?\b(?!\.?\w|/)"  # not inside a domain or a URL ("flickr.com/photos/...")
)
#: cheap first test of the regular expressions: most captions have none of these characters
#: and, lower-cased, none of these words
_WEB_MAYBE = re.compile(r"[&<@:$£€¥%\"!#\d\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF]")
_WEB_MAYBE_WORD = re.compile(
    r"xl\b|filter|sale|concept|premium|free|download|only|visit|library|"
    + "|".join(re.escape(w.split()[0]) for w in sorted(STOCK_SITES))
)
_WEB_NOISE = re.compile(
    "|".join([_HTML_TAG, _HANDLE, _LABEL, _EXIF, _SHOP, _NUMBER_DATE, _CONCEPT, _STOCK_SITE]),
    re.IGNORECASE,
)
_SHOP_CODE = re.compile(r"\b(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d[A-Z0-9]*\d)[A-Z0-9]{7,}\b")
_HTML_ENTITY_RE = re.compile(_HTML_ENTITY, re.IGNORECASE)
_SHOUT_RE = re.compile(_SHOUT)
_LIST_ITEM = re.compile(r"[^,;|]+")


def _entity(match: re.Match) -> str:
    found = written = match.group(0)
    while (unescaped := html.unescape(written)) != written:  # "&amp;amp;" -> "&amp;" -> "&"
        written = unescaped
    if written == "&":  # "salt &amp; pepper" -> "salt  and  pepper"
        written = " and"
    elif written.isspace() or not written.isprintable() or written in '"“”«»':  # "&nbsp;"
        written = " "  # a quote mark would join the word it stands by: 'big"'
    if len(written) > len(found):
        return " " * len(found)
    return written.ljust(len(found))


def _abstract_list_items(text: str) -> str:
    """In a list of keywords (four items or more, split by commas, semicolons or bars, each
    of three words or fewer, with no article), the items that are only ideas are blanked:
    "business, technology, laptop, office, success, concept" keeps laptop and office; a bar
    between two items becomes a semicolon ("dog | puppy | pet"), which the model reads as one."""
    items = list(_LIST_ITEM.finditer(text))
    if len(items) < 4:
        return text
    words = [item.group(0).lower().split() for item in items]
    if any(len(w) > 3 or {"a", "an", "the"} & set(w) for w in words):
        return text
    chars = list(text)
    for item, w in zip(items, words):
        if w and all(word in ABSTRACT_KEYWORDS for word in w):
            chars[item.start() : item.end()] = " " * (item.end() - item.start())
        if item.end() < len(chars) and chars[item.end()] == "|":  # read as a semicolon
            chars[item.end()] = ";"
    return "".join(chars)


#: words that join a phrase: a run of words with none of them is no sentence
_FUNCTION_WORDS = words("phrase_function_words")
_KEYWORD_RUN = re.compile(r"^\s*[A-Za-z]+(?:[ ]+[A-Za-z]+){4,}\s*$")


def _keyword_run(text: str) -> str:
    """A caption of five words or more with no word that joins a phrase, two of them stock
    keywords for an idea, is a list of keywords written with blanks ("travel vacation beach
    sea sand sun holiday"): each blank between two words becomes a comma, in place, so that
    the list is read item by item and not as one compound."""
    words = text.lower().split()
    if len(words) < 5 or len(ABSTRACT_KEYWORDS.intersection(words)) < 2:
        return text
    if _FUNCTION_WORDS.intersection(words) or not _KEYWORD_RUN.match(text):
        return text
    stripped = text.strip()
    start = text.index(stripped)
    body = re.sub(r" (?=[A-Za-z])", ",", stripped)
    return text[:start] + body + text[start + len(stripped) :]


def clean_web_noise(text: str) -> str:
    """``text`` with web markup, handles, shop labels, labelled camera metadata, numeric
    dates and stock keywords blanked in place (rule family ``web_noise``; the same length)."""
    cleaned = text
    if _WEB_MAYBE.search(text) or _WEB_MAYBE_WORD.search(text.lower()):
        cleaned = _HTML_ENTITY_RE.sub(_entity, cleaned)
        cleaned = _SHOUT_RE.sub(_blank, cleaned)
        cleaned = _WEB_NOISE.sub(_blank, cleaned)
        cleaned = _SHOP_CODE.sub(_blank, cleaned)
        cleaned = _EDGE_EMOJI.sub(_blank, cleaned)  # after the tags that end a caption
        cleaned = _EMOJI_RUN.sub(_blank, cleaned)
    listed = _keyword_run(cleaned)
    if listed is not cleaned or sum(map(cleaned.count, ",;|")) >= 3:  # a list of four or more
        cleaned = _abstract_list_items(listed)
    if cleaned != text:
        cleaned = _drop_empty_separators(cleaned)
    assert len(cleaned) == len(text)  # offsets must keep indexing the caption
    return cleaned
