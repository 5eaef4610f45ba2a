alias entropic-bound-paper-2026-12 wuPFyUTuT6O9+0H/Bvv6avTVKcqMI3QJMonoRQ/xF9W/sMXDf5xJFP5nmIz+hTEymv/FLYbwn4YV+wxdqB85DA==
