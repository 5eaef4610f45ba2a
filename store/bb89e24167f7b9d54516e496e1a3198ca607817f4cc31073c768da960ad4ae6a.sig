alias entropic-bound-migration-2026-12-rules yOQU1YKSy7UloRy+ZJojcw8uaGr/q0vx8lnUkxhdDXQEBJI2cuhn7/BmnzG363QnZ9GwvJAdPM+mxMcb5ooMAA==
