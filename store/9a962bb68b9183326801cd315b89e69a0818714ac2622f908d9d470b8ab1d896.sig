alias entropic-bound-migration-2026-12-rules 6OgPLq8AY8MHiw9n9CShZjaTMqcszTdwD8+b5RatzUCcP60TqeArsRKKbDsifpFrGJO/nYqMY2QfAsPU+vS/Aw==
