"""Software pipelining of loop loads (register prefetch, async copies, TMA).

``async_copies`` is ``ttg-pipeline`` (a K loop's tensor-core dot operands copied into shared
tiles by ``cp.async`` or TMA, ``num_stages - 1`` iterations ahead): it picks the stage count
(the most whose tiles fit: ``shared_fit``) and runs the rewrite's steps, a module each:
``qualify`` (which loops and loads), ``tma_copies``, ``async_dots`` (warpgroup MMAs left in
flight, and their waits), ``copies`` (the tiles, an iteration's copies, the prologue),
``loop_body`` and ``epilogue``. ``loads`` is the opt-in ``tt-pipeline`` (a dot's operands
loaded into registers one iteration early).
"""
