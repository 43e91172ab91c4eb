"""Experiments: the studies of the course assignments, tournaments and the report.

One module per job: :mod:`.openings` (varied starting positions),
:mod:`.runner` (games as plain-data tasks run on an executor, resumable rows),
:mod:`.executors` (local processes or a Dask cluster), :mod:`.elo` (ratings),
:mod:`.tournament` (round robin, crosstable), :mod:`.tables` (CSV and Markdown),
:mod:`.charts` (matplotlib, Agg) and one module per study.
"""
