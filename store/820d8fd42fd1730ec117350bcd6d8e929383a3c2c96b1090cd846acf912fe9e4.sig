alias entropic-bound-migration-2026-12-rules Z4CLBGb8THHJ86g9AtUCmqye2NARZrTNodZKOqqma0fZHMzWis/t1YMRySyhWM/fbXKJ3TbYsl+U1O+Kkv4rDg==
