"""While crewline serves, what start-up made is frozen out of the garbage collector's
collections and the youngest generation is collected less often; when the last server of
the process stops, the collector is as it found it (the tests start many servers in one
process, some side by side)."""

from __future__ import annotations

import gc
from contextlib import ExitStack

from crewline.app.server import YOUNG_COLLECTION_THRESHOLD, serving_collections


def test_serving_freezes_start_up_and_stopping_gives_the_collector_back() -> None:
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0, "something else left objects frozen"
    with serving_collections():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (YOUNG_COLLECTION_THRESHOLD, *before[1:])
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_servers_side_by_side_give_it_back_when_the_last_one_stops() -> None:
    before = gc.get_threshold()
    with ExitStack() as first:
        first.enter_context(serving_collections())
        with ExitStack() as second:
            second.enter_context(serving_collections())
            first.close()  # the first stops while the second serves
            assert gc.get_threshold() == (YOUNG_COLLECTION_THRESHOLD, *before[1:])
            assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
