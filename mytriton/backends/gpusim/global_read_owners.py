"""Which thread owns the loads of each global element since the program's last barrier, and the
two races across threads that lockstep execution hides (warps run in any order on a GPU):

* read after write: a thread loads an element another thread of its program stored since the
  last barrier (on a GPU the load may run before that store);
* write after read: a thread stores a different value to an element other threads of its
  program loaded since the last barrier (on a GPU those loads may run after the store).

Triton's code does both with replicated values, and must pass: a scalar is loaded by every
thread and stored by thread 0 (``x = tl.load(p); tl.store(p, x + 1)``), and a block smaller
than the threads is loaded by every replica of each element and stored by its owner alone, the
replica whose replicated lane and warp coordinates are all 0: the lowest thread id among them
(``tl.store(X + d, tl.load(X + d) + 1)`` with 64 elements in 128 threads, as in
``test_rebuilt_loads.running_row``: "only a broadcast by every thread is exempt" rejects it).
A replica may load before or after the owner's store, but the global store takes the owner's
copy, which sees its own store in program order. So the loads of an element in one op are one
unit here, owned by their lowest thread (a broadcast by every thread of the program: thread 0):

* a load is a race where another thread stored the element since the last barrier, unless
  that storer is the lowest thread loading it in this op (the owner reading back);
* a store that changes an element is a race unless every load of it since the last barrier
  had the storer as its owner.

A scalar (one element per program in the op: every thread loads it) is owned by warp 0, not
thread 0 alone: warp 0 issues its loads and stores in program order, so thread 0's copy is
read before a later store of any thread of warp 0, and sees an earlier one. Cross entropy
loads the label's logit as a scalar and later writes the gradient over the row, the label's
element by the thread of warp 0 owning it (``patterns_src/rows.py``); a thread of another warp
storing it races as before.

A load issued again in another layout (``layout_values._reissue``) is what this sees: its
threads are not the bound copy's, so a row's element ``e``, owned by thread ``e`` in the bound
load, is loaded again under another owner (and a store between the two loads, or after both,
is checked against both owners).

Not seen, as telling them from the harmless replicas needs tracking where each thread's copy
flows: a replica's copy that reaches memory by another way than a global store (layout
conversions, reductions and scans write every replica's copy to shared memory, so
``v = tl.load(X + d); tl.store(X + d, v + 1)`` followed by ``tl.cumsum(v, 0)[None, :] * t``
races on a GPU); a load in a slice layout whose replicas' copies a broadcast into the parent
layout uses (``v[None, :] * t``) and whose owners store the element; a load re-issued by
threads whose lowest one is each element's bound owner. ``passes/ttg/reissue_fences.py`` orders
re-issued loads whatever this sees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine

#: a thread id fits in TID_BITS bits (a block has at most 1024 threads)
TID_BITS = 11
#: the owner of the loads of an element that threads of several owners loaded
SEVERAL = (1 << TID_BITS) - 1
#: the owner of a scalar's loads (every thread of the program loads it): warp 0, thread 0's
WARP0 = 1024
WARP = 32


def _allowed(owner: np.ndarray, tids: np.ndarray) -> np.ndarray:
    """Whether threads ``tids`` may store (or have stored) an element whose loads ``owner``
    owns: its owner thread, or for a scalar any thread of warp 0."""
    return (owner == tids) | ((owner == WARP0) & (tids < WARP))


def _merge(prior: np.ndarray, new: np.ndarray) -> np.ndarray:
    """The owner of an element's loads by owners ``prior`` then ``new`` (differing): the
    thread that satisfies both where one exists, else SEVERAL."""
    return np.where(
        (prior == WARP0) & (new < WARP),
        new,
        np.where((new == WARP0) & (prior < WARP), prior, SEVERAL),
    )


def load_owners(m: Machine, lanes: np.ndarray, elements: np.ndarray, n: int) -> np.ndarray:
    """Per position (``lanes[i]`` loads ``elements[i]``, lanes ascending, so a program's lanes
    are adjacent), the owner of its load in this op: ``WARP0`` for a scalar (each program's
    lanes load one element), else the lowest thread of its program loading that element."""
    tids = m.tid[lanes]
    progs = m.prog[lanes]
    keys = progs * n + elements
    if ((keys[1:] == keys[:-1]) | (progs[1:] != progs[:-1])).all():  # a scalar
        return np.full_like(tids, WARP0)
    if (keys[1:] > keys[:-1]).all():  # distinct: each position its own loader (most loads)
        return tids
    order = np.argsort(keys, kind="stable")  # a key's lanes stay ascending: its first is lowest
    k = keys[order]
    first = np.ones(len(k), np.bool_)
    first[1:] = k[1:] != k[:-1]
    sorted_tids = tids[order]
    lowest = np.empty_like(tids)
    lowest[order] = sorted_tids[first][np.cumsum(first) - 1]
    return lowest


class ReadOwners:
    """Per element of each (parameter array, element size): ``tag << TID_BITS | owner`` of the
    program's loads since its last barrier (tag: ``GlobalAccessLog``'s interval and program)."""

    def __init__(self) -> None:
        self._read: dict[tuple[int, int], np.ndarray] = {}

    def loaded(
        self,
        m: Machine,
        op: Operation,
        key: tuple[int, int],
        name: str,
        n: int,
        lanes: np.ndarray,
        tags: np.ndarray,
        elements: np.ndarray,
        stores: tuple[np.ndarray, np.ndarray] | None,
    ) -> None:
        """Check the load of ``elements`` by ``lanes`` (flat, one position each) against the
        ``stores`` (tag and thread per element) since the last barrier, then record its owners."""
        lowest = load_owners(m, lanes, elements, n)
        if stores is not None:
            stored, storer = stores
            by = storer[elements]
            race = (stored[elements] == tags) & (by != m.tid[lanes]) & ~_allowed(lowest, by)
            if race.any():
                i = int(np.argmax(race))
                m.fail(
                    op,
                    f"data race: loads element {int(elements[i])} of `{name}`, which thread "
                    f"{int(by[i])} of the program stored since the last barrier: on a GPU the "
                    "load may run before that store (a gpu.barrier must order them)",
                    m.lane_mask(int(lanes[i])),
                )
        read = self._read.get(key)
        if read is None:
            read = self._read[key] = np.zeros(n, np.int64)  # zero pages cost nothing
        prior = read[elements]
        read[elements] = (tags << TID_BITS) | lowest
        several = ((prior >> TID_BITS) == tags) & ((prior & SEVERAL) != lowest)
        if several.any():
            merged = _merge(prior[several] & SEVERAL, lowest[several])
            read[elements[several]] = (tags[several] << TID_BITS) | merged

    def check_store(
        self,
        m: Machine,
        op: Operation,
        key: tuple[int, int],
        name: str,
        lanes: np.ndarray,
        tags: np.ndarray,
        elements: np.ndarray,
        changes: np.ndarray,
    ) -> None:
        """A store by ``lanes`` (flat, one position each) changing an element whose loads since
        the last barrier some other thread owned."""
        read = self._read.get(key)
        if read is None:
            return
        by = read[elements]
        owner = by & SEVERAL
        race = ((by >> TID_BITS) == tags) & ~_allowed(owner, m.tid[lanes]) & changes
        if race.any():
            i = int(np.argmax(race))
            who = (
                "loads owned by several threads of the program read"
                if owner[i] == SEVERAL
                else "a scalar load of every thread of the program read"
                if owner[i] == WARP0
                else f"a load by thread {int(owner[i])} of the program (or its replicas) read"
            )
            m.fail(
                op,
                f"data race: stores a different value to element {int(elements[i])} of "
                f"`{name}`, which {who} since the last barrier: on a GPU that load may run "
                "after this store (a gpu.barrier must order them)",
                m.lane_mask(int(lanes[i])),
            )
