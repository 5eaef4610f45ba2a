alias entropic-bound-2026-12-07-session x/97s5RMjo/J5rXvd85JU8wTffaEEgY+uH+k9PTN2tes/G/W5xlTGed5h4egGGctUhCSuqHWLWZx6Okce1FjCQ==
