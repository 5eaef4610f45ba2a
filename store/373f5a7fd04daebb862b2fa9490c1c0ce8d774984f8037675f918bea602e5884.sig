entry entropic-bound-paper-2026-12 gEDZnISJyCmaXQm4wlL7dSryIKttRudZCJboRdMrnhWY+0MSe95bSb+N4wFZ+5JdAcoGAOyGr5CU0y/2xRGWCg==
