alias entropic-bound-2026-12-07-session AQjPJK/HaMtdwoEVcaEGEZkhQbjw3yY8LTwq+w0Oyd+ng/cICRxlemKyfmXQ63dP/vT0e4H+loYDkdMwLvgTAA==
