# The Entropic Bound for Transformers: reproduction workflow (table of contents only).
import sys
import time
from pathlib import Path

from snakemake.utils import min_version

min_version("9.19.0")


configfile: "config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/grid.smk"
include: "workflow/rules/fixed.smk"
include: "workflow/rules/predict.smk"
include: "workflow/rules/corpora.smk"


# An experiment with rules of its own (docs/contributing.md) keeps them in
# workflow/rules/<name>.smk, included here by its registry entry, before the report's rules,
# which read what it registers (EXPERIMENT_TABLES, EXPERIMENT_FIGURES, EXPERIMENT_EVIDENCE).
for experiment in EXPERIMENTS:
    if Path(workflow.basedir, "workflow/rules", f"{experiment.name}.smk").is_file():

        include: f"workflow/rules/{experiment.name}.smk"


include: "workflow/rules/report.smk"


# when this run began: the store's lines at its end count the jobs it ran (store/summary.py)
RUN_STARTED = time.time()


onstart:
    # One live run per working directory, held by the kernel while this process lives (a killed
    # run leaves nothing behind): `--unlock` beside a live run no longer starts a second one.
    from entropic_bound.plumbing.run_lock import hold
    from entropic_bound.store import start_lines

    hold()
    print(*start_lines(STORE), sep="\n", file=sys.stderr)


onsuccess:
    # Exit now, not one scheduler timespan (60 s) later: entropic_bound.plumbing.timers.
    from entropic_bound.plumbing.timers import cancel_pending_timers
    from entropic_bound.store import end_of_run

    print(*end_of_run(RUN_STARTED), sep="\n", file=sys.stderr)
    cancel_pending_timers()


onerror:
    # A failed run must not leave the previous report posing as the current one.
    from entropic_bound.plumbing.timers import cancel_pending_timers
    from entropic_bound.reporting.report import mark_stale
    from entropic_bound.store import end_of_run

    mark_stale(rules.render_report.output[:2], f"see {log}")
    print(*end_of_run(RUN_STARTED), sep="\n", file=sys.stderr)
    cancel_pending_timers()


# Every table and the claims are targets themselves, not only inputs of the report: Snakemake
# does not rebuild a missing intermediate whose consumers are up to date, so a table lost to a
# killed forced rerun would otherwise stay lost while the report looked current.
ALL = [
    *TABLES,
    *GRID_CELL_TABLES,
    *rules.evaluate_claims.output,
    *rules.render_report.output,
]


# (`snakemake --report` after a partial run: what was built, workflow/rules/report.smk)
rule all:
    default_target: True
    input:
        built(ALL) if REPORT_ONLY else ALL,
