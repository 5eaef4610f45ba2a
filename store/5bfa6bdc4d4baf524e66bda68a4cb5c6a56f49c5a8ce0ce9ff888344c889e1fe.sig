alias entropic-bound-2026-12-07-session KIURPg4tRIwC9SgyngmX6vxaz4p5fhR7WTv++lY6MA29x0FvNe7/sybPowIriUxdf+WhfIvwL6CfNtIa6TrrCg==
