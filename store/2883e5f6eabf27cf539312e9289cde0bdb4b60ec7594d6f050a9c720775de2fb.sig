alias entropic-bound-paper-2026-12 EHaUq5eZIqMa2p4sMbJGIsR/pILSgsYOrMO91vyhAClVoW5hrq8MBY3Ap/1Ql9F/toMPB14/r5HBnLdmUsOyDg==
