alias entropic-bound-migration-2026-12-rules /akyxy+MFUdtl1Lt7tCvFvntNILn9JxWE1Req7MuOsO/79b9cu3FQFa/RxdUEE8qhruLDdkZyid5Q4Dbm8TTCQ==
