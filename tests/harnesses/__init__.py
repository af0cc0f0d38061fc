"""Per-platform harnesses; each module defines ``register(harnesses)`` adding its own."""
