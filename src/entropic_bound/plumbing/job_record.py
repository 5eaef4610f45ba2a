"""The record a stored job leaves beside its outputs: what ran, what it cost, on what machine,
from which commit.

Snakemake refuses ``benchmark:`` on a rule whose outputs go to the between-workflow store
(``cache: True``), and a job fetched from the store never runs here, so a stored job measures
itself: ``entropic-bound --record PATH <command> ...`` writes this record as one more output
of the job, and it travels with the job's other outputs in the store. Its fields:

* ``s``, ``cpu_time`` (user + system, the process and its children), ``max_rss`` (MB): the
  names and units of Snakemake's benchmark files, so :mod:`entropic_bound.reporting.costs`
  reads both alike. ``s`` runs from the process's start, interpreter start-up included.
* ``argv``: the command line, with which ``entropic-bound audit`` recomputes the entry.
* ``machine``: CPU model, the CPU flags that change kernels (AVX2, AVX-512, native bf16), the
  environment variables that override them (:data:`KERNEL_ENV`: ``ATEN_CPU_CAPABILITY``,
  ``OPENBLAS_CORETYPE``, numpy's), torch's CPU capability where the job loaded torch, torch's
  threads and the BLAS threads (``OPENBLAS_NUM_THREADS``, which Snakemake sets to the rule's
  threads: numpy's products sum in another order with another count, 1e-11 apart).
  ``openblas_core``: the kernel class numpy's OpenBLAS chose on this CPU (``SkylakeX``,
  ``Haswell``, ``Zen``, ...; it decides the rounding of numpy's products, e.g. of the teacher
  arrays).
* ``software``: the versions of torch, numpy and scipy (:data:`VERSIONED`, from the installed
  distributions) and Python, and the builds of their kernels: numpy's and scipy's BLAS
  (name, version), and where the job loaded torch, torch's BLAS and oneDNN (from
  ``torch.__config__.show()``). Records written before this field existed were completed from
  ``requirements.lock`` at the commit they ran, and say so in ``software["source"]``.
* ``commit``: the checkout's HEAD and whether the code the job ran (the package modules it
  loaded) differed from it (``git``; ``null`` outside a checkout).

This module is in no rule's code closure (``store.closure.RECORD_ONLY``): what a record
holds changes no store key.
"""

from __future__ import annotations

import ctypes
import glob
import importlib.metadata
import os
import platform
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from entropic_bound.plumbing.atomic import write_json

# CPU flags (as /proc/cpuinfo spells them: x86's "flags", ARM's "Features") that select
# different kernels in torch and numpy (ARM: NEON, SVE, and native bf16 and int8 products)
KERNEL_FLAGS = ("avx2", "fma", "avx512f", "avx512bw", "avx512_vnni", "avx512_bf16", "amx_bf16",
                "asimd", "sve", "sve2", "bf16", "i8mm")
# environment variables that override those choices (some machines set OPENBLAS_CORETYPE;
# ONEDNN_MAX_CPU_ISA caps the bf16 products of E6's training, MKL_ENABLE_INSTRUCTIONS and
# MKL_CBWR torch's float32 products where its build is MKL's)
KERNEL_ENV = ("ATEN_CPU_CAPABILITY", "OPENBLAS_CORETYPE", "ONEDNN_MAX_CPU_ISA",
              "MKL_ENABLE_INSTRUCTIONS", "MKL_CBWR", "NPY_DISABLE_CPU_FEATURES",
              "NPY_ENABLE_CPU_FEATURES")
# the distributions whose versions every record names (and a run compares with its entries')
VERSIONED = ("torch", "numpy", "scipy")
# what torch.__config__.show() says of the builds of its CPU kernels
TORCH_BUILD = {"blas": r"BLAS_INFO=(\w+)", "mkl": r"Math Kernel Library Version ([\d.]+)",
               "onednn": r"(?:MKL-DNN|oneDNN) v(\S+)"}


def process_start() -> float:
    """The epoch time this process started (its interpreter start-up included)."""
    try:
        import psutil  # a dependency of snakemake

        return psutil.Process().create_time()
    except Exception:  # noqa: BLE001 - without psutil, the record starts at import
        return _IMPORTED


_IMPORTED = time.time()


def cpu_model() -> str:
    for line in _cpuinfo().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def _cpuinfo() -> str:
    try:
        return Path("/proc/cpuinfo").read_text()
    except OSError:
        return ""


def kernel_flags() -> list[str]:
    """The :data:`KERNEL_FLAGS` this CPU has."""
    flags = next((line.split(":", 1)[1].split() for line in _cpuinfo().splitlines()
                  if line.startswith(("flags", "Features"))), [])
    return [f for f in KERNEL_FLAGS if f in flags]


