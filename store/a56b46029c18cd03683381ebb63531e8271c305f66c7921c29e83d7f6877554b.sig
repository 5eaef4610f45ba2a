alias entropic-bound-paper-2026-12 PUk/nleQVIXUWYepxmuDtZlALGWqKRXfyEH+hnpEP7/UktWtHkpn23QM3NA6OvM7BaTbksvNnTQs2/hy/iFoBw==
