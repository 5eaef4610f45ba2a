alias entropic-bound-migration-2026-12-e6 EH9BT4JOyAsRfeyRBEd4Q3aSkiN+nuONE40NbOOouiA+bmoccYfNSQid+US07TbjGXPHy885p4KzAXCZy/OgBQ==
