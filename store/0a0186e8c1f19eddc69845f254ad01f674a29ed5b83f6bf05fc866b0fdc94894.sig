alias entropic-bound-migration-2026-12-rules 65mGFUflmaztQ4RP9P3cMO9vG7jq++Lfsx+WLYJ+lhTdtrMKixB/NKExhDGCuZh7Et/ZnnEyNBhKiHW4r3F0Dg==
