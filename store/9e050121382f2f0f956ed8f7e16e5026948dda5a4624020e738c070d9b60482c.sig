alias entropic-bound-migration-2026-12-rules SZHdgURCs967hjwv4LnV8FzHl//PV1ZY676raGnSceAub/3iVFNin8w2MU556CPryVosiug9peGZ5zoylGC/DQ==
