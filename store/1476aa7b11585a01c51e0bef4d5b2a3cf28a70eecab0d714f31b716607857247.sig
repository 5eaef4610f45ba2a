entry entropic-bound-2026-12-07-session TX00O0SJfoCs1mfybLmF6wtlby/IlsYBmWj+MTZtvwr8QsvpfMYP8WgPKRtnuXpc71OE+Tb+5gIHcRVY8YJgBA==
