"""Errors that several parts of sgprep raise and the command line reports in one line."""

from __future__ import annotations


class ModelUnavailable(RuntimeError):
    """A model (spaCy pipeline, checkpoint, detector weights, LLM weights) cannot be loaded;
    the message names it and says how to supply it offline."""


class PipelineError(ValueError):
    """A pipeline that cannot run as described; the message says why and what to change."""
