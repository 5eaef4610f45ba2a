"""A Snakemake logger plugin (``--logger entropic-bound``): the jobs of a run or dry run, for
the store's plans.

Snakemake hands every logger plugin each planned job's information (``LogEvent.JOB_INFO``: its
rule, outputs and formatted shell command), dry runs included; this one appends, for each job
whose command goes through the store's wrapper, its rule and manifest as one JSON line to the
file named by ``$ENTROPIC_BOUND_STORE_LEDGER`` (nothing without it). ``entropic-bound store
rekeys``, ``unused`` and ``migrate`` run a dry run with it (the plans of
:mod:`entropic_bound.store`).
It writes to no stream and changes nothing of the run.
"""

from __future__ import annotations

import json
import os
from logging import Handler, LogRecord

from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.common import LogEvent

LEDGER_VARIABLE = "ENTROPIC_BOUND_STORE_LEDGER"


class LogHandler(LogHandlerBase):
    """Appends each wrapped job's manifest to the ledger (the module's doc)."""

    def __post_init__(self) -> None:
        # the interface's 1.x base (Snakemake 9.0-9.x's early releases) leaves the logging
        # handler uninitialised; 2.x initialises it before this hook
        if not hasattr(self, "filters"):
            Handler.__init__(self)

    def emit(self, record: LogRecord) -> None:
        ledger = os.environ.get(LEDGER_VARIABLE)
        if not ledger or getattr(record, "event", None) != LogEvent.JOB_INFO:
            return
        from entropic_bound.store import wrapped

        found = wrapped(getattr(record, "shellcmd", None) or "")
        if found is None:
            return
        manifest, argv = found
        with open(ledger, "a") as fh:
            fh.write(json.dumps({"rule": getattr(record, "rule_name", None),
                                 "manifest": manifest, "argv": argv}) + "\n")

    @property
    def writes_to_stream(self) -> bool:
        return False

    @property
    def writes_to_file(self) -> bool:
        return False

    @property
    def has_filter(self) -> bool:
        return False

    @property
    def has_formatter(self) -> bool:
        return False

    @property
    def needs_rulegraph(self) -> bool:
        return False
