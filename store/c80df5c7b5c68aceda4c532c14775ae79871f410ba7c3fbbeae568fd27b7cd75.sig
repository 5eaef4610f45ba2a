alias entropic-bound-migration-2026-12-rules XQqx+gmqHHAyiXQtPFeNF6RfrI6Cx9jRFdmoitSIqRoi5CC8keg/LpBWk2TXaGspg/TZxXvMGUOh/vyKbj7iAQ==
