"""The strategies that perturb a scene graph, one module each: swap, shuffle, replace,
connect (METHOD.md section 3).

Each is a :class:`sgprep.negatives.scene.Strategy` that lists the candidates of its
families for one :class:`sgprep.negatives.scene.Scene`; the stage draws among them by family
weight. A strategy is one line in :data:`STRATEGIES`, its families lines in
:data:`FAMILIES`; its module is imported only when a run uses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgprep.registry import load_entry

if TYPE_CHECKING:
    from sgprep.negatives.scene import Strategy

#: strategy -> "module:Class"
STRATEGIES: dict[str, str] = {
    "swap": "sgprep.negatives.strategies.swap:Swap",
    "shuffle": "sgprep.negatives.strategies.shuffle:Shuffle",
    "replace": "sgprep.negatives.strategies.replace:Replace",
    "connect": "sgprep.negatives.strategies.connect:Connect",
}
#: family (kind) -> strategy it belongs to
FAMILIES: dict[str, str] = {
    "swap_attribute": "swap",
    "swap_object": "swap",
    "shuffle_relation": "shuffle",
    "redraw_relation": "shuffle",
    "replace_attribute": "replace",
    "replace_object": "replace",
    "replace_relation": "replace",
    "connect": "connect",
}


def load_strategy(name: str) -> type[Strategy]:
    """The class of strategy ``name``, its module imported now."""
    return load_entry(STRATEGIES, name, "negatives strategy")
