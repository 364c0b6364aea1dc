"""Memory per sample on hostile inputs (issue 36, item 3): the peak RSS of the real command
line on a 1 MB caption, an 88-megapixel PNG and big JPEGs, each against an anchor measured in
the same run.

    python benchmarks/memory.py [--json FILE] [--caption-chars 1000000] [--megapixels 88]
    PYTHONPATH=/path/to/other/checkout python benchmarks/memory.py   # that checkout's code

Each case is one ``python -m sgprep.cli ...`` run (``--workers 1 --sample-timeout 0``) in a
fresh process; its peak RSS is ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` of a wrapper that
runs it: the largest process of the run, a worker included. Each command also runs on a tiny
input (one sentence; a 64 x 64 image): the run's fixed memory (interpreter, spaCy, torch and
the model), the anchor. The figures are the peak above the anchor:

- ``parse`` of a caption of ``--caption-chars`` characters (``--max-caption-chars`` raised to
  let it in), a sentence repeated: bytes above the anchor per character of the caption;
- ``parse --check-images`` of an 8-bit RGB PNG of ``--megapixels`` (``--max-image-pixels``
  lets up to 89.5 in by default) and of a progressive JPEG of it: MB above the anchor, and
  that over the decoded image (``*_over_decoded``: width x height x 3 bytes, the RGB array the
  detector gets);
- ``detect`` (torch on the CPU, YOLOv9-t built from its yaml with seeded random weights, as the
  tests do: nothing is downloaded) of the PNG, of a baseline JPEG of it and of the progressive
  one: the same two figures. A baseline JPEG is decoded at 1/8 of each side (the letterbox
  needs 640 pixels of its 9,380), so it costs little either way; a progressive one also holds
  libjpeg's DCT coefficients of the whole image while it decodes.

The inputs are built here, in a temporary folder (a few seconds; the PNG is written a band of
rows at a time, smooth colour, so the file is 5 % of the pixels and what a run holds above its
anchor is the decoding's). The run takes two to four minutes on two shared cores, most of it
the caption before issue 36.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

#: What the caption is made of: an ordinary sentence, repeated (a caption's worth of graph in
#: every sentence, as a long alt text or a pasted article would give).
SENTENCE = "a man in a red shirt riding a brown horse next to a white fence. "

WRAPPER = (
    "import resource, subprocess, sys, time; t = time.perf_counter(); "
    "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
    "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "sys.stderr.write(done.stderr.decode(errors='replace')[-2000:] if done.returncode else ''); "
    "print(done.returncode, time.perf_counter() - t, u.ru_maxrss)"
)


def _env() -> dict[str, str]:
    """The subprocesses import PYTHONPATH's sgprep when it is set, else this checkout's."""
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH") or str(ROOT)}
    env.setdefault("YOLO_OFFLINE", "1")
    return env


#: Every run: one worker (the peak is that process's), no time budget per sample (the caption
#: took over a minute before issue 36), no progress bar.
RUN_FLAGS = ("--workers", "1", "--sample-timeout", "0", "--no-progress")


def cli_peak(*args: object, env: dict[str, str]) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of one ``sgprep`` run, in a fresh process."""
    command = [*map(str, args), *RUN_FLAGS]
    out = subprocess.run(
        [sys.executable, "-c", WRAPPER, sys.executable, "-m", "sgprep.cli", *command],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),  # not a checkout: PYTHONPATH's sgprep is imported
    )
    code, seconds, rss = out.stdout.split()
    if code != "0":
        raise SystemExit(f"sgprep {' '.join(command)} exited {code}:\n{out.stderr}")
    return int(rss) / 1024, float(seconds)


