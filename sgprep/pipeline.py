"""Pipelines: the stage registry, from YAML or flags to a checked config, from a config to stages.

A stage is one module and one line in :data:`STAGES`; modules are imported only when used.
:func:`resolve` is the one place where stage settings are validated (against each stage's
``Settings`` model); every way into a run (the verbs, ``sgprep run``, ``api.run``, an executor
given a config) goes through it.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from sgprep.config import RunConfig, flag_of
from sgprep.errors import ModelUnavailable, PipelineError
from sgprep.registry import UnknownEntry, did_you_mean, load_entry

if TYPE_CHECKING:
    from sgprep.exec.stage import Stage

log = logging.getLogger(__name__)

STAGES: dict[str, str] = {
    "parse": "sgprep.parse.stage:ParseStage",
    "detect": "sgprep.detect.stage:DetectStage",
    "negatives": "sgprep.negatives.stage:NegativesStage",
}
#: Corpus steps: each runs once the shards are done, over the whole output (not per shard),
#: and is given in ``stages:`` like a stage, e.g. ``mine-images: {max_per_query: 5}``.
AFTER: dict[str, str] = {
    "mine-images": "sgprep.negatives.mine:MineImagesStep",
}

__all__ = [
    "AFTER",
    "STAGES",
    "PipelineError",
    "build_stages",
    "check_requires",
    "check_stages",
    "input_products",
    "load_pipeline",
    "make_config",
    "resolve",
    "run_after",
    "stage_class",
]


def stage_class(name: str) -> type[Stage]:
    """The stage registered as ``name``; or, for a stage of your own, ``"package.module:Class"``
    (importable wherever the workers run)."""
    from sgprep.exec.stage import Stage

    table = {name: name} if ":" in name and name not in STAGES else STAGES
    try:
        cls = load_entry(table, name, "stage")
    except UnknownEntry as exc:
        raise PipelineError(str(exc)) from None
    except (ImportError, AttributeError) as exc:
        raise PipelineError(f"stage {name!r} cannot be imported: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Stage)):
        raise PipelineError(f"stage {name!r} is not a Stage class")
    return cls


def settings_errors(exc: ValidationError) -> str:
    """pydantic's errors as ``where: what``, without its links."""
    lines = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"]) or "settings"
        lines.append(f"{where}: {error['msg'].removeprefix('Value error, ')}")
    return "; ".join(lines)


def applying(settings: BaseModel) -> dict[str, Any]:
    """The settings as JSON, without those that do not apply to the chosen backend (a Flag's
    ``applies``): what ``run.json`` records and the fingerprint sees."""
    data = settings.model_dump(mode="json")
    for name, field in type(settings).model_fields.items():
        applies = flag_of(field).applies
        if applies is not None and not applies(settings):
            data.pop(name, None)
    return data


def step_class(name: str) -> type:
    """The corpus step registered as ``name`` in :data:`AFTER`."""
    try:
        return load_entry(AFTER, name, "step")
    except UnknownEntry as exc:
        raise PipelineError(str(exc)) from None


def validate_settings(name: str, settings: dict[str, Any]) -> BaseModel:
    model = (step_class(name) if name in AFTER else stage_class(name)).Settings
    unknown = [k for k in settings if k not in model.model_fields]
    if unknown:
        key = unknown[0]
        raise PipelineError(
            f"stage {name!r}: {key!r} is not one of its settings"
            f"{did_you_mean(key, model.model_fields)}"
        )
    try:
        return model.model_validate(settings)
    except ValidationError as exc:
        raise PipelineError(f"stage {name!r}: {settings_errors(exc)}") from None


def resolve(config: RunConfig) -> RunConfig:
    """The config with each stage's settings validated and stored in full (defaults too, so
    the fingerprint sees them), less what does not apply. Idempotent."""
    stages = [
        spec.model_copy(update={"settings": applying(validate_settings(spec.name, spec.settings))})
        for spec in config.stages
    ]
    after = [
        spec.model_copy(
            update={"settings": validate_settings(spec.name, spec.settings).model_dump()}
        )
        for spec in config.after
    ]
    return config.model_copy(update={"stages": stages, "after": after})


def run_after(config: RunConfig) -> dict[str, dict[str, int]]:
    """Run the corpus steps over the finished output; their counters, by step."""
    return {
        spec.name: step_class(spec.name)(validate_settings(spec.name, spec.settings)).run(
            Path(config.output)
        )
        for spec in config.after
    }


