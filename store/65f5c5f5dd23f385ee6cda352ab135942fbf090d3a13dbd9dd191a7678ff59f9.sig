alias entropic-bound-migration-2026-12-rules 23krQ+J9S2HfDzdlyyS6UcR+amzuX+G/0SboQYsLYV3Pcznu4GiSralOEuMeESRA5ZwsYDLF8JkZT1T7p7thCg==
