alias entropic-bound-migration-2026-12-rules Syvk43ram46UFLLto61/asH+wdnf25oWeix+i9w8kr41vTzwirA89h5deopALMRB0ZxU5X1q52mv/sWPlq/1CQ==
