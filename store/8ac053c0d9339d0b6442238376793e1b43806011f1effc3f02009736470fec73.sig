alias entropic-bound-migration-2026-12-rules laZYFYRqOcVy4ae/4ki7bMdGFfCzevQT/EkjxmShPLS4nlJ6VSzzIVEf4Fmi+xbhr/a+i3dahHOOA+OcEncmBw==
