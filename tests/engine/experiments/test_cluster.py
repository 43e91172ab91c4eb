"""The runner on a Dask cluster: the same seed gives the same rows as local processes."""

from __future__ import annotations

import csv

import distributed  # the cluster extra, part of requirements-dev.txt


def _untimed(path):
    with path.open() as source:
        return [{k: v for k, v in row.items() if "_ms" not in k} for row in csv.DictReader(source)]


def test_tournament_on_a_local_cluster_matches_a_local_run(cli, tmp_path):
    same = ["tournament", "random", "greedy", "minimax:depth=2", "--games", "2", "--seed", "5", "--no-progress"]
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        status, out, err = cli([*same, "--cluster", cluster.scheduler_address, "--out", str(tmp_path / "dask")])
    assert status == 0, err
    assert "elo" in out.strip().splitlines()[-5]
    status, _, err = cli([*same, "--jobs", "1", "--out", str(tmp_path / "here")])
    assert status == 0, err
    assert _untimed(tmp_path / "dask" / "games.csv") == _untimed(tmp_path / "here" / "games.csv")


def test_an_unreachable_cluster_is_one_line(cli, tmp_path):
    status, _, err = cli(["tournament", "random", "greedy", "--cluster", "tcp://127.0.0.1:1", "--out", str(tmp_path)])
    assert status == 2 and err.startswith("error:") and len(err.strip().splitlines()) == 1
