"""Seeded random platform faults for the fakes: each call of the methods a plan covers is
faulted with probability ``rate``, its kind drawn from the kinds the platform really shows."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable


class FaultPlan:
    """A seeded draw per call; what was injected is counted by kind, for the test's report."""

    def __init__(
        self, *, rate: float, seed: int, kinds: Iterable[str], methods: Iterable[str]
    ) -> None:
        self.rate = rate
        self.seed = seed
        self.kinds = tuple(kinds)
        self.methods = frozenset(methods)
        self.injected: Counter[str] = Counter()
        self._rng = random.Random(seed)

    def draw(self, method: str) -> str | None:
        """The fault for this call of ``method``, or None to answer it normally."""
        if method not in self.methods or self._rng.random() >= self.rate:
            return None
        kind = self._rng.choice(self.kinds)
        self.injected[kind] += 1
        return kind
