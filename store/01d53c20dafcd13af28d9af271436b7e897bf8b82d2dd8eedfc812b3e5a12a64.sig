alias entropic-bound-2026-12-07-session fZVv+CwV/YQTHU3uT8nLQ8YRSxZStX8R+qf4aGc41yM8LjFyonLE/tPJVxbOjVcPcAa53CFW3rZKjPdXOvitCw==
