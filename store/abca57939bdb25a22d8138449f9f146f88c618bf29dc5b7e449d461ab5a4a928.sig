alias entropic-bound-paper-2026-12 2LHMotCfyupP1W/ZDH0sNfR4Y/Y7WZhofR2dPsXus4PtVFhhCIf12ShfOtajtz5Ah/smLK+AHQf0IgVlnDRAAQ==
