"""``python -m crewline`` is the ``crewline`` command."""

from crewline.app.cli import main

raise SystemExit(main())
