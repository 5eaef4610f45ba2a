alias entropic-bound-paper-2026-12 gJNTMECJz05Ou+bjzxiJV41hZxWJ4+uFCFISo31z3yS7lF5Z6bHEZ+XvGVT/gDETpferdi+ZwDImLj3H6W7OAw==
