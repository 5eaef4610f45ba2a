"""A finished run's prompt exit: cancel the re-selection timers Snakemake's scheduler leaves.

While jobs wait for cores, Snakemake's job scheduler arms a ``threading.Timer`` of one
``max-jobs-per-timespan`` timespan at every re-selection, so that it looks again once the rate
limit allows; the profiles set that timespan to 60 s to keep the scheduler's CPU low (it stats
every input of every waiting job at each re-selection). The timers are not daemon threads, so
the interpreter waits for the last one at exit: a finished run lingered ~60 s after "Complete
log", deaf to Ctrl-C. The Snakefile's ``onsuccess`` and ``onerror``
handlers, which run once the scheduler has stopped, call :func:`cancel_pending_timers`.
``threading.Timer.cancel`` is public API; should Snakemake stop using timers this finds none
and changes nothing. Measured by ``python -m entropic_bound.benchmarks.scheduler``.
"""

from __future__ import annotations

import threading


def cancel_pending_timers() -> int:
    """Cancel every pending ``threading.Timer`` of this process; return how many."""
    pending = [t for t in threading.enumerate()
               if isinstance(t, threading.Timer) and t.is_alive()]
    for timer in pending:
        timer.cancel()
    return len(pending)
