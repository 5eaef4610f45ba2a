alias entropic-bound-migration-2026-12-rules 6/euJcFA+XIGXkIx6nq+fxKe7WKl2ZWCYua1dwzBefSqCscfFZwVSERHAWhN5BxozobcNQtpb/8uei5I9r3lBA==