def make_config(data: dict[str, Any]) -> RunConfig:
    """A checked config from a mapping of RunConfig fields (stages as ``{"name", "settings"}``)."""
    unknown = [k for k in data if k not in RunConfig.model_fields]
    if unknown:
        key = unknown[0]
        raise PipelineError(
            f"{key!r} is not a run setting{did_you_mean(key, RunConfig.model_fields)}"
        )
    try:
        config = RunConfig.model_validate(data)
    except ValidationError as exc:
        raise PipelineError(f"invalid settings: {settings_errors(exc)}") from None
    return resolve(config)


def build_stages(config: RunConfig) -> list[Stage]:
    """The stage objects, in order (cheap: models load in each stage's setup()). Each gets its
    settings and the run's context (seed, limits)."""
    context = config.context()
    return [
        stage_class(spec.name)(validate_settings(spec.name, spec.settings), context)
        for spec in config.stages
    ]


def check_stages(config: RunConfig) -> RunConfig:
    """Every stage can run here (``Stage.check``), or the run stops before any work with the
    reason. Only a stage the pipeline marks ``optional`` is left out instead, with one
    warning; the summary and ``run.json`` then show the run without it."""
    kept = []
    for spec, stage in zip(config.stages, build_stages(config)):
        try:
            stage.check()
        except ModelUnavailable as exc:
            if not spec.optional:
                raise
            log.warning(
                "optional stage %r cannot run here and is left out of this run: %s", spec.name, exc
            )
            continue
        kept.append(spec)
    if not kept:
        raise PipelineError("no stage of the pipeline can run here (see the warnings above)")
    if len(kept) == len(config.stages):
        return config
    return config.model_copy(update={"stages": kept})


def check_requires(config: RunConfig) -> None:
    """Refuse a pipeline in which a stage needs what neither the input nor an earlier stage
    provides (e.g. ``negatives`` without ``parse`` on raw captions)."""
    have = input_products(config.input)
    for spec in config.stages:
        cls = stage_class(spec.name)
        missing = sorted(cls.requires - have)
        if missing:
            givers = [n for n in STAGES if n != spec.name and set(missing) <= _provides(n)]
            raise PipelineError(
                f"stage {spec.name!r} needs {', '.join(missing)}, which no earlier stage provides "
                f"and the input {config.input!r} does not carry (it is not an sgprep output with "
                f"it); put {' or '.join(repr(g) for g in givers) or 'a stage that provides it'} "
                f"before {spec.name!r}, or read an output that has it"
            )
        have |= cls.provides
    for spec in config.after:
        missing = sorted(step_class(spec.name).requires - have)
        if missing:
            raise PipelineError(
                f"step {spec.name!r} needs {', '.join(missing)}, which no stage of the pipeline "
                f"provides and the input {config.input!r} does not carry; add a stage that does"
            )


def _provides(name: str) -> set[str]:
    try:
        return set(stage_class(name).provides)
    except PipelineError:
        return set()


