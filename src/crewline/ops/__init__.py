"""Operator tools: ``crewline doctor`` and its platform probes, the demo, the concierge's
evals, health and metrics, the audit log's reader, owners, and log set-up."""
