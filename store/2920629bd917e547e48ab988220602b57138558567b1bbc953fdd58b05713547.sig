alias entropic-bound-paper-2026-12 r+Dz1TFex9feaxlh2TZUgexg/je6XP+uIWyy2PuqYnpVW7RD+KExeI7Nh5Mbu/toZSmOe+XXKil8BFBgXmtuCw==
