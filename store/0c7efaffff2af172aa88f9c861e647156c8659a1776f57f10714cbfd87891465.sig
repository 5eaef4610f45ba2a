alias entropic-bound-paper-2026-12 J5pkIxS2R3BxiBgKIn9esRny16qYPmV9D+pm+4Dwv4wZZI+4axzYXIwGZv+18/AYixmBg62dxIYMt5HegXrFBA==
