"""The run's progress: a rich bar on a terminal, a line every few seconds in a log, and the
count of samples done per shard that a failed try takes back."""

from __future__ import annotations

import logging
import time
from collections import Counter

from rich.progress import ProgressColumn
from rich.text import Text

log = logging.getLogger(__name__)


class LineProgress:
    """Progress for logs (stderr not a terminal): one line every ``interval`` seconds."""

    def __init__(self, name: str, total: int, done: int, interval: float):
        self.name, self.total, self.done, self.interval = name, total, done, interval
        self.start = self.last = time.monotonic()
        self.first = done

    def advance(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last >= self.interval:
            self.last = now
            log.info("%s", self.line(now))

    def line(self, now: float) -> str:
        rate = (self.done - self.first) / max(now - self.start, 1e-9)
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        eta = time.strftime("%H:%M:%S", time.gmtime(left)) if left == left else "-"
        share = self.done / self.total if self.total else 1.0
        return (
            f"{self.name}: {self.done:,}/{self.total:,} samples ({share:.1%}), "
            f"{rate:,.0f} samples/s, eta {eta}"
        )


class ShardTally:
    """The progress's count of samples done, kept per shard: a try of a shard that fails
    takes back what it counted, so that the retry does not count its samples twice. A count
    that arrives late from a failed try (through a worker's queue) is dropped: each count
    carries the try it belongs to."""

    def __init__(self, advance):
        self.advance = advance
        self.tries: Counter[int] = Counter()  # failed tries so far, by shard
        self.counted: Counter[int] = Counter()  # by the shard's current try

    def __call__(self, n: int) -> None:
        """``n`` samples done at once (a whole shard, once it is written)."""
        self.advance(n)

    def attempt(self, index: int) -> int:
        return self.tries[index]

    def add(self, index: int, attempt: int, n: int) -> None:
        if attempt == self.tries[index]:
            self.counted[index] += n
            self.advance(n)

    def failed(self, index: int) -> None:
        self.advance(-self.counted.pop(index, 0))
        self.tries[index] += 1


class RateColumn(ProgressColumn):
    """Samples per second since the run started: the rate the summary reports at the end
    (rich's own estimate is over its last seconds, and so differs from it)."""

    def render(self, task) -> Text:
        elapsed = task.elapsed or 0.0
        speed = (task.completed - task.fields.get("first", 0)) / elapsed if elapsed else 0.0
        return Text(f"{speed:,.0f} samples/s" if speed else "- samples/s", style="cyan")
