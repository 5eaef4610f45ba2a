alias entropic-bound-migration-2026-12-rules SUFa/feAA8d/aYwbmNq8BshIHByNs/CQjfi7fT7r/Ko09D9e3BrL2/ROef6SLCrty6dAPejck/XpuFlbRyCWAQ==
