"""Several replicas on one PostgreSQL: each replica's identity and lanes, and the leases that
keep a single-connection transport on one replica at a time."""
