#!/usr/bin/env python
"""Build a small, real-photo example dataset for sgprep, fully offline.

The photographs are the sample images that ship *inside* the scikit-image wheel
(``skimage.data``); the captions are hand-written in ``captions.jsonl`` next to this
script. Two more photos (``bus``, ``zidane``) are taken from the ultralytics wheel
when that optional package is installed (it is never imported, only located).

Nothing is ever downloaded: an image that is not bundled in the installed package
(scikit-image fetches some of its samples with pooch) is skipped with a message.

Usage::

    python examples/build_dataset.py [--out examples/data] [--no-optional]

Outputs (under --out), all byte-identical on rerun with the same Pillow/pyarrow:

    images/KEY.jpg                       JPEG quality 90 (grayscale photos stay mode L)
    captions.csv                         key,caption,image  (primary caption, image = images/KEY.jpg)
    captions.txt                         one primary caption per line
    img2dataset/00000.tar                img2dataset/webdataset shard: 000000000.jpg/.json/.txt ...
    img2dataset/00000.parquet            key,url,caption,status,error_message,width,height,original_*
    img2dataset/00000_stats.json         img2dataset-style shard stats (duration fixed to 0.0)
    coco/annotations/captions_val2017.json  COCO captions format, all captions per image
    coco/val2017/KEY.jpg

Dependencies: Python stdlib, Pillow, pyarrow, scikit-image (numpy comes with them).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import importlib.util
import io
import json
import re
import sys
import tarfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CAPTIONS = HERE / "captions.jsonl"
DEFAULT_OUT = HERE / "data"

JPEG_QUALITY = 90
SHARD_ID = 0
OOM_SHARD_COUNT = 5  # img2dataset: shard names 00000, 00001, ...
OOM_SAMPLE_PER_SHARD = 4  # img2dataset with number_sample_per_shard=10_000
URL_SCHEMES = {"scikit-image": "skimage", "ultralytics": "ultralytics"}
OPTIONAL_PACKAGES = {"ultralytics"}
KEY_RE = re.compile(r"^[a-z0-9_]+$")


# --------------------------------------------------------------------------- sources
def _skimage_data_dir() -> tuple[Path | None, dict]:
    """Folder holding the images bundled in the scikit-image wheel, and the sha256 registry."""
    try:
        import skimage.data as skdata  # lazy module, cheap; we never call its fetchers
    except Exception as exc:  # not installed or broken
        print(f"  scikit-image not importable ({exc.__class__.__name__}: {exc})", file=sys.stderr)
        return None, {}
    registry = {}
    try:  # private, used only to check that a bundled file is the expected one
        from skimage.data._registry import registry as reg

        registry = dict(reg)
    except Exception:
        pass
    return Path(skdata.data_dir), registry


def _package_dir(name: str) -> Path | None:
    """Install folder of a package, found without importing it (ultralytics imports torch)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def resolve_sources(
    records: list[dict], use_optional: bool
) -> tuple[list[tuple[dict, Path]], list[str]]:
    """Map each caption record to a bundled file; return (found, skip messages)."""
    found, skipped = [], []
    sk_dir, sk_registry = _skimage_data_dir()
    pkg_dirs: dict[str, Path | None] = {}
    for rec in records:
        pkg, fname, key = rec["package"], rec["file"], rec["key"]
        if pkg in OPTIONAL_PACKAGES and not use_optional:
            skipped.append(f"{key}: optional package {pkg} disabled (--no-optional)")
            continue
        if pkg == "scikit-image":
            if sk_dir is None:
                skipped.append(f"{key}: scikit-image not installed")
                continue
            path = sk_dir / fname
            if not path.is_file():
                skipped.append(
                    f"{key}: {fname} is not bundled with this scikit-image (needs a download; not fetched)"
                )
                continue
            expected = sk_registry.get(f"data/{fname}")
            if expected and _sha256(path.read_bytes()) != expected:
                skipped.append(
                    f"{key}: {path} does not match scikit-image's registry hash; skipped"
                )
                continue
        else:
            if pkg not in pkg_dirs:
                pkg_dirs[pkg] = _package_dir(pkg)
            base = pkg_dirs[pkg]
            if base is None:
                skipped.append(f"{key}: optional package {pkg} not installed")
                continue
            path = base / fname
            if not path.is_file():
                skipped.append(f"{key}: {fname} not found in {pkg} at {base}")
                continue
        found.append((rec, path))
    return found, skipped


