alias entropic-bound-2026-12-07-session ORFAjKbk7Ob8hHgKt6v21YBrt1kYA+9Fk+d80ixkmYA1SZOXXhRRP/qGG+W+mx2JrCnb20AvsPh7cU8VGY9qDw==
