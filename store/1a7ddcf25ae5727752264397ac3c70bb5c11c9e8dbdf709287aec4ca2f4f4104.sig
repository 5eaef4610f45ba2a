alias entropic-bound-2026-12-07-session 8V3U0t+tL7YSaChJTBzH/9u8iDqv0l9F69aEHv6DBRt3jSN+LxyCcm4yU4+leEpnu6vCcYipbtvLX6AUXT+iCw==
