"""crewline as a user installs it: a wheel built from this checkout, installed in a clean
virtualenv; the container files that build and run that wheel; what ``make demo`` installs
and the licence."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import threading
import tomllib
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from crewline import __version__

ROOT = Path(__file__).resolve().parents[2]


def _run(*command: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.slow
@pytest.mark.timeout(900)  # pip resolves and installs crewline's dependencies: minutes when loaded
def test_the_built_wheel_installs_in_a_clean_venv_and_runs(tmp_path: Path) -> None:
    """`pip install crewline` from the wheel gives a working `crewline` command, with the
    schema and the inbox's page inside, and the `all` extra pipx users name."""
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", tmp_path / "dist", ROOT)
    [wheel] = (tmp_path / "dist").glob("crewline-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"crewline-{__version__}.dist-info/METADATA").decode()
    assert "crewline/store/schema/013_baseline.sql" in names
    assert "crewline/store/schema/013_baseline.postgresql.sql" in names
    assert any(n.startswith("crewline/transports/local/static/") for n in names)
    assert "Provides-Extra: all" in metadata.splitlines()

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv)
    _run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel)
    assert _run(venv / "bin" / "crewline", "--version").strip() == f"crewline {__version__}"
    data = tmp_path / "data"
    # A command that opens the database: the migrations are read from the installed package.
    _run(venv / "bin" / "crewline", "member", "list", "--data-dir", data)
    assert (data / "crewline.db").exists()


def test_the_dockerfile_runs_the_wheel_as_a_non_root_user_with_a_readyz_healthcheck() -> None:
    """The image installs the wheel with every platform, runs as `crewline` on a /data
    volume, and its HEALTHCHECK asks /readyz."""
    lines = [
        line.strip()
        for line in (ROOT / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    stages = [i for i, line in enumerate(lines) if line.startswith("FROM ")]
    assert len(stages) == 2  # the wheel is built in the first, installed in the second
    final = lines[stages[-1] :]
    instructions = {line.split()[0] for line in final}
    assert {"USER", "VOLUME", "HEALTHCHECK", "CMD"} <= instructions
    assert [line for line in final if line.startswith("USER ")] == ["USER crewline"]
    assert '"/data"' in next(line for line in final if line.startswith("VOLUME"))
    assert "/readyz" in next(line for line in final if line.startswith("HEALTHCHECK"))
    assert any("[all]" in line and "pip install" in line for line in final)
    assert "CREWLINE_DATA_DIR=/data" in " ".join(final)


def test_compose_runs_the_image_with_a_data_volume_on_loopback() -> None:
    """compose.yaml builds this checkout, keeps /data in a named volume and publishes the
    port on loopback only."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    service = compose["services"]["crewline"]
    assert service["build"] == "."
    assert service["ports"] == ["127.0.0.1:8765:8765"]
    assert service["volumes"] == ["crewline-data:/data"]
    assert "crewline-data" in compose["volumes"]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_demo_installs_crewline_alone(tmp_path: Path) -> None:
    """``make demo`` installs crewline without extras (no test, bench or platform
    packages) in a virtualenv of its own stamp; ``make test`` still installs the dev
    tools."""

    def planned(target: str) -> list[str]:
        dry = subprocess.run(
            ["make", "-n", target, f"VENV={tmp_path / 'venv'}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return [line for line in dry.stdout.splitlines() if "pip install" in line]

    demo = planned("demo")
    assert demo and demo[-1].endswith("pip install --quiet -e .")
    assert not any("[" in line for line in demo), demo
    assert any("-e '.[dev,bench]'" in line for line in planned("test"))


def test_the_licence_is_the_mit_licence_pyproject_names() -> None:
    """LICENSE is MIT, the crewline authors' of 2026, as pyproject.toml declares."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    text = (ROOT / "LICENSE").read_text()
    assert project["license"] == "MIT"
    assert text.splitlines()[:3] == ["MIT License", "", "Copyright (c) 2026 the crewline authors"]
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


class _Ready(BaseHTTPRequestHandler):
    status = 200

    def do_GET(self) -> None:
        self.send_response(self.status if self.path == "/readyz" else 404)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def _answering(status: int) -> Iterator[int]:
    """A loopback server whose /readyz answers ``status``; yields its port."""
    handler = type("Handler", (_Ready,), {"status": status})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_the_container_health_check_asks_the_port_crewline_listens_on() -> None:
    """The Dockerfile's HEALTHCHECK asks /readyz on $CREWLINE_PORT: healthy where it
    answers 200, unhealthy where it answers 503 (a fixed 8765 would ask another port)."""
    dockerfile = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    [line] = [line for line in dockerfile.splitlines() if line.startswith("HEALTHCHECK")]
    match = re.search(r"\bCMD (\[.*\])\s*$", line)
    assert match is not None, line
    command = json.loads(match[1])
    assert command[:2] == ["python", "-c"]

    def check(port: int) -> int:
        ran = subprocess.run(
            [sys.executable, "-c", command[2]],
            env={"CREWLINE_PORT": str(port)},
            capture_output=True,
            timeout=30,
        )
        return ran.returncode

    with _answering(200) as ready, _answering(503) as not_ready:
        assert (check(ready), check(not_ready) != 0) == (0, True)
