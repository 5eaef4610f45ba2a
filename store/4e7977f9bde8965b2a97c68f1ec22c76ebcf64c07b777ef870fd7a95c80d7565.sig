alias entropic-bound-migration-2026-12-rules Z0leZV6h3EJkvc9u0CclTJnzOKaF9bDd/YyNzPOyiGjN79DYHoIaIpAvVX9oESac0LBc2buEGA+KEV+KQJm/Ag==
