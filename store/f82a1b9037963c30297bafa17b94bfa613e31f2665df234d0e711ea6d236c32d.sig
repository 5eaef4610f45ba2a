alias entropic-bound-migration-2026-12-rules RMQ/3tY862zknSoNJNMRGhrp1WR9cEf2X9GyYOMESvE/3ygyhvX7fDvYENM0G9m2L/J6ySS4+2knhkw1SJH9Cw==
