alias entropic-bound-2026-12-07-session LRZ8NfPgBk2B8++l3Zp+hxHbZPdUF4xeA7Qopivb9HAP07ZIR7U46Z8rP+NPrVxgp3h17XlrEWiFYUtME/2gBw==
