alias entropic-bound-2026-12-07-session gmFU77dRH/A7MVCgTsIJcMFt+aOJ0AQ22we0umr6ET/4/NjyTgItK5iCZ9r7d7JwM1Hthz687y7eTSFy4qjzBQ==
