alias entropic-bound-paper-2026-12 4k+4H5XzIpLfdrS96hl579ZjT5GY+xxP5pbX3iY8Nyzz7or3ApLKpg+jqOe6Oj+ylgMBY7zMBg2S4DVHgnPpCA==