def input_products(spec: str) -> set[str]:
    """What an earlier sgprep run wrote into this input (``sg``, ``det``, ``neg``), read from
    its saved config: ``DIR/_meta/run.json``, or ``FILE.run.json`` beside a JSONL output."""
    path = Path(spec.split("*")[0] or ".")
    from sgprep.schema import OutputDir

    candidates = [
        OutputDir(path).run_file,
        OutputDir(path.parent).run_file,
        path.with_name(path.stem + ".run.json"),
    ]
    for meta in candidates:
        try:
            config = json.loads(meta.read_text())["config"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        products: set[str] = set()
        for stage in config.get("stages") or []:
            products |= _provides(stage.get("name", ""))
        return products
    return set()


def _yaml_stages(stages: Any) -> list[dict[str, Any]]:
    """``stages:`` as a mapping in run order, or a list of one-key mappings; each stage once."""
    if isinstance(stages, list):
        pairs = []
        for item in stages:
            if not isinstance(item, dict) or len(item) != 1:
                raise PipelineError("each item of a `stages:` list is one `name: {settings}`")
            pairs += list(item.items())
    elif isinstance(stages, dict):
        pairs = list(stages.items())
    else:
        pairs = []
    if not pairs:
        raise PipelineError("a pipeline needs `stages:`, e.g. `stages: {parse: {parser: spacy}}`")
    names = [name for name, _ in pairs]
    for name in names:
        if name not in AFTER:
            stage_class(name)  # unknown names fail here, with a suggestion
        if names.count(name) > 1:
            raise PipelineError(
                f"stage {name!r} is given {names.count(name)} times; a pipeline "
                f"runs each stage once (merge its settings into one entry)"
            )
    specs = []
    for name, settings in pairs:
        settings = dict(settings or {})
        if not isinstance(settings, dict):
            raise PipelineError(f"stage {name!r}: its settings must be a mapping")
        optional = settings.pop("optional", False)
        specs.append({"name": name, "settings": settings, "optional": optional})
    return specs


def follow_file(value: Any, base: Path) -> Any:
    """A path setting written in a file at ``base``: relative paths follow that file. A bare
    name that is not a file there (a hub id, a cached weights name) is kept as it is."""
    if not isinstance(value, str) or not value or os.path.isabs(value):
        return value
    beside = base / value
    if beside.exists() or value.startswith(("./", "../")):
        return str(beside)
    return value


#: The key of :func:`parse_sets`'s answer that holds run settings (``--set seed=3``).
RUN = ""


def parse_sets(sets: list[str] | tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """``["parse.parser=sng", "negatives.per_sample=2"]`` as ``{stage: {key: value}}``; values
    are read as YAML (numbers, booleans, lists). A run setting (``sample_timeout=30``, no
    stage) goes under the key :data:`RUN`."""
    out: dict[str, dict[str, Any]] = {}
    for item in sets:
        where, eq, text = item.partition("=")
        stage, dot, key = where.strip().partition(".")
        if eq and not dot and stage in RunConfig.model_fields:  # a run setting: seed=3
            stage, key = RUN, stage
        elif not eq or not dot or not stage or not key:
            raise PipelineError(
                f"--set {item!r}: write STAGE.SETTING=VALUE, e.g. --set parse.parser=sng, "
                f"or SETTING=VALUE for a run setting, e.g. --set sample_timeout=30"
            )
        import yaml  # here: a run without --set or a pipeline file does without it (35 ms)

        try:
            value = yaml.safe_load(text) if text.strip() else None
        except yaml.YAMLError:
            value = text
        out.setdefault(stage, {})[key] = value
    return out


def load_pipeline(
    path: Path, sets: list[str] | tuple[str, ...] = (), **overrides: Any
) -> RunConfig:
    """A pipeline YAML holds RunConfig fields; relative paths in it (input, output, and every
    path setting of a stage) are relative to the YAML file.

    ``stages`` maps each stage to its settings, in the order they run, e.g.::

        input: ../data/cc12m/*.tar
        output: ../out/cc12m
        stages:
          parse: {parser: llama3, engine: vllm, batch_size: 512}
          detect: {weights: ../weights/yolov9c.pt, optional: true}
          negatives: {strategies: [swap, shuffle]}

    A stage that cannot run here stops the run, unless it says ``optional: true``.
    ``sets`` (``STAGE.SETTING=VALUE``) replace stage settings and ``overrides`` (the command
    line's flags) the file's values; ``None`` means unset.
    """
    import yaml

    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise PipelineError(f"not valid YAML: {exc}") from None
    data = data or {}
    if not isinstance(data, dict):
        raise PipelineError("a pipeline file must be a mapping of settings")
    specs = _yaml_stages(data.pop("stages", None))
    base = path.parent
    for field in ("input", "output"):
        if field in data and not str(data[field]).startswith("/"):
            data[field] = str(base / str(data[field]))
    for spec in specs:
        if spec["name"] in AFTER:
            continue  # no path settings
        fields = stage_class(spec["name"]).Settings.model_fields
        for key, value in spec["settings"].items():
            if key in fields and flag_of(fields[key]).path:
                spec["settings"][key] = follow_file(value, base)
    sets_of = parse_sets(sets)
    data.update(sets_of.pop(RUN, {}))
    for stage, values in sets_of.items():
        spec = next((s for s in specs if s["name"] == stage), None)
        if spec is None:
            import difflib

            names = [s["name"] for s in specs]
            close = difflib.get_close_matches(stage, names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            said = ", ".join(f"{stage}.{k}" for k in values)  # what was typed, whole
            raise PipelineError(
                f"--set {said}: the pipeline has no {stage!r} stage (it has "
                f"{', '.join(names)}){hint}"
            )
        spec["settings"].update(values)
    data["stages"] = [spec for spec in specs if spec["name"] not in AFTER]
    data["after"] = [spec for spec in specs if spec["name"] in AFTER]
    data.setdefault("command", "run")
    data.update({k: v for k, v in overrides.items() if v is not None})
    return make_config(data)