def load_records(path: Path) -> list[dict]:
    records, seen = [], set()
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            rec = json.loads(line)
            key = rec.get("key")
            if not isinstance(key, str) or not KEY_RE.match(key):
                raise ValueError(f"{path}:{n}: bad key {key!r}")
            if key in seen:
                raise ValueError(f"{path}:{n}: duplicate key {key!r}")
            caps = rec.get("captions")
            if (
                not isinstance(caps, list)
                or not caps
                or not all(isinstance(c, str) and c.strip() for c in caps)
            ):
                raise ValueError(f"{path}:{n}: 'captions' must be a non-empty list of strings")
            if any("\n" in c or "\t" in c for c in caps):
                raise ValueError(f"{path}:{n}: captions must not contain tabs or newlines")
            for field in ("source", "package", "file"):
                if not isinstance(rec.get(field), str):
                    raise ValueError(f"{path}:{n}: missing {field!r}")
            seen.add(key)
            records.append(rec)
    return records


# --------------------------------------------------------------------------- encoding
def encode_jpeg(path: Path) -> tuple[bytes, int, int, str]:
    from PIL import Image

    with Image.open(path) as im:
        im.load()
        if im.mode not in ("RGB", "L"):
            if im.mode in ("RGBA", "LA", "P", "PA"):
                im = im.convert("RGBA")
                bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
                im = Image.alpha_composite(bg, im).convert("RGB")
            elif im.mode.startswith("I;16") or im.mode in ("I", "F"):
                im = im.convert("L")
            else:
                im = im.convert("RGB")
        buf = io.BytesIO()
        # No exif/icc passed: metadata of the source is not copied, output depends only on pixels.
        im.save(
            buf,
            format="JPEG",
            quality=JPEG_QUALITY,
            subsampling=2,
            optimize=False,
            progressive=False,
        )
        return buf.getvalue(), im.width, im.height, im.mode


