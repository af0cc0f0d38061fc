"""Configuration: file, environment, and a bad key named at start."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewline.config import load_config
from crewline.errors import ConfigError


def test_the_file_then_the_environment_set_the_values(tmp_path: Path) -> None:
    """crewline.toml is read from the data directory; the environment overrides it."""
    (tmp_path / "crewline.toml").write_text(
        'host = "0.0.0.0"\nport = 9000\ntransports = ["memory"]\n[slack]\npost_interval = 2\n'
    )
    config = load_config(tmp_path, env={"CREWLINE_PORT": "9100"})
    assert (config.host, config.port, config.transports) == ("0.0.0.0", 9100, ("memory",))
    assert config.section("slack") == {"post_interval": 2}


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


def test_an_unknown_transport_is_named_with_the_known_ones(tmp_path: Path) -> None:
    """Naming a transport crewline does not know fails when the configuration is read, in
    the environment or the file, naming it and every transport crewline knows."""
    with pytest.raises(ConfigError, match="carrier-pigeon") as refused:
        load_config(tmp_path, env={"CREWLINE_TRANSPORTS": "memory,carrier-pigeon"})
    assert "(known: local, slack, telegram, discord)" in refused.value.message
    (tmp_path / "crewline.toml").write_text('transports = ["slak"]\n')
    with pytest.raises(ConfigError, match="'slak'"):
        load_config(tmp_path, env={})


def test_every_known_transport_has_a_factory() -> None:
    """The names the configuration accepts are exactly the transports that can be built; the
    ones it offers leave out memory, the in-process transport for tests."""
    from crewline.config_schema import ACCEPTED_TRANSPORTS, TRANSPORT_NAMES
    from crewline.transports.registry import FACTORIES

    assert set(ACCEPTED_TRANSPORTS) == set(FACTORIES)
    assert set(ACCEPTED_TRANSPORTS) - set(TRANSPORT_NAMES) == {"memory"}


def test_credentials_enable_their_platform_unless_transports_decides(tmp_path: Path) -> None:
    """Without a transports list, the local inbox and each platform whose token or table is
    given run, each with its reason; a transports list, when set, decides alone."""
    from crewline.transports.registry import enabled_transports

    nothing = load_config(tmp_path, env={})
    assert [(e.name, e.reason) for e in enabled_transports(nothing, env={})] == [
        ("local", "built in; on while transports is not set")
    ]
    env = {"SLACK_BOT_TOKEN": "xoxb-1", "DISCORD_BOT_TOKEN": "t"}
    (tmp_path / "crewline.toml").write_text('[telegram]\nbot_token = "1:a"\n')
    auto = load_config(tmp_path, env=env)
    assert [(e.name, e.reason) for e in enabled_transports(auto, env=env)] == [
        ("local", "built in; on while transports is not set"),
        ("slack", "SLACK_BOT_TOKEN is set"),
        ("telegram", "[telegram] is in crewline.toml"),
        ("discord", "DISCORD_BOT_TOKEN is set"),
    ]
    named = load_config(tmp_path, env={**env, "CREWLINE_TRANSPORTS": "slack"})
    assert [(e.name, e.reason) for e in enabled_transports(named, env=env)] == [
        ("slack", "named in CREWLINE_TRANSPORTS")
    ]


def test_json_logs_are_one_object_per_line() -> None:
    """log_format = "json" renders each record as a JSON object with its fields."""
    import json
    import logging

    from crewline.ops.logs import JsonFormatter

    record = logging.LogRecord(
        "crewline.bot.hub", logging.WARNING, __file__, 1, "closed %d windows", (3,), None
    )
    entry = json.loads(JsonFormatter().format(record))
    assert (entry["level"], entry["logger"], entry["message"]) == (
        "WARNING",
        "crewline.bot.hub",
        "closed 3 windows",
    )


def test_boundary_mid_turn_defaults_to_ask_and_is_set_by_file_then_environment(
    tmp_path: Path,
) -> None:
    """ask by default; "refuse" from crewline.toml; the environment overrides the file."""
    assert load_config(tmp_path, env={}).boundary_mid_turn == "ask"
    (tmp_path / "crewline.toml").write_text('boundary_mid_turn = "refuse"\n')
    assert load_config(tmp_path, env={}).boundary_mid_turn == "refuse"
    overridden = load_config(tmp_path, env={"CREWLINE_BOUNDARY_MID_TURN": "ask"})
    assert overridden.boundary_mid_turn == "ask"


def test_a_bad_boundary_mid_turn_is_named(tmp_path: Path) -> None:
    """Anything but ask or refuse is refused at start, naming the key."""
    (tmp_path / "crewline.toml").write_text('boundary_mid_turn = "sometimes"\n')
    with pytest.raises(ConfigError) as refused:
        load_config(tmp_path, env={})
    assert refused.value.details["key"] == "boundary_mid_turn"


def test_mcp_origins_and_hosts_and_http_timeouts_from_file_then_environment(
    tmp_path: Path,
) -> None:
    """[mcp] and [http]: read, normalised, the environment winning; defaults without them."""
    plain = load_config(tmp_path, env={})
    assert (plain.mcp_allowed_origins, plain.mcp_allowed_hosts) == ((), ())
    assert (plain.http_header_timeout, plain.http_body_timeout) == (10.0, 30.0)
    (tmp_path / "crewline.toml").write_text(
        '[mcp]\nallowed_origins = ["HTTP://Localhost:6274/"]\n'
        'allowed_hosts = ["crewline.example"]\n[http]\nheader_timeout = 5\nbody_timeout = 12.5\n'
    )
    config = load_config(tmp_path, env={"CREWLINE_HTTP_HEADER_TIMEOUT": "2"})
    assert config.mcp_allowed_origins == ("http://localhost:6274",)
    assert config.mcp_allowed_hosts == ("crewline.example",)
    assert (config.http_header_timeout, config.http_body_timeout) == (2.0, 12.5)
    env = {"CREWLINE_MCP_ALLOWED_ORIGINS": "https://a.example, https://b.example:8443"}
    assert load_config(tmp_path, env=env).mcp_allowed_origins == (
        "https://a.example",
        "https://b.example:8443",
    )


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[mcp]\nallowed_origins = ["evil.example"]\n', "mcp.allowed_origins"),
        ('[mcp]\nallowed_origins = ["http://a.example/path"]\n', "mcp.allowed_origins"),
        ('[mcp]\nallowed_origins = "http://a.example"\n', "mcp.allowed_origins"),
        ('[mcp]\nallowed_hosts = ["a b"]\n', "mcp.allowed_hosts"),
        ("[mcp]\norigins = []\n", "mcp.origins"),
        ("[http]\nheader_timeout = 0\n", "http.header_timeout"),
        ('[http]\nbody_timeout = "soon"\n', "http.body_timeout"),
        ("[http]\nbody_timeout = 601\n", "http.body_timeout"),
        ("[http]\nread_timeout = 5\n", "http.read_timeout"),
    ],
)
def test_a_bad_mcp_or_http_setting_is_named(tmp_path: Path, text: str, key: str) -> None:
    (tmp_path / "crewline.toml").write_text(text)
    with pytest.raises(ConfigError) as refused:
        load_config(tmp_path, env={})
    assert refused.value.details["key"] == key
