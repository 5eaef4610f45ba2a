"""The liveness lock: a live run is seen as live (also after `snakemake --unlock`), a dead one
leaves nothing behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from entropic_bound.plumbing import run_lock

HOLD = ("from entropic_bound.plumbing.run_lock import hold; import time; hold(); "
        "print('held', flush=True); time.sleep(60)")


def test_a_live_run_is_seen_and_refused_and_a_dead_one_leaves_nothing(tmp_path):
    assert run_lock.alive(tmp_path) is None
    proc = subprocess.Popen([sys.executable, "-c", HOLD], cwd=tmp_path, stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        assert run_lock.alive(tmp_path) == f"pid {proc.pid}"
        with pytest.raises(SystemExit, match=rf"another run is alive .*\(pid {proc.pid}\)"):
            run_lock.hold(tmp_path)
        with pytest.raises(SystemExit, match=r"a live run holds this directory \(pid"):
            run_lock.refuse_if_running(tmp_path)
    finally:
        proc.kill()
        proc.wait()
    time.sleep(0.1)
    assert run_lock.alive(tmp_path) is None  # killed: the kernel released it
    run_lock.hold(tmp_path)  # and a new run takes it
    try:
        assert run_lock.alive(tmp_path) == f"pid {os.getpid()}"
    finally:
        run_lock._held.pop().close()
