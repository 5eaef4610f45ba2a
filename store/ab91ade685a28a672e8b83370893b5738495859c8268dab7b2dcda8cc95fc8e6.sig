alias entropic-bound-migration-2026-12-rules GmF8wazJVChMfuj15yio7h9DP2QQPO+yetCJyyRRajrUIgYqkgYnFe2IMIs/zsuJMZ/4BxU/zZeK63BIPrjHDA==
