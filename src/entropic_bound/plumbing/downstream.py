"""The jobs of a run that read a file, found by their records, and rerunning one of them on
other inputs: what the audit's verdict check needs below a recomputed entry.

Every job below a trained cell that turns it into evidence of a claim (the measures of E1-E5,
stored, and E6's, which only assemble what training measured) writes a record
(:mod:`entropic_bound.plumbing.job_record`) under ``results/benchmarks/``, its command line in
``argv``. A reader of a file is a record whose command names that path; its outputs are the
arguments of :data:`OUTPUT_FLAGS`, as every per-cell measure command names them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

OUTPUT_FLAGS = ("--out",)
RECORD_FLAG = "--record"


def readers(paths: Iterable[str], made_by: list[str],
            root: str | Path = "results/benchmarks") -> list[list[str]]:
    """The command lines (``argv``) of the recorded jobs of this run that name one of
    ``paths`` (as the workflow spells them, relative to the checkout) other than as an output,
    besides the command ``made_by`` that made them."""
    wanted = set(paths)
    found = []
    for record in sorted(Path(root).rglob("*.json")):
        try:
            argv = json.loads(record.read_text()).get("argv")
        except (OSError, ValueError, AttributeError):  # a benchmark of another format
            continue
        if not isinstance(argv, list) or argv == made_by:
            continue
        outputs = {argv[i + 1] for i, a in enumerate(argv[:-1]) if a in OUTPUT_FLAGS}
        if wanted & (set(argv) - outputs):
            found.append(argv)
    return found


def rewritten(argv: list[str], substitute: dict[str, str],
              scratch: Path) -> tuple[list[str], dict[str, str]]:
    """The arguments of the recorded command ``argv`` (without its program name) with every
    one that is a key of ``substitute`` replaced by its value, its outputs sent under
    ``scratch`` and no record; and each output's path as the workflow spells it -> its new
    file."""
    args, made = [], {}
    skip = False
    for i, a in enumerate(argv[1:], start=1):
        if skip:
            skip = False
        elif a == RECORD_FLAG:  # the rerun is the audit's, not a job of the run
            skip = True
        elif argv[i - 1] in OUTPUT_FLAGS:
            made[a] = str(scratch / f"{len(made)}_{Path(a).name}")
            args.append(made[a])
        else:
            args.append(substitute.get(a, a))
    return args, made


def rerun(argv: list[str], substitute: dict[str, str], scratch: Path,
          workdir: str | Path = ".", env: dict[str, str] | None = None) -> dict[str, str]:
    """Run the recorded command ``argv`` as :func:`rewritten` rewrites it; returns each
    output's path as the workflow spells it -> the new file. Raises ``RuntimeError`` with the
    command's last line when it fails."""
    scratch.mkdir(parents=True, exist_ok=True)
    args, made = rewritten(argv, substitute, scratch)
    failure = run_command(args, workdir, env)
    if failure:
        raise RuntimeError(f"{' '.join(argv[:2])} failed {failure}")
    return made


def run_command(args: list[str], workdir: str | Path = ".",
                env: dict[str, str] | None = None) -> str | None:
    """Run ``entropic-bound <args>`` in this interpreter; None when it succeeds, else
    ``(exit N): <its last line on stderr>``."""
    proc = subprocess.run([sys.executable, "-m", "entropic_bound.cli", *args], cwd=workdir,
                          capture_output=True, text=True, env=env)
    if not proc.returncode:
        return None
    tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    return f"(exit {proc.returncode}): {tail}"
