alias entropic-bound-migration-2026-12-e6 loUuW1GryI+ZI6j6bPxhg6qafBFhhoApeZze3+VYpp8/xn6sGz4h81s13jtoMcVPNiFebZvGJhq5u+pQY+IDCw==
