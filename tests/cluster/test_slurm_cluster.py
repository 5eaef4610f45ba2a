"""The loopback cluster's harness itself: which link at the system config path it may replace.
A link left by a killed test run must not stop every later run on the machine (it failed a CI
run once); a system SLURM's config, or a live cluster's link, must never be touched."""

from __future__ import annotations

import os

from slurm_cluster import _left_by_a_killed_cluster, slurm_conf


def _link_to_cluster(tmp_path, pid: int | None):
    root = tmp_path / "cluster"
    root.mkdir()
    (root / "slurm.conf").write_text(slurm_conf(root, "host", "user", 2, 1000))
    if pid is not None:
        (root / "slurmctld.pid").write_text(f"{pid}\n")
    link = tmp_path / "etc" / "slurm.conf"
    link.parent.mkdir()
    link.symlink_to(root / "slurm.conf")
    return link, root


def test_a_link_to_a_dead_controller_is_stale(tmp_path):
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)  # a pid that is certainly no longer alive
    link, _ = _link_to_cluster(tmp_path, child)
    assert _left_by_a_killed_cluster(link)


def test_a_link_whose_config_is_gone_is_stale(tmp_path):
    link, root = _link_to_cluster(tmp_path, None)
    (root / "slurm.conf").unlink()
    assert _left_by_a_killed_cluster(link)


def test_a_live_cluster_and_a_system_config_are_kept(tmp_path):
    link, _ = _link_to_cluster(tmp_path, os.getpid())
    assert not _left_by_a_killed_cluster(link)
    system = tmp_path / "system.conf"
    system.write_text("ClusterName=entropic\n")
    assert not _left_by_a_killed_cluster(system)
    other = tmp_path / "other"
    other.mkdir()
    (other / "slurm.conf").write_text("ClusterName=site\n")
    (other / "link.conf").symlink_to(other / "slurm.conf")
    assert not _left_by_a_killed_cluster(other / "link.conf")