def write_png(path: Path, width: int, height: int) -> None:
    """An 8-bit RGB PNG of smooth colour, written a row at a time (the benchmark never holds
    the decoded image): the file is a few percent of the pixels, so what a run holds above its
    anchor is the decoding's, not the file's."""
    x = np.arange(width, dtype=np.float32)
    zipper = zlib.compressobj(6)

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n")
        fh.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        for y0 in range(0, height, 256):
            rows = []
            for y in range(y0, min(height, y0 + 256)):
                r = (x * 255 / width).astype(np.uint8)
                g = np.full(width, y * 255 // height, np.uint8)
                b = ((x + y) % 256).astype(np.uint8)
                rows.append(b"\x00" + np.stack([r, g, b], 1).tobytes())
            data = zipper.compress(b"".join(rows))
            if data:
                fh.write(chunk(b"IDAT", data))
        fh.write(chunk(b"IDAT", zipper.flush()))
        fh.write(chunk(b"IEND", b""))


def write_jpeg(path: Path, png: Path, progressive: bool = False) -> None:
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = None
    with Image.open(png) as img:
        img.save(path, format="JPEG", quality=90, progressive=progressive)


def write_small(path: Path) -> None:
    from PIL import Image

    rgb = np.linspace(0, 255, 64 * 64 * 3).astype(np.uint8).reshape(64, 64, 3)
    Image.fromarray(rgb).save(path)


def yolov9t(folder: Path, env: dict[str, str]) -> Path:
    """YOLOv9-t from its yaml with seeded random weights, saved as a .pt (as the tests do)."""
    target = folder / "yolov9t.pt"
    code = (
        "import sys; from sgprep.detect.weights import quiet_environment; quiet_environment(); "
        "import torch; from ultralytics import YOLO; torch.manual_seed(0); "
        "YOLO('yolov9t.yaml').save(sys.argv[1])"
    )
    subprocess.run([sys.executable, "-c", code, str(target)], check=True, env=env,
                   cwd=tempfile.gettempdir(), capture_output=True)  # fmt: skip
    return target


def folder_of(work: Path, name: str, write) -> Path:
    """A folder holding one image (written by ``write(path)``) and its caption."""
    folder = work / name
    folder.mkdir()
    write(folder)
    (folder / "img.txt").write_text(SENTENCE.strip())
    return folder


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--caption-chars", type=int, default=1_000_000)
    ap.add_argument("--megapixels", type=float, default=88.0)
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    side = int(math.sqrt(args.megapixels * 1e6))
    decoded_mb = side * side * 3 / 2**20
    results: dict[str, float] = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sgprep-memory-") as tmp:
        work = Path(tmp)
        env = {**_env(), "SGPREP_CACHE": str(work / "cache"), "YOLO_CONFIG_DIR": str(work / "yolo")}

        # -- a long caption ----------------------------------------------------------------------
        repeats = args.caption_chars // len(SENTENCE) + 1
        captions = {"short": SENTENCE.strip(), "long": (SENTENCE * repeats)[: args.caption_chars]}
        parse = {}
        for name, caption in captions.items():
            table = work / f"{name}.jsonl"
            table.write_text(json.dumps({"key": name, "caption": caption}) + "\n")
            limit = args.caption_chars + 1
            parse[name] = cli_peak("parse", "-i", table, "-o", work / f"out-{name}",
                                   "--max-caption-chars", limit, env=env)  # fmt: skip
        results["caption_chars"] = args.caption_chars
        results["parse_anchor_mb"] = parse["short"][0]
        results["parse_caption_mb"] = parse["long"][0]
        results["parse_caption_s"] = parse["long"][1]
        above = parse["long"][0] - parse["short"][0]
        results["parse_caption_bytes_per_char"] = above * 2**20 / args.caption_chars

        # -- big images --------------------------------------------------------------------------
        png = folder_of(work, "png", lambda f: write_png(f / "img.png", side, side))
        inputs = {
            "small": folder_of(work, "small", lambda f: write_small(f / "img.png")),
            "png": png,
            "jpeg": folder_of(work, "jpeg", lambda f: write_jpeg(f / "img.jpg", png / "img.png")),
            "progressive": folder_of(
                work, "progressive", lambda f: write_jpeg(f / "img.jpg", png / "img.png", True)
            ),
        }
        results["image_megapixels"] = side * side / 1e6
        results["image_decoded_mb"] = decoded_mb
        for name in ("png", "jpeg", "progressive"):
            size = sum(p.stat().st_size for p in inputs[name].glob("img.*g"))
            results[f"{name}_file_mb"] = size / 2**20

        def measure(verb: str, names: tuple[str, ...], *flags) -> None:
            peaks = {
                name: cli_peak(verb, "-i", inputs[name], "-o", work / f"out-{verb}-{name}",
                               *flags, env=env)[0]
                for name in ("small", *names)
            }  # fmt: skip
            results[f"{verb}_anchor_mb"] = peaks["small"]
            for name in names:
                above = peaks[name] - peaks["small"]
                results[f"{verb}_{name}_mb"] = peaks[name]
                results[f"{verb}_{name}_above_mb"] = above
                results[f"{verb}_{name}_over_decoded"] = above / decoded_mb

        measure("parse", ("png", "progressive"), "--check-images")
        weights = yolov9t(work, env)
        flags = ("--weights", weights, "--backend", "torch", "--device", "cpu")
        measure("detect", ("png", "jpeg", "progressive"), *flags)
    results["seconds"] = time.perf_counter() - started
    width = max(map(len, results))
    for name, value in results.items():
        print(f"{name:<{width}}  {value:,.2f}")
    print(json.dumps({k: round(v, 3) for k, v in results.items()}))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
