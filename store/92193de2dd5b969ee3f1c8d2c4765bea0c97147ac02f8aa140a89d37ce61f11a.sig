alias entropic-bound-migration-2026-12-rules ob4gEsj/+2PV2zKK44+elNm/WhrRRNvjUaJTRSl1UZkOk5frUHtdVFWk3/Rtpk6+5e0s1sKhzVK61mIpYCKVBg==
