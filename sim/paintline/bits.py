"""The lowest set bit of a mask of hand positions, as an LLVM count of trailing zeros in
compiled code and as plain Python where the JIT is off."""

from __future__ import annotations

from numba.core.extending import overload
from numba.cpython.unsafe.numbers import trailing_zeros


def lowest_bit(mask):
    """Position of the lowest set bit of a nonzero int64 mask (bit 63 set: negative)."""
    m = int(mask)
    return (m & -m).bit_length() - 1


@overload(lowest_bit)
def _lowest_bit_compiled(mask):
    # One instruction (tzcnt) where a loop testing every position mispredicted where the
    # bits fell (benchmarks/README.md, "A fourth pass over Paint the Line's kernel").
    def impl(mask):
        return trailing_zeros(mask)
    return impl
