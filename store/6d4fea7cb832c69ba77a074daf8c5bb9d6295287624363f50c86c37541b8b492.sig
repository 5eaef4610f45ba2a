entry entropic-bound-paper-2026-12 /r18FtqSMdt8+Lter2zkNF/mBFyPaA3b8Pd7eMm42qf2rU6zhheppnAH0S+Xr1FjaTzp2VRWE01xTDdXEJUHAA==
