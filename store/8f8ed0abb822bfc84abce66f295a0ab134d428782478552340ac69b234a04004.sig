alias entropic-bound-migration-2026-12-rules EohSsRGlkl+OiZJ0pDHTz0+JYuwY66z29EQKV/sjPWmFdOc7Csjzx/h3mNkgG/hgOrPEibEC5b2l40JhbwT3BA==
