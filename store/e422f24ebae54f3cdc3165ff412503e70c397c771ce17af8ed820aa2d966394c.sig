entry entropic-bound-paper-2026-12 3vc48QF1buf9Iu/UHP/xbhGx5qYrjhW/4Q0X1Z+Ouo3zOsg0a4tJzjudqCC6MpERco/PiGIQ62gw9XQJFxPIBQ==
