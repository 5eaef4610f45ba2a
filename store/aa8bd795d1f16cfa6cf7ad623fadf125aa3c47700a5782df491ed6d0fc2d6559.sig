alias entropic-bound-migration-2026-12-rules 3GVT3SK790/bVSsBOvVXEtT6nXYfgXsWTihS1p/o7/M0IWcd2Ka8NtF1u3AaTSQyEq/ksZtNc+mktcfXNZ7RBA==
