alias entropic-bound-migration-2026-12-rules U5gwghprtLLfh/CAmm7++KvneK0VvJbGKxlw3vs/9KSznS1+yF8mduOMYPWRhCBmu8PljA4lGdp3/G2Xs0gPDQ==
