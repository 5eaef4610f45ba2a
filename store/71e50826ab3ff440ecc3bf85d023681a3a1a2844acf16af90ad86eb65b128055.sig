alias entropic-bound-migration-2026-12-rules 5tyqSmTp3Dp/+Mc6wv477sOBnEJ3I0+Aku633hulozG+st6MYYTU0QPa0TYjgkMrWB+GhzW1LlFNAz87Wri3BA==
