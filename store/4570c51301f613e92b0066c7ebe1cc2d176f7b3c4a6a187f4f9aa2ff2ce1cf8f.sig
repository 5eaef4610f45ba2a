alias entropic-bound-migration-2026-12-rules 3QeIMKvGxfYPAs/I7jXZc+KDL8vzfKjPE+1tYL0/RagIlgYUSriLgoKgz2eAQO7RynbvnkSXk59joQ1xZkx2Dg==
