alias entropic-bound-2026-12-07-session kY8PfiUVoMrcoXEOIZG3I26QbeXY+2/Vcg3zcADVTUZdL+XF4Au3+NwIPSdLz9Zbiu2P/M76PHyG/1gcuzwzCQ==
