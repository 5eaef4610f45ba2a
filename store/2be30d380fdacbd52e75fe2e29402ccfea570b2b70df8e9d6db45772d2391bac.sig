alias entropic-bound-paper-2026-12 rIRyKr+Li+4GNGlq3bE841/XtFhtEVFjE0Lqmzvn+crFSNdylHBhOYzzYdkCU12ZDXhUqhIFWa0S/CEWtQy1AA==
