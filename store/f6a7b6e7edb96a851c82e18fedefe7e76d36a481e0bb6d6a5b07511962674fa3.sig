alias entropic-bound-migration-2026-12-rules zroA7p3vThw5qm//C94PbjrRGlVKaGcLosALiNG5zH21anjNnygwG80R2MeeXHfWu7Fz+AEj1RDsnEi/y6kTDg==