def openblas_core() -> str | None:
    """The kernel class (``openblas_get_corename``) of the OpenBLAS that numpy's wheel bundles,
    as this process runs it (``OPENBLAS_CORETYPE`` overrides the CPU's); None for another
    BLAS."""
    import numpy

    pattern = os.path.join(os.path.dirname(numpy.__file__), os.pardir, "numpy.libs",
                           "*openblas*.so*")
    for path in glob.glob(pattern):
        lib = ctypes.CDLL(path)
        for name in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename",
                     "openblas_get_corename64_", "openblas_get_corename"):
            if hasattr(lib, name):
                getter = getattr(lib, name)
                getter.restype = ctypes.c_char_p
                return getter().decode()
    return None


def versions() -> dict[str, str | None]:
    """The installed version of each of :data:`VERSIONED` (None: not installed)."""
    found = {}
    for name in VERSIONED:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = None
    return found


def public_version(version: str | None) -> str | None:
    """A version without its local label (``2.13.0+cpu`` -> ``2.13.0``): the build label names
    where a wheel came from, not other code."""
    return None if version is None else version.split("+", 1)[0]


def other_versions(record: dict[str, Any], ours: dict[str, str | None]) -> dict[str, str]:
    """The :data:`VERSIONED` distributions whose version in ``record`` differs from ``ours``
    (their public versions), name -> the record's version; a record without software: all."""
    theirs = record.get("software")
    theirs = {k: v for k, v in theirs.items() if isinstance(v, str)} \
        if isinstance(theirs, dict) else {}  # a record is data: another shape reads as none
    return {name: str(theirs.get(name)) for name in VERSIONED
            if public_version(theirs.get(name)) != public_version(ours.get(name))}


def _blas(module_name: str) -> str | None:
    """``name version`` of the BLAS a numpy or scipy build links (its ``show_config``)."""
    try:
        module = __import__(module_name)
        blas = module.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except Exception:  # noqa: BLE001 - an older build without the dict form
        return None
    return f"{blas.get('name')} {blas.get('version')}"


def software() -> dict[str, Any]:
    """Versions of torch, numpy, scipy and Python, and their kernels' builds (torch's only
    where the job loaded torch: importing it here would cost a numpy-only job a second)."""
    torch = sys.modules.get("torch")
    return {**versions(), "python": platform.python_version(),
            "numpy_blas": _blas("numpy"),
            "scipy_blas": _blas("scipy") if "scipy" in sys.modules else None,
            "torch_build": torch_build(torch.__config__.show()) if torch else None}


def torch_build(config: str) -> dict[str, str | None]:
    """torch's BLAS, MKL and oneDNN versions, from the text of ``torch.__config__.show()``."""
    found = {}
    for name, pattern in TORCH_BUILD.items():
        m = re.search(pattern, config)
        found[name] = m.group(1) if m else None
    return found


def machine() -> dict[str, Any]:
    """CPU model, kernel flags, torch's CPU capability and threads (torch only where the job
    loaded it: importing it here would cost a numpy-only job a second)."""
    torch = sys.modules.get("torch")
    return {"cpu_model": cpu_model(), "cpu_flags": kernel_flags(),
            "aten_cpu_capability": torch.backends.cpu.get_cpu_capability() if torch else None,
            "kernel_env": {k: os.environ[k] for k in KERNEL_ENV if k in os.environ},
            "torch_threads": torch.get_num_threads() if torch else None,
            "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
            "openblas_core": openblas_core(),
            "device": ("cuda" if torch and torch.cuda.is_initialized() else "cpu")}


def loaded_sources() -> list[str]:
    """The files of this package's modules that this process has loaded: the code it ran."""
    return sorted({m.__file__ for name, m in list(sys.modules.items())
                   if name.split(".")[0] == __name__.split(".")[0]
                   and getattr(m, "__file__", None)})


def commit(repo: str | os.PathLike[str] = ".") -> dict[str, Any] | None:
    """HEAD of the git checkout at ``repo``, and whether the code this job ran (the package
    modules it loaded) differs from HEAD there: ``dirty`` is about this job's code, not about
    other files of the checkout. None outside a checkout; ``dirty`` None where the package is
    not the checkout's (an installed wheel)."""
    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)

    try:
        head = git("rev-parse", "HEAD")
        if head.returncode:
            return None
        status = git("status", "--porcelain", "--untracked-files=all", "--", *loaded_sources())
    except OSError:
        return None
    dirty = bool(status.stdout.strip()) if status.returncode == 0 else None
    return {"sha": head.stdout.strip(), "dirty": dirty}


def write_job_record(path: str | os.PathLike[str], argv: list[str]) -> dict[str, Any]:
    """Write the record of the job running in this process, once its outputs are written."""
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    record = {
        "s": round(time.time() - process_start(), 4),
        "cpu_time": round(sum(u.ru_utime + u.ru_stime for u in usage), 4),
        "max_rss": round(max(u.ru_maxrss for u in usage) / 1024, 2),  # kB on Linux -> MB
        "argv": list(argv),
        "machine": machine(),
        "software": software(),
        "commit": commit(),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    write_json(path, record)
    return record
