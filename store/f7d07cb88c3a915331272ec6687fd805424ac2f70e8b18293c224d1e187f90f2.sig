entry entropic-bound-2026-12-07-session UzixOsN7M8ng4sZlvZzRs+efJ6kltCEJ9qrx28FidxfDxmAj+0z2Xg244tODuQoIJLvWxBDfgaiwUr3+QzA+AQ==
