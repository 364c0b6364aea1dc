"""Each seed method's training loop in docs/training.md, run as written (no line of glue) on
an output written by the real ShardWriter, with a tiny torch model; and what the batch's
extras hold."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import pytest

from tests.train_helpers import (
    BLUE_BOX,
    HEIGHT,
    RED_BOX,
    WIDTH,
    to_tensor,
    write_cola_output,
    write_seed_output,
)

torch = pytest.importorskip("torch")
pytest.importorskip("webdataset")

import sgprep.data as sd  # noqa: E402

DOC = Path(__file__).resolve().parent.parent / "docs" / "training.md"
BLOCKS = dict(re.findall(r"```python\n# seed: ([\w-]+)[^\n]*\n(.*?)```", DOC.read_text(), re.S))


@pytest.fixture(scope="module")
def output(tmp_path_factory):
    return write_seed_output(tmp_path_factory.mktemp("seed") / "out")


@pytest.fixture(scope="module")
def cola_output(tmp_path_factory):
    """Images of both bindings, two captions each, mined by the real mine-images step."""
    return write_cola_output(tmp_path_factory.mktemp("cola") / "out")


class TinyModel(torch.nn.Module):
    """Stands in for a CLIP model: pooled pixels for images, hashed words for texts."""

    def __init__(self, dim: int = 16, slots: int = 3):
        super().__init__()
        self.image = torch.nn.Linear(3 * 4 * 4, dim)
        self.slots = torch.nn.Linear(3 * 4 * 4, dim * slots)
        self.region = torch.nn.Linear(3, dim)
        self.words = torch.nn.EmbeddingBag(997, dim)
        self.dim, self.k = dim, slots

    def _pooled(self, images):
        return torch.nn.functional.adaptive_avg_pool2d(images, 4).flatten(1)

    def encode_image(self, images):
        return self.image(self._pooled(images))

    def encode_slots(self, images):
        return self.slots(self._pooled(images)).view(len(images), self.k, self.dim)

    def encode_text(self, texts):
        ids = [[zlib.crc32(w.encode()) % 997 for w in t.split()] or [0] for t in texts]
        offsets = torch.tensor([0] + [len(i) for i in ids[:-1]]).cumsum(0)
        return self.words(torch.tensor([w for i in ids for w in i]), offsets)

    def encode_regions(self, images, boxes):
        """The pixel colour at each box's centre (boxes normalised to the image)."""
        centres = torch.stack([boxes[..., 0] + boxes[..., 2], boxes[..., 1] + boxes[..., 3]], -1)
        grid = (centres - 1).unsqueeze(2)  # (B, N, 1, 2) in [-1, 1]
        colour = torch.nn.functional.grid_sample(images, grid, align_corners=False)
        return self.region(colour.squeeze(-1).transpose(1, 2))


@pytest.mark.parametrize("method", ["negclip", "oc-clip", "comalign", "mosaiclip", "cola"])
def test_each_seed_method_trains_from_the_batch_as_it_is(output, cola_output, method):
    from torch.nn import functional
    from torch.utils.data import DataLoader

    torch.manual_seed(0)
    model = TinyModel()
    before = [p.detach().clone() for p in model.parameters()]
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scope = {"torch": torch, "F": functional, "sd": sd, "DataLoader": DataLoader,
             "OUT": cola_output if method == "cola" else output, "BATCH": 4, "preprocess": to_tensor, "model": model, "opt": opt}  # fmt: skip
    exec(compile(BLOCKS[method], f"docs/training.md:{method}", "exec"), scope)
    assert torch.isfinite(scope["loss"]), method
    if method == "cola":  # the distractor term ran: every caption here has distractors
        assert scope["mask"].all() and scope["mask"].shape[1] == 2
    changed = [not torch.equal(a, b) for a, b in zip(before, model.parameters())]
    assert any(changed), f"{method}: no parameter moved"


def test_the_docs_hold_a_block_per_method():
    assert set(BLOCKS) == {"negclip", "oc-clip", "comalign", "mosaiclip", "cola"}


def test_extras_carry_the_graph_the_entity_and_pair_boxes_and_the_positives(output):
    samples = sorted(sd.webdataset(output, negatives="all", decode=False), key=lambda s: s["key"])
    batch = sd.Collate(extras=[e for e in sd.EXTRAS if e != "distractors"])(
        samples[:2]
    )  # seed0 links both entities, seed1 one
    assert batch["graph"][0]["relations"][0]["predicate"] == "left of"
    red = [v / s for v, s in zip(RED_BOX, (WIDTH, HEIGHT, WIDTH, HEIGHT))]
    blue = [v / s for v, s in zip(BLUE_BOX, (WIDTH, HEIGHT, WIDTH, HEIGHT))]
    assert batch["entity_boxes"].shape == (2, 2, 4)
    assert batch["entity_box_mask"].tolist() == [[True, True], [True, False]]
    assert batch["entity_boxes"][0].flatten().tolist() == pytest.approx(red + blue)
    assert batch["entity_text"] == [["a red block", "a blue ball"]] * 2
    union = [min(red[0], blue[0]), min(red[1], blue[1]), max(red[2], blue[2]), max(red[3], blue[3])]
    assert batch["pair_boxes"][0, 0].tolist() == pytest.approx(union)
    assert batch["pair_box_mask"].tolist() == [[True], [False]]  # seed1's ball has no box
    assert batch["relation_text"][0] == ["a red block left of a blue ball"]
    assert batch["positives"][0] == ["a red block left of a blue ball 0", "a block"]
    assert batch["positive_index"][0] == [0, 0, 1, 1]
    assert batch["negatives"][0][2:] == ["a ball 0", "a ball 1"]
    plain = sd.Collate()(samples[:2])
    assert not {"graph", "entity_boxes", "pair_boxes", "positives"} & set(plain)
    with pytest.raises(ValueError, match="extras="):
        sd.Collate(extras="graph")
    with pytest.raises(ValueError, match="extras="):
        sd.Collate(extras=["boxes"])
