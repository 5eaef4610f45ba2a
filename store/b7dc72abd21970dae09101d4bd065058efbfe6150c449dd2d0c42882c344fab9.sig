entry entropic-bound-paper-2026-12 +qDyk/M+XQO7r7uafkOAveoIL5xXLU5RpNPyq79PzBO375wv2JAsk7OPc9WZHUDnb97mPm00FFvHB+LBjbx7Bw==
