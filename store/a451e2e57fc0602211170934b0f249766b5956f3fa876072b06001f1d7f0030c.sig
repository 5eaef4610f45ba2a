alias entropic-bound-2026-12-07-session +l1OdOdle+fvn6nhlR2M7SwO1OUxhuN92MjTjobzBoNQjSa8uQB+NZORkC8kmYmuL+fF0F3oRfYuAbFJiFbYDw==