def make_tar(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in sorted(members):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            info.mode = 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.type = tarfile.REGTYPE
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def make_parquet(rows: list[dict]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema(
        [
            ("key", pa.string()),
            ("url", pa.string()),
            ("caption", pa.string()),
            ("status", pa.string()),
            ("error_message", pa.string()),
            ("width", pa.int64()),
            ("height", pa.int64()),
            ("original_width", pa.int64()),
            ("original_height", pa.int64()),
        ]
    )
    table = pa.Table.from_pylist([{k: r[k] for k in schema.names} for r in rows], schema=schema)
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="snappy")
    return sink.getvalue()


def dumps(obj, indent=None) -> bytes:
    return (json.dumps(obj, indent=indent, ensure_ascii=False) + "\n").encode("utf-8")


# --------------------------------------------------------------------------- writing
class Writer:
    def __init__(self, out: Path):
        self.out = out
        self.written: list[tuple[str, int, str]] = []  # (relpath, size, state)

    def put(self, rel: str, data: bytes) -> None:
        path = self.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_file() and path.read_bytes() == data:
            state = "unchanged"
        else:
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
            state = "written"
        self.written.append((rel, len(data), state))

    def prune(self, rel_dir: str, keep: set[str]) -> list[str]:
        """Remove stale *.jpg files we generated earlier (e.g. an image no longer available)."""
        removed = []
        d = self.out / rel_dir
        if d.is_dir():
            for p in sorted(d.glob("*.jpg")):
                if p.name not in keep:
                    p.unlink()
                    removed.append(f"{rel_dir}/{p.name}")
        return removed


def build(out: Path, captions_path: Path, use_optional: bool) -> int:
    t0 = time.perf_counter()
    records = load_records(captions_path)
    found, skipped = resolve_sources(records, use_optional)
    for msg in skipped:
        print(f"skip  {msg}")
    if not found:
        print("error: no bundled image found (is scikit-image installed?)", file=sys.stderr)
        return 1

    w = Writer(out)
    samples = []
    for idx, (rec, path) in enumerate(found):
        jpg, width, height, mode = encode_jpeg(path)
        samples.append(
            {
                "rec": rec,
                "jpg": jpg,
                "width": width,
                "height": height,
                "mode": mode,
                "i2d_key": f"{SHARD_ID:0{OOM_SHARD_COUNT}d}{idx:0{OOM_SAMPLE_PER_SHARD}d}",
            }
        )

    # 1. plain folder + CSV + TXT (primary caption)
    csv_buf = io.StringIO()
    cw = csv.writer(csv_buf, lineterminator="\n")
    cw.writerow(["key", "caption", "image"])
    txt_lines = []
    for s in samples:
        key, cap = s["rec"]["key"], s["rec"]["captions"][0]
        w.put(f"images/{key}.jpg", s["jpg"])
        cw.writerow([key, cap, f"images/{key}.jpg"])
        txt_lines.append(cap)
    w.put("captions.csv", csv_buf.getvalue().encode("utf-8"))
    w.put("captions.txt", ("\n".join(txt_lines) + "\n").encode("utf-8"))

    # 2. img2dataset layout (webdataset tar + parquet + stats), primary caption
    members, rows = [], []
    for s in samples:
        rec, k = s["rec"], s["i2d_key"]
        meta = {
            "key": k,
            "caption": rec["captions"][0],
            "url": f"{URL_SCHEMES.get(rec['package'], rec['package'])}://{rec['key']}",
            "width": s["width"],
            "height": s["height"],
            "original_width": s["width"],
            "original_height": s["height"],
            "status": "success",
            "error_message": None,
        }
        members += [
            (f"{k}.jpg", s["jpg"]),
            (f"{k}.txt", meta["caption"].encode("utf-8")),
            (f"{k}.json", dumps(meta, indent=4)),
        ]
        rows.append(meta)
    shard = f"{SHARD_ID:0{OOM_SHARD_COUNT}d}"
    w.put(f"img2dataset/{shard}.tar", make_tar(members))
    w.put(f"img2dataset/{shard}.parquet", make_parquet(rows))
    stats = {
        "count": len(samples),
        "successes": len(samples),
        "failed_to_download": 0,
        "failed_to_resize": 0,
        "duration": 0.0,  # fixed so that reruns are byte-identical
        "status_dict": {"success": len(samples)},
    }
    w.put(f"img2dataset/{shard}_stats.json", dumps(stats, indent=4))

    # 3. COCO captions layout, all captions per image
    images, annotations = [], []
    ann_id = 0
    for img_id, s in enumerate(samples, 1):
        rec = s["rec"]
        fname = f"{rec['key']}.jpg"
        w.put(f"coco/val2017/{fname}", s["jpg"])
        images.append(
            {"id": img_id, "file_name": fname, "width": s["width"], "height": s["height"]}
        )
        for cap in rec["captions"]:
            ann_id += 1
            annotations.append({"id": ann_id, "image_id": img_id, "caption": cap})
    coco = {
        "info": {
            "description": "sgprep examples: real photos bundled in PyPI packages",
            "version": "1.0",
        },
        "licenses": [],
        "images": images,
        "annotations": annotations,
    }
    w.put("coco/annotations/captions_val2017.json", dumps(coco, indent=2))

    keep = {f"{s['rec']['key']}.jpg" for s in samples}
    removed = w.prune("images", keep) + w.prune("coco/val2017", keep)

    # report
    print(f"images ({len(samples)}):")
    for s in samples:
        r = s["rec"]
        print(
            f"  {s['i2d_key']}  {r['key']:<22} {s['width']}x{s['height']} {s['mode']:<3} {len(r['captions'])} caption(s)  <- {r['source']}"
        )
    print(f"files under {out}:")
    for rel, size, state in w.written:
        if not (rel.startswith("images/") or rel.startswith("coco/val2017/")):
            print(f"  {rel:<42} {size:>9} B  {state}")
    n_img = sum(1 for rel, _, _ in w.written if rel.endswith(".jpg"))
    n_new = sum(1 for rel, _, st in w.written if rel.endswith(".jpg") and st == "written")
    print(f"  images/*.jpg + coco/val2017/*.jpg          {n_img} files, {n_new} written")
    for rel in removed:
        print(f"  removed stale {rel}")
    print(f"done in {time.perf_counter() - t0:.2f} s")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="output folder (default: examples/data)"
    )
    ap.add_argument("--captions", type=Path, default=DEFAULT_CAPTIONS, help="captions.jsonl to use")
    ap.add_argument(
        "--no-optional",
        action="store_true",
        help="use scikit-image images only, even if ultralytics is installed (same output everywhere)",
    )
    args = ap.parse_args(argv)
    return build(args.out, args.captions, use_optional=not args.no_optional)


if __name__ == "__main__":
    sys.exit(main())
