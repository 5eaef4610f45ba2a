alias entropic-bound-2026-12-07-session 7bpyDdmi6NB91SBKOz/v81T+eK+dVMwPCWy1K8HAae1SBJoR/scitJM3lOeUIOeJchlsKFR6J7tu4NVTap/BAA==
