"""The jobs of a run that read a file, found in this run's notes, and rerunning one of them on
other inputs: what the audit's verdict check needs below a recomputed entry.

Every job below a trained cell that turns it into evidence of a claim (the measures of E1-E5,
stored, and E6's, noted) goes through the store's wrapper, which notes the exact command the
workflow gave it, its inputs and its outputs (its notes: :mod:`entropic_bound.store`). A reader of a
file is a noted job with that file among its inputs. Nothing here reads a store record.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from entropic_bound.store import NOTES
from entropic_bound.store import read_notes as notes


def readers(paths: Iterable[str], made_by: list[str],
            root: str | Path = NOTES) -> list[dict[str, Any]]:
    """The notes of this run's jobs that read one of ``paths`` (as the workflow spells them),
    besides the job whose command is ``made_by``."""
    wanted = set(paths)
    return [note for note in notes(root) if note["argv"] != made_by
            and wanted & {p for ps in note["inputs"].values() for p in ps}]


def rewritten(note: dict[str, Any], substitute: dict[str, str],
              scratch: Path) -> tuple[list[str], dict[str, str]]:
    """The arguments of a noted job's command (without its program name) with every one that
    is a key of ``substitute`` replaced by its value and its outputs sent under ``scratch``;
    and each output's path as the workflow spells it -> its new file."""
    made = {path: str(scratch / f"{name}_{Path(path).name}")
            for name, path in sorted(note["outputs"].items())}
    args = [made.get(a, substitute.get(a, a)) for a in note["argv"][1:]]
    return args, made


def rerun(note: dict[str, Any], substitute: dict[str, str], scratch: Path,
          workdir: str | Path = ".", env: dict[str, str] | None = None) -> dict[str, str]:
    """Run a noted job's command as :func:`rewritten` rewrites it; returns each output's path
    as the workflow spells it -> the new file. Raises ``RuntimeError`` with the command's last
    line when it fails."""
    scratch.mkdir(parents=True, exist_ok=True)
    args, made = rewritten(note, substitute, scratch)
    failure = run_command(args, workdir, env)
    if failure:
        raise RuntimeError(f"{' '.join(note['argv'][:2])} failed {failure}")
    return made


def run_command(args: list[str], workdir: str | Path = ".",
                env: dict[str, str] | None = None,
                module: str = "entropic_bound.cli") -> str | None:
    """Run ``entropic-bound <args>`` (or another ``module`` of the package that runs it) in
    this interpreter; None when it succeeds, else ``(exit N): <its last line on stderr>``."""
    proc = subprocess.run([sys.executable, "-m", module, *args], cwd=workdir,
                          capture_output=True, text=True, env=env)
    if not proc.returncode:
        return None
    tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    return f"(exit {proc.returncode}): {tail}"
