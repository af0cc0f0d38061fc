"""``python -m crewline`` is the ``crewline`` command."""

from crewline.cli import main

raise SystemExit(main())
