"""The numba kernels shared by all algorithms (see CONTRIBUTING.md for their rules).

Every kernel module is in this package or imports from it, so this is where
numba's cache loading gets its guard against damaged files (and against
having no folder it can write), before any kernel is compiled or loaded.
"""

from engine import kernel_cache

kernel_cache.guard_damaged_entries()
kernel_cache.compile_without_cache()
