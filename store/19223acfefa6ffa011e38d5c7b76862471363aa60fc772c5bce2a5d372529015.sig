entry entropic-bound-2026-12-07-session NhxulJcyDQGn5+CHgCZDt7/Y11/PRKB7T4l5os5R9PKbltFmSzeQ2aIacM+mdiLkgYB41wgyLbhQKkWaOrUnAQ==
