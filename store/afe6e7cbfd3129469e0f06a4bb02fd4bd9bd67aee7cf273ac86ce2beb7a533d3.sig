alias entropic-bound-paper-2026-12 6VT2SzS2mpKwxBA3xgSUguh7ksfGbcRIbxwsPDzXfv+o90QqyeC/MEiGlgJ/iR2PR59b6//BEbmTUW/A0INRDA==
