alias entropic-bound-migration-2026-12-rules sqEzyUO1S/j+bWUz/PSGuicDy/gsj5JnUnbhMECFPtB7lyOyu13DU5Or6yx55WvGf5AGGgWVKi0ydkg/VXeGDw==
