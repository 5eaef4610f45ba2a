alias entropic-bound-migration-2026-12-rules suA9UhhpO0bvgklGTG/f5WXL4mRTxryvWR+JGNjgKd2pE0y4w8Mjqn2cpaxErBdHGKxMM/IY1Xu8J/HrDKrqBw==
