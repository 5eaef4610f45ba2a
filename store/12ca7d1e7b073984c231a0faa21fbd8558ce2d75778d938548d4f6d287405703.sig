alias entropic-bound-migration-2026-12-e6 hAVIZPrUjsyQGFq+YBxQsR4rM6+Ye1h5GeRlvv1ewazq7SLynV/7D/TrhWcf8Dn2zHfhUd47mmdP8qeYNyPvAg==
