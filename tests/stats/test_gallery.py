"""The report's gallery: seeded samples, upright images with their boxes drawn, caption, graph
and negatives by kind; rendered by headless Chromium."""

from __future__ import annotations

import base64
import io
import re
import shutil
import subprocess

import pytest
from PIL import Image

from sgprep.stats.gallery import BOX_COLOUR, gallery_html, pick, thumbnail
from tests.train_helpers import RED_BOX, SAMPLES, detections, image_bytes, write_output


@pytest.fixture(scope="module")
def output(tmp_path_factory):
    return write_output(tmp_path_factory.mktemp("gallery") / "out")


def test_a_seeded_sample_of_ok_rows(output):
    keys = [r["key"] for r in pick(output, 4, seed=0)]
    assert len(keys) == 4 and set(keys) <= set(SAMPLES)
    assert keys == [r["key"] for r in pick(output, 4, seed=0)]
    assert {tuple(r["key"] for r in pick(output, 4, seed=s)) for s in range(6)} != {tuple(keys)}
    assert sorted(r["key"] for r in pick(output, 50, seed=1)) == sorted(SAMPLES)


def test_boxes_are_drawn_on_the_upright_image(output):
    """The sideways photo (EXIF orientation 6) is turned before its boxes are drawn, so the
    box frames the red block."""
    png = Image.open(
        io.BytesIO(
            base64.b64decode(
                thumbnail(image_bytes("jpg", sideways=True), detections(1).model_dump())
            )
        )
    )
    assert png.height > png.width  # upright: 40x60, enlarged
    scale = png.width / 40
    x1, y1, x2, y2 = (v * scale for v in RED_BOX)
    assert png.getpixel((int(x1) + 1, int((y1 + y2) / 2)))[:3] == BOX_COLOUR  # the frame
    red = png.getpixel((int((x1 + x2) / 2), int((y1 + y2) / 2 + 6)))
    assert red[0] > 180 and red[1] < 80, "the block is inside the frame"


def test_gallery_shows_caption_graph_and_negatives_by_kind(output):
    page = gallery_html(output, n=6, seed=0)
    assert page.count("<div class='card'>") == 6
    assert page.count('src="data:image/png;base64,') == 6
    assert "swap_object" in page and "replace_object" in page and "no negatives" in page
    assert "a red block number 0" in page and gallery_html(output, n=6, seed=0) == page


def test_report_with_gallery_renders_in_headless_chromium(output, tmp_path):
    from sgprep.stats.report import run_stats

    summary = run_stats(output)
    page = open(summary.report_path, encoding="utf-8").read()
    assert "<h2>Gallery</h2>" in page and "http://" not in page
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install -y chromium)")
    start = page.index("<h2>Gallery</h2>")
    alone = tmp_path / "gallery.html"  # the gallery at the top of the page, to be in the shot
    alone.write_text(page[: page.index("<body>") + 6] + page[start:], encoding="utf-8")
    shot = tmp_path / "gallery.png"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1200,1600",
            f"--screenshot={shot}",
            f"file://{alone}",
        ],
        check=True,
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
    colours = Image.open(shot).convert("RGB").getcolors(maxcolors=1 << 20)
    frames = sum(n for n, c in colours if c == BOX_COLOUR)
    red = sum(n for n, (r, g, b) in colours if r > 200 and g < 40 and b < 40)
    assert frames > 300 and red > 2000, "images and their box frames are drawn"
    assert re.search(r"swap_object", page)
