alias entropic-bound-migration-2026-12-rules JuAADhE5oslRSBRPox5XZ9tHAtZQXKZ7Ex2dsV2z+lvRBo3HZdV7l0ICIVE191/mBtcI4RU4CAH5OW+RhjF+AQ==
