alias entropic-bound-paper-2026-12 mn8zGJnfb9dPUyKBOZuRdIIX0CxEoZ2qBlpmL4AYJvUCKOFF+UzX0buWXP7+bFJG/IU8MnVT8iSmP6ts/XtbCQ==
