alias entropic-bound-paper-2026-12 ctK8Lel4XlbSBoVFBhlNVI+rlEZkHPL1oBRRVXqCMB+pDUA69k+4w3LM/4CL2gPPUHzea0P+ILlOB/h7vxCuCQ==
