# The Entropic Bound for Transformers: reproduction workflow (table of contents only).
from snakemake.utils import min_version

min_version("9.0")


configfile: "config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/grid.smk"
include: "workflow/rules/fixed.smk"
include: "workflow/rules/predict.smk"
include: "workflow/rules/corpora.smk"
include: "workflow/rules/report.smk"


onerror:
    # A failed run must not leave the previous report posing as the current one.
    from entropic_bound.reporting.report import mark_stale

    mark_stale(rules.render_report.output[:2], f"see {log}")


rule all:
    default_target: True
    input:
        rules.render_report.output,
