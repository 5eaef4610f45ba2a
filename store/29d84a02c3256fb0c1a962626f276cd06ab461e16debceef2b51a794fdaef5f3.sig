alias entropic-bound-paper-2026-12 doWAVq8kVBpEBwN7Nv+whU4rqdMiNmtnqxQniJXb/epeTQsOHvwTO3kWrzXuaV++e3xrFs3BubRulnj/+daRCQ==
