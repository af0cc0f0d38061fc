"""The lemmatiser's dictionary is read when a question is first read, never at import."""

from __future__ import annotations

import subprocess
import sys

_IMPORT_THE_SERVER = """
import simplemma

read = []
lemmatize = simplemma.lemmatize
simplemma.lemmatize = lambda *a, **k: read.append(a) or lemmatize(*a, **k)
import crewline.app.assembly, crewline.app.scheduler  # noqa: E401
from crewline.policy.lemmas import lemma

assert read == [], read
assert lemma("took") == "take"
assert read
"""


def test_importing_the_server_reads_no_dictionary() -> None:
    """A table built from lemmas at import would hold the dictionary (about 20 MiB) in every
    process that imports the Hub, the CLI included, whether it judges a question or not."""
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_THE_SERVER], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
