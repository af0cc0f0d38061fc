"""Seeded random platform faults for the fakes: each call of the methods a plan covers is
faulted with probability ``rate``, its kind drawn from the kinds the platform really shows.

A plan faults at least one call by construction: when the draws have spared the first
``within`` calls it covers, the next one is faulted. A test that needs faults to have been
injected (its precondition) then never passes or fails on the seed's luck."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable


class FaultPlan:
    """A seeded draw per call; what was injected is counted by kind, for the test's report."""

    def __init__(
        self,
        *,
        rate: float,
        seed: int,
        kinds: Iterable[str],
        methods: Iterable[str],
        within: int = 5,
    ) -> None:
        self.rate = rate
        self.seed = seed
        self.kinds = tuple(kinds)
        self.methods = frozenset(methods)
        self.within = within
        self.injected: Counter[str] = Counter()
        self._covered = 0  # calls of the covered methods drawn for so far
        self._rng = random.Random(seed)

    def draw(self, method: str) -> str | None:
        """The fault for this call of ``method``, or None to answer it normally."""
        if method not in self.methods:
            return None
        self._covered += 1
        spared = not self.injected and self._covered > self.within
        if self._rng.random() >= self.rate and not spared:
            return None
        kind = self._rng.choice(self.kinds)
        self.injected[kind] += 1
        return kind
