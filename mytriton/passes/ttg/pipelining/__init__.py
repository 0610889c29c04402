"""Software pipelining of loop loads (register prefetch, async copies, TMA).

``async_copies`` is ``ttg-pipeline`` (a K loop's tensor-core dot operands copied into shared
tiles by ``cp.async`` or TMA, ``num_stages - 1`` iterations ahead); ``loads`` is the opt-in
``tt-pipeline`` (a dot's operands loaded into registers one iteration early).
"""
