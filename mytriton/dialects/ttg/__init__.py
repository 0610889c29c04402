"""The ``ttg`` dialect: layouts of blocks over threads, shared memory, async copies.

``layouts`` holds the distributed layouts (``#ttg.blocked``, ``#ttg.slice``) and
``ttg.convert_layout``, with ``geometry`` (which thread owns which element); ``shared`` the
shared-memory tiles (``!ttg.memdesc``, ``#ttg.shared``) and their asynchronous copies,
``nvmma`` the swizzled tiles warpgroup MMAs read, ``tma`` the TMA copies and their mbarriers,
``async_dot`` ``ttg.dot_wait``; ``aliases`` prints laid-out IR with ``#blocked = ...``
aliases, and ``dialect`` builds ``TTG`` once.
"""
