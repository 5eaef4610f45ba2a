alias entropic-bound-migration-2026-12-rules mMnDef+p/B3y++wKsfR7YCUcWCpvw/KKDOlyZXm0GijLc6mkf5q+xqvVwl/kQRptD9jN23qrq4F4DbOYrwC9DA==
