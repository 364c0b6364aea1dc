"""Errors that several parts of sgprep raise and the command line reports in one line."""

from __future__ import annotations


class ModelUnavailable(RuntimeError):
    """A model (spaCy pipeline, checkpoint, detector weights, LLM weights) cannot be loaded;
    the message names it and says how to supply it offline."""


class PipelineError(ValueError):
    """A pipeline that cannot run as described; the message says why and what to change."""


class RunIncomplete(RuntimeError):
    """A run that finished but did less than asked (e.g. mostly fallback graphs). The message
    lists the problems; ``summary`` holds what was done, as the command line prints it."""

    def __init__(self, problems: list[str], summary):
        super().__init__("\n".join(problems))
        self.problems = problems
        self.summary = summary
