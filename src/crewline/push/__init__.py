"""Push delivery to agents: webhooks (registration, signing, one lane per session) and where
a webhook may post (``targets``: public addresses only unless the operator allows networks)."""
