alias entropic-bound-migration-2026-12-rules HkAVP1YHa+Y+sGW64vdqiHfPQnUCBEoUVy+GL9ht9O8ZJDywl+0LE09D3F6UjZeGL7qt0R5N/hkqiEGCY3C6BA==
