alias entropic-bound-migration-2026-12-rules xBZ4DMvXioHIl+5hq9MvsGckbVAuaVmwCjWfWZiyIlM6NQ4OVkeqfQ78tN6x6k6UC/i+5ev+Nl13aCVx5IqwDw==
