alias entropic-bound-migration-2026-12-rules 0kEfGfJk4KSpELdhH+X14xO3WQuazGRVjUP3/zUS2jXoHAV4vzm0vLaP/p8vMbvltQSeknEDTGfQ7xsi1T2/BQ==
