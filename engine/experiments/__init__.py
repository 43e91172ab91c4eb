"""Experiments: the studies of the course assignments, tournaments and the report.

One module per job: :mod:`.openings` (varied starting positions),
:mod:`.games` (a game as a plain-data task of :mod:`engine.tasks`, run on any executor, resumable),
:mod:`.executors` (local processes or a Dask cluster), :mod:`.elo` (ratings),
:mod:`.tournament` (round robin, crosstable), :mod:`.tables` (CSV and Markdown),
:mod:`.charts` (matplotlib, Agg) and one module per study.
"""
