"""Per-sample data properties (METHOD.md section 4), computed in DuckDB over the index parquets.

One row per index row: what the caption mentions (``sg``), what the image holds (``det``), and how
the two meet. A property whose input is missing is null, never zero: without detections there is
no image-object count and no coverage; without a graph there is no caption-side property.

Detector labels meet caption heads (and an entity's last two words, for "teddy bear") through ``synonyms.json`` (WordNet hyponyms of each detector
category, see tools/build_synonyms.py): "man", "girl", "player" all name a "person". A label the
table does not know (an open-vocabulary detector's) is named by itself or its last word.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

#: Detections at or above this confidence count as objects in the image.
DEFAULT_THRESHOLD = 0.25
INDEX_FILE = re.compile(r"^(\d{5,})\.parquet$")

_SG_TYPE = '{"entities":[{"text":"VARCHAR","head":"VARCHAR","attributes":["VARCHAR"]}],"relations":[{"subject":"INTEGER"}]}'
_DET_TYPE = '{"objects":[{"xyxy":"DOUBLE[]","score":"DOUBLE","label":"VARCHAR"}]}'

#: Column -> meaning, in the order written to ``_meta/stats.parquet``.
COLUMNS = {
    "key": "sample key",
    "shard": "shard name, e.g. 00000",
    "status": "ok | failed",
    "stage": "stage that failed (failed samples)",
    "reason": "failure reason key (failed samples)",
    "caption_entities": "entities in the caption's scene graph",
    "multi_object_caption": "the caption names two or more entities",
    "attributes": "attributes over all entities",
    "attributes_per_entity": "mean attributes per entity (null without entities)",
    "attributes_by_entity": "attribute count of each entity",
    "relations": "relations in the scene graph",
    "image_objects": "detected objects at or above the threshold",
    "multi_object_image": "two or more detected objects",
    "image_categories": "distinct detected labels",
    "covered_categories": "detected labels that the caption mentions",
    "coverage": "covered_categories / image_categories (null without a detected object)",
    "largest_label": "label of the largest detected object",
    "salient_only": "of two or more detected labels the caption mentions only the largest's",
}


def stats_schema() -> pa.Schema:
    import pyarrow as pa

    i32, f64, b, s = pa.int32(), pa.float64(), pa.bool_(), pa.string()
    types = {
        "caption_entities": i32,
        "multi_object_caption": b,
        "attributes": i32,
        "attributes_per_entity": f64,
        "attributes_by_entity": pa.list_(i32),
        "relations": i32,
        "image_objects": i32,
        "multi_object_image": b,
        "image_categories": i32,
        "covered_categories": i32,
        "coverage": f64,
        "salient_only": b,
    }
    return pa.schema([(name, types.get(name, s)) for name in COLUMNS])


def index_files(root: Path) -> list[Path]:
    return sorted(p for p in Path(root).iterdir() if p.is_file() and INDEX_FILE.match(p.name))


@lru_cache(maxsize=1)
def synonym_table() -> dict[str, frozenset[str]]:
    """Detector label -> the caption words that name it."""
    text = resources.files("sgprep.stats").joinpath("synonyms.json").read_text(encoding="utf-8")
    return {label: frozenset(words) for label, words in json.loads(text)["labels"].items()}


def _norm(word: str) -> str:
    return " ".join(word.lower().replace("_", " ").split())


def word_forms(word: str) -> set[str]:
    """A head as written and, for a plural the parser left alone, its singular."""
    word = _norm(word)
    forms = {word}
    if word.endswith("ies") and len(word) > 4:
        forms.add(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        forms.add(word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        forms.add(word[:-1])
    return forms


def label_words(label: str) -> set[str]:
    label = _norm(label)
    known = synonym_table().get(label)
    if known is not None:
        return set(known)
    return word_forms(label) | word_forms(label.split()[-1]) if label else set()


def head_label_pairs(heads: list[str], labels: list[str]) -> list[tuple[str, str]]:
    """(head, label) for every caption head that names a detected label."""
    by_word: dict[str, set[str]] = {}
    for label in labels:
        for word in label_words(label):
            by_word.setdefault(word, set()).add(label)
    pairs = []
    for head in heads:
        named = set().union(*(by_word.get(form, set()) for form in word_forms(head)))
        pairs.extend((head, label) for label in sorted(named))
    return pairs


EXTRA_HINT = 'sgprep stats and sgprep filter need the stats extra: pip install "sgprep[stats]"'


def connect(threads: int | None = None) -> duckdb.DuckDBPyConnection:
    try:
        import duckdb
    except ImportError as exc:
        raise ImportError(f"{EXTRA_HINT} ({exc})") from exc

    con = duckdb.connect()
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    return con


def arrow_table(result) -> pa.Table:
    """The result as a pyarrow Table (duckdb 2 renamed fetch_arrow_table to to_arrow_table)."""
    fetch = getattr(result, "to_arrow_table", None) or result.arrow
    return fetch()


def compute(
    root: Path, threshold: float = DEFAULT_THRESHOLD, con: duckdb.DuckDBPyConnection | None = None
) -> pa.Table:
    """The property table of an sgprep output directory, one row per index row."""
    import pyarrow as pa

    files = index_files(root)
    if not files:
        return stats_schema().empty_table()
    con = con or connect()
    con.execute(
        "CREATE OR REPLACE TEMP TABLE parsed AS SELECT "
        "regexp_extract(filename, '(\\d+)\\.parquet$', 1) AS shard, "
        "file_row_number AS rownum, key, status, stage, reason, "
        f"from_json(sg, '{_SG_TYPE}') AS g, from_json(det, '{_DET_TYPE}') AS d "
        "FROM read_parquet($files, filename = true, file_row_number = true)",
        {"files": [str(f) for f in files]},
    )
    con.execute(
        "CREATE OR REPLACE TEMP TABLE base AS SELECT shard, rownum, key, status, stage, reason, g, "
        "d IS NOT NULL AS has_det, "
        "list_concat(list_transform(g.entities, lambda e: lower(trim(e.head))), "
        # the entity's last two words too: "teddy bear", "hot dog", "cell phone" name a label
        "list_transform(list_filter(g.entities, lambda e: contains(trim(e.text), ' ')), "
        "lambda e: lower(array_to_string(string_split(trim(e.text), ' ')[-2:], ' ')))) AS heads, "
        "list_filter(d.objects, lambda o: o.score >= $t) AS objs FROM parsed",
        {"t": threshold},
    )
    con.execute("DROP TABLE parsed")
    heads = [
        r[0]
        for r in con.execute(
            "SELECT DISTINCT h FROM (SELECT unnest(heads) AS h FROM base) WHERE h IS NOT NULL"
        ).fetchall()
    ]
    labels = [
        r[0]
        for r in con.execute(
            "SELECT DISTINCT l FROM (SELECT lower(unnest(objs).label) AS l FROM base) "
            "WHERE l IS NOT NULL"
        ).fetchall()
    ]
    pairs = head_label_pairs(heads, labels)
    names = pa.table(
        {"head": [h for h, _ in pairs], "label": [lb for _, lb in pairs]},
        schema=pa.schema([("head", pa.string()), ("label", pa.string())]),
    )
    con.register("head_label", names)
    table = arrow_table(con.sql(_PROPERTIES_SQL)).cast(stats_schema())
    con.unregister("head_label")
    con.execute("DROP TABLE base")
    return table


_PROPERTIES_SQL = """
WITH named AS (
    SELECT shard, rownum, list(DISTINCT hl.label) AS labels
    FROM (SELECT shard, rownum, unnest(heads) AS head FROM base) h
    JOIN head_label hl USING (head)
    GROUP BY shard, rownum
), img AS (
    SELECT b.*, n.labels AS named_labels,
        list_distinct(list_transform(b.objs, lambda o: lower(o.label))) AS categories,
        list_max(list_transform(b.objs, lambda o: struct_pack(
            area := (o.xyxy[3] - o.xyxy[1]) * (o.xyxy[4] - o.xyxy[2]),
            label := lower(o.label)))).label AS largest
    FROM base b LEFT JOIN named n USING (shard, rownum)
), cov AS (
    SELECT *, CASE WHEN g IS NULL OR NOT has_det THEN NULL
                   ELSE list_intersect(categories, coalesce(named_labels, []::VARCHAR[])) END
              AS covered
    FROM img
)
SELECT
    key, shard, status, stage, reason,
    len(g.entities)::INTEGER AS caption_entities,
    len(g.entities) >= 2 AS multi_object_caption,
    list_sum(list_transform(g.entities, lambda e: len(e.attributes)))::INTEGER AS attributes,
    CASE WHEN len(g.entities) > 0 THEN
        list_sum(list_transform(g.entities, lambda e: len(e.attributes))) / len(g.entities) END
        AS attributes_per_entity,
    list_transform(g.entities, lambda e: len(e.attributes)::INTEGER) AS attributes_by_entity,
    len(g.relations)::INTEGER AS relations,
    CASE WHEN has_det THEN len(objs)::INTEGER END AS image_objects,
    CASE WHEN has_det THEN len(objs) >= 2 END AS multi_object_image,
    CASE WHEN has_det THEN len(categories)::INTEGER END AS image_categories,
    len(covered)::INTEGER AS covered_categories,
    CASE WHEN len(categories) > 0 THEN len(covered) / len(categories) END AS coverage,
    largest AS largest_label,
    CASE WHEN len(categories) >= 2 AND covered IS NOT NULL
         THEN len(covered) = 1 AND covered[1] = largest END AS salient_only
FROM cov
ORDER BY shard, rownum
"""
