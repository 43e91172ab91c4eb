"""Benchmarks behind ``python -m engine bench``: one module per benchmark.

Each prints figures (rates, times, ratios) for the closing notes of issues and
for the docs; none asserts anything, because timings depend on the machine.
"""
