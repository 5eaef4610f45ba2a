"""A single-node SLURM cluster on loopback, for tests: munged with a fresh key, slurmctld with
this host as controller, slurmd as its one node; no accounting storage (the executor plugin
reads job states from squeue, so MinJobAge keeps finished jobs visible for an hour).

Everything lives under one folder (config, key, sockets, state, logs); the daemons run as the
current user on non-default ports, so a system munge is not disturbed. One thing must sit at
the system path: snakemake-executor-plugin-slurm-jobstep strips SLURM_CONF from the environment
of the ``srun`` it runs inside each job, so that srun reads /etc/slurm/slurm.conf (as on a real
cluster node). The config is linked there for the cluster's lifetime; where a system SLURM
config already exists the cluster does not start (ClusterUnavailable says so). ``cluster()``
tears the daemons down and removes the link on exit, also when the body raised; a link left by
a test run that was killed (its config gone, or its controller no longer alive) is replaced.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol")
SYSTEM_CONF = Path("/etc/slurm/slurm.conf")
CLUSTER_NAME = "entropic"


class ClusterUnavailable(RuntimeError):
    """The daemons could not be started here (the message says why)."""


def find(binary: str) -> str | None:
    return shutil.which(binary) or next(
        (str(p) for p in (Path("/usr/sbin") / binary, Path("/sbin") / binary) if p.exists()),
        None)


def missing_binaries() -> list[str]:
    return [b for b in DAEMONS if find(b) is None]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def slurm_conf(root: Path, host: str, user: str, cpus: int, memory_mb: int) -> str:
    ctld, slurmd = _free_port(), _free_port()
    return f"""\
ClusterName={CLUSTER_NAME}
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld}
SlurmdPort={slurmd}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/munge
AuthInfo=socket={root}/munge.socket
CredType=cred/munge
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/slurmctld.log
SlurmdLogFile={root}/slurmd.log
SlurmctldDebug=verbose
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MinJobAge=3600
MaxJobCount=100000
SchedulerParameters=sched_min_interval=100000
MpiDefault=none
SlurmdParameters=config_overrides
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={memory_mb} State=UNKNOWN
PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


def _wait(predicate, timeout: float, what: str, logs: list[Path]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    tails = "\n".join(f"--- {p}:\n{p.read_text()[-2000:]}" for p in logs if p.exists())
    raise ClusterUnavailable(f"{what} within {timeout:.0f} s\n{tails}")


@contextmanager
def cluster(root: Path, cpus: int | None = None, memory_mb: int = 16000) -> Iterator[dict]:
    """Start munged, slurmctld and slurmd under ``root``; yield the environment (SLURM_CONF)
    that sbatch/squeue and Snakemake need; stop all three on exit. The node advertises
    ``cpus`` (default: this machine's), more than it has if asked: slurmd takes the config's
    count (``config_overrides``) instead of draining a node that reports fewer."""
    if missing := missing_binaries():
        raise ClusterUnavailable(f"not installed: {', '.join(missing)} (apt-get install "
                                 f"slurm-wlm munge)")
    root.mkdir(parents=True, exist_ok=True)
    for sub in ("state", "spool"):
        (root / sub).mkdir(exist_ok=True)
    host = socket.gethostname().split(".")[0]
    user = subprocess.run(["id", "-un"], capture_output=True, text=True, check=True).stdout
    conf = root / "slurm.conf"
    conf.write_text(slurm_conf(root, host, user.strip(), cpus or os.cpu_count() or 1, memory_mb))
    if _left_by_a_killed_cluster(SYSTEM_CONF):
        SYSTEM_CONF.unlink()
    if SYSTEM_CONF.exists() or SYSTEM_CONF.is_symlink():
        raise ClusterUnavailable(f"{SYSTEM_CONF} exists (a system SLURM): not replacing it")
    try:
        SYSTEM_CONF.parent.mkdir(parents=True, exist_ok=True)
        SYSTEM_CONF.symlink_to(conf)
    except OSError as err:
        raise ClusterUnavailable(f"cannot link {SYSTEM_CONF} (srun inside jobs reads it): "
                                 f"{err}") from err
    key = root / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    env = {**os.environ, "SLURM_CONF": str(conf)}
    started: list[Path] = []
    try:
        subprocess.run([find("munged"), "--force", f"--key-file={key}",
                        f"--socket={root}/munge.socket", f"--pid-file={root}/munged.pid",
                        f"--log-file={root}/munged.log", f"--seed-file={root}/munge.seed"],
                       check=True, capture_output=True, text=True)
        started.append(root / "munged.pid")
        subprocess.run([find("slurmctld"), "-f", str(conf)], check=True, env=env,
                       capture_output=True, text=True)
        started.append(root / "slurmctld.pid")
        subprocess.run([find("slurmd"), "-f", str(conf)], check=True, env=env,
                       capture_output=True, text=True)
        started.append(root / "slurmd.pid")

        def node_idle() -> bool:
            out = subprocess.run([find("sinfo"), "-h", "-o", "%t"], env=env,
                                 capture_output=True, text=True)
            return out.returncode == 0 and out.stdout.strip() == "idle"

        _wait(node_idle, 60, "the node did not come up idle",
              [root / "slurmctld.log", root / "slurmd.log", root / "munged.log"])
        yield env
    except subprocess.CalledProcessError as err:
        raise ClusterUnavailable(f"{err.cmd[0]} failed to start: {err.stderr or err.stdout}") \
            from err
    finally:
        for pid_file in reversed(started):
            _stop(pid_file)
        if SYSTEM_CONF.is_symlink() and SYSTEM_CONF.resolve() == conf.resolve():
            SYSTEM_CONF.unlink()


def _left_by_a_killed_cluster(path: Path) -> bool:
    """Whether ``path`` is a link this module made for a cluster that is gone: a run killed
    before ``cluster()`` could clean up leaves it, and it would stop every later run here.
    A regular file, or a link to another cluster's config, is never touched."""
    if not path.is_symlink():
        return False
    target = path.parent / os.readlink(path)
    if not target.exists():
        return True
    settings = dict(line.split("=", 1) for line in target.read_text(errors="replace").splitlines()
                    if "=" in line)
    if settings.get("ClusterName") != CLUSTER_NAME:
        return False
    pid = _pid(Path(settings.get("SlurmctldPidFile", "")))
    return pid is None or not _alive(pid)


def _pid(pid_file: Path) -> int | None:
    """The process id a daemon wrote to ``pid_file``; None where there is none."""
    try:
        return int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, but another user's
        return True
    return True


def _stop(pid_file: Path, timeout: float = 15) -> None:
    if (pid := _pid(pid_file)) is None:
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return
        time.sleep(0.2)
    os.kill(pid, signal.SIGKILL)


def submitted_jobs(root: Path) -> list[str]:
    """JobIds slurmctld accepted through sbatch (its log line for every batch submission)."""
    log = (root / "slurmctld.log").read_text()
    return [line.split("JobId=")[1].split()[0] for line in log.splitlines()
            if "_slurm_rpc_submit_batch_job" in line and "JobId=" in line]
