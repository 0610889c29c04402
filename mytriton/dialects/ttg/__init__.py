"""The ``ttg`` dialect: layouts of blocks over threads, shared memory, async copies."""
