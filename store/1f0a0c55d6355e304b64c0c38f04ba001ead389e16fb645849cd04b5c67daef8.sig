alias entropic-bound-migration-2026-12-rules hNw8rhO6rfp0G+QNsFhYHHGSuLqo/ji2+s+I56i4tkeGnZLuzciYaDdcmXaVTZviUHgrQtEhW5Wp57LCeba1Dg==
