"""The agents' side: operations over the Hub (``operations``), their HTTP surface (``http``,
``sse``), MCP (``mcp*``) and the wire models they share with the client (``schemas``).

Nothing is imported here, so the client can import ``crewline.api.schemas`` without loading
the web framework."""
