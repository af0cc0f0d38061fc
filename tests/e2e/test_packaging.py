"""crewline as a user installs it: a wheel built from this checkout, installed in a clean
virtualenv; and the container files that build and run that wheel."""

from __future__ import annotations

import subprocess
import sys
import zipfile
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
    assert "crewline/store/schema/001_initial.sql" in names
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
