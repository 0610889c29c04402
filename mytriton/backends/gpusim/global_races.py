"""Race checks on global memory: which program loaded and which thread stored each element of
the parameter arrays since the program's last barrier.

Lockstep execution runs every load of an op before any store of a later op, which hides the
classic GPU race: warps run in any order, so a thread may load an element after another
thread stored it. Two patterns make the result depend on that order, and fail here:

* several threads of a program store one element the program loaded since its last barrier
  (a read-modify-write done by replicas: a thread that loads after another's store writes the
  value modified twice). One owner thread must store each element, as Triton's code does.
  Replicas of one op that store the value already there are fine (no load can tell);
* a thread stores a different number to an element another thread of its program stored since
  the last barrier (the two stores land in either order).

Across threads of a program, a load of an element another thread stored, and a store changing
an element other threads loaded, since the last barrier, race too; Triton's replicated values
(every thread loads a scalar, thread 0 stores it; the replicas of a small block's element load
it, its owner stores it) must pass: ``global_read_owners.py`` says how loads are owned.

A barrier ends the interval of every program of the batch, even of programs that skip it (which
can only hide a race, never invent one). Programs never race with each other: the grid runs as
if one program after another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.global_read_owners import ReadOwners
from mytriton.backends.gpusim.values import same_number

if TYPE_CHECKING:
    from mytriton.backends.gpusim.machine import Machine

#: the tag of an access is ``interval * PROGRAM_SLOTS + program in the batch``
PROGRAM_SLOTS = 1 << 20


class GlobalAccessLog:
    """Per element of each (parameter array, element size): the tag of the last load, the tag
    and thread of the last store (0: none since the run started), and who owns the loads."""

    def __init__(self) -> None:
        self.interval = 0
        self._loaded: dict[tuple[int, int], np.ndarray] = {}
        self._stored: dict[tuple[int, int], np.ndarray] = {}
        self._storer: dict[tuple[int, int], np.ndarray] = {}
        self._owners = ReadOwners()

    def next_interval(self) -> None:
        """A new batch of programs, or a barrier: forget what every program touched."""
        self.interval += 1

    def _tags(self, m: Machine, lanes: np.ndarray) -> np.ndarray:
        assert m.num_programs < PROGRAM_SLOTS
        return self.interval * PROGRAM_SLOTS + m.prog[lanes]

    @staticmethod
    def _table(
        tables: dict[tuple[int, int], np.ndarray], key: tuple[int, int], n: int, dtype: type
    ) -> np.ndarray:
        table = tables.get(key)
        if table is None:
            table = tables[key] = np.zeros(n, dtype)  # zero pages cost nothing until touched
        return table

    def loaded(
        self,
        m: Machine,
        op: Operation,
        arg: int,
        name: str,
        typed: np.ndarray,
        lanes: np.ndarray,
        elements: np.ndarray,
    ) -> None:
        """Check, then record, that the ``lanes`` load ``elements`` (one row per lane for vector
        accesses)."""
        key = (arg, typed.itemsize)
        loaded = self._table(self._loaded, key, typed.size, np.int64)
        flat = elements.reshape(-1)
        owners = np.repeat(lanes, len(flat) // len(lanes))
        tags = self._tags(m, owners)
        loaded[flat] = tags
        stores = (self._stored[key], self._storer[key]) if key in self._stored else None
        self._owners.loaded(m, op, key, name, typed.size, owners, tags, flat, stores)

    def stored(
        self,
        m: Machine,
        op: Operation,
        arg: int,
        name: str,
        typed: np.ndarray,
        lanes: np.ndarray,
        elements: np.ndarray,
        values: np.ndarray,
    ) -> None:
        """Check, then record, that ``lanes`` store ``values`` to ``elements`` (flattened:
        ``len(elements) // len(lanes)`` consecutive ones per lane)."""
        key = (arg, typed.itemsize)
        loaded = self._table(self._loaded, key, typed.size, np.int64)
        stored = self._table(self._stored, key, typed.size, np.int64)
        storer = self._table(self._storer, key, typed.size, np.int32)
        per_lane = len(elements) // len(lanes)
        owners = np.repeat(lanes, per_lane)
        tags = self._tags(m, owners)
        tids = m.tid[owners].astype(np.int32)
        by_other = (stored[elements] == tags) & (storer[elements] != tids)
        read = loaded[elements] == tags
        changes = ~same_number(typed[elements], values)
        overwrite = by_other & changes
        if overwrite.any():
            i = int(np.argmax(overwrite))
            m.fail(
                op,
                f"data race: overwrites element {int(elements[i])} of `{name}` with a different "
                f"value ({values[i]}) after thread {int(storer[elements[i]])} of the program "
                f"stored {typed[elements[i]]} there since the last barrier: a GPU may run the two "
                "stores in either order",
                m.lane_mask(int(owners[i])),
            )
        if read.any():
            # replicas in this op storing the value already there cannot change what any
            # thread loads; after another op's store, what this one stores may depend on it
            race = read & (by_other | (changes & self._shared_in_op(tags, elements)))
            if race.any():
                i = int(np.argmax(race))
                other = self._other_storer(m, owners, tags, elements, i, int(storer[elements[i]]))
                a, b = sorted((other, int(tids[i])))
                m.fail(
                    op,
                    f"data race: threads {a} and {b} of the program both store "
                    f"element {int(elements[i])} of `{name}`, which the program loaded since its "
                    "last barrier: on a GPU a thread may load it after the other's store, and "
                    "store it modified twice (one owner thread must store each element)",
                    m.lane_mask(int(owners[i])),
                )
        self._owners.check_store(m, op, key, name, owners, tags, elements, changes)
        stored[elements] = tags
        storer[elements] = tids

    @staticmethod
    def _shared_in_op(tags: np.ndarray, elements: np.ndarray) -> np.ndarray:
        """Per position, whether another lane of its program stores the same element."""
        order = np.lexsort((elements, tags))
        t, k = tags[order], elements[order]
        same = (t[1:] == t[:-1]) & (k[1:] == k[:-1])
        shared = np.zeros(len(tags), np.bool_)
        shared[order[1:][same]] = True
        shared[order[:-1][same]] = True
        return shared

    @staticmethod
    def _other_storer(
        m: Machine, owners: np.ndarray, tags: np.ndarray, elements: np.ndarray, i: int, prior: int
    ) -> int:
        """A thread other than position ``i``'s that stores (or stored) its element."""
        same = (tags == tags[i]) & (elements == elements[i]) & (owners != owners[i])
        if same.any():
            return int(m.tid[owners[int(np.argmax(same))]])
        return prior
