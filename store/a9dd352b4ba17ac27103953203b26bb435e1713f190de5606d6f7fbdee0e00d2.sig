alias entropic-bound-migration-2026-12-e6 Jp0EkUGYQYi3Ecat4KkRDFlWuP/z7AVsqC4ZZe2+7AOwVFu0fNj2HVmAbo6cNXzSAYdIELwq/D8IIIWxSzI+DA==
