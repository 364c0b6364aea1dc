"""Command-line flags made from settings models, so each setting is written once.

A field of a stage's ``Settings`` (or of :class:`~sgprep.config.RunConfig`) becomes one flag:
its name (``batch_size`` -> ``--batch-size``), its help (the field's ``description``, bounds and
default), more names and its help panel (``Annotated[..., Flag("-p", panel="t5")]``). Flags
carry no defaults and no checks of their own: a flag left out is not passed, so the model's
default applies, and every value is checked by the model, the same way as in a pipeline YAML.
"""

from __future__ import annotations

import inspect
import types
from typing import Any, Optional, Union, get_args, get_origin

import annotated_types
import click
import typer
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined
from typer.core import TyperCommand

from sgprep.config import RunConfig, flag_of

RUN_PANEL = "Run options"
#: Table flags that set one entry of ``RunConfig.columns`` each.
COLUMN_FLAGS = {
    "caption_column": (
        "caption",
        "Tables: the caption column (a name, or a 1-based position; default: caption, text, ...).",
    ),
    "key_column": ("key", "Tables: the key column (default: key, id, ...)."),
    "image_column": (
        "image",
        "Tables: the column with image paths (default: image, file_name, ...).",
    ),
    "url_column": ("url", "Tables: the url column, kept as meta.url (default: url)."),
}


METAVARS = {int: "INT", float: "NUMBER", str: "TEXT"}


def flag_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def _base_type(annotation: Any) -> Any:
    """int, float or bool for a field of that type (optional or not); str for anything else
    (text, paths, choices, and lists and mappings written as text)."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        annotation = args[0] if len(args) == 1 else str
    return annotation if annotation in (int, float, bool) else str


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def field_help(field: FieldInfo) -> str:
    """The field's description, its bounds, and its default."""
    parts = [field.description or ""]
    bounds = []
    for item in field.metadata:
        for cls, key, sign in (
            (annotated_types.Ge, "ge", ">="),
            (annotated_types.Gt, "gt", ">"),
            (annotated_types.Le, "le", "<="),
            (annotated_types.Lt, "lt", "<"),
        ):
            if isinstance(item, cls):
                bounds.append(f"{sign} {getattr(item, key)}")
    if bounds:
        parts.append(f"({', '.join(bounds)})")
    if field.default is not PydanticUndefined and field.default is not None:
        parts.append(f"[default: {_shown(field.default)}]")
    elif field.default_factory is not None:
        value = field.default_factory()
        if isinstance(value, list):
            parts.append(f"[default: {_shown(value)}]")
    return " ".join(p for p in parts if p)


def field_params(
    model: type[BaseModel],
    panel: str,
    *,
    skip: frozenset[str] = frozenset(),
    more_names: dict[str, tuple[str, ...]] | None = None,
) -> list[inspect.Parameter]:
    """One keyword parameter per field of ``model`` (typer reads them as options), each
    defaulting to None (unset)."""
    params = []
    for name, field in model.model_fields.items():
        flag = flag_of(field)
        if flag.hidden or name in skip:
            continue
        kind = _base_type(field.annotation)
        names = [flag_name(name), *flag.names, *(more_names or {}).get(name, ())]
        if kind is bool:
            names = [f"{flag_name(name)}/--no-{name.replace('_', '-')}"]
        option = typer.Option(
            None,
            *names,
            help=field_help(field),
            show_default=False,
            rich_help_panel=flag.panel or panel,
            metavar=None if kind is bool else METAVARS[kind],
        )
        params.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=Optional[kind]
            )
        )
    return params


def column_params() -> list[inspect.Parameter]:
    return [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Optional[str],
            default=typer.Option(None, help=text, rich_help_panel=RUN_PANEL),
        )
        for name, (_, text) in COLUMN_FLAGS.items()
    ]


def run_params(
    *, skip: frozenset[str] = frozenset(), more_names: dict[str, tuple[str, ...]] | None = None
) -> list[inspect.Parameter]:
    """The run-level flags (``--output``, ``--shard-size``, ``--seed``, the table columns...)."""
    return field_params(RunConfig, RUN_PANEL, skip=skip, more_names=more_names) + column_params()


def split_values(model: type[BaseModel], values: dict[str, Any]) -> dict[str, Any]:
    """The values given for ``model``'s fields (None: not given)."""
    return {k: v for k, v in values.items() if k in model.model_fields and v is not None}


def run_values(values: dict[str, Any]) -> dict[str, Any]:
    """The RunConfig fields given as flags, the column flags folded into ``columns``."""
    out = split_values(RunConfig, values)
    columns = {role: values[name] for name, (role, _) in COLUMN_FLAGS.items() if values.get(name)}
    if columns:
        out["columns"] = columns
    return out


def flag_errors(exc: Any) -> str:
    """A pydantic ValidationError as ``--flag-name: what is wrong``, one per line, without
    pydantic's links."""
    lines = []
    for error in exc.errors():
        where = ", ".join(flag_name(str(p)) for p in error["loc"]) or "settings"
        lines.append(f"{where}: {error['msg'].removeprefix('Value error, ')}")
    return "; ".join(lines)


def with_signature(func, params: list[inspect.Parameter]):
    """``func(**values)`` with the given parameters as its signature, for typer to read."""
    func.__signature__ = inspect.Signature(params)
    func.__annotations__ = {p.name: p.annotation for p in params}
    return func


class PanelCommand(TyperCommand):
    """Plain help (no rich boxes, so it wraps in narrow terminals) with the options grouped
    under one heading per panel: the run's options, then each engine's."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        groups: dict[str, list[tuple[str, str]]] = {"Arguments": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                panel = "Arguments"
            else:
                panel = getattr(param, "rich_help_panel", None) or "Options"
            groups.setdefault(panel, []).append(record)
        for panel, rows in groups.items():
            if rows:
                with formatter.section(panel):
                    formatter.write_dl(rows)
