alias entropic-bound-migration-2026-12-rules 1Hx/rAvZj/gEyK9Pcs/We1VX8HPkRtU3du1sFAJBqBiJeNaF2fhmpBpsUsvd7fC9IPcT4bzwgIbp+OfD2bQICQ==
