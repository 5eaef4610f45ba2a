entry entropic-bound-2026-12-07-session 87fvtONL3ND9D2h1TZDfb0qJTnR1tlpJtW4ZzJpHqWxqCa8VCU++h//mVeLzdT/7nfw153TdZsAscoec/t+OAg==
