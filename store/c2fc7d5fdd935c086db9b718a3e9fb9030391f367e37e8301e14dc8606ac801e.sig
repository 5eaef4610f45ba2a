entry entropic-bound-paper-2026-12 kKAHaOWH33VowYabQXGRS2F+He+PW1VyJJ/ioUkeflCZxn0VGP25kjLs0w3Q2DZFUDN/LCaa4PPQZpc29vtnAA==
