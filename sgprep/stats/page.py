"""``_meta/report.html``: one self-contained page (plots inlined as base64 PNG, no scripts,
no network), readable offline and attachable to an issue or a data card."""

from __future__ import annotations

import html
from collections import Counter
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from sgprep import __version__
from sgprep.exec.totals import shown_counters
from sgprep.stats import plots

if TYPE_CHECKING:
    import pyarrow as pa

    from sgprep.stats.diversity import Diversity
    from sgprep.stats.report import Summary

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { padding: 0.2em 0.8em; border-bottom: 1px solid #eee; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.grid { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; } figcaption { font-size: 0.85em; color: #555; max-width: 420px; }
.note { color: #555; font-size: 0.9em; }
table.pairs { width: 100%; } table.pairs td { vertical-align: top; width: 44%; }
mark { background: #fde8a6; padding: 0 0.1em; }
h3 { font-size: 1.0em; margin-bottom: 0.2em; }
"""

#: The study whose data properties the report measures against (cited by title and year).
STUDY = (
    'Gurung, Hoffmann and Brox, "Common Data Properties Limit Object-Attribute Binding in '
    'CLIP", 2025'
)


def _e(text: object) -> str:
    return html.escape(str(text))


def _figure(png: str, caption: str) -> str:
    return (
        f'<figure><img alt="{_e(caption)}" src="data:image/png;base64,{png}">'
        f"<figcaption>{_e(caption)}</figcaption></figure>"
    )


def _table(rows: list[tuple[str, object]]) -> str:
    body = "".join(f"<tr><td>{_e(k)}</td><td class='n'>{_e(v)}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _fmt(value: float | None, pct: bool) -> str:
    if value is None:
        return "n/a (no input)"
    return f"{value:.1%}" if pct else f"{value:.2f}"


def _column(ok: pa.Table, name: str) -> list:
    return ok[name].drop_null().to_pylist()


def _counts(values) -> Counter:
    """value -> count, in Arrow (a million rows need no Python loop)."""
    import pyarrow.compute as pc

    counted = pc.value_counts(values.drop_null())
    return Counter(
        dict(zip(counted.field("values").to_pylist(), counted.field("counts").to_pylist()))
    )


def _marked(positive: str, negative: str) -> tuple[str, str]:
    """Both texts, escaped, with the words that differ marked."""
    a, b = positive.split(), negative.split()
    left, right = [], []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for words, lo, hi, out in ((a, i1, i2, left), (b, j1, j2, right)):
            text = _e(" ".join(words[lo:hi]))
            if text:
                out.append(text if op == "equal" else f"<mark>{text}</mark>")
    return " ".join(left), " ".join(right)


def negatives_html(summary: Summary) -> str:
    """Per kind: figures, a seeded sample beside the positives; the refused candidates."""
    from sgprep.stats.negatives import LONG_RATIO

    kinds = summary.negative_kinds
    if not kinds and not summary.rejected:
        return ""
    total = sum(k.negatives for k in kinds) or 1
    head = (
        "<tr><th>kind</th><th>negatives</th><th>share</th><th>length x (mean)</th>"
        f"<th>p90</th><th>longer than {LONG_RATIO:g}x</th><th>template</th></tr>"
    )
    body = "".join(
        f"<tr><td>{_e(k.kind)}</td><td class='n'>{k.negatives:,}</td>"
        f"<td class='n'>{k.negatives / total:.1%}</td><td class='n'>{k.length_ratio:.2f}</td>"
        f"<td class='n'>{k.length_ratio_p90:.2f}</td><td class='n'>{k.long_share:.1%}</td>"
        f"<td class='n'>{k.template_share:.1%}</td></tr>"
        for k in kinds
    )
    parts = [
        "<h2>Hard negatives</h2>",
        "<p class='note'>Length x: characters of the negative over characters of its "
        "positive. A kind whose negatives are systematically longer (or shorter) than their "
        "positives can be told apart by length alone, without the image.</p>",
    ]
    if kinds:
        parts += [
            f"<table>{head}{body}</table>",
            _figure(
                plots.length_ratios(
                    [(k.kind, k.length_ratio, k.length_ratio_p90) for k in kinds], LONG_RATIO
                ),
                "Mean length ratio per kind (bar) and its 90th percentile (tick); "
                "green: as long as the positive, red dashes: counted as long.",
            ),
        ]
    if summary.diversity:
        parts.append(diversity_html(summary.diversity))
    rejected = [(k, f"{v:,}") for k, v in summary.rejected.items()] or [("(none recorded)", "")]
    parts += ["<h3>Candidates refused, by reason</h3>", _table(rejected)]
    if summary.rejected:
        parts.append(
            _figure(
                plots.bars(summary.rejected, "Refused negatives by reason"),
                "Candidate negatives the validity rules refused, by reason.",
            )
        )
    for k in kinds:
        rows = "".join(
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>".format(
                *_marked(e.positive, e.negative), _e(e.realisation or "")
            )
            for e in k.examples
        )
        parts.append(
            f"<h3>{_e(k.kind)}: {len(k.examples)} of {k.negatives:,}, chosen by a "
            "seeded hash</h3><table class='pairs'><tr><th>positive</th>"
            f"<th>negative</th><th>realisation</th></tr>{rows}</table>"
        )
    return "\n".join(parts)


def diversity_html(d: Diversity) -> str:
    """Per kind: captions with such a negative, content words brought in, the text-only
    detector."""
    head = (
        "<tr><th>kind</th><th>negatives</th><th>captions with one</th><th>distinct words "
        "brought in</th><th>commonest word</th><th>its share</th><th>text-only detector</th>"
        "<th>judged pairs</th></tr>"
    )
    body = "".join(
        f"<tr><td>{_e(k.kind)}</td><td class='n'>{k.negatives:,}</td>"
        f"<td class='n'>{_fmt(k.caption_share, True)}</td>"
        f"<td class='n'>{k.distinct_words:,}</td><td>{_e(k.top_word or '-')}</td>"
        f"<td class='n'>{_fmt(k.top_word_share, True)}</td>"
        f"<td class='n'>{_fmt(k.detector_accuracy, True)}</td>"
        f"<td class='n'>{k.detector_pairs:,}</td></tr>"
        for k in [*d.kinds, *([d.overall] if d.overall else [])]
    )
    return (
        "<h3>What the negatives bring in, and what words alone give away</h3>"
        "<p class='note'>Distinct words: content words (spaCy's English stop words and "
        "punctuation left out) of the negatives that their caption does not have; few, or one "
        "word in most negatives, and a model learns the word, not the image. Commonest word: "
        "the one the most negatives of the kind bring in, and the share of them that do. "
        "Text-only detector: a bag-of-words naive Bayes (unigrams and bigrams) trained on the "
        f"pairs of {d.train_captions:,} captions, chosen by seed {d.seed}, picks the negative "
        "of each pair of the other captions: 50% is chance, near 100% means the text gives "
        f"the negative away. Captions with one: of all {d.captions:,} captions.</p>"
        f"<table>{head}{body}</table>"
    )


def report_html(summary: Summary, table: pa.Table, gallery: str = "") -> str:
    """The page; ``gallery``: the gallery section's HTML (``gallery.gallery_html``)."""
    import pyarrow.compute as pc

    from sgprep.stats.gallery import GALLERY_STYLE

    ok = table.filter(pc.equal(table["status"], "ok"))
    per_entity = _counts(pc.list_flatten(ok["attributes_by_entity"]))
    figures = [
        (
            plots.position(summary),
            f"Position against the ranges of {STUDY}: shares with their "
            "favourable direction; attributes per object against the study's base setting of 1.8 "
            f"(green band: 1.8 +/- {plots.ATTRIBUTES_BAND}, sgprep's guide, not the study's).",
        ),
        (
            plots.histogram(_counts(ok["caption_entities"]), "Entities per caption", "entities"),
            "Entities named per caption (ok samples with a graph).",
        ),
        (
            plots.histogram(per_entity, "Attributes per entity", "attributes", cap=6),
            "Attributes bound to each caption entity.",
        ),
    ]
    if summary.detections:  # no plot without data: detect did not run (issue 34)
        figures += [
            (
                plots.histogram(
                    _counts(ok["image_objects"]), "Detected objects per image", "objects"
                ),
                f"Detected objects with score >= {summary.threshold:g} "
                "(ok samples with detections).",
            ),
            (
                plots.share_histogram(
                    _column(ok, "coverage"), "Coverage", "share of detected labels named"
                ),
                "Share of the detected object categories that the caption mentions.",
            ),
        ]
    figures.append(
        (
            plots.histogram(_counts(ok["relations"]), "Relations per caption", "relations"),
            "Relations in each scene graph.",
        )
    )
    if summary.failures:
        figures.append(
            (
                plots.bars(summary.failures, "Failures by stage/reason"),
                "Failed samples by stage and reason.",
            )
        )
    # the counters a user acts on (no sums of ratios: a kind's mean length ratio is beside it)
    counters = {
        f"{stage}: {name}": n
        for stage, c in summary.stages.items()
        for name, n, _ in shown_counters(c, every=False)
    }
    if counters:
        figures.append(
            (
                plots.bars(counters, "Per-stage counters"),
                "Counters reported by each stage, summed over shards (every counter is in the "
                "table below).",
            )
        )
    position_rows = [
        ("multi-object images (higher is better)", _fmt(summary.multi_object_images, True)),
        ("multi-object captions (higher is better)", _fmt(summary.multi_object_captions, True)),
        (
            "attributes per object (study's base 1.8, inverse-U)",
            _fmt(summary.attributes_per_entity, False),
        ),
        ("salient-only captions (lower is better)", _fmt(summary.salient_only, True)),
        ("coverage (mean)", _fmt(summary.coverage, True)),
    ]
    totals = [
        (name, f"{getattr(summary, name):,}")
        for name in ("shards", "samples", "ok", "failed", "graphs", "detections")
    ]
    means = [
        ("entities per caption", _fmt(summary.entities_per_caption, False)),
        ("relations per caption", _fmt(summary.relations_per_caption, False)),
        ("objects per image", _fmt(summary.objects_per_image, False)),
    ]
    stage_rows = [
        (f"{stage}: {name}", text)
        for stage, c in summary.stages.items()
        for name, _, text in shown_counters(c, every=True)
    ] or [("(none recorded)", "")]
    failure_rows = [(k, f"{v:,}") for k, v in summary.failures.items()] or [("(none)", "")]
    from pathlib import Path

    from sgprep.exec.timing import read_timing, timing_lines
    from sgprep.schema import OutputDir

    time_rows = timing_lines(read_timing(OutputDir(Path(summary.root)).meta)) or [
        ("(no shard was timed)", "")
    ]
    grid = "".join(_figure(png, caption) for png, caption in figures[1:])
    warned = "".join(
        f'<p style="color:#8a4b00"><b>warning:</b> {_e(w)}</p>\n' for w in summary.warnings
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>sgprep stats: {_e(summary.root)}</title>
<style>{_STYLE}{GALLERY_STYLE if gallery else ""}</style></head><body>
<h1>sgprep data-property report</h1>
<p class="note">{_e(summary.root)} &middot; sgprep {_e(__version__)} &middot; detection threshold
{summary.threshold:g} &middot; per-sample values in <code>_meta/stats.parquet</code></p>
{warned}<h2>Position against the favourable ranges</h2>
<p class="note">A controlled study ({_e(STUDY)}) found CLIP learns attribute binding only
with many multi-object images and captions, about 1.8 attributes per object (both fewer and more
hurt), and little saliency bias (captions naming only the largest object).</p>
{_table(position_rows)}
{_figure(figures[0][0], figures[0][1])}
<h2>Totals</h2>{_table(totals + means)}
<h2>Distributions, failures and stage counters</h2>
<div class="grid">{grid}</div>
{gallery}
<h2>Failures by stage and reason</h2>{_table(failure_rows)}
<h2>Per-stage counters</h2>{_table(stage_rows)}
<h2>Where the time went</h2>{_table(time_rows)}
{negatives_html(summary)}
</body></html>
"""
