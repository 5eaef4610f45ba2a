alias entropic-bound-migration-2026-12-rules WRSWVVNdWV3VWI7U9LpZDPFCC4b2mHahUpcJmu/gA107Mz/FSUiBuPVaheY4u9uxdF4b3t8cp6+zWHD/vU5xBw==
