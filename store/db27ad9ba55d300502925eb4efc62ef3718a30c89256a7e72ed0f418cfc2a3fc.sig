entry entropic-bound-paper-2026-12 fHx/+oWbUfmT/V6nX47jhVOq8tUvTY8JFVQFyF5U5wmiM6XiC+GXsLf5EEwS/IGBllWZYzQ3Gikh4KCh2qi1Bg==
