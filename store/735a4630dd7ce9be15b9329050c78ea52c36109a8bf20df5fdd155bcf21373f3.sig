entry entropic-bound-2026-12-07-session fg7oBvpK0MpcM+ZPsVqP783zThiQyFt8G/eBbrTr0EqFqxeCqrF/Kg0zL39BF2HvAyiuoCtrEfTkNb+5fl0JDw==
