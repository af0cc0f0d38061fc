"""crewline: a chat-platform bot that lets a crew of unattended AI agents reach their human."""

__version__ = "0.1.0"
