entry entropic-bound-paper-2026-12 pD2BFL9w34efs933+eJSc92JVTO6gkcLBhHCNa0Ukh8//Mw/voDiMp67I4OxuE8+1V/dsmrrK5bDGXr6lXYTDg==
