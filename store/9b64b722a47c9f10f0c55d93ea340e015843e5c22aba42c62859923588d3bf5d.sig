alias entropic-bound-paper-2026-12 zB9iyeM//twDULOTGxkNTogtRsJilhK5yX6KzZFJ+/uoX3Xud+tr8r85BefrBYENimdYYo2FcGW9Dd7sX4LkAw==
