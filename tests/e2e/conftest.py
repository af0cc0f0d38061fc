"""The Crew driver is in tests/driver.py; its fixtures are in tests/conftest.py."""

from tests.driver import Crew

__all__ = ["Crew"]
