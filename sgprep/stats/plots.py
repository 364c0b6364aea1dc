"""The report's figures, drawn with matplotlib (Agg, no display) and returned as base64 PNG."""

from __future__ import annotations

import base64
import io
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sgprep.stats.report import Summary

#: METHOD.md section 4: the controlled study's base setting for attributes per object.
ATTRIBUTES_TARGET = 1.8
#: sgprep's own band around it, drawn to guide the eye; the study gives no band.
ATTRIBUTES_BAND = 0.5
COLOR, GOOD, BAD = "#3b6ea8", "#4c9a5b", "#c8553d"


def _pyplot():
    try:
        import matplotlib
    except ImportError as exc:
        from sgprep.stats.properties import EXTRA_HINT

        raise ImportError(f"{EXTRA_HINT} ({exc})") from exc

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    _pyplot().close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def histogram(counts: Counter, title: str, xlabel: str, cap: int = 10) -> str:
    """Bars of how many samples have 0, 1, ... ``cap``+ of something."""
    plt = _pyplot()
    capped: Counter = Counter()
    for value, n in counts.items():
        capped[min(int(value), cap)] += n
    xs = list(range(cap + 1))
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.bar(xs, [capped[x] for x in xs], color=COLOR)
    ax.set_xticks(xs, [str(x) if x < cap else f"{cap}+" for x in xs])
    ax.set(title=title, xlabel=xlabel, ylabel="count")
    return _png(fig)


def share_histogram(values: list[float], title: str, xlabel: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.hist(values, bins=[i / 10 for i in range(11)], color=COLOR, edgecolor="white")
    ax.set(title=title, xlabel=xlabel, ylabel="samples", xlim=(0, 1))
    return _png(fig)


def bars(items: dict[str, int], title: str) -> str:
    """Horizontal bars, largest first (failures by reason, stage counters)."""
    plt = _pyplot()
    ordered = sorted(items.items(), key=lambda kv: (-kv[1], kv[0]))[:30]
    fig, ax = plt.subplots(figsize=(6, 0.8 + 0.35 * max(len(ordered), 1)))
    if ordered:
        names, values = zip(*ordered)
        ax.barh(range(len(names)), values, color=BAD if "fail" in title.lower() else COLOR)
        ax.set_yticks(range(len(names)), names)
        ax.invert_yaxis()
    else:
        ax.text(0.5, 0.5, "none", ha="center", va="center", transform=ax.transAxes)
        ax.set_yticks([])
    ax.set(title=title, xlabel="count")
    return _png(fig)


def length_ratios(kinds: list[tuple[str, float, float]], long_ratio: float) -> str:
    """Per kind of negative: the mean length ratio (bar) and its 90th percentile (tick),
    against 1 (as long as the positive) and the ratio counted as long."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 0.8 + 0.35 * max(len(kinds), 1)))
    if kinds:
        names, means, p90s = zip(*kinds)
        ys = range(len(names))
        ax.barh(ys, means, color=[BAD if m > long_ratio else COLOR for m in means])
        ax.plot(p90s, ys, "|", color="#222222", markersize=12, label="90th percentile")
        ax.set_yticks(ys, names)
        ax.invert_yaxis()
        ax.legend(loc="lower right", fontsize=8)
    ax.axvline(1.0, color=GOOD, lw=1.5)
    ax.axvline(long_ratio, color=BAD, lw=1, ls="--")
    ax.set(
        title="Negative length / positive length",
        xlabel="ratio (1 = as long)",
        xlim=(0, max([2.0, *(p for *_, p in kinds)]) * 1.05),
    )
    return _png(fig)


def position(summary: Summary) -> str:
    """Where the dataset stands on each property METHOD.md section 4 names, against its
    favourable direction (shares) or the study's base setting (attributes per object)."""
    plt = _pyplot()
    fig, axes = plt.subplots(4, 1, figsize=(7, 5.2))
    shares = [
        ("multi-object images", summary.multi_object_images, True),
        ("multi-object captions", summary.multi_object_captions, True),
        ("salient-only captions", summary.salient_only, False),
    ]
    for ax, (name, value, higher) in zip(axes, shares):
        ax.axvspan(0, 1, color="#eeeeee")
        ax.annotate(
            "",
            xy=(1 if higher else 0, 0.5),
            xytext=(0.5, 0.5),
            arrowprops={"arrowstyle": "->", "color": GOOD, "lw": 2},
        )
        ax.text(0.5, 0.8, "better", color=GOOD, ha="center", fontsize=8)
        _marker(ax, value, f"{value:.0%}" if value is not None else "n/a (no input)")
        ax.set(xlim=(0, 1), yticks=[], title=name)
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:.0%}"))
    ax = axes[3]
    lo, hi = ATTRIBUTES_TARGET - ATTRIBUTES_BAND, ATTRIBUTES_TARGET + ATTRIBUTES_BAND
    ax.axvspan(0, 4, color="#f3dcd6")
    ax.axvspan(lo, hi, color="#d6ecd9")
    ax.axvline(ATTRIBUTES_TARGET, color=GOOD, lw=2)
    ax.text(ATTRIBUTES_TARGET, 0.8, "study's base 1.8", color=GOOD, ha="center", fontsize=8)
    value = summary.attributes_per_entity
    _marker(ax, value, f"{value:.2f}" if value is not None else "n/a (no input)", scale=4)
    ax.set(
        xlim=(0, 4), yticks=[], title="attributes per object (inverse-U: too few and too many hurt)"
    )
    fig.tight_layout()
    return _png(fig)


def _marker(ax, value: float | None, text: str, scale: float = 1.0) -> None:
    if value is None:
        ax.text(0.5 * scale, 0.3, text, ha="center", fontsize=9, color="#666666")
        return
    ax.plot([value], [0.4], marker="v", markersize=14, color=COLOR)
    ax.text(value, 0.05, text, ha="center", fontsize=9, color=COLOR, fontweight="bold")
    ax.set_ylim(0, 1)
