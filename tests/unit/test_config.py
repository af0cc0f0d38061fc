"""Configuration: file, environment, and a bad key named at start."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewline.config import load_config
from crewline.errors import ConfigError


def test_the_file_then_the_environment_set_the_values(tmp_path: Path) -> None:
    """crewline.toml is read from the data directory; the environment overrides it."""
    (tmp_path / "crewline.toml").write_text(
        'host = "0.0.0.0"\nport = 9000\ntransports = ["memory"]\n[slack]\nmode = "http"\n'
    )
    config = load_config(tmp_path, env={"CREWLINE_PORT": "9100"})
    assert (config.host, config.port, config.transports) == ("0.0.0.0", 9100, ("memory",))
    assert config.section("slack") == {"mode": "http"}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("prot = 80\n", "prot"),
        ('port = "eighty"\n', "port"),
        ("port = 70000\n", "port"),
        ('transports = "slack"\n', "transports"),
        ("slack = 1\n", "slack"),
    ],
)
def test_a_bad_key_is_named(tmp_path: Path, text: str, key: str) -> None:
    """A typo or a wrong type stops the start with the key in the message."""
    (tmp_path / "crewline.toml").write_text(text)
    with pytest.raises(ConfigError) as refused:
        load_config(tmp_path, env={})
    assert refused.value.details["key"] == key
    assert key in refused.value.message


def test_an_unknown_transport_is_named(tmp_path: Path) -> None:
    """Naming a transport crewline does not know fails at start, naming it."""
    from crewline.server import build_transports

    config = load_config(tmp_path, env={"CREWLINE_TRANSPORTS": "memory,carrier-pigeon"})
    with pytest.raises(ConfigError, match="carrier-pigeon"):
        build_transports(config)


def test_json_logs_are_one_object_per_line() -> None:
    """log_format = "json" renders each record as a JSON object with its fields."""
    import json
    import logging

    from crewline.logs import JsonFormatter

    record = logging.LogRecord(
        "crewline.bot.hub", logging.WARNING, __file__, 1, "closed %d windows", (3,), None
    )
    entry = json.loads(JsonFormatter().format(record))
    assert (entry["level"], entry["logger"], entry["message"]) == (
        "WARNING",
        "crewline.bot.hub",
        "closed 3 windows",
    )
