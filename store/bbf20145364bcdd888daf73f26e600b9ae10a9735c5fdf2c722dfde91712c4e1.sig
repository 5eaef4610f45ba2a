alias entropic-bound-migration-2026-12-rules EmJmxv6m0vs3e9GyuBCL/gVbr0lhYIUJMRzC0bD/55zYc+o6AWpPit3QB+bh77Rxqy0CLU0APOkZ83fV0Ef3Ag==
