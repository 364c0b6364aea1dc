"""Entity-to-box links: how often does an entity get the box it describes?

Reported: the share of entities linked to their own box, the share of captions whose two
linked boxes stand as the predicate says, and the linker's CPU time per graph.

Synthetic scenes: per scene two detector labels, two to three boxes of each at random places
(best score first, scores at random), and a caption about one box of each label, with the
spatial predicate that their boxes really have ("a brown dog to the left of a white cat",
"... on top of ...", "... in front of ..."). The caption is parsed by the rule parser; the
links are scored against the boxes the caption was written about.

Anchor: the same links from labels only (the graph without its relations: each entity takes
the best-scoring free box it names), on the same parsed graphs, in the same run.

    python benchmarks/entity_links.py [--scenes 2000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
from pipeline_core import report  # noqa: E402

LABELS = ["dog", "cat", "car", "bench", "horse", "bird", "chair", "cup"]
COLOURS = ["brown", "white", "black", "red", "blue", "grey"]


def _predicate(s, o, rng: random.Random) -> str | None:
    """A predicate that the subject box ``s`` really has to the object box ``o``."""
    cx = ((s[0] + s[2]) - (o[0] + o[2])) / 2
    cy = ((s[1] + s[3]) - (o[1] + o[3])) / 2
    choices = []
    if abs(cx) > 40:
        choices.append("to the left of" if cx < 0 else "to the right of")
    if abs(cy) > 40:
        choices.append("above" if cy < 0 else "below")
    if abs(s[3] - o[3]) > 40:
        choices.append("in front of" if s[3] > o[3] else "behind")
    return rng.choice(choices) if choices else None


def scenes(n: int, seed: int):
    """(caption, boxes, true box of the subject, true box of the object), n of them."""
    from sgprep.schema import Box

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        a, b = rng.sample(LABELS, 2)
        labels = [a] * rng.randint(2, 3) + [b] * rng.randint(2, 3)
        places = []
        for label in labels:
            x, y = rng.uniform(0, 540), rng.uniform(0, 380)
            places.append((label, (x, y, x + rng.uniform(40, 100), y + rng.uniform(40, 100))))
        scores = sorted((rng.uniform(0.3, 0.95) for _ in places), reverse=True)
        rng.shuffle(places)
        boxes = [
            Box(xyxy=tuple(round(v, 2) for v in xyxy), score=round(p, 5), label=label, cls=0)
            for (label, xyxy), p in zip(places, scores)
        ]
        s = rng.choice([k for k, box in enumerate(boxes) if box.label == a])
        o = rng.choice([k for k, box in enumerate(boxes) if box.label == b])
        predicate = _predicate(boxes[s].xyxy, boxes[o].xyxy, rng)
        if predicate is None:
            continue
        caption = f"a {rng.choice(COLOURS)} {a} {predicate} a {rng.choice(COLOURS)} {b}"
        out.append((caption, boxes, s, o))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    from sgprep.detect.link import direction, link
    from sgprep.parse.rules import RuleParser

    made = scenes(args.scenes, args.seed)
    parser = RuleParser()
    graphs = parser.parse_batch([caption for caption, *_ in made])
    right = {"labels": 0, "relations": 0}
    agree = {"labels": 0, "relations": 0}
    usable = seconds = 0.0
    for graph, (_, boxes, s, o) in zip(graphs, made):
        if not hasattr(graph, "entities") or len(graph.entities) != 2 or not graph.relations:
            continue  # the parse lost an entity or the relation: nothing to score
        usable += 1
        alone = link(graph.model_copy(update={"relations": []}), boxes).boxes
        t = time.process_time()
        links = link(graph, boxes)
        seconds += time.process_time() - t
        placed = links.boxes
        test = direction(graph.relations[0].predicate)
        agree["relations"] += links.agree
        agree["labels"] += test(boxes[alone[0]].xyxy, boxes[alone[1]].xyxy)
        right["labels"] += (alone[0] == s) + (alone[1] == o)
        right["relations"] += (placed[0] == s) + (placed[1] == o)
    report(
        {
            "scenes": len(made),
            "scored": usable,
            "right_by_labels_%": 100 * right["labels"] / (2 * usable),
            "right_with_relations_%": 100 * right["relations"] / (2 * usable),
            "agree_by_labels_%": 100 * agree["labels"] / usable,
            "agree_with_relations_%": 100 * agree["relations"] / usable,
            "us_per_graph": 1e6 * seconds / usable,
        }
    )


if __name__ == "__main__":
    main()
