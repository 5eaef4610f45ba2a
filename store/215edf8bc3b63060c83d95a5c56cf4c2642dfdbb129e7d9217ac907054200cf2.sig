entry entropic-bound-2026-12-07-session lh8koo/oLVhB/FG16vb0yGZZdQOmVngPK/aqnBT32r1lmOA9dcEYDkPH7lRY2RhFSYmAK/rKFIy27ePDmV3PBw==
