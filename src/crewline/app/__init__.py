"""The composition root and what serves: the server (everything on one ``AsyncExitStack``),
the Bot assembled from the core and its features, the command line and the agents' CLI
verbs, and the serving machinery (window timers, the crew watch, key revocations, transport
start-up, the HTTP edge's timeouts)."""
