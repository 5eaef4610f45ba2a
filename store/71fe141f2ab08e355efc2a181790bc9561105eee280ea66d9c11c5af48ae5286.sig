alias entropic-bound-migration-2026-12-rules R3TNAkl6P7jg+e9llK8dXQdft5+1+qoOlktKkMI8iYkk1fiXXVPERXnenEZUyKBYf3ubP9WhvF3CsjFWV0/vDg==
