entry entropic-bound-paper-2026-12 ez6Yxvj+DpsZpTmmussupb48t8lTced8+V/0votOFU63bj+0gBRX3jIXhfqlDXxlZKvY0UKJVPQw6TuqltYGCg==
