"""The Ray executor: the same shard tasks, on Ray actors, through the same ``run_shard``.

The driver plans (keys and offsets only), then ships task *indices* to a pool of actors; each
actor builds the stages once (``ShardRunner``), reads its slices of the input itself from the
shared filesystem, writes the shard into the output, and returns only the shard's stats. So
the bytes are those of a local run, whatever the cluster.

An actor declares the resources of its stages (CPUs; GPUs for a stage that wants them, which
Ray then places). At most ``2 x actors`` tasks are in flight (back-pressure: memory stays
bounded). An actor writes a shard only while the output's lock holds its run's token
(``Writer.publishing``): one that outlives a killed driver writes nothing into the next run.
A dead actor is restarted by Ray; a shard that fails is handled by the same shard
ledger as a local run (``exec/ledger.py``): retried, then recorded in
``_meta/failed_shards.json`` with its error while the run finishes the others. A rerun does
only what is missing.
"""

from __future__ import annotations

import logging
import os

from sgprep.exec.ledger import ShardLedger
from sgprep.exec.local import LocalExecutor
from sgprep.exec.plan import Plan
from sgprep.exec.workers import ShardRunner
from sgprep.pipeline import build_stages
from sgprep.schema import ShardStats

log = logging.getLogger(__name__)

#: Restarts of a dead actor: any number (the shard it held goes back to the ledger, which
#: bounds the tries of each shard; an actor that the time budget ended is restarted too).
ACTOR_RESTARTS = -1


class _ShardActor:
    """Holds the stages of one worker; wrapped with ``ray.remote`` by the executor."""

    def __init__(self, config_json: str, plan_json: str, cpus: int, token: str | None):
        from sgprep.config import RunConfig

        logging.basicConfig(level=logging.INFO, format="%(message)s")
        self.runner = ShardRunner(
            RunConfig.model_validate_json(config_json),
            Plan.model_validate_json(plan_json),
            cpus,
            token,
            isolated=True,  # an actor the time budget ends is restarted by Ray
        )

    def run(self, index: int) -> str:
        return self.runner.run(index).model_dump_json()

    def pid(self) -> int:
        return os.getpid()


class RayExecutor(LocalExecutor):
    """``--executor ray``: without ``--ray-address`` a local Ray instance is started;
    ``--ray-address auto`` joins the cluster this machine belongs to."""

    def _workers(self, tasks: int) -> int:
        return max(1, tasks)  # sized against the cluster in _execute_tasks

    def _execute_tasks(
        self, plan: Plan, todo: list[int], workers: int, advance, ledger: ShardLedger
    ):
        import ray

        own = not ray.is_initialized()
        if own:
            address = self.config.ray_address
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                **({} if address else {"num_cpus": self.config.workers or os.cpu_count()}),
            )
        try:
            yield from self._dispatch(ray, plan, todo, advance, ledger)
        finally:
            if own:
                ray.shutdown()

    def _dispatch(self, ray, plan: Plan, todo: list[int], advance, ledger: ShardLedger):
        stages = build_stages(self.config)
        # An actor runs its stages one after another in one process: it needs the CPUs of its
        # largest stage, and a GPU share for every stage that wants one (a vLLM engine and a
        # detector do not share a device's memory).
        cpus = max([1.0] + [s.resources().cpus for s in stages])
        gpus = sum(s.resources().gpus for s in stages if not s.resources().own_actors)
        available = ray.cluster_resources()
        fit = int(available.get("CPU", 0) // cpus)
        if gpus:
            fit = min(fit, int(available.get("GPU", 0) // gpus))
        if fit < 1:
            raise ValueError(
                f"the pipeline's stages want {cpus:g} CPU(s) and {gpus:g} GPU(s) per "
                f"worker and the Ray cluster has {available.get('CPU', 0):g} CPU(s) "
                f"and {available.get('GPU', 0):g} GPU(s)"
            )
        count = max(1, min(fit, len(todo), self.config.workers or len(todo)))
        actor_class = ray.remote(
            num_cpus=cpus, num_gpus=gpus, max_restarts=ACTOR_RESTARTS, max_task_retries=0
        )(_ShardActor)
        config_json, plan_json = self.config.model_dump_json(), plan.model_dump_json()
        # the actor's stages compute on the CPUs it reserved, not on every core of the node
        actors = [
            actor_class.remote(config_json, plan_json, max(1, int(cpus)), self.token)
            for _ in range(count)
        ]
        log.info(
            "ray: %d actor(s), %g CPU and %g GPU each, for %d shard(s)",
            count,
            cpus,
            gpus,
            len(todo),
        )
        queue = list(todo)
        self.plan_counts = {t.index: t.count for t in plan.tasks}
        flying: dict = {}
        idle = list(actors) * 2  # two tasks in flight per actor
        while queue or flying:
            while queue and idle:
                actor, index = idle.pop(), queue.pop(0)
                flying[actor.run.remote(index)] = (actor, index)
            ready, _ = ray.wait(list(flying), num_returns=1)
            actor, index = flying.pop(ready[0])
            idle.append(actor)
            try:
                stats = ShardStats.model_validate_json(ray.get(ready[0]))
            except Exception as exc:  # noqa: BLE001 - the ledger decides
                if self._stuck_in_c(index):  # the time budget ended the actor: go on
                    if not self._gave_up(index, ledger):
                        queue.append(index)
                elif ledger.failure(index, exc):
                    queue.append(index)
                continue
            advance(plan.tasks[index].count)
            yield stats
