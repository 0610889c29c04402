"""Software pipelining of loop loads (register prefetch, async copies, TMA)."""
