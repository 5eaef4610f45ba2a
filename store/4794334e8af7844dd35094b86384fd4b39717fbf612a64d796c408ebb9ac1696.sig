alias entropic-bound-migration-2026-12-e6 qPKHReP/w0WHVyJtDF0AR2I5gBbsM5aQmkHz2Q+aWhYYIK7+vHweQ+ClkjDhIK3mkXnJx1rGpyUAjRUFfBcnDQ==
